/** How the family of statistical check units is adjusted. */
export type Multiplicity = 'none' | 'holm' | 'bonferroni'

/**
 * Confidence of every interval in a family of m units: 1 − alpha/m under Bonferroni and under Holm (Holm's
 * step-down has no matching interval; its first step is Bonferroni's, so these intervals are valid but
 * conservative), the nominal confidence otherwise.
 */
export function familyConfidence(confidence: number, m: number, method: Multiplicity): number {
  if (method === 'none' || m <= 1) return confidence
  return 1 - (1 - confidence) / m
}

/**
 * Adjusted p-values, in the input order. Bonferroni: min(1, m·p). Holm (1979): sort ascending,
 * p̃_(i) = max_{j ≤ i} min(1, (m − j + 1) · p_(j)); ties keep input order. Equal to
 * statsmodels.stats.multitest.multipletests(p, method='holm'/'bonferroni')[1].
 */
export function adjustPValues(p: readonly number[], method: Multiplicity): number[] {
  const m = p.length
  if (method === 'none') return [...p]
  if (method === 'bonferroni') return p.map((x) => Math.min(1, m * x))
  // A p-value that is not a number stays NaN (its own unit then fails as non_finite) and is ordered last, so it
  // neither poisons the running maximum of the others nor makes the sort order undefined; m stays the whole
  // family, which keeps every other adjustment at least as strict as with a finite p in its place.
  const rank = (x: number): number => (Number.isNaN(x) ? Infinity : x)
  const order = p.map((_, i) => i).sort((a, b) => rank(p[a]) - rank(p[b]) || a - b)
  const out = new Array<number>(m)
  let running = 0
  order.forEach((i, j) => {
    if (Number.isNaN(p[i])) {
      out[i] = Number.NaN
      return
    }
    running = Math.max(running, Math.min(1, (m - j) * p[i]))
    out[i] = running
  })
  return out
}

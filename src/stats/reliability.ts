import { effectiveUnits, stratumEstimates, type StratumMoments, type Summary } from './moments.js'

/**
 * The one reliability rule (docs/statistics.md, "The reliability rule"): when an interval can support a pass, the
 * same for every route (non-inferiority, superiority by interval or by test, levels, budgets, judge drift, seeds,
 * clusters, the warehouse's sums). It reads effective sizes, never raw counts:
 *
 * 1. **Units.** Fewer than two clusters, or a stratum of one unit: no variability can be estimated.
 * 2. **What unseen units could change** (a metric with a known range: declared, or a ranking measure the gate
 *    computes). n units all missing a class of queries happens with probability (1 − p)^n, so at the interval's
 *    one-sided level α/2 a share up to p = 1 − (α/2)^{1/n} of the population may be unlike every unit seen, and
 *    each such unit may lie anywhere in the range. Every interval is therefore at least as wide as the estimate
 *    moved by that share to either end of the range ({@link rangeBound}): with every difference equal it is the
 *    rule of three (±0.0037 at 1,000 queries, ±0.088 at 40 on [0, 1]); it binds where the data are few or tied,
 *    and fades as n grows. Effective n is Kish's (clusters of unequal sizes count as den²/Σ m², target-weighted
 *    strata each by their own units).
 * 3. **No range** (latency, cost): nothing bounds what an unseen unit could change, so (a) an interval whose spread
 *    is below {@link SPREAD_TOLERANCE} of the metric's scale is no evidence (equal values, or values nudged by
 *    rounding), and (b) the units must be enough for the skew seen, Sugden, Smith & Jones's refinement of Cochran's
 *    rule, n ≥ 28 + 25·γ² with γ the skewness of one unit ({@link unitsForSkew}).
 *
 * Every closed-form or resampled interval is also never narrower than Student's t on the same standard error
 * (src/stats/interval.ts). The rule never makes a pass out of anything: it only leaves a unit inconclusive where its
 * interval would have passed, or widens the interval.
 */

/** Why an interval cannot support a pass (a stable code; src/report/interval-words.ts words it). */
export type Unreliable =
  /** Fewer than two clusters. */
  | 'few_clusters'
  /** A stratum (a target-weight value, or the set itself) has a single unit. */
  | 'single_unit_stratum'
  /** No range, and the values' spread is below the scale-relative tolerance: nothing was measured about other queries. */
  | 'no_spread'
  /** No range, and fewer effective units than the skew seen needs (Sugden's rule). */
  | 'few_units'

/** A spread (standard error) at or below this share of the metric's scale is no spread: rounding, or a nudge. */
export const SPREAD_TOLERANCE = 1e-6

/** What the rule reads of one column of a subset. */
export interface SupportInput {
  strata: readonly StratumMoments[]
  summary: Summary
  /** The values' bounds, or undefined without a range: [−R, R] for differences of a metric of range width R. */
  bounds: readonly [number, number] | undefined
  /** True when units are clusters. */
  clusters: boolean
  /** The metric's scale for the spread tolerance (the larger side's mean magnitude; 0 when unknown). */
  scale: number
}

/** Effective units Sugden, Smith and Jones (2000) require of a mean whose units have skewness γ: 28 + 25·γ². */
export function unitsForSkew(unitSkew: number): number {
  return 28 + 25 * unitSkew * unitSkew
}

/** The skewness of one unit, from the estimate's (γ/√n for a plain mean): γ = skew·√(effective units). */
export function unitSkew(summary: Summary): number {
  return summary.skew * Math.sqrt(summary.effective)
}

/** Why this column's interval cannot support a pass, or null when it can. */
export function unreliability(input: SupportInput): Unreliable | null {
  const { strata, summary, bounds, clusters, scale } = input
  const units = strata.reduce((n, s) => n + s.units, 0)
  if (units === 0) return null
  if (clusters && units < 2) return 'few_clusters'
  if (strata.some((s) => s.units < 2 && s.weight > 0)) return 'single_unit_stratum'
  if (bounds !== undefined) return null
  if (!(summary.se > SPREAD_TOLERANCE * scale) || !(summary.df >= 1)) return 'no_spread'
  if (summary.effective < unitsForSkew(unitSkew(summary))) return 'few_units'
  return null
}

/** The share of a stratum of n effective units that may be unlike all of them, at one-sided level (1 − confidence)/2. */
export function unseenShare(effective: number, confidence: number): number {
  if (!(effective > 0)) return 1
  return -Math.expm1(Math.log((1 - confidence) / 2) / effective)
}

/**
 * The interval the range alone supports around the strata's estimates: each stratum's estimate moved by its unseen
 * share toward either end of the bounds, weighted. Every interval of a bounded column contains it.
 */
export function rangeBound(
  strata: readonly StratumMoments[],
  bounds: readonly [number, number],
  confidence: number
): [number, number] {
  const estimates = stratumEstimates(strata)
  let lo = 0
  let hi = 0
  strata.forEach((s, i) => {
    const p = unseenShare(effectiveUnits(s), confidence)
    const e = estimates[i]
    lo += s.weight * (e - p * (e - bounds[0]))
    hi += s.weight * (e + p * (bounds[1] - e))
  })
  return [lo, hi]
}

/**
 * The smallest margin n effective units can support on a metric of range width R, for a candidate that changed
 * nothing (every difference 0): p(n)·R. A non-inferiority margin below it cannot pass on n units by any valid test
 * (init and explain state it; docs/statistics.md tabulates it).
 */
export function smallestMargin(effective: number, range: number, confidence: number): number {
  return unseenShare(effective, confidence) * range
}

/** The effective units at which an unchanged candidate supports `margin` on range width R: p(n)·R ≤ margin. */
export function unitsForMargin(margin: number, range: number, confidence: number): number | null {
  if (!(margin > 0) || !(range > 0) || margin >= range) return null
  return Math.ceil(Math.log((1 - confidence) / 2) / Math.log1p(-margin / range))
}

/**
 * Correlation of two paired columns, for the judge's length-bias diagnostic: does the change of score follow the
 * change of answer length? Spearman's rho (Pearson on mid-ranks, so ties share their average rank, as
 * scipy.stats.spearmanr) is robust to a few very long answers; the least-squares slope says how much score one
 * unit of length buys. Each is null (never NaN) when undefined: fewer than 3 pairs, a constant column, or a non-finite value.
 */

/** Centred sums of squares and cross-products (one fixed summation order), or null with fewer than 3 pairs. */
function moments(x: ArrayLike<number>, y: ArrayLike<number>): { sxx: number; syy: number; sxy: number } | null {
  const n = x.length
  if (n < 3) return null
  let mx = 0
  let my = 0
  for (let i = 0; i < n; i++) {
    mx += x[i]
    my += y[i]
  }
  mx /= n
  my /= n
  let sxy = 0
  let sxx = 0
  let syy = 0
  for (let i = 0; i < n; i++) {
    const dx = x[i] - mx
    const dy = y[i] - my
    sxy += dx * dy
    sxx += dx * dx
    syy += dy * dy
  }
  return { sxx, syy, sxy }
}

/** Pearson's r of x and y, or null when fewer than 3 pairs or either column is constant. */
export function pearson(x: ArrayLike<number>, y: ArrayLike<number>): number | null {
  const m = moments(x, y)
  if (m === null || m.sxx === 0 || m.syy === 0) return null
  const r = m.sxy / Math.sqrt(m.sxx * m.syy)
  // A non-finite input makes the sums NaN; Math.min/max would pass NaN through, so it is caught here.
  return Number.isFinite(r) ? Math.max(-1, Math.min(1, r)) : null
}

/** Mid-ranks (1-based; ties get the mean of the ranks they span). */
export function midRanks(x: ArrayLike<number>): Float64Array {
  const n = x.length
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => x[a] - x[b] || a - b)
  const ranks = new Float64Array(n)
  let i = 0
  while (i < n) {
    let j = i
    while (j + 1 < n && x[order[j + 1]] === x[order[i]]) j++
    const r = (i + j) / 2 + 1
    for (let t = i; t <= j; t++) ranks[order[t]] = r
    i = j + 1
  }
  return ranks
}

/** Spearman's rho (scipy.stats.spearmanr), or null when undefined. */
export function spearman(x: ArrayLike<number>, y: ArrayLike<number>): number | null {
  return pearson(midRanks(x), midRanks(y))
}

/** Least-squares slope of y on x (scipy.stats.linregress(x, y).slope), or null when x is constant or n < 3. */
export function slope(x: ArrayLike<number>, y: ArrayLike<number>): number | null {
  const m = moments(x, y)
  if (m === null || m.sxx === 0) return null
  const b = m.sxy / m.sxx
  return Number.isFinite(b) ? b : null
}

/**
 * Quantile of sorted values by linear interpolation between order statistics (Hyndman & Fan type 7), the
 * definition numpy.percentile and scipy.stats.bootstrap's percentile method use, so our intervals can be
 * compared with theirs.
 */
export function quantileSorted(sorted: ArrayLike<number>, p: number): number {
  return quantileOfRanks(sorted.length, (r) => sorted[r], p)
}

/**
 * The same type 7 quantile of n values given by rank (`at(r)`: the value of rank r, 0-based, ascending): one
 * formula, so a quantile read by selection (src/util/order-statistics.ts) equals the one read from the sorted values.
 */
export function quantileOfRanks(n: number, at: (r: number) => number, p: number): number {
  if (n === 0 || !(p >= 0 && p <= 1)) return Number.NaN
  const h = (n - 1) * p
  const lo = Math.floor(h)
  const hi = Math.min(lo + 1, n - 1)
  const low = at(lo)
  return low + (h - lo) * (at(hi) - low)
}

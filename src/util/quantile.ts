/**
 * Quantile of sorted values by linear interpolation between order statistics (Hyndman & Fan type 7), the
 * definition numpy.percentile and scipy.stats.bootstrap's percentile method use, so our intervals can be
 * compared with theirs.
 */
export function quantileSorted(sorted: ArrayLike<number>, p: number): number {
  const n = sorted.length
  if (n === 0 || !(p >= 0 && p <= 1)) return Number.NaN
  const h = (n - 1) * p
  const lo = Math.floor(h)
  const hi = Math.min(lo + 1, n - 1)
  return sorted[lo] + (h - lo) * (sorted[hi] - sorted[lo])
}

/**
 * Hall's (1992) skewness-corrected t, the transformation src/stats/interval.ts applies to a column's summary.
 *
 * Why: per-query differences of retrieval metrics are often far from symmetric (most queries unchanged, a few
 * lose a lot). The sampling distribution of the studentized mean is then skewed, and a symmetric interval misses
 * the truth on the side of the rare losses more often than its nominal 2.5%: the side a non-inferiority check reads.
 * Hall's transformation removes the skew to second order, as the studentized bootstrap does, in closed form:
 *
 *   g(T) = T + (a/3)·T² + (a²/27)·T³ + a/6,   a = the skew of the estimate (γ̂/√n for a mean),
 *   interval = [θ̂ − se·g⁻¹(t), θ̂ − se·g⁻¹(−t)],   g⁻¹(x) = (3/a)·(∛(1 + a·(x − a/6)) − 1),
 *
 * t = Student's (1 + confidence)/2 quantile with the design's degrees of freedom. g is increasing on the whole
 * line ((1 + aT/3)² ≥ 0), so g⁻¹ is defined everywhere; with a = 0 it is the t interval. The estimated skew can
 * also shorten an end (on the samples short of the rare losses it points the wrong way), so the gate never uses an
 * end narrower than Student's t (src/stats/interval.ts).
 *
 * References: P. Hall, "On the removal of skewness by transformation", JRSS B 54 (1992) 221–228; X.-H. Zhou and
 * S. Gao, "One-sided confidence intervals for means of positively skewed distributions", The American
 * Statistician 54 (2000) 100–104.
 */

/** g⁻¹(x) for skew a: x when a is 0, else (3/a)·(∛(1 + a·(x − a/6)) − 1), with ∛(1 + y) − 1 = expm1(log1p(y)/3) near 0. */
export function inverseHall(x: number, a: number): number {
  if (a === 0) return x
  const y = a * (x - a / 6)
  const root = y > -1 ? Math.expm1(Math.log1p(y) / 3) : Math.cbrt(1 + y) - 1
  return (3 / a) * root
}

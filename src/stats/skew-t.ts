import { denominator, estimate, type Design } from './design.js'
import { linearSe } from './linear.js'
import { tQuantile } from './special.js'

/** A skew-corrected t interval with what it was made of (the report and power figures read se and df). */
export interface SkewT {
  ci: [number, number]
  /** The design's standard error (linearised: sd/√n, cluster-robust, or stratified). */
  se: number
  /** Degrees of freedom: n − 1, clusters − 1, or Satterthwaite's over strata. */
  df: number
  /** Skewness of the estimate, Σe³ / (Σe²)^{3/2} over the units' linearised terms (γ/√n for a plain mean). */
  skew: number
}

/**
 * A standard error at or below this share of the estimate is rounding of equal differences (ten queries each
 * +0.1 sum to 1.0000000000000002), not a spread: such data give no interval.
 */
const NO_SPREAD = 1e-12

/**
 * Hall's (1992) skewness-corrected t interval for the design's estimate, with Student t quantiles.
 *
 * Why: per-query differences of retrieval metrics are often far from symmetric (most queries unchanged, a few
 * lose a lot). The sampling distribution of the studentized mean is then skewed, and a symmetric interval (t, or
 * the percentile bootstrap, which is no better at these sizes) misses the truth on the side of the rare losses far
 * more often than its nominal 2.5%: the side a non-inferiority check reads. Hall's transformation removes the skew
 * to second order, as the studentized bootstrap does, but in closed form (O(units), no resampling):
 *
 *   g(T) = T + (a/3)·T² + (a²/27)·T³ + a/6,   a = the skew of the estimate (γ̂/√n for a mean),
 *   interval = [θ̂ − se·g⁻¹(t), θ̂ − se·g⁻¹(−t)],   g⁻¹(x) = (3/a)·(∛(1 + a·(x − a/6)) − 1),
 *
 * t = Student's (1 + confidence)/2 quantile with the design's degrees of freedom. g is increasing on the whole
 * line ((1 + aT/3)² ≥ 0), so g⁻¹ is defined everywhere; with a = 0 it is the t interval. The same linearised terms
 * as the cluster-robust standard error (src/stats/linear.ts) give the skew, so clusters (units = clusters, df =
 * clusters − 1) and target-weight strata (Satterthwaite df) are handled alike.
 *
 * Null when there is no spread (se = 0) or no degree of freedom: no interval can be read from such data.
 * References: P. Hall, "On the removal of skewness by transformation", JRSS B 54 (1992) 221–228; X.-H. Zhou and
 * S. Gao, "One-sided confidence intervals for means of positively skewed distributions", The American
 * Statistician 54 (2000) 100–104 (Hall's interval and the bootstrap-t are the two that hold their one-sided level).
 */
export function skewTInterval(design: Design, c: number, confidence: number): SkewT | null {
  const { se } = linearSe(design, c)
  const { df, skew } = moments(design, c)
  return hallInterval(estimate(design, c), { se, df, skew }, confidence)
}

/** One stratum of differences as a warehouse's aggregates give it: its units, its weight and centred moments. */
export interface StratumMoments {
  size: number
  weight: number
  /** Σ (d − mean)² and Σ (d − mean)³ over the stratum's units. */
  m2: number
  m3: number
}

/**
 * The same interval from per-stratum moments instead of the rows (gate --aggregates, src/stats/aggregate-engine.ts):
 * with f_s = weight_s / size_s the linearised terms' sums are Σe² = f_s²·m2_s and Σe³ = f_s³·m3_s, so the standard
 * error, the skew and Satterthwaite's degrees of freedom are those {@link skewTInterval} computes from the units.
 */
export function skewTFromMoments(est: number, strata: readonly StratumMoments[], confidence: number): SkewT | null {
  let second = 0
  let third = 0
  let total = 0
  let perDf = 0
  for (const s of strata) {
    if (s.size < 2) continue
    const f = s.weight / s.size
    const ss = f * f * s.m2
    second += ss
    third += f * f * f * s.m3
    const v = (s.size / (s.size - 1)) * ss
    total += v
    perDf += (v * v) / (s.size - 1)
  }
  const skew = second > 0 ? third / Math.pow(second, 1.5) : Number.NaN
  return hallInterval(est, { se: Math.sqrt(total), df: perDf > 0 ? (total * total) / perDf : 0, skew }, confidence)
}

/** Hall's interval from the estimate, its standard error, degrees of freedom and skew; null without spread or df. */
function hallInterval(est: number, m: { se: number; df: number; skew: number }, confidence: number): SkewT | null {
  const { se, df, skew } = m
  if (!(se > NO_SPREAD * Math.abs(est)) || !(df >= 1) || !Number.isFinite(est) || !Number.isFinite(skew)) return null
  const t = tQuantile(1 - (1 - confidence) / 2, df)
  return { ci: [est - se * inverseHall(t, skew), est - se * inverseHall(-t, skew)], se, df, skew }
}

/** g⁻¹(x) for skew a: x when a is 0, else (3/a)·(∛(1 + a·(x − a/6)) − 1), with ∛(1 + y) − 1 = expm1(log1p(y)/3) near 0. */
export function inverseHall(x: number, a: number): number {
  if (a === 0) return x
  const y = a * (x - a / 6)
  const root = y > -1 ? Math.expm1(Math.log1p(y) / 3) : Math.cbrt(1 + y) - 1
  return (3 / a) * root
}

/**
 * The skew of the estimate and Satterthwaite's degrees of freedom over strata, from the units' linearised terms
 * e_u = w_s·(value_u − est_s·count_u)/den_s: skew = Σe³ / (Σe²)^{3/2}; with V_s = n_s/(n_s − 1)·Σ_{u∈s} e², df =
 * (Σ V_s)² / Σ V_s²/(n_s − 1) — n − 1 (or clusters − 1) with one stratum. A stratum of one unit adds nothing to
 * either (its variance cannot be estimated; the comparison is then marked unreliable, src/stats/interval-choice.ts).
 */
function moments(design: Design, c: number): { df: number; skew: number } {
  const { k, values, counts } = design
  let second = 0
  let third = 0
  let total = 0
  let perDf = 0
  for (const s of design.strata) {
    if (s.size < 2) continue
    const den = denominator(design, s)
    let sum = 0
    for (let u = s.start; u < s.start + s.size; u++) sum += values[u * k + c]
    const est = sum / den
    let ss = 0
    for (let u = s.start; u < s.start + s.size; u++) {
      const e = (s.weight * (values[u * k + c] - est * (counts ? counts[u] : 1))) / den
      ss += e * e
      third += e * e * e
    }
    second += ss
    const v = (s.size / (s.size - 1)) * ss
    total += v
    perDf += (v * v) / (s.size - 1)
  }
  const skew = second > 0 ? third / Math.pow(second, 1.5) : Number.NaN
  return { df: perDf > 0 ? (total * total) / perDf : 0, skew }
}

import { denominator, estimate, type Design } from './design.js'
import { tQuantile, tTwoSided } from './special.js'

/** The normal-theory view of an estimate: its standard error and degrees of freedom under the design. */
export interface LinearSe {
  se: number
  df: number
}

/**
 * Standard error of a design's estimate by linearisation (the sandwich / cluster-robust variance):
 * with e_u = weight_s · (value_u − est_s · count_u) / denominator_s for each unit,
 * Var = Σ_s n_s / (n_s − 1) · Σ_{u in s} e_u², df = units − strata. For the plain mean this is sd / √n with
 * n − 1 degrees of freedom, exactly the paired t test; with clusters it is the cluster-robust standard error
 * (the design effect of the clusters included), with strata the stratified one. A stratum of one unit adds
 * nothing (its variance cannot be estimated; the design notes say so).
 */
export function linearSe(design: Design, c: number): LinearSe {
  const { k, values, counts } = design
  let variance = 0
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
    }
    variance += (s.size / (s.size - 1)) * ss
  }
  return { se: Math.sqrt(variance), df: design.units - design.strata.length }
}

/** Paired t interval and two-sided p-value (H0: no difference), the cross-check of the bootstrap. */
export interface TResult {
  ci: [number, number]
  pValue: number
  df: number
  se: number
}

/**
 * Student t interval estimate ± t(df, 1 − alpha/2) · se and the two-sided p of estimate / se, as
 * scipy.stats.ttest_rel and scipy.stats.t.interval give for the plain paired case. Null when there is no
 * spread (se = 0) or no degrees of freedom: a t statistic would be undefined.
 */
export function tInterval(design: Design, c: number, confidence: number): TResult | null {
  const { se, df } = linearSe(design, c)
  const est = estimate(design, c)
  if (!(se > 0) || !(df >= 1) || !Number.isFinite(est)) return null
  const q = tQuantile(1 - (1 - confidence) / 2, df)
  return { ci: [est - q * se, est + q * se], pValue: tTwoSided(est / se, df), df, se }
}

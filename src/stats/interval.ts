import { summarise, type StratumMoments, type Summary } from './moments.js'
import { rangeBound } from './reliability.js'
import { pairedScoreInterval } from './score-interval.js'
import { inverseHall } from './skew-t.js'
import { betaQuantile, tQuantile, tTwoSided } from './special.js'

/**
 * The intervals of the decision core, each from a column's sufficient statistics (src/stats/moments.ts) by the law the
 * rules and the exam fixed (src/stats/law.ts), then widened by the one rule every route shares: never narrower than
 * Student's t on the same standard error, and, for a bounded column, never narrower than what the range supports
 * (src/stats/reliability.ts, rangeBound). Rows and a warehouse's sums reach the same numbers through the same code.
 */

/** Every interval method a comparison or a level can carry. */
export type IntervalMethod =
  /** Tango's score interval for paired proportions (src/stats/score-interval.ts): binary metrics, independent queries. */
  | 'score'
  /** Clopper–Pearson's exact interval of a proportion: a binary metric's level on independent queries. */
  | 'exact'
  /** Hall's skew-corrected t (src/stats/skew-t.ts): every other column and design. */
  | 'skew-t'
  /** t over seeds and queries with Satterthwaite's degrees of freedom (src/capabilities/seeds/interval.ts): declared seed replicates. */
  | 'seeds-t'
  /** Percentile bootstrap (statistics.interval: percentile). */
  | 'percentile'
  /** Bias-corrected and accelerated bootstrap (statistics.interval: bca). */
  | 'bca'

/** Which of the shared bounds made an end wider than the law's own: the range's, Student's t's, or neither. */
export type Widened = 'range' | 'student' | null

/** An interval as the decision reads it. */
export interface CoreInterval {
  ci: [number, number]
  /** The law's own interval (Student's t included), before the range's bound: what the data alone showed. */
  own: [number, number]
  method: IntervalMethod
  /** Degrees of freedom of its t quantile, or null (score, exact, bootstrap without spread). */
  df: number | null
  widened: Widened
  note: string | null
}

/** The hull of two intervals (the outer ends). */
export function hull(a: readonly [number, number], b: readonly [number, number]): [number, number] {
  return [Math.min(a[0], b[0]), Math.max(a[1], b[1])]
}

/**
 * Student's t interval on the summary's standard error, or the point without spread or degrees of freedom. A spread
 * that overflowed (a standard error or degrees of freedom that are not numbers) is no point: the interval is NaN, so
 * the unit fails as non_finite instead of reading as "no spread".
 */
export function studentInterval(s: Summary, confidence: number): [number, number] {
  if (!Number.isFinite(s.se) || Number.isNaN(s.df)) return [Number.NaN, Number.NaN]
  if (!(s.se > 0) || !(s.df >= 1) || !Number.isFinite(s.estimate)) return [s.estimate, s.estimate]
  const t = tQuantile(1 - (1 - confidence) / 2, s.df)
  return [s.estimate - t * s.se, s.estimate + t * s.se]
}

/** Paired t interval and two-sided p-value (H0: no difference), the cross-check of a comparison's own interval. */
export interface TResult {
  ci: [number, number]
  pValue: number
  df: number
  se: number
}

/**
 * The paired t cross-check from the summary: Student's interval and the two-sided p of estimate / se, as
 * scipy.stats.ttest_rel and scipy.stats.t.interval give for the plain paired case (cluster-robust or stratified when
 * the design is). Null without spread (se 0) or degrees of freedom: a t statistic would be undefined.
 */
export function tTest(s: Summary, confidence: number): TResult | null {
  if (!(s.se > 0) || !(s.df >= 1) || !Number.isFinite(s.estimate)) return null
  return { ci: studentInterval(s, confidence), pValue: tTwoSided(s.estimate / s.se, s.df), df: s.df, se: s.se }
}

/**
 * Hall's (1992) skew-corrected t interval from the summary (src/stats/skew-t.ts has the transformation and why), or
 * Student's when there is no spread or no skew to correct. Widened to Student's on both ends: the skewness is itself
 * estimated, and on the samples that pass it is the one short of the rare losses, where the correction would narrow
 * the deciding end (issue 32: 0.05–0.07 false passes at 45–400 queries on point-mass metrics, where t holds).
 */
function skewT(s: Summary, confidence: number): { ci: [number, number]; widened: Widened } {
  const t = studentInterval(s, confidence)
  if (!(s.se > 0) || !(s.df >= 1) || !Number.isFinite(s.skew) || s.skew === 0) return { ci: t, widened: null }
  const q = tQuantile(1 - (1 - confidence) / 2, s.df)
  const hall: [number, number] = [
    s.estimate - s.se * inverseHall(q, s.skew),
    s.estimate - s.se * inverseHall(-q, s.skew)
  ]
  const ci = hull(hall, t)
  return { ci, widened: ci[0] !== hall[0] || ci[1] !== hall[1] ? 'student' : null }
}

/** Clopper–Pearson's interval of k successes in n: the Beta(α/2; k, n − k + 1) and Beta(1 − α/2; k + 1, n − k) quantiles. */
export function exactProportion(k: number, n: number, confidence: number): [number, number] {
  if (!(n > 0) || !(k >= 0 && k <= n)) return [Number.NaN, Number.NaN]
  const a = (1 - confidence) / 2
  return [k === 0 ? 0 : betaQuantile(a, k, n - k + 1), k === n ? 1 : betaQuantile(1 - a, k + 1, n - k)]
}

/** What a closed-form law reads: the column's strata, and for the binary laws their counts. */
export interface ClosedFormInput {
  law: 'score' | 'exact' | 'skew-t'
  strata: readonly StratumMoments[]
  /** score: queries newly right / newly wrong; exact: successes; of `n` independent queries. */
  counts?: { gained: number; lost: number; successes: number; n: number }
  /** The column's bounds (see SupportInput.bounds), or undefined without a range. */
  bounds: readonly [number, number] | undefined
  confidence: number
  /** The metric's better direction (the range's bound widens the worse end). */
  better: 'higher' | 'lower'
}

/** A column's interval by a closed-form law, widened by the shared bounds. */
export function closedFormInterval(input: ClosedFormInput): CoreInterval & { summary: Summary } {
  const { law, strata, bounds, confidence, better } = input
  const summary = summarise(strata)
  const counts = input.counts ?? { gained: 0, lost: 0, successes: 0, n: 0 }
  if (law === 'exact') {
    const ci = exactProportion(counts.successes, counts.n, confidence)
    return { ci, own: ci, method: law, df: null, widened: null, note: null, summary }
  }
  let ci: [number, number]
  let widened: Widened = null
  let df: number | null = null
  if (law === 'score') ci = pairedScoreInterval(counts.gained, counts.lost, counts.n, confidence)
  else {
    const t = skewT(summary, confidence)
    ci = t.ci
    widened = t.widened
    df = summary.se > 0 && summary.df >= 1 ? summary.df : null
  }
  return { ...widen({ ci, widened }, { strata, bounds, confidence, better }), method: law, df, note: null, summary }
}

/** The shared bounds of a column, for an interval a law produced elsewhere (bootstrap, seeds). */
export interface WidenInput {
  strata: readonly StratumMoments[]
  bounds: readonly [number, number] | undefined
  confidence: number
  /** Also at least Student's t on the strata's standard error (the resampled and seed intervals). */
  student?: boolean
  /**
   * The metric's better direction: the range's bound widens the worse end only (what unseen units could lose is
   * what a pass must rule out; a shown loss rests on the data seen).
   */
  better: 'higher' | 'lower'
}

/** Widens an interval to Student's t (when asked) and its worse end to the range's bound (a bounded column). */
export function widen(
  interval: { ci: [number, number]; widened: Widened },
  input: WidenInput
): { ci: [number, number]; own: [number, number]; widened: Widened } {
  let { ci, widened } = interval
  if (input.student === true) {
    const t = hull(ci, studentInterval(summarise(input.strata), input.confidence))
    if (t[0] !== ci[0] || t[1] !== ci[1]) widened = 'student'
    ci = t
  }
  const own = ci
  if (input.bounds !== undefined && input.strata.length > 0 && ci.every(Number.isFinite)) {
    const bound = rangeBound(input.strata, input.bounds, input.confidence)
    const r: [number, number] =
      input.better === 'higher' ? [Math.min(ci[0], bound[0]), ci[1]] : [ci[0], Math.max(ci[1], bound[1])]
    if (r[0] !== ci[0] || r[1] !== ci[1]) widened = 'range'
    ci = r
  }
  return { ci, own, widened }
}

import type { Design } from './design.js'

/**
 * Which interval a comparison gets, fixed in advance by the rules, the metric's type and the design (never by
 * the data's values), and when an interval is no evidence. The calibration behind every threshold here is in
 * docs/statistics.md ("Which interval, and why"; `npm run calibrate`).
 */

/** Every interval method a comparison can carry. */
export type IntervalMethod =
  /** Percentile bootstrap (statistics.interval: percentile). */
  | 'percentile'
  /** Bias-corrected and accelerated bootstrap (statistics.interval: bca). */
  | 'bca'
  /** Tango's score interval for paired proportions (src/stats/score-interval.ts): binary metrics, independent queries. */
  | 'score'
  /** Hall's skew-corrected t (src/stats/skew-t.ts): every other metric and design. */
  | 'skew-t'
  /** t over seeds and queries with Satterthwaite's degrees of freedom (src/stats/seed-interval.ts): seed replicates. */
  | 'seeds-t'
  /** Every difference the same: the share of unseen queries that could differ, times the range (src/stats/tied-bound.ts). */
  | 'tied-bound'

/** Why a comparison's interval cannot support a pass (a stable code; the report words it). */
export type Unreliable =
  /** The interval has no width: the differences do not vary, so nothing was measured about other queries. */
  | 'no_spread'
  /** Fewer than {@link MIN_QUERIES_SKEW} independent queries for a metric that is not binary. */
  | 'few_queries'
  /** Fewer than two clusters, or (skew-corrected t) fewer than {@link MIN_CLUSTERS}. */
  | 'few_clusters'
  /** A stratum (a target-weight value, or the set itself) has a single unit: its variability cannot be estimated. */
  | 'single_unit_stratum'

/**
 * Fewest independent queries for a non-binary metric's interval to support a pass. Measured: with 70% of the
 * differences zero and losses in 10% of the queries, no interval can hold a 0.035 false-pass rate at 30 queries
 * (the sample lacks every loss with probability 0.9^30 = 0.042, and then looks like a gain); at 40 the
 * skew-corrected t gives 0.014 (percentile bootstrap 0.095, studentized bootstrap 0.029; at 30 it gives 0.048).
 */
export const MIN_QUERIES_SKEW = 40

/**
 * Fewest clusters for a clustered interval to support a pass. Measured: with the effect in 20% of the clusters,
 * 10 clusters lack it entirely with probability 0.8^10 = 0.107, beyond any method (all pass 0.13–0.14); with 20
 * clusters the skew-corrected t holds 0.022 (cluster-robust t with clusters − 1 df: 0.076, wild cluster bootstrap:
 * 0.076).
 */
export const MIN_CLUSTERS = 20

/**
 * The method of a comparison. `auto` (the default): Tango's score interval for a binary metric on independent,
 * equally weighted queries; Hall's skew-corrected t otherwise (continuous metrics, clusters, target weights).
 * `percentile` and `bca` are the bootstrap as the rules ask, everywhere.
 */
export function chooseInterval(
  setting: 'auto' | 'percentile' | 'bca',
  binary: boolean,
  independent: boolean
): 'percentile' | 'bca' | 'score' | 'skew-t' {
  if (setting !== 'auto') return setting
  return binary && independent ? 'score' : 'skew-t'
}

/** What {@link unreliableInterval} reads of a design: its units, clusters and strata sizes (rows or aggregates alike). */
export interface DesignShape {
  units: Design['units']
  clusters: Design['clusters']
  strata: ReadonlyArray<{ size: number }>
}

/**
 * Why this interval is no evidence for a pass, or null when it is. Every method: an interval without width,
 * fewer than two clusters, or a stratum of one unit. The skew-corrected t also needs
 * {@link MIN_QUERIES_SKEW} queries (independent) or {@link MIN_CLUSTERS} clusters, below which its level is
 * not assured on the designs that measured it. A non-finite interval is not judged here (decide fails it).
 */
export function unreliableInterval(
  method: IntervalMethod,
  design: DesignShape,
  ci: readonly [number, number]
): Unreliable | null {
  if (design.units === 0) return null
  if (design.clusters !== null && design.clusters < 2) return 'few_clusters'
  if (design.strata.some((s) => s.size < 2)) return 'single_unit_stratum'
  if (Number.isFinite(ci[0]) && Number.isFinite(ci[1]) && !(ci[1] > ci[0])) return 'no_spread'
  if (method === 'skew-t') {
    if (design.clusters !== null) return design.clusters < MIN_CLUSTERS ? 'few_clusters' : null
    if (design.units < MIN_QUERIES_SKEW) return 'few_queries'
  }
  return null
}

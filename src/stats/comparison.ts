import type { MetricRule, StatisticsRules } from '../config/types.js'
import type { Interval } from './bca.js'
import { closedFormInterval, tTest, widen, type IntervalMethod, type TResult, type Widened } from './interval.js'
import { differenceBounds, differenceLaw, independent, levelLaw, metricBounds } from './law.js'
import { mcnemarExact } from './mcnemar.js'
import { summarise, type StratumMoments } from './moments.js'
import { SPREAD_TOLERANCE, unreliability, type Unreliable } from './reliability.js'
import type { ColumnLaw } from './resampling.js'

/**
 * The one place a comparison and a level are made (docs/statistics.md, "One decision core"): from a subset's
 * sufficient statistics, by the law the rules fixed, widened by the shared bounds, judged by the one reliability
 * rule. The rows' engine (src/stats/compare.ts) and the warehouse's (src/stats/aggregate-engine.ts) only gather
 * those statistics (and, when the rules ask for a bootstrap, its resamples and the sign-flip test's draws); every
 * number a check is decided on is computed here.
 */

/** Observed against target mix of a weighted comparison (statistics.weights). */
export interface Mix {
  by: string
  /** Per stratum value (sorted): queries, observed share, target share in force (renormalised if some are absent). */
  strata: Array<{ value: string; queries: number; observed: number; target: number }>
  /** The same comparison with the observed mix (each stratum weighted by its share of the queries). */
  observed: { baseline: number; candidate: number; delta: number }
}

/** The randomization test result of one column. */
export interface Randomization1 {
  pValue: number
  permutations: number
  exact: boolean
}

/** One metric on one set of queries, baseline against candidate: the evidence every check and table row uses. */
export interface Comparison {
  metric: string
  /** Attribute filters defining the queries compared ([] = all). */
  slice: Array<[string, string]>
  n: number
  baseline: number
  candidate: number
  /** Mean of the per-query differences candidate - baseline (the design's estimate: target-weighted, cluster-weighted when the rules say). */
  delta: number
  /** delta / |baseline|, or null when the baseline mean is 0. */
  relativeDelta: number | null
  /** Interval of delta at `confidence` (two-sided), by `interval`, widened by the shared bounds (`widened`). */
  ci: [number, number]
  /** The law's own interval (never narrower than Student's t), before the range's bound: what the data alone showed. */
  ownCi: [number, number]
  confidence: number
  /** Exact McNemar p-value for binary metrics, null otherwise. */
  pValue: number | null
  test: 'mcnemar' | null
  /** Binary metrics: queries the candidate newly got right / newly got wrong. */
  gained: number | null
  lost: number | null
  /** Queries where the candidate is better / worse / equal, in the metric's direction. */
  wins: number
  losses: number
  ties: number
  /** The law of the interval (src/stats/law.ts); BCa falls back to percentile where undefined, with `intervalNote`. */
  interval: IntervalMethod
  /** Which shared bound made an end wider than the law's own: the range's, Student's t's (src/stats/interval.ts). */
  widened: Widened
  intervalNote: string | null
  /** Why this interval cannot support a pass (decide makes such a unit inconclusive), or null (src/stats/reliability.ts). */
  unreliable: Unreliable | null
  /** How the bootstrap drew the resamples (statistics.method); null when no bootstrap was drawn (closed-form intervals). */
  resampling: ColumnLaw | null
  /** Paired randomization (sign-flip) test of "no difference". */
  randomization: Randomization1
  /** Paired t interval and p (cluster-robust / stratified when the design is), the cross-check. */
  tTest: TResult | null
  /** Standard error of delta under the design (linearised), for power. */
  se: number
  /** Degrees of freedom of that standard error (n − 1, clusters − 1, Satterthwaite's), for power. */
  df: number
  /** Skewness of one unit's difference (γ), what the size rule without a range reads. */
  unitSkew: number
  /** Effective units (Kish: clusters of unequal sizes, weighted strata), what the range's bound reads. */
  effective: number
  /** Clusters resampled, or null when queries are resampled one by one. */
  clusters: number | null
  mix: Mix | null
  /** Facts about the statistics of this comparison a reader must know. */
  notes: string[]
}

/** The candidate's mean on a set of queries and its interval (a level check, at_least / at_most). */
export interface LevelInterval {
  mean: number
  ci: [number, number]
  /** Its law's own interval, before the range's bound. */
  ownCi: [number, number]
  confidence: number
  method: 'exact' | 'skew-t'
  /** Degrees of freedom of its t quantile, or null (exact, or no spread). */
  df: number | null
  widened: Widened
  unreliable: Unreliable | null
}

/** A subset's facts every metric shares: its queries, clusters and strata, and the design's notes. */
export interface SubsetFacts {
  n: number
  clusters: number | null
  /** Per stratum (in the design's order): its value of statistics.weights.by (null without weights), queries, shares. */
  strata: ReadonlyArray<{ value: string | null; queries: number; observedShare: number; weight: number }>
  notes: readonly string[]
}

/** One metric's sufficient statistics in a subset, gathered by an engine. */
export interface ColumnEvidence {
  /** The strata of the differences (candidate − baseline) and of each side's values (the baseline's sums only are read). */
  difference: readonly StratumMoments[]
  baseline: readonly StratumMoments[]
  candidate: readonly StratumMoments[]
  /** W/L/T in the metric's direction and, binary, the discordant pairs. */
  counts: { wins: number; losses: number; gained: number; lost: number }
  /** The bootstrap's interval at the confidence asked, when the rules chose a bootstrap law. */
  resampled: { interval: Interval; law: ColumnLaw } | null
  randomization: Randomization1
}

/** What the comparison is of: the metric, the subset's filters, the confidence, the rules' statistics. */
export interface ComparisonOf {
  metric: MetricRule
  slice: ReadonlyArray<readonly [string, string]>
  confidence: number
  statistics: StatisticsRules
}

/** The comparison of one metric in one subset (see the module comment). */
export function compareFrom(of: ComparisonOf, facts: SubsetFacts, evidence: ColumnEvidence): Comparison {
  const { metric, confidence, statistics } = of
  const law = differenceLaw(statistics, metric)
  const bounds = differenceBounds(metric)
  const { counts } = evidence
  const n = facts.n
  const binaryCounts = { gained: counts.gained, lost: counts.lost, successes: 0, n }
  const closed =
    law === 'score' || law === 'skew-t'
      ? closedFormInterval({
          law,
          strata: evidence.difference,
          counts: binaryCounts,
          bounds,
          confidence,
          better: metric.better
        })
      : null
  const summary = closed?.summary ?? summarise(evidence.difference)
  const level = summarise(evidence.candidate)
  const baseline = summarise(evidence.baseline).estimate
  let ci: [number, number]
  let own: [number, number]
  let widened: Widened
  let method: IntervalMethod
  let note: string | null = null
  let df = summary.df
  if (closed !== null) {
    ci = closed.ci
    own = closed.own
    widened = closed.widened
    method = closed.method
    if (closed.df !== null) df = closed.df
  } else if (evidence.resampled !== null) {
    const r = evidence.resampled.interval
    method = r.method
    note = r.note
    ;({ ci, own, widened } = widen(
      { ci: r.ci, widened: null },
      { strata: evidence.difference, bounds, confidence, student: true, better: metric.better }
    ))
  } else throw new Error(`the ${law} interval needs the bootstrap's resamples`)
  const notes = [...facts.notes]
  if (note) notes.push(note)
  const unreliable = unreliability({
    strata: evidence.difference,
    summary,
    bounds,
    clusters: facts.clusters !== null,
    scale: Math.max(Math.abs(baseline), Math.abs(level.estimate))
  })
  const counted = countedFields({ binary: metric.binary, independent: independent(statistics), n, ...counts }, notes)
  return {
    metric: metric.name,
    slice: of.slice.map(([k, v]) => [k, v]),
    n,
    baseline,
    candidate: level.estimate,
    delta: summary.estimate,
    relativeDelta: relativeDelta(baseline, summary.estimate),
    ci,
    ownCi: own,
    confidence,
    ...counted,
    interval: method,
    widened,
    intervalNote: note,
    unreliable,
    resampling: evidence.resampled?.law ?? null,
    randomization: evidence.randomization,
    tTest: tTest(summary, confidence),
    se: summary.se,
    df,
    // Below the spread tolerance the differences are rounding: their skewness is noise of the summation order.
    unitSkew:
      summary.se > SPREAD_TOLERANCE * Math.max(Math.abs(baseline), Math.abs(level.estimate))
        ? summary.skew * Math.sqrt(summary.effective)
        : 0,
    effective: summary.effective,
    clusters: facts.clusters,
    mix: statistics.weights ? mixOf(statistics.weights.by, facts, evidence) : null,
    notes
  }
}

/** The candidate's level in one subset: exact (binary, independent queries) or skew-t, widened by the shared bounds. */
export function levelFrom(of: ComparisonOf, facts: SubsetFacts, evidence: ColumnEvidence): LevelInterval {
  const { metric, confidence, statistics } = of
  const law = levelLaw(statistics, metric)
  const bounds = metricBounds(metric)
  const successes = evidence.candidate.reduce((a, s) => a + s.sum, 0)
  const closed = closedFormInterval({
    law,
    strata: evidence.candidate,
    counts: { gained: 0, lost: 0, successes: Math.round(successes), n: facts.n },
    bounds,
    confidence,
    better: metric.better
  })
  const unreliable =
    law === 'exact'
      ? null
      : unreliability({
          strata: evidence.candidate,
          summary: closed.summary,
          bounds,
          clusters: facts.clusters !== null,
          scale: Math.abs(closed.summary.estimate)
        })
  return {
    mean: closed.summary.estimate,
    ci: closed.ci,
    ownCi: closed.own,
    confidence,
    method: law,
    df: closed.df,
    widened: closed.widened,
    unreliable
  }
}

/** What a comparison counts: queries, wins and losses, and for a binary metric the discordant pairs. */
export interface ComparisonCounts {
  binary: boolean
  /** Queries are the units, unweighted: McNemar's exact test applies. */
  independent: boolean
  n: number
  wins: number
  losses: number
  gained: number
  lost: number
}

/**
 * The fields of a comparison that follow from its counts alone: McNemar on a binary metric's discordant pairs when
 * queries are independent (else a note saying why not), the discordant pairs, wins, losses and ties.
 */
export function countedFields(
  counts: ComparisonCounts,
  notes: string[]
): Pick<Comparison, 'pValue' | 'test' | 'gained' | 'lost' | 'wins' | 'losses' | 'ties'> {
  const { binary, gained, lost, wins, losses } = counts
  const mcnemar = binary && counts.independent
  if (binary && !mcnemar)
    notes.push('McNemar is not computed under clusters or target weights; see the randomization test')
  return {
    pValue: mcnemar ? mcnemarExact(gained, lost) : null,
    test: mcnemar ? 'mcnemar' : null,
    gained: binary ? gained : null,
    lost: binary ? lost : null,
    wins,
    losses,
    ties: counts.n - wins - losses
  }
}

/** The change relative to the baseline's mean, null where that mean is 0 or not finite. */
export function relativeDelta(baseline: number, delta: number): number | null {
  return baseline === 0 || !Number.isFinite(baseline) ? null : delta / Math.abs(baseline)
}

/** Σ_s share_s · sum_s / den_s over a column's strata with other weights (the observed mix). */
function estimateWith(strata: readonly StratumMoments[], shares: readonly number[]): number {
  let total = 0
  strata.forEach((s, i) => (total += (shares[i] * s.sum) / s.den))
  return strata.length === 0 ? Number.NaN : total
}

/** The mix of a weighted comparison: its strata, and the comparison under the observed mix. */
function mixOf(by: string, facts: SubsetFacts, evidence: ColumnEvidence): Mix {
  const shares = facts.strata.map((s) => s.observedShare)
  return {
    by,
    strata: facts.strata.map((s) => ({
      value: s.value as string,
      queries: s.queries,
      observed: s.observedShare,
      target: s.weight
    })),
    observed: {
      baseline: estimateWith(evidence.baseline, shares),
      candidate: estimateWith(evidence.candidate, shares),
      delta: estimateWith(evidence.difference, shares)
    }
  }
}

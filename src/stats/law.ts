import type { MetricRule, StatisticsRules } from '../config/types.js'
import type { IntervalMethod } from './interval.js'

/**
 * The law of every check, fixed by the rules and the exam before the candidate's data is read (docs/statistics.md,
 * "Which interval, and why"): the metric's declaration (binary, range), the design the rules declare (clusters,
 * target weights, seed replicates per side) and `statistics.interval`. Nothing the candidate hands in (how many
 * files, ties, distinct values, a 1e-9 nudge) can move a check to another law.
 */

/**
 * The law of a metric's paired differences over the queries. Declared seed replicates ({@link seedsDeclared}) add
 * the t over seeds and queries on top of it (src/capabilities/seeds/stats.ts): the interval is then the wider of the two.
 */
export function differenceLaw(
  statistics: StatisticsRules,
  metric: MetricRule
): Exclude<IntervalMethod, 'seeds-t' | 'exact'> {
  if (statistics.interval !== 'auto') return statistics.interval
  return metric.binary && independent(statistics) ? 'score' : 'skew-t'
}

/** The law of a metric's level (at_least, at_most): exact for a binary metric on independent queries, else skew-t. */
export function levelLaw(statistics: StatisticsRules, metric: MetricRule): 'exact' | 'skew-t' {
  return metric.binary && independent(statistics) ? 'exact' : 'skew-t'
}

/** Queries are the units and count equally: the paired and exact binomial laws (and McNemar) apply. */
export function independent(statistics: StatisticsRules): boolean {
  return statistics.cluster === undefined && statistics.weights === undefined
}

/** Seed replicates are the design: the rules declare more than one seed on a side (statistics.seeds). */
export function seedsDeclared(statistics: StatisticsRules): boolean {
  const s = statistics.seeds
  return s !== undefined && (s.baseline > 1 || s.candidate > 1)
}

/**
 * The metric's known values: its declared range, a binary metric's [0, 1], or a ranking measure's own [0, 1] when
 * the gate computes it from runs (src/config/rules.ts sets `bounds`). Undefined when nothing bounds it.
 */
export function metricBounds(metric: MetricRule): readonly [number, number] | undefined {
  return metric.bounds ?? metric.range ?? (metric.binary ? [0, 1] : undefined)
}

/** The bounds of a metric's differences (candidate − baseline): [−R, R] with R its range's width. */
export function differenceBounds(metric: MetricRule): readonly [number, number] | undefined {
  const b = metricBounds(metric)
  return b === undefined ? undefined : [-(b[1] - b[0]), b[1] - b[0]]
}

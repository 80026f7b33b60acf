import type { PairedTable } from '../align/pair.js'
import type { CheckRule, MetricRule, Rules } from '../config/types.js'
import type { Interval } from './bca.js'
import {
  compareFrom,
  levelFrom,
  type ColumnEvidence,
  type Comparison,
  type ComparisonOf,
  type LevelInterval,
  type SubsetFacts
} from './comparison.js'
import { checkWeights } from './design.js'
import { createResampling } from './resampling.js'
import { createSubsets } from './subset-stats.js'
import { filterKey, type Filters } from './subsets.js'
import { createRunner, defaultThreads } from './threads.js'

export type { Comparison, LevelInterval, Mix, Randomization1 } from './comparison.js'

/**
 * Statistics over a paired table (or a warehouse's sums), computed lazily and cached per subset; every comparison and
 * level is made by src/stats/comparison.ts from the subset's sufficient statistics.
 */
export interface StatsEngine {
  compare(metric: string, filters: Filters, confidence?: number): Comparison
  /** The candidate's level of a metric on a subset (at_least / at_most checks). */
  level(metric: string, filters: Filters, confidence: number): LevelInterval
  members(filters: Filters): Int32Array
  /** Per-query differences candidate - baseline of a metric, aligned with the table's ids. */
  differences(metric: string): Float64Array
  /** Seed files per side when the gate knows them (src/capabilities/seeds/stats.ts); undefined = one per side. */
  seeds?: { baseline: number; candidate: number }
  /** An engine without rows (a warehouse's aggregates, src/stats/aggregate-engine.ts): the values of an attribute in a subset. */
  valuesOf?(attr: string, filters: Filters): string[]
  /** …and a max_regressions check's count in a subset (src/stats/engine-queries.ts asks for both). */
  regressionCount?(check: CheckRule, filters: Filters): { count: number; nonFinite: number }
}

/**
 * How the engine may compute: `threads` (default: the machine's cores, capped; the entry points pass
 * RG_THREADS) and `cacheBytes` (resamples kept for later confidences, default RESAMPLE_CACHE_BYTES, src/stats/resample-cache.ts)
 * change the time and the memory, never a byte.
 */
export interface StatsOptions {
  threads?: number
  cacheBytes?: number
}

export function createStats(table: PairedTable, rules: Rules, options: StatsOptions = {}): StatsEngine {
  const metricNames = [...rules.metrics.keys()]
  const statistics = rules.statistics
  const weights = statistics.weights
  if (weights) checkWeights(weights, rules.source.file, new Set(table.attrs.get(weights.by)))
  const runner = createRunner(options.threads ?? defaultThreads())
  // The bootstrap is drawn only when the rules ask for a bootstrap interval; auto's intervals are in closed form.
  const bootstrap = statistics.interval !== 'auto'
  // Which law draws the resamples and the randomization test's signs (statistics.method, fixed from the units).
  const resampling = createResampling(table, statistics)
  // Start the workers now when the whole-table resampling alone is large enough: their start overlaps the designs.
  runner.prepare(
    ((bootstrap ? statistics.resamples : 0) + statistics.permutations / 4) * table.ids.length * metricNames.length
  )
  const diffs = differencesOf(table, metricNames)
  const diffColumns = metricNames.map((n) => diffs.get(n) as Float64Array)
  const levelColumns = [
    ...metricNames.map((n) => (table.metrics.get(n) as { base: Float64Array }).base),
    ...metricNames.map((n) => (table.metrics.get(n) as { cand: Float64Array }).cand)
  ]
  const subsets = createSubsets({ table, rules, runner, resampling, diffColumns, levelColumns, options })
  const { members, subset } = subsets
  return {
    members,
    differences: (metric) => diffs.get(metric) as Float64Array,
    ...decisions(rules, ({ col, rule, filters, confidence }) => {
      const { base, cand } = table.metrics.get(rule.name) as { base: Float64Array; cand: Float64Array }
      const counts = countsOf(rule, { base, cand, d: diffColumns[col] }, members(filters))
      const s = subset(filters, confidence)
      const r = s.randomization
      const interval: Interval | undefined = bootstrap ? (s.intervals.get(confidence) as Interval[])[col] : undefined
      return {
        facts: s.facts,
        evidence: {
          ...s.moments[col],
          counts,
          resampled: interval === undefined || s.laws === null ? null : { interval, law: s.laws[col] },
          randomization: { pValue: r.pValues[col], permutations: r.permutations, exact: r.exact }
        }
      }
    })
  }
}

/** What an engine gathers for one metric (its column and rule) in one subset at a confidence. */
export type Gather = (at: { col: number; rule: MetricRule; filters: Filters; confidence: number }) => {
  facts: SubsetFacts
  evidence: ColumnEvidence
}

/**
 * An engine's comparisons and levels, made by src/stats/comparison.ts from what the engine gathers (rows or a
 * warehouse's sums). decide() asks for each unit's comparison twice (the family's p-values, then the unit) and the
 * report asks again for the whole-set rows: repeats are answered from the cache instead of recomputing intervals and tests.
 */
export function decisions(rules: Rules, gather: Gather): Pick<StatsEngine, 'compare' | 'level'> {
  const metrics = [...rules.metrics.values()]
  const statistics = rules.statistics
  const cache = new Map<string, Comparison>()
  const gathered = (
    metric: string,
    filters: Filters,
    confidence: number
  ): [ComparisonOf, SubsetFacts, ColumnEvidence] => {
    const col = metrics.findIndex((m) => m.name === metric)
    if (col < 0) throw new Error(`unknown metric ${metric}`)
    const rule = metrics[col]
    const { facts, evidence } = gather({ col, rule, filters, confidence })
    return [{ metric: rule, slice: filters, confidence, statistics }, facts, evidence]
  }
  return {
    level: (metric, filters, confidence) => levelFrom(...gathered(metric, filters, confidence)),
    compare(metric, filters, confidence = statistics.confidence) {
      const key = `${metric}\u0000${filterKey(filters)}\u0000${confidence}`
      let c = cache.get(key)
      if (!c) cache.set(key, (c = compareFrom(...gathered(metric, filters, confidence))))
      return c
    }
  }
}

/** Each metric's per-query differences, candidate − baseline, in the table's order. */
function differencesOf(table: PairedTable, names: readonly string[]): Map<string, Float64Array> {
  const diffs = new Map<string, Float64Array>()
  for (const name of names) {
    const { base, cand } = table.metrics.get(name) as { base: Float64Array; cand: Float64Array }
    const d = new Float64Array(base.length)
    for (let i = 0; i < d.length; i++) d[i] = cand[i] - base[i]
    diffs.set(name, d)
  }
  return diffs
}

/** Wins and losses in the metric's direction, and for a binary metric the queries gained and lost. */
function countsOf(
  rule: MetricRule,
  sides: { base: Float64Array; cand: Float64Array; d: Float64Array },
  idx: Int32Array
): { wins: number; losses: number; gained: number; lost: number } {
  const { base, cand, d } = sides
  const sign = rule.better === 'higher' ? 1 : -1
  let wins = 0
  let losses = 0
  let gained = 0
  let lost = 0
  for (const i of idx) {
    const o = sign * d[i]
    if (o > 0) wins++
    else if (o < 0) losses++
    if (rule.binary) {
      if (base[i] === 0 && cand[i] === 1) gained++
      else if (base[i] === 1 && cand[i] === 0) lost++
    }
  }
  return { wins, losses, gained, lost }
}

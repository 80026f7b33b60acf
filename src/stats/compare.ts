import type { PairedTable } from '../align/pair.js'
import type { Rules } from '../config/types.js'
import { bootstrapMeans } from './bootstrap.js'
import { mcnemarExact } from './mcnemar.js'
import { mean } from './mean.js'
import { quantileSorted } from './quantile.js'
import { streamRng } from './rng.js'
import { filterKey, membersOf, type Filters } from './subsets.js'

/** One metric on one set of queries, baseline against candidate: the evidence every check and table row uses. */
export interface Comparison {
  metric: string
  /** Attribute filters defining the queries compared ([] = all). */
  slice: Array<[string, string]>
  n: number
  baseline: number
  candidate: number
  /** Mean of the per-query differences candidate - baseline (equal to candidate - baseline means). */
  delta: number
  /** delta / |baseline|, or null when the baseline mean is 0. */
  relativeDelta: number | null
  /** Percentile paired-bootstrap interval of delta at `confidence` (two-sided). */
  ci: [number, number]
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
}

/** Statistics over a paired table, computed lazily and cached per subset; every subset shares one resampling plan across metrics. */
export interface StatsEngine {
  compare(metric: string, filters: Filters, confidence?: number): Comparison
  members(filters: Filters): Int32Array
  /** Per-query differences candidate - baseline of a metric, aligned with the table's ids. */
  differences(metric: string): Float64Array
}

export function createStats(table: PairedTable, rules: Rules): StatsEngine {
  const metricNames = [...rules.metrics.keys()]
  const diffs = new Map<string, Float64Array>()
  for (const name of metricNames) {
    const { base, cand } = table.metrics.get(name) as { base: Float64Array; cand: Float64Array }
    const d = new Float64Array(base.length)
    for (let i = 0; i < d.length; i++) d[i] = cand[i] - base[i]
    diffs.set(name, d)
  }
  const membersCache = new Map<string, Int32Array>()
  const bootCache = new Map<string, Map<string, Float64Array>>()
  const members = (filters: Filters): Int32Array => {
    const key = filterKey(filters)
    let m = membersCache.get(key)
    if (!m) membersCache.set(key, (m = membersOf(table, filters)))
    return m
  }
  const distributions = (filters: Filters): Map<string, Float64Array> => {
    const key = filterKey(filters)
    let dist = bootCache.get(key)
    if (!dist) {
      const sorted = bootstrapMeans(
        metricNames.map((n) => diffs.get(n) as Float64Array),
        members(filters),
        rules.statistics.resamples,
        streamRng(rules.statistics.seed, key)
      )
      dist = new Map(metricNames.map((n, i) => [n, sorted[i]]))
      bootCache.set(key, dist)
    }
    return dist
  }
  return {
    members,
    differences: (metric) => diffs.get(metric) as Float64Array,
    compare(metric, filters, confidence = rules.statistics.confidence) {
      const rule = rules.metrics.get(metric)
      if (!rule) throw new Error(`unknown metric ${metric}`)
      const idx = members(filters)
      const { base, cand } = table.metrics.get(metric) as { base: Float64Array; cand: Float64Array }
      const d = diffs.get(metric) as Float64Array
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
      const b = mean(base, idx)
      const c = mean(cand, idx)
      const delta = mean(d, idx)
      const sorted = (distributions(filters).get(metric) as Float64Array)
      const alpha = 1 - confidence
      return {
        metric,
        slice: filters.map(([k, v]) => [k, v]),
        n: idx.length,
        baseline: b,
        candidate: c,
        delta,
        relativeDelta: b === 0 || !Number.isFinite(b) ? null : delta / Math.abs(b),
        ci: [quantileSorted(sorted, alpha / 2), quantileSorted(sorted, 1 - alpha / 2)],
        confidence,
        pValue: rule.binary ? mcnemarExact(gained, lost) : null,
        test: rule.binary ? 'mcnemar' : null,
        gained: rule.binary ? gained : null,
        lost: rule.binary ? lost : null,
        wins,
        losses,
        ties: idx.length - wins - losses
      }
    }
  }
}

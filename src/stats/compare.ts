import type { PairedTable } from '../align/pair.js'
import type { CheckRule, Rules } from '../config/types.js'
import { InputError } from '../errors.js'
import type { Interval } from './bca.js'
import { compareFrom, levelFrom, type Comparison, type LevelInterval, type SubsetFacts } from './comparison.js'
import { buildDesign, type Design } from './design.js'
import { momentsOfColumn, momentsOfDesign, type StratumMoments } from './moments.js'
import type { Randomization } from './randomization.js'
import { createResampling, type ColumnLaw } from './resampling.js'
import type { Resamples } from '../util/order-statistics.js'
import { columnIntervals, createResampleCache, RESAMPLE_CACHE_BYTES, resampleViews } from './resample-cache.js'
import type { KernelPlan } from './threads.js'
import { filterKey, membersByValue, membersOf, type Filters } from './subsets.js'
import { createRunner, defaultThreads } from './threads.js'
import { quote } from '../util/show.js'

/** Below this many clusters a cluster bootstrap is known to give intervals that are too narrow. */
const FEW_CLUSTERS = 30

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
 * What a subset keeps for its comparisons: designs, test, and per confidence asked the intervals of every
 * column, never its resamples (B doubles per column: 400 MB for 1,000 slice values x 5 metrics x 10,000).
 */
interface SubsetStats {
  design: Design
  facts: SubsetFacts
  /** Per metric column, the strata moments of its differences and of each side's values. */
  moments: Array<{ difference: StratumMoments[]; baseline: StratumMoments[]; candidate: StratumMoments[] }>
  randomization: Randomization
  intervals: Map<number, Interval[]>
  /** Per column, the law its resamples were drawn by. */
  /** Per column, the law its bootstrap resamples were drawn by; null when no bootstrap was drawn. */
  laws: ColumnLaw[] | null
}

/**
 * How the engine may compute: `threads` (default: the machine's cores, capped; the entry points pass
 * RG_THREADS) and `cacheBytes` (resamples kept for later confidences, default {@link RESAMPLE_CACHE_BYTES})
 * change the time and the memory, never a byte.
 */
export interface StatsOptions {
  threads?: number
  cacheBytes?: number
}

/** Confidences remembered besides the rules' own: each new subset computes its intervals at all of them at once. */
const KNOWN_CONFIDENCES = 4

/**
 * Units from which a subset's resamples are kept (copied into the cache) for a confidence asked later: below,
 * drawing them again (units x metrics x resamples draws) costs little more than copying them would.
 */
const KEEP_UNITS = 64

export function createStats(table: PairedTable, rules: Rules, options: StatsOptions = {}): StatsEngine {
  const metricNames = [...rules.metrics.keys()]
  const statistics = rules.statistics
  checkWeights(table, rules)
  const runner = createRunner(options.threads ?? defaultThreads())
  // The bootstrap is drawn only when the rules ask for a bootstrap interval; auto's intervals are in closed form.
  const bootstrap = statistics.interval !== 'auto'
  // Which law draws the resamples and the randomization test's signs (statistics.method, fixed from the units).
  const resampling = createResampling(table, statistics)
  // Start the workers now when the whole-table resampling alone is large enough: their start overlaps the designs.
  runner.prepare(
    ((bootstrap ? statistics.resamples : 0) + statistics.permutations / 4) * table.ids.length * metricNames.length
  )
  const diffs = new Map<string, Float64Array>()
  for (const name of metricNames) {
    const { base, cand } = table.metrics.get(name) as { base: Float64Array; cand: Float64Array }
    const d = new Float64Array(base.length)
    for (let i = 0; i < d.length; i++) d[i] = cand[i] - base[i]
    diffs.set(name, d)
  }
  const diffColumns = metricNames.map((n) => diffs.get(n) as Float64Array)
  const levelColumns = [
    ...metricNames.map((n) => (table.metrics.get(n) as { base: Float64Array }).base),
    ...metricNames.map((n) => (table.metrics.get(n) as { cand: Float64Array }).cand)
  ]
  const membersCache = new Map<string, Int32Array>()
  const subsetCache = new Map<string, SubsetStats>()
  const resampleCache = createResampleCache(options.cacheBytes ?? RESAMPLE_CACHE_BYTES)
  // The rules' confidence and the last others asked (decide asks the family's): a subset drawn once answers them all.
  const known: number[] = [statistics.confidence]
  const byValue = new Map<string, Map<string, Int32Array>>()
  const members = (filters: Filters): Int32Array => {
    const key = filterKey(filters)
    let m = membersCache.get(key)
    if (!m) {
      if (filters.length === 1 && table.attrs.has(filters[0][0])) {
        // One attribute: all its values' members at once (one pass), the same indices membersOf would give.
        const [attr, value] = filters[0]
        let index = byValue.get(attr)
        if (!index) byValue.set(attr, (index = membersByValue(table, attr)))
        m = index.get(value) ?? new Int32Array(0)
      } else m = membersOf(table, filters)
      membersCache.set(key, m)
    }
    return m
  }
  /** Intervals at every known confidence not yet computed, from resamples just drawn or still cached. */
  const fill = (s: SubsetStats, columns: Resamples[]): void => {
    const method = statistics.interval as 'percentile' | 'bca'
    for (const confidence of known)
      if (!s.intervals.has(confidence))
        s.intervals.set(confidence, columnIntervals(s.design, columns, method, confidence))
  }
  // Every subset's resamples are drawn into this one buffer in turn: drawing allocates nothing per subset.
  let scratch: Float64Array | undefined
  const plan = (
    design: Design,
    idx: Int32Array,
    key: string
  ): { plan: KernelPlan<Float64Array[]>; laws: ColumnLaw[] } => {
    scratch ??= new Float64Array(metricNames.length * statistics.resamples)
    // The stream is the subset's canonical key: an interval depends on the seed and its queries only.
    return resampling.bootstrap(design, idx, key, scratch)
  }
  /** The drawn resamples as views; a copy is kept in the cache when drawing them again would cost more. */
  const keep = (key: string, design: Design, drawn: Float64Array[]): Resamples[] => {
    if (design.units < KEEP_UNITS) return resampleViews(drawn)
    const columns = resampleViews(drawn.map((c) => c.slice()))
    resampleCache.set(key, columns)
    return columns
  }
  const subset = (filters: Filters, confidence: number): SubsetStats => {
    const key = filterKey(filters)
    remember(confidence)
    let s = subsetCache.get(key)
    if (!s) {
      const idx = members(filters)
      const label = filters.length === 0 ? 'all queries' : filters.map(([k, v]) => `${k} = ${v}`).join(', ')
      const under = { statistics, label, rulesFile: rules.source.file }
      const design = buildDesign(table, idx, diffColumns, under)
      const boot = bootstrap ? plan(design, idx, key) : null
      const flip = resampling.flips(design, idx, `${key}\u0000flip`)
      // Both as one batch of units: on several threads the short flip blocks fill the gaps the resampling blocks leave.
      runner.run([...(boot?.plan.jobs ?? []), ...flip.jobs])
      const k = metricNames.length
      s = {
        design,
        facts: {
          n: idx.length,
          clusters: design.clusters,
          strata: design.strata,
          notes: bootstrap ? clusterNotes(design, idx.length) : [...design.notes]
        },
        moments: metricNames.map((_, c) => ({
          difference: momentsOfDesign(design, c),
          baseline: momentsOfColumn(design, levelColumns[c], idx),
          candidate: momentsOfColumn(design, levelColumns[k + c], idx)
        })),
        randomization: flip.finish(),
        intervals: new Map(),
        laws: boot?.laws ?? null
      }
      if (boot) fill(s, keep(key, design, boot.plan.finish()))
      subsetCache.set(key, s)
    } else if (bootstrap && !s.intervals.has(confidence)) {
      let columns = resampleCache.get(key)
      if (!columns) {
        // Not kept, or dropped from the cache: drawn again from the same stream, so the same resamples to the bit.
        const { plan: boot } = plan(s.design, members(filters), key)
        runner.run(boot.jobs)
        columns = keep(key, s.design, boot.finish())
      }
      fill(s, columns)
    }
    return s
  }
  function remember(confidence: number): void {
    if (known.includes(confidence)) return
    known.push(confidence)
    if (known.length > KNOWN_CONFIDENCES) known.splice(1, 1)
  }
  // decide() asks for each unit's comparison twice (the family's p-values, then the unit) and the report asks
  // again for the whole-set rows: answer repeats from the cache instead of recomputing intervals and tests.
  const comparisonCache = new Map<string, Comparison>()
  return {
    members,
    differences: (metric) => diffs.get(metric) as Float64Array,
    level(metric, filters, confidence) {
      const rule = rules.metrics.get(metric)
      if (!rule) throw new Error(`unknown metric ${metric}`)
      const s = subset(filters, confidence)
      const r = s.randomization
      const col = metricNames.indexOf(metric)
      return levelFrom({ metric: rule, slice: filters, confidence, statistics }, s.facts, {
        ...s.moments[col],
        counts: { wins: 0, losses: 0, gained: 0, lost: 0 },
        resampled: null,
        randomization: { pValue: r.pValues[col], permutations: r.permutations, exact: r.exact }
      })
    },
    compare(metric, filters, confidence = statistics.confidence) {
      const cacheKey = `${metric}\u0000${filterKey(filters)}\u0000${confidence}`
      const cached = comparisonCache.get(cacheKey)
      if (cached) return cached
      const computed = compareUncached(metric, filters, confidence)
      comparisonCache.set(cacheKey, computed)
      return computed
    }
  }

  function compareUncached(metric: string, filters: Filters, confidence: number): Comparison {
    const rule = rules.metrics.get(metric)
    if (!rule) throw new Error(`unknown metric ${metric}`)
    const col = metricNames.indexOf(metric)
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
    const s = subset(filters, confidence)
    const r = s.randomization
    const interval: Interval | undefined = bootstrap ? (s.intervals.get(confidence) as Interval[])[col] : undefined
    return compareFrom({ metric: rule, slice: filters, confidence, statistics }, s.facts, {
      ...s.moments[col],
      counts: { wins, losses, gained, lost },
      resampled: interval === undefined || s.laws === null ? null : { interval, law: s.laws[col] },
      randomization: { pValue: r.pValues[col], permutations: r.permutations, exact: r.exact }
    })
  }
}

/** The notes of a subset's design under a bootstrap law: below {@link FEW_CLUSTERS} clusters what a cluster bootstrap tends to do. */
function clusterNotes(design: Design, n: number): string[] {
  const notes = [...design.notes]
  if (design.clusters !== null && design.clusters < FEW_CLUSTERS && n > 0)
    notes.push(
      `only ${design.clusters} clusters: a cluster bootstrap tends to give too narrow intervals below about ${FEW_CLUSTERS}`
    )
  return notes
}

/**
 * Target weights must describe the data: every value they name occurs, and every value that occurs has a
 * weight (a value without one would silently drop out of the statistic; give it 0 to mean that).
 */
function checkWeights(table: PairedTable, rules: Rules): void {
  const weights = rules.statistics.weights
  if (!weights) return
  const column = table.attrs.get(weights.by) as string[]
  const present = new Set(column)
  const named = new Set(weights.target.map(([v]) => v))
  const file = rules.source.file
  for (const [v] of weights.target) {
    if (!present.has(v)) {
      throw new InputError(
        { file, key: `statistics.weights.target.${v}` },
        `no query has ${weights.by} = ${quote(v)}`,
        `values present: ${[...present]
          .sort()
          .slice(0, 20)
          .map((x) => quote(x))
          .join(', ')}`
      )
    }
  }
  const missing = [...present].filter((v) => !named.has(v)).sort()
  if (missing.length > 0) {
    throw new InputError(
      { file, key: 'statistics.weights.target' },
      `${weights.by} = ${missing
        .slice(0, 5)
        .map((x) => quote(x))
        .join(', ')} occurs in the data but has no target weight`,
      'give every value its share of the target population (0 to leave it out on purpose)'
    )
  }
}

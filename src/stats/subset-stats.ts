import type { PairedTable } from '../align/pair.js'
import type { Rules } from '../config/types.js'
import type { Resamples } from '../util/order-statistics.js'
import type { Interval } from './bca.js'
import type { SubsetFacts } from './comparison.js'
import { buildDesign, estimate, type Design } from './design.js'
import { momentsOfColumn, momentsOfDesign, type StratumMoments } from './moments.js'
import type { Randomization } from './randomization.js'
import { columnIntervals, createResampleCache, RESAMPLE_CACHE_BYTES, resampleViews } from './resample-cache.js'
import type { ColumnLaw, createResampling } from './resampling.js'
import { filterKey, membersByValue, membersOf, subsetLabel, type Filters } from './subsets.js'
import type { KernelPlan, KernelRunner } from './threads.js'

/**
 * The rows engine's subsets (src/stats/compare.ts): each subset's design, moments, randomization test and, when the
 * rules ask for a bootstrap interval, its intervals at every confidence asked, drawn once and cached; resamples kept
 * only where drawing them again would cost more than keeping them.
 */

/** Below this many clusters a cluster bootstrap is known to give intervals that are too narrow. */
const FEW_CLUSTERS = 30

/**
 * What a subset keeps for its comparisons: designs, test, and per confidence asked the intervals of every
 * column, never its resamples (B doubles per column: 400 MB for 1,000 slice values x 5 metrics x 10,000).
 */
export interface SubsetStats {
  design: Design
  facts: SubsetFacts
  /** Per metric column, the strata moments of its differences and of each side's values. */
  moments: Array<{ difference: StratumMoments[]; baseline: StratumMoments[]; candidate: StratumMoments[] }>
  randomization: Randomization
  intervals: Map<number, Interval[]>
  /** Per column, the law its bootstrap resamples were drawn by; null when no bootstrap was drawn. */
  laws: ColumnLaw[] | null
}

/** Confidences remembered besides the rules' own: each new subset computes its intervals at all of them at once. */
const KNOWN_CONFIDENCES = 4

/**
 * Units from which a subset's resamples are kept (copied into the cache) for a confidence asked later: below,
 * drawing them again (units x metrics x resamples draws) costs little more than copying them would.
 */
const KEEP_UNITS = 64

/** What the subsets are drawn from. */
export interface SubsetSource {
  table: PairedTable
  rules: Rules
  runner: KernelRunner
  resampling: ReturnType<typeof createResampling>
  /** Per metric, its differences; then the baseline's and the candidate's values (levels). */
  diffColumns: Float64Array[]
  levelColumns: Float64Array[]
  options: { cacheBytes?: number }
}

/** A subset's statistics at a confidence (drawn on first use), and the queries of a subset. */
export function createSubsets(source: SubsetSource): {
  subset: (filters: Filters, confidence: number) => SubsetStats
  members: (filters: Filters) => Int32Array
} {
  const { table, rules, runner, resampling, diffColumns, levelColumns, options } = source
  const statistics = rules.statistics
  const bootstrap = statistics.interval !== 'auto'
  const members = createMembers(table)
  const subsetCache = new Map<string, SubsetStats>()
  const resampleCache = createResampleCache(options.cacheBytes ?? RESAMPLE_CACHE_BYTES)
  // The rules' confidence and the last others asked (decide asks the family's): a subset drawn once answers them all.
  const known: number[] = [statistics.confidence]
  /** Intervals at every known confidence not yet computed, from resamples just drawn or still cached. */
  const fill = (s: SubsetStats, columns: Resamples[]): void => {
    const method = statistics.interval as 'percentile' | 'bca'
    const bca = { estimate: (c: number) => estimate(s.design, c), moments: (c: number) => momentsOfDesign(s.design, c) }
    for (const confidence of known)
      if (!s.intervals.has(confidence)) s.intervals.set(confidence, columnIntervals(columns, method, confidence, bca))
  }
  // Every subset's resamples are drawn into this one buffer in turn: drawing allocates nothing per subset.
  let scratch: Float64Array | undefined
  const plan = (
    design: Design,
    idx: Int32Array,
    key: string
  ): { plan: KernelPlan<Float64Array[]>; laws: ColumnLaw[] } => {
    scratch ??= new Float64Array(diffColumns.length * statistics.resamples)
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
      const under = { statistics, label: subsetLabel(filters), rulesFile: rules.source.file }
      const design = buildDesign(table, idx, diffColumns, under)
      const boot = bootstrap ? plan(design, idx, key) : null
      const flip = resampling.flips(design, idx, `${key}\u0000flip`)
      // Both as one batch of units: on several threads the short flip blocks fill the gaps the resampling blocks leave.
      runner.run([...(boot?.plan.jobs ?? []), ...flip.jobs])
      s = {
        design,
        facts: {
          n: idx.length,
          clusters: design.clusters,
          strata: design.strata,
          notes: bootstrap ? clusterNotes(design, idx.length) : [...design.notes]
        },
        moments: subsetMoments(design, { levelColumns, idx }),
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
  return { subset, members }
}

/** The queries a subset's filters select, each subset's computed once (one attribute's values all in one pass). */
function createMembers(table: PairedTable): (filters: Filters) => Int32Array {
  const cache = new Map<string, Int32Array>()
  const byValue = new Map<string, Map<string, Int32Array>>()
  return (filters) => {
    const key = filterKey(filters)
    let m = cache.get(key)
    if (!m) {
      if (filters.length === 1 && table.attrs.has(filters[0][0])) {
        // One attribute: all its values' members at once (one pass), the same indices membersOf would give.
        const [attr, value] = filters[0]
        let index = byValue.get(attr)
        if (!index) byValue.set(attr, (index = membersByValue(table, attr)))
        m = index.get(value) ?? new Int32Array(0)
      } else m = membersOf(table, filters)
      cache.set(key, m)
    }
    return m
  }
}

/** Each metric's moments in a subset: of its differences, and of each side's values (for levels). */
function subsetMoments(
  design: Design,
  at: { levelColumns: readonly Float64Array[]; idx: Int32Array }
): SubsetStats['moments'] {
  const k = design.k
  return Array.from({ length: k }, (_, c) => ({
    difference: momentsOfDesign(design, c),
    baseline: momentsOfColumn(design, at.levelColumns[c], at.idx),
    candidate: momentsOfColumn(design, at.levelColumns[k + c], at.idx)
  }))
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

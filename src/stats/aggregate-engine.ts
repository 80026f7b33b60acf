import { subsetFamilies, subsetFilters } from '../config/aggregates-plan.js'
import type { CheckRule, Rules } from '../config/types.js'
import type { Aggregates, StratumSums, SubsetSums } from '../model/aggregates.js'
import type { Interval } from './bca.js'
import { decisions, type StatsEngine, type StatsOptions } from './compare.js'
import type { ColumnEvidence, SubsetFacts } from './comparison.js'
import { checkWeights, strataOf } from './design.js'
import { summarise, type StratumMoments } from './moments.js'
import { columnIntervals } from './resample-cache.js'
import { resamplingLaw, type ColumnLaw } from './resampling.js'
import { filterKey, subsetLabel, type Filters } from './subsets.js'
import { randomizationFromSums, resamplesFromSums, type DesignStrata, type SumsContext } from './sums-draws.js'
import { createRunner, defaultThreads } from './threads.js'

/**
 * The statistics engine over a warehouse's aggregates (src/readers/aggregates.ts) instead of rows: every comparison
 * the rows engine (src/stats/compare.ts) makes, from the same sums, by the same formulas, in the same order:
 *
 * - exactly the same: every count (W/L/T, gained and lost, McNemar's p, regressions), the resamples of a metric
 *   drawn by counts (from its histogram, as src/stats/bootstrap.ts's histogramGroups makes them: the same groups, streams
 *   and kernel) and its sign-count test;
 * - the same up to the order of floating-point additions (docs/scale.md gives the tolerance): the means, the
 *   t interval and standard error (from the centred moments), BCa's acceleration, the Poisson resamples
 *   (Σ_s W_s Σ w·d / Σ w per stratum) and the hashed sign-flip test (Σ_s f_s (Σ d − 2 Σ_minus d)).
 *
 * The rows path has two more things this one cannot have: per-query differences (so no regressed-query lists) and
 * the multinomial draws of a metric with many distinct values (below POISSON_FROM_UNITS, src/stats/resampling.ts, queries `auto` draws
 * them so: such aggregates are refused with the fix, statistics.method: poisson).
 */
export interface AggregateEngine extends StatsEngine {
  /** The values of `attr` among the queries `filters` selects (decide's per_slice units, the slices of the report). */
  valuesOf(attr: string, filters: Filters): string[]
  /** Queries past a max_regressions check's threshold in a subset (decide's count, from the SQL's). */
  regressionCount(check: CheckRule, filters: Filters): { count: number; nonFinite: number }
}

export function createAggregateStats(
  aggregates: Aggregates,
  rules: Rules,
  options: StatsOptions = {}
): AggregateEngine {
  const statistics = rules.statistics
  const metrics = [...rules.metrics.values()]
  const families = subsetFamilies(rules)
  const runner = createRunner(options.threads ?? defaultThreads())
  const { byKey, valuesByFamily } = indexSubsets(aggregates, families)
  const all = byKey.get('all')
  const units = all ? all.strata.reduce((n, st) => n + st.n, 0) : 0
  const law = resamplingLaw(statistics.method, units)
  const weights = statistics.weights
  if (weights) checkWeights(weights, rules.source.file, new Set((all?.strata ?? []).map((s) => s.value)))
  const subsetCache = new Map<string, SubsetStats>()
  const labels = new Map<string, string>()
  const ctx: SumsContext = { rules, aggregates, law, runner, units, labelOf: (key) => labels.get(key) ?? key }

  const subsetOf = (filters: Filters): SubsetSums | undefined => byKey.get(filterKey(filters))

  const stats = (filters: Filters): SubsetStats => {
    const key = filterKey(filters)
    let s = subsetCache.get(key)
    if (!s) {
      s = subsetStats(subsetOf(filters), filters, key)
      subsetCache.set(key, s)
    }
    return s
  }

  /** Everything a subset's comparisons read, computed once: its design summary, resamples' intervals, test. */
  function subsetStats(subset: SubsetSums | undefined, filters: Filters, key: string): SubsetStats {
    const label = subsetLabel(filters)
    const strata = designStrata(subset, rules, label)
    const n = strata.strata.reduce((a, st) => a + st.size, 0)
    labels.set(key, label)
    // The test first: every report has it, so a refusal for a law that needs the rows names what the report makes.
    const randomization = randomizationFromSums(ctx, strata, { key, n })
    // Drawn only when the rules ask for a bootstrap interval: auto's intervals come from the moments, as from rows.
    const resamples =
      statistics.interval === 'auto' ? null : metrics.map((_, c) => resamplesFromSums(ctx, strata, { c, key, n }))
    return { strata, n, resamples, randomization, intervals: new Map() }
  }

  return {
    members: () => new Int32Array(0),
    differences: () => new Float64Array(0),
    ...decisions(rules, ({ col, filters, confidence }) => {
      const s = stats(filters)
      return { facts: factsOf(s), evidence: evidenceOf(s, { col, confidence, statistics }) }
    }),
    valuesOf(attr, filters) {
      // filterKey sorts the filters: the subset of filters and attr = v whatever attr's place among them.
      const values = valuesByFamily.get(familyOf(families, { filters, attr })) ?? []
      return values.filter((v) => subsetOf([...filters, [attr, v]]) !== undefined)
    },
    regressionCount(check, filters) {
      const subset = subsetOf(filters)
      const col = metrics.findIndex((m) => m.name === check.metric)
      let count = 0
      for (const st of subset?.strata ?? []) count += st.metrics[col].regressions.get(check.index) ?? 0
      return { count, nonFinite: 0 }
    }
  }
}

interface SubsetStats {
  strata: DesignStrata
  n: number
  /** Per metric, its resamples and their law; null under interval auto (nothing drawn). */
  resamples: Array<{ values: Float64Array; law: ColumnLaw }> | null
  randomization: { pValues: Float64Array; permutations: number; exact: boolean }
  intervals: Map<number, Interval[]>
}

type Family = ReturnType<typeof subsetFamilies>[number]

/** The subsets by their filters' key, and the values of each `by` family in the order the aggregates list them. */
function indexSubsets(
  aggregates: Aggregates,
  families: readonly Family[]
): { byKey: Map<string, SubsetSums>; valuesByFamily: Map<number, string[]> } {
  const byKey = new Map<string, SubsetSums>()
  const valuesByFamily = new Map<number, string[]>()
  for (const s of aggregates.subsets) {
    byKey.set(filterKey(subsetFilters(families[s.family], s.value)), s)
    if (families[s.family].by !== undefined)
      valuesByFamily.set(s.family, [...(valuesByFamily.get(s.family) ?? []), s.value])
  }
  return { byKey, valuesByFamily }
}

/** The family of subsets that splits `filters` by `attr` (a per_slice check or a slice of the report). */
function familyOf(families: readonly Family[], at: { filters: Filters; attr: string }): number {
  const where = [...at.filters].map(([k, v]) => `${k}=${v}`).join('&')
  const f = families.findIndex((x) => x.by === at.attr && x.where.map(([k, v]) => `${k}=${v}`).join('&') === where)
  if (f < 0) throw new Error(`no family ${where} by ${at.attr}`)
  return f
}

/** What a metric's evidence in a subset is read for: its column, the confidence, the rules' statistics. */
interface EvidenceAt {
  col: number
  confidence: number
  statistics: Rules['statistics']
}

/**
 * The bootstrap interval of a column, read only when the rules ask for a bootstrap interval (auto's intervals come
 * from the counts and moments every shard sends, as from rows); sorted once per confidence for every column.
 */
function intervalOf(s: SubsetStats, at: EvidenceAt, method: 'percentile' | 'bca'): Interval {
  let list = s.intervals.get(at.confidence)
  if (!list) {
    const moments = (c: number): StratumMoments[] => differenceMoments(s.strata, c)
    const sorted = (s.resamples ?? []).map((r) => r.values.slice().sort())
    list = columnIntervals(sorted, method, at.confidence, { estimate: (c) => summarise(moments(c)).estimate, moments })
    s.intervals.set(at.confidence, list)
  }
  return list[at.col]
}

/** A metric's sufficient statistics in a subset, as the rows' engine gathers them (src/stats/comparison.ts decides). */
function evidenceOf(s: SubsetStats, at: EvidenceAt): ColumnEvidence {
  const col = at.col
  const sumOf = (pick: (m: StratumSums['metrics'][number]) => number): number =>
    s.strata.strata.reduce((a, st) => a + pick(st.sums.metrics[col]), 0)
  const interval = at.statistics.interval
  return {
    difference: differenceMoments(s.strata, col),
    baseline: s.strata.strata.map((st) => sideMoments(st, st.sums.metrics[col].sumBaseline, 0, 0)),
    candidate: s.strata.strata.map((st) => {
      const m = st.sums.metrics[col]
      return sideMoments(st, m.sumCandidate, m.m2Candidate, m.m3Candidate)
    }),
    counts: {
      wins: sumOf((m) => m.wins),
      losses: sumOf((m) => m.losses),
      gained: sumOf((m) => m.gained),
      lost: sumOf((m) => m.lost)
    },
    resampled:
      interval !== 'auto' && s.resamples !== null
        ? { interval: intervalOf(s, at, interval), law: s.resamples[col].law }
        : null,
    randomization: {
      pValue: s.randomization.pValues[col],
      permutations: s.randomization.permutations,
      exact: s.randomization.exact
    }
  }
}

/** The strata and the design's notes, built as src/stats/design.ts builds them from rows (same words). */
function designStrata(subset: SubsetSums | undefined, rules: Rules, label: string): DesignStrata {
  const present = subset?.strata ?? []
  const sizes = present.map((s) => ({ value: s.value, size: s.n, queries: s.n }))
  const { strata, notes } = strataOf(rules.statistics.weights, sizes, { label, unit: 'query' })
  return { strata: strata.map((st, i) => ({ ...st, sums: present[i] })), notes }
}

/** The subset's facts every metric shares (src/stats/comparison.ts). */
function factsOf(s: SubsetStats): SubsetFacts {
  return { n: s.n, clusters: null, strata: s.strata.strata, notes: s.strata.notes }
}

/** A metric's differences in each stratum as moments: every unit one query (the SQL does not cluster). */
function differenceMoments(d: DesignStrata, col: number): StratumMoments[] {
  return d.strata.map((st) => {
    const m = st.sums.metrics[col]
    return sideMoments(st, m.sum, m.m2, m.m3)
  })
}

function sideMoments(st: DesignStrata['strata'][number], sum: number, m2: number, m3: number): StratumMoments {
  return { units: st.size, den: st.size, weight: st.weight, countSq: st.size, sum, m2, m3 }
}

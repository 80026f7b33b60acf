import type { PairedTable } from '../../align/pair.js'
import type { SeedSides } from '../../align/seeds.js'
import type { Rules } from '../../config/types.js'
import { InputError } from '../../errors.js'
import { quote } from '../../util/show.js'
import type { SideRows } from '../../model/rows.js'
import { percentileInterval } from '../../stats/bca.js'
import { sortedResamples } from '../../util/order-statistics.js'
import { createResampleCache, RESAMPLE_CACHE_BYTES } from '../../stats/resample-cache.js'
import type { Comparison, StatsEngine } from '../../stats/compare.js'
import { seedBootstrap, seedSpread, type SeedColumns, type SeedSpread } from '../../stats/seed-bootstrap.js'
import { seedInterval } from './interval.js'
import { hull } from '../../stats/interval.js'
import { seedsDeclared } from '../../stats/law.js'
import { filterKey } from '../../stats/subsets.js'
import { maxOf } from '../../util/extent.js'

/** A seed SD at or below this is rounding error of equal seed means (sums of doubles), not a spread. */
const NO_SPREAD = 1e-12

/** One metric's spread between seeds over all queries, and whether the gain is within it. */
export interface SeedMetricSummary {
  metric: string
  baseline: SeedSpread
  candidate: SeedSpread
  /** The difference of seed-averaged means over all queries (the comparisons' delta). */
  delta: number
  /** The larger of the two sides' seed SDs; null when neither side has two seeds. */
  spread: number | null
  /** |delta| is smaller than `spread`: one lucky (or unlucky) seed could make a difference this size. */
  withinSpread: boolean
}

/** What the report says about seeds: the files per side, the rule's minimum, and the spread per metric. */
export interface SeedsSummary {
  baseline: string[]
  candidate: string[]
  /** statistics.min_seeds, or null when the rules set none. */
  minSeeds: number | null
  /** True when one side has more than one seed: the intervals cover seeds and queries. */
  twoLevel: boolean
  /** How: the t interval over seeds and queries (statistics.interval auto), the two-level bootstrap, or queries only. */
  interval: 'seeds-t' | 'two-level bootstrap' | 'queries only'
  metrics: SeedMetricSummary[]
}

/** What the report says about seeds, per metric from `engine` (the seeds' engine: its deltas are the averaged rows'). */
export function seedsSummary(engine: StatsEngine, table: PairedTable, rules: Rules, seeds: SeedSides): SeedsSummary {
  const twoLevel = seedsDeclared(rules.statistics)
  const all = engine.members([])
  const metrics = [...rules.metrics.keys()].map((metric) => {
    const cols = seedColumns(table, seeds, metric, all)
    const baseline = seedSpread(cols.base)
    const candidate = seedSpread(cols.cand)
    const delta = engine.compare(metric, []).delta
    const sds = [baseline.sd, candidate.sd].filter((x): x is number => x !== null)
    const spread = sds.length === 0 ? null : maxOf(sds)
    return {
      metric,
      baseline,
      candidate,
      delta,
      spread,
      withinSpread: spread !== null && spread > NO_SPREAD && Math.abs(delta) < spread
    }
  })
  return {
    baseline: seeds.baseline.map((s) => s.source),
    candidate: seeds.candidate.map((s) => s.source),
    minSeeds: rules.statistics.minSeeds ?? null,
    twoLevel,
    interval: !twoLevel ? 'queries only' : rules.statistics.interval === 'auto' ? 'seeds-t' : 'two-level bootstrap',
    metrics
  }
}

/**
 * Wraps the query-level engine (built on the seed-averaged rows) so that every comparison's interval covers seeds
 * and queries: the t interval over seeds and queries (src/capabilities/seeds/interval.ts) under statistics.interval auto,
 * the two-level bootstrap (src/stats/seed-bootstrap.ts) when the rules ask for percentile or bca. Estimates, W/L/T and regressions
 * stay those of the averaged rows, which is the same statistic. The randomization test and the t cross-check
 * still see the averaged values as fixed (query variance only): a note says so. With one file per side the
 * engine is returned as it is, only counting the seeds (for statistics.min_seeds).
 *
 * Refuses (InputError at the rule key) what the intervals over seeds do not model: clusters, target
 * weights, and McNemar checks (a seed-averaged hit is no longer 0 or 1; use test: bootstrap).
 */
export function withSeeds(engine: StatsEngine, table: PairedTable, rules: Rules, seeds: SeedSides): StatsEngine {
  const count = { baseline: seeds.baseline.length, candidate: seeds.candidate.length }
  if (!seedsDeclared(rules.statistics)) return { ...engine, seeds: count }
  // Bounded like the engine's resamples: one sorted distribution per metric and slice would grow with resamples x slices.
  const distributions = createResampleCache(RESAMPLE_CACHE_BYTES)
  const cache = new Map<string, Comparison>()
  return {
    members: (filters) => engine.members(filters),
    differences: (metric) => engine.differences(metric),
    level: (metric, filters, confidence) => engine.level(metric, filters, confidence),
    seeds: count,
    compare(metric, filters, confidence = rules.statistics.confidence) {
      const key = `${metric}\u0000${filterKey(filters)}\u0000${confidence}`
      const cached = cache.get(key)
      if (cached) return cached
      const c = engine.compare(metric, filters, confidence)
      if (rules.statistics.interval === 'auto') {
        const out = seedTComparison(c, seedColumns(table, seeds, metric, engine.members(filters)), confidence, count)
        cache.set(key, out)
        return out
      }
      const distKey = `${metric}\u0000${filterKey(filters)}`
      let dist = distributions.get(distKey)?.[0]
      if (!dist) {
        // Dropped or never drawn: the stream is named by slice and metric, so a redraw gives the same bytes.
        const cols = seedColumns(table, seeds, metric, engine.members(filters))
        dist = sortedResamples(
          seedBootstrap(
            cols,
            rules.statistics.resamples,
            rules.statistics.seed,
            `${filterKey(filters)}\u0000${metric}\u0000seeds`
          )
        )
        distributions.set(distKey, [dist])
      }
      const note = `two-level bootstrap over ${count.baseline} baseline and ${count.candidate} candidate seeds, then queries; ${FIXED}`
      const out: Comparison = { ...overSeeds(c, percentileInterval(dist, confidence), [note]), interval: 'percentile' }
      cache.set(key, out)
      return out
    }
  }
}

/**
 * A comparison whose interval is the t interval over seeds and queries (src/capabilities/seeds/interval.ts), the default
 * (statistics.interval auto). Its notes say whose training variance was measured and whose was assumed.
 */
function seedTComparison(
  c: Comparison,
  columns: SeedColumns,
  confidence: number,
  count: { baseline: number; candidate: number }
): Comparison {
  const t = seedInterval(columns, confidence)
  if (t === null) return { ...c, pValue: null, test: null, gained: null, lost: null, notes: [...c.notes] }
  const seedsWords = `${count.baseline} baseline and ${count.candidate} candidate seeds`
  const [one, other] = t.training === 'assumed_from_candidate' ? ['baseline', 'candidate'] : ['candidate', 'baseline']
  const note =
    t.training === 'measured'
      ? `t interval over ${seedsWords} and the queries (training variance measured on both sides; ${dfWords(t.df)})`
      : `t interval over ${seedsWords} and the queries (${dfWords(t.df)}); the ${one} has one seed, so its training variance was not measured: it is taken to be the ${other}'s`
  const out = overSeeds(c, t.ci, [note, FIXED])
  const widened = out.ci[0] !== t.ci[0] || out.ci[1] !== t.ci[1] ? 'student' : null
  return { ...out, interval: 'seeds-t', widened, se: t.se, df: t.df }
}

/** What every interval over seeds leaves as it was (the notes say so). */
const FIXED = 'the randomization test and the t cross-check see the seed-averaged values as fixed'

/**
 * `c` with an interval over seeds and queries: never narrower than the queries' own interval (the law on the
 * seed-averaged rows, its shared bounds included: seeds can only add the training noise, never take away what the
 * queries showed), and without the test and the gained / lost counts, which see the seed-averaged values as fixed.
 */
function overSeeds(c: Comparison, drawn: [number, number], notes: string[]): Comparison {
  const ci = hull(drawn, c.ci)
  const dropped = { intervalNote: null, pValue: null, test: null, gained: null, lost: null }
  return { ...c, ci, ownCi: hull(drawn, c.ownCi), ...dropped, notes: [...c.notes, ...notes] }
}

const dfWords = (df: number): string =>
  `Satterthwaite's ${df >= 100 ? Math.round(df) : Math.round(df * 10) / 10} degrees of freedom`

/**
 * The rules the seed-averaged rows are gated under. With several seeds on a side it first refuses what the
 * intervals over seeds do not model (clusters, target weights, McNemar checks), then declares every metric
 * not binary: averaged over seeds a hit is a share of seeds (each seed's own 0/1 values were checked when
 * averaged, src/align/seeds.ts). With one file per side the rules are returned as they are.
 */
export function seedRules(rules: Rules): Rules {
  if (!seedsDeclared(rules.statistics)) return rules
  refuseUnmodelled(rules)
  return { ...rules, metrics: new Map([...rules.metrics].map(([name, m]) => [name, { ...m, binary: false }])) }
}

/** Per seed, the metric's values over `members` (in the table's order); see the seed-averaged rows in align/seeds.ts. */
export function seedColumns(table: PairedTable, seeds: SeedSides, metric: string, members: Int32Array): SeedColumns {
  const { base, cand } = table.metrics.get(metric) as { base: Float64Array; cand: Float64Array }
  const subset = { table, metric, members }
  return { base: sideColumns(seeds.baseline, base, subset), cand: sideColumns(seeds.candidate, cand, subset) }
}

/** The metric and queries (rows of the paired table, in its order) whose seed columns are read. */
interface SeedSubset {
  table: PairedTable
  metric: string
  members: Int32Array
}

/**
 * A query whose value is missing in a seed (or, under queries.missing: zero, absent from the whole side) takes
 * the paired table's value for every seed of the side: the filled value the averaged rows were given, so the
 * seed columns average to exactly the table's column.
 */
function sideColumns(files: SideRows[], filled: Float64Array, subset: SeedSubset): Float64Array[] {
  const { table, metric, members } = subset
  const columns = files.map((f) => f.values.get(metric))
  const out = files.map(() => new Float64Array(members.length))
  for (let j = 0; j < members.length; j++) {
    const i = members[j]
    const id = table.ids[i]
    const values = files.map((f, s) => {
      const row = f.index.get(id)
      const v = row === undefined ? undefined : columns[s]?.[row]
      return v === undefined || Number.isNaN(v) ? undefined : v
    })
    const complete = files.length > 1 && values.every((v) => typeof v === 'number')
    for (let s = 0; s < files.length; s++) {
      const v = values[s]
      out[s][j] = complete && typeof v === 'number' ? v : filled[i]
    }
  }
  return out
}

function refuseUnmodelled(rules: Rules): void {
  const file = rules.source.file
  const hint = 'with several seed files per side the interval covers seeds and independent queries'
  if (rules.statistics.cluster !== undefined)
    throw new InputError(
      { file, key: 'statistics.cluster' },
      'clusters are not resampled together with seed replicates',
      `${hint}: drop statistics.cluster, or gate one seed per side`
    )
  if (rules.statistics.weights !== undefined)
    throw new InputError(
      { file, key: 'statistics.weights' },
      'target weights are not applied together with seed replicates',
      `${hint}: drop statistics.weights, or gate one seed per side`
    )
  for (const check of rules.checks) {
    if (check.kind.type === 'superior' && check.kind.test === 'mcnemar') {
      throw new InputError(
        { file, key: `checks[${check.index}].superior.test` },
        `check ${quote(check.name)} uses McNemar, which needs one 0/1 outcome per query; averaged over seeds a hit is a share`,
        'use superior: { test: bootstrap } with seed replicates (its interval covers seeds and queries), or gate one seed per side'
      )
    }
    // The t and randomization tests, and an at_least / at_most level's t interval, see the seed-averaged values as fixed.
    if (
      (check.kind.type === 'superior' && (check.kind.test === 't' || check.kind.test === 'randomization')) ||
      check.kind.type === 'level'
    ) {
      const key = check.kind.type === 'level' ? check.kind.bound : 'superior.test'
      throw new InputError(
        { file, key: `checks[${check.index}].${key}` },
        `check ${quote(check.name)} ${check.kind.type === 'level' ? "judges the candidate's mean on a t interval" : `gates on the ${check.kind.test === 't' ? 'paired t-test' : 'randomization test'}`}, which treats the seed-averaged values as fixed and would ignore the training noise between seeds`,
        'use a non_inferior or superior: { test: bootstrap } check with seed replicates (its interval covers seeds and queries), or gate one seed per side'
      )
    }
  }
}

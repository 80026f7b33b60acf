import { subsetFamilies, subsetFilters } from '../config/aggregates-plan.js'
import type { CheckRule, Rules } from '../config/types.js'
import { InputError } from '../errors.js'
import type { Aggregates, StratumSums, SubsetSums } from '../model/aggregates.js'
import { quote } from '../util/show.js'
import { bcaInterval, percentileInterval, type Interval } from './bca.js'
import { COUNTS_PER_GROUP, multinomialJob } from './bootstrap.js'
import { histogramGroups } from './histogram-bootstrap.js'
import type { Comparison, StatsEngine, StatsOptions } from './compare.js'
import { compareFrom, levelFrom, type ColumnEvidence, type SubsetFacts } from './comparison.js'
import type { Stratum } from './design.js'
import { acceleration, summarise, type StratumMoments } from './moments.js'
import { countsCost, FLIP_COST, signCountJob, signFlipPlan, type AbsGroups } from './randomization.js'
import {
  HISTOGRAM_MAX_VALUES,
  HISTOGRAM_SHARE,
  POISSON_FROM_UNITS,
  resamplingLaw,
  type ColumnLaw
} from './resampling.js'
import { filterKey, type Filters } from './subsets.js'
import { createRunner, defaultThreads } from './threads.js'

/**
 * The statistics engine over a warehouse's aggregates (src/readers/aggregates.ts) instead of rows: every comparison
 * the rows engine (src/stats/compare.ts) makes, from the same sums, by the same formulas, in the same order:
 *
 * - exactly the same: every count (W/L/T, gained and lost, McNemar's p, regressions), the resamples of a metric
 *   drawn by counts (from its histogram, as src/stats/histogram-bootstrap.ts draws them: the same groups, streams
 *   and kernel) and its sign-count test;
 * - the same up to the order of floating-point additions (docs/scale.md gives the tolerance): the means, the
 *   t interval and standard error (from the centred moments), BCa's acceleration, the Poisson resamples
 *   (Σ_s W_s Σ w·d / Σ w per stratum) and the hashed sign-flip test (Σ_s f_s (Σ d − 2 Σ_minus d)).
 *
 * The rows path has two more things this one cannot have: per-query differences (so no regressed-query lists) and
 * the multinomial draws of a metric with many distinct values (below {@link POISSON_FROM_UNITS} queries `auto` draws
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
  const byKey = new Map<string, SubsetSums>()
  const valuesByFamily = new Map<number, string[]>()
  for (const s of aggregates.subsets) {
    byKey.set(filterKey(subsetFilters(families[s.family], s.value)), s)
    if (families[s.family].by !== undefined)
      valuesByFamily.set(s.family, [...(valuesByFamily.get(s.family) ?? []), s.value])
  }
  const all = byKey.get('all')
  const units = all ? all.strata.reduce((n, st) => n + st.n, 0) : 0
  const law = resamplingLaw(statistics.method, units)
  checkWeights(rules, all)
  const cache = new Map<string, Comparison>()
  const subsetCache = new Map<string, SubsetStats>()
  const labels = new Map<string, string>()
  const refused = (c: number, key: string, n: number, what: string): never =>
    refuseMultinomial(rules, metrics[c].name, { subset: labels.get(key) ?? key, n, units, what })

  const subsetOf = (filters: Filters): SubsetSums | undefined => byKey.get(filterKey(filters))

  const familyOf = (filters: Filters, attr: string): number => {
    const where = [...filters].map(([k, v]) => `${k}=${v}`).join('&')
    const f = families.findIndex((x) => x.by === attr && x.where.map(([k, v]) => `${k}=${v}`).join('&') === where)
    if (f < 0) throw new Error(`no family ${where} by ${attr}`)
    return f
  }

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
    const label = filters.length === 0 ? 'all queries' : filters.map(([k, v]) => `${k} = ${v}`).join(', ')
    const strata = designStrata(subset, rules, label)
    const n = strata.strata.reduce((a, st) => a + st.size, 0)
    labels.set(key, label)
    // The test first: every report has it, so a refusal for a law that needs the rows names what the report makes.
    const randomization = randomizationOf(strata, key, n)
    const resamples = metrics.map((_, c) => resamplesOf(strata, c, key, n))
    return { strata, n, resamples, randomization, intervals: new Map() }
  }

  function resamplesOf(d: DesignStrata, c: number, key: string, n: number): { values: Float64Array; law: ColumnLaw } {
    const B = statistics.resamples
    if (n === 0) return { values: new Float64Array(B).fill(Number.NaN), law: 'multinomial' }
    if (n === d.strata.length) {
      let e = 0
      for (const s of d.strata) e += (s.weight * (0 + s.sums.metrics[c].sum)) / s.size
      return { values: Float64Array.of(e), law: 'multinomial' }
    }
    const hist = d.strata.map((s) => s.sums.metrics[c].histogram)
    const complete = hist.every((h) => h !== null)
    const groups = complete ? histogramGroups(hist) : null
    const distinct = complete ? hist.reduce((a, h) => a + h.values.length, 0) : Infinity
    const fewGroups = groups !== null && groups.values.length * COUNTS_PER_GROUP <= n
    const byCounts =
      law === 'multinomial'
        ? fewGroups
        : statistics.method !== 'poisson' &&
          fewGroups &&
          distinct * HISTOGRAM_SHARE <= n &&
          distinct <= HISTOGRAM_MAX_VALUES
    if (byCounts && groups !== null) {
      const out = new Float64Array(B)
      const job = multinomialJob({
        grouped: [groups],
        columns: [c],
        strata: d.strata.map((s) => ({ size: s.size, weight: s.weight })),
        ratio: false,
        resamples: B,
        seed: statistics.seed,
        stream: key,
        out
      })
      runner.run([job])
      return { values: out, law: 'multinomial' }
    }
    if (law === 'multinomial')
      refused(c, key, n, 'its bootstrap (statistics.interval asks for one) draws query by query, which needs the rows')
    if (aggregates.sums === 'histograms') refuseNoSums(rules, metrics[c].name)
    const out = new Float64Array(B)
    for (const s of d.strata) {
      const sums = s.sums.metrics[c].poisson
      const w = s.sums.weights
      // The kernel's term of a stratum that drew no unit: weight · (its sum / its size).
      const mean = s.weight * (s.sums.metrics[c].sum / s.size)
      for (let b = 0; b < B; b++) out[b] += w[b] > 0 ? (s.weight * sums[b]) / w[b] : mean
    }
    return { values: out, law: 'poisson' }
  }

  function randomizationOf(
    d: DesignStrata,
    key: string,
    n: number
  ): { pValues: Float64Array; permutations: number; exact: boolean } {
    const k = metrics.length
    const P = statistics.permutations
    if (n === 0) return { pValues: new Float64Array(k).fill(1), permutations: 0, exact: true }
    const stream = `${key}\u0000flip`
    const pValues = new Float64Array(k)
    let exact = false
    let permutations = P
    for (let c = 0; c < k; c++) {
      const ys: number[] = []
      const hist = d.strata.map((s) => s.sums.metrics[c].histogram)
      const f = d.strata.map((s) => s.weight / s.size)
      let observed = 0
      let absSum = 0
      d.strata.forEach((s, si) => {
        observed += f[si] * s.sums.metrics[c].sum
        absSum += f[si] * s.sums.metrics[c].sumAbs
      })
      observed = Math.abs(observed)
      const tol = 1e-9 * absSum
      if (n <= 20 && 2 ** n <= Math.max(P, 1)) {
        // Every sign pattern, from the units' values (the histogram of so few queries is always sent), stratum by stratum.
        hist.forEach((h) =>
          (h as NonNullable<typeof h>).values.forEach((v, i) => {
            for (let j = 0; j < (h as NonNullable<typeof h>).counts[i]; j++) ys.push(v)
          })
        )
        const strata = d.strata.map((s) => ({
          value: s.value,
          start: s.start,
          size: s.size,
          queries: s.queries,
          weight: s.weight,
          observedShare: s.observedShare
        }))
        const design = {
          k: 1,
          units: ys.length,
          values: Float64Array.from(ys),
          counts: null,
          strata,
          clusters: null,
          unitOfMember: new Int32Array(ys.length),
          notes: []
        }
        const r = signFlipPlan(design, { permutations: P, seed: statistics.seed, stream }).finish()
        pValues[c] = r.pValues[0]
        exact = true
        permutations = r.permutations
        continue
      }
      const abs = absGroupsFrom(hist, f)
      const distinct = hist.every((h) => h !== null) ? hist.reduce((a, h) => a + h.values.length, 0) : Infinity
      const cheap = abs !== null && countsCost(abs.multiplicity) <= FLIP_COST * Math.ceil(n / 4)
      const byCounts =
        cheap && (law === 'multinomial' || (distinct * HISTOGRAM_SHARE <= n && distinct <= HISTOGRAM_MAX_VALUES))
      if (byCounts && abs !== null) {
        const job = signCountJob({
          grouped: [abs],
          columns: [c],
          observed: Float64Array.of(observed),
          tol: Float64Array.of(tol),
          permutations: P,
          seed: statistics.seed,
          stream
        })
        runner.run([job])
        let hits = 0
        for (let b = 0; b < job.blocks; b++) hits += job.out[b]
        pValues[c] = (hits + 1) / (P + 1)
        continue
      }
      if (law === 'multinomial')
        refused(c, key, n, 'its randomization test flips a sign per query, which needs the rows')
      if (aggregates.sums === 'histograms') refuseNoSums(rules, metrics[c].name)
      let hits = 0
      const limit = observed - tol
      for (let p = 0; p < P; p++) {
        let t = 0
        d.strata.forEach((s, si) => (t += f[si] * (s.sums.metrics[c].sum - 2 * s.sums.metrics[c].minus[p])))
        if (Math.abs(t) >= limit) hits++
      }
      pValues[c] = (hits + 1) / (P + 1)
    }
    return { pValues, permutations: exact ? permutations : P, exact }
  }

  // The bootstrap is read only when the rules ask for a bootstrap interval; auto's intervals are in closed form,
  // from the counts and moments every shard sends (src/stats/closed-form-interval.ts, as from rows).
  const intervalOf = (s: SubsetStats, c: number, confidence: number, method: 'percentile' | 'bca'): Interval => {
    let list = s.intervals.get(confidence)
    if (!list) {
      list = metrics.map((_, col) => {
        const sorted = s.resamples[col].values.slice().sort()
        if (method === 'bca') {
          const d = differenceMoments(s.strata, col)
          return bcaInterval(sorted, summarise(d).estimate, acceleration(d), confidence)
        }
        return { ci: percentileInterval(sorted, confidence), method: 'percentile' as const, note: null }
      })
      s.intervals.set(confidence, list)
    }
    return list[c]
  }

  /** A metric's sufficient statistics in a subset, as the rows' engine gathers them (src/stats/comparison.ts decides). */
  function evidenceOf(s: SubsetStats, col: number, confidence: number): ColumnEvidence {
    const sumOf = (pick: (m: StratumSums['metrics'][number]) => number): number =>
      s.strata.strata.reduce((a, st) => a + pick(st.sums.metrics[col]), 0)
    const bootstrap = statistics.interval !== 'auto'
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
      resampled: bootstrap
        ? {
            interval: intervalOf(s, col, confidence, statistics.interval as 'percentile' | 'bca'),
            law: s.resamples[col].law
          }
        : null,
      randomization: {
        pValue: s.randomization.pValues[col],
        permutations: s.randomization.permutations,
        exact: s.randomization.exact
      }
    }
  }

  function ruleOf(metric: string): { col: number; rule: (typeof metrics)[number] } {
    const col = metrics.findIndex((m) => m.name === metric)
    if (col < 0) throw new Error(`unknown metric ${metric}`)
    return { col, rule: metrics[col] }
  }

  function compareUncached(metric: string, filters: Filters, confidence: number): Comparison {
    const { col, rule } = ruleOf(metric)
    const s = stats(filters)
    return compareFrom(
      { metric: rule, slice: filters, confidence, statistics },
      factsOf(s),
      evidenceOf(s, col, confidence)
    )
  }

  return {
    members: () => new Int32Array(0),
    differences: () => new Float64Array(0),
    level(metric, filters, confidence) {
      const { col, rule } = ruleOf(metric)
      const s = stats(filters)
      return levelFrom(
        { metric: rule, slice: filters, confidence, statistics },
        factsOf(s),
        evidenceOf(s, col, confidence)
      )
    },
    compare(metric, filters, confidence = statistics.confidence) {
      const key = `${metric}\u0000${filterKey(filters)}\u0000${confidence}`
      let c = cache.get(key)
      if (!c) cache.set(key, (c = compareUncached(metric, filters, confidence)))
      return c
    },
    valuesOf(attr, filters) {
      return [...(valuesByFamily.get(familyOf(filters, attr)) ?? [])].filter(
        (v) =>
          subsetOf([...filters, [attr, v] as const].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))) !==
          undefined
      )
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

/** A subset's strata as the design would hold them: present strata (sorted), their size, renormalised weight, notes. */
interface DesignStrata {
  strata: Array<Stratum & { sums: StratumSums }>
  notes: string[]
}

interface SubsetStats {
  strata: DesignStrata
  n: number
  resamples: Array<{ values: Float64Array; law: ColumnLaw }>
  randomization: { pValues: Float64Array; permutations: number; exact: boolean }
  intervals: Map<number, Interval[]>
}

/** The strata and the design's notes, as src/stats/design.ts builds them from rows (same words). */
function designStrata(subset: SubsetSums | undefined, rules: Rules, label: string): DesignStrata {
  const weights = rules.statistics.weights
  const present = subset?.strata ?? []
  const m = present.reduce((a, s) => a + s.n, 0)
  const targetOf = new Map(weights?.target ?? [])
  let targetPresent = 0
  for (const s of present) targetPresent += weights ? (targetOf.get(s.value) as number) : 1
  const notes: string[] = []
  let start = 0
  const strata = present.map((s) => {
    const weight = weights ? (targetOf.get(s.value) as number) / targetPresent : 1
    const stratum = {
      value: weights ? s.value : null,
      start,
      size: s.n,
      queries: s.n,
      weight,
      observedShare: s.n / m,
      sums: s
    }
    start += s.n
    if (s.n === 1 && m > 1)
      notes.push(
        `${weights ? `${weights.by} = ${s.value}` : label} has a single query: its variability cannot be estimated and is counted as none`
      )
    return stratum
  })
  if (weights && m > 0 && targetPresent === 0) {
    notes.push(
      `every query here has a target weight of 0 for ${weights.by} (${present.map((s) => s.value).join(', ')}): these queries are outside the target population, so the weighted statistics are undefined`
    )
  } else if (weights && present.length < weights.target.length && m > 0) {
    const absent = weights.target.filter(([v]) => !present.some((s) => s.value === v)).map(([v]) => v)
    notes.push(
      `no queries with ${weights.by} = ${absent.join(', ')} here: the target weights were renormalised over the values present`
    )
  }
  return { strata, notes }
}

/** The distinct nonzero |y| (y = weight / size · d) of a column and how many queries hold each, or null without histograms. */
function absGroupsFrom(
  hist: ReadonlyArray<{ values: Float64Array; counts: Float64Array } | null>,
  f: readonly number[]
): AbsGroups | null {
  if (hist.some((h) => h === null)) return null
  const pairs: Array<[number, number]> = []
  hist.forEach((h, si) =>
    (h as NonNullable<typeof h>).values.forEach((v, i) =>
      pairs.push([Math.abs(f[si] * v), (h as NonNullable<typeof h>).counts[i]])
    )
  )
  pairs.sort((a, b) => a[0] - b[0])
  const values: number[] = []
  const mult: number[] = []
  for (const [v, n] of pairs) {
    if (!Number.isFinite(v)) return null
    if (v === 0) continue
    if (values.length > 0 && values[values.length - 1] === v) mult[mult.length - 1] += n
    else {
      values.push(v)
      mult.push(n)
    }
  }
  return { values: Float64Array.from(values), multiplicity: Float64Array.from(mult) }
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

/** The target weights describe the data (src/stats/compare.ts refuses the same from rows). */
function checkWeights(rules: Rules, all: SubsetSums | undefined): void {
  const weights = rules.statistics.weights
  if (!weights) return
  const present = new Set((all?.strata ?? []).map((s) => s.value))
  const file = rules.source.file
  for (const [v] of weights.target) {
    if (!present.has(v))
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
  const named = new Set(weights.target.map(([v]) => v))
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

/** What a refusal of the multinomial law names: the subset, its queries, all the queries, and what needs the rows. */
interface MultinomialRefusal {
  subset: string
  n: number
  units: number
  what: string
}

function refuseMultinomial(rules: Rules, metric: string, at: MultinomialRefusal): never {
  const method = rules.statistics.method ?? 'auto'
  const why =
    method === 'auto'
      ? `these aggregates hold ${at.units} queries, fewer than the ${POISSON_FROM_UNITS} from which statistics.method auto uses Poisson weights`
      : 'statistics.method is multinomial'
  throw new InputError(
    { file: rules.source.file, key: 'statistics.method' },
    `${metric} in ${at.subset} (${at.n} queries) has too many distinct differences to be drawn by counts from its histogram; ${why}, and then ${at.what}`,
    'set statistics.method: poisson (its weights are computed where the rows are), or gate the rows themselves'
  )
}

function refuseNoSums(rules: Rules, metric: string): never {
  throw new InputError(
    { file: rules.source.file, key: `metrics.${metric}` },
    `${metric} has too many distinct differences to be drawn from its histogram, and these aggregates were computed without the Poisson and sign sums (sql --histograms-only)`,
    'write the SQL without --histograms-only and run it again'
  )
}

import type { Rules } from '../config/types.js'
import { InputError } from '../errors.js'
import { quote } from '../util/show.js'
import type { Aggregates, StratumSums } from '../model/aggregates.js'
import { COUNTS_PER_GROUP, histogramGroups, multinomialJob } from './bootstrap.js'
import type { Stratum } from './design.js'
import { countsCost, EXACT_UNITS, FLIP_COST, signCountJob, signFlipPlan, type AbsGroups } from './randomization.js'
import { fewOf, POISSON_FROM_UNITS, type ColumnLaw, type ResamplingLaw } from './resampling.js'
import type { KernelRunner } from './threads.js'

/**
 * The draws of a subset from a warehouse's sums: its bootstrap resamples and its randomization test, by counts from
 * the histograms where the rows' engine would draw by counts (the same groups, streams and kernels, so the same
 * values to the bit), else from the Poisson and sign sums the SQL computed where the rows are.
 */

/** A subset's strata as the design would hold them: present strata (sorted), their size, renormalised weight, notes. */
export interface DesignStrata {
  strata: Array<Stratum & { sums: StratumSums }>
  notes: string[]
}

/** What the draws read besides the subset: the rules, the aggregates, the law and the kernels' runner. */
export interface SumsContext {
  rules: Rules
  aggregates: Aggregates
  law: ResamplingLaw
  runner: KernelRunner
  /** All the queries of the aggregates (a refusal names them). */
  units: number
  /** The label of a subset's key, for refusals. */
  labelOf(key: string): string
}

/** A metric's resamples in a subset, and the law that drew them. */
export function resamplesFromSums(
  ctx: SumsContext,
  d: DesignStrata,
  at: { c: number; key: string; n: number }
): { values: Float64Array; law: ColumnLaw } {
  const { c, key, n } = at
  const statistics = ctx.rules.statistics
  const B = statistics.resamples
  if (n === 0) return { values: new Float64Array(B).fill(Number.NaN), law: 'multinomial' }
  if (n === d.strata.length) {
    let e = 0
    for (const s of d.strata) e += (s.weight * (0 + s.sums.metrics[c].sum)) / s.size
    return { values: Float64Array.of(e), law: 'multinomial' }
  }
  const hist = d.strata.map((s) => s.sums.metrics[c].histogram)
  const groups = hist.every((h) => h !== null) ? histogramGroups(hist) : null
  const fewGroups = groups !== null && groups.values.length * COUNTS_PER_GROUP <= n
  const byCounts =
    ctx.law === 'multinomial' ? fewGroups : statistics.method !== 'poisson' && fewGroups && fewOf(distinctIn(hist), n)
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
    ctx.runner.run([job])
    return { values: out, law: 'multinomial' }
  }
  if (ctx.law === 'multinomial')
    refuse(ctx, at, 'its bootstrap (statistics.interval asks for one) draws query by query, which needs the rows')
  if (ctx.aggregates.sums === 'histograms') refuseNoSums(ctx.rules, metricName(ctx, c))
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

/** The randomization test of a subset, every metric: its p-values, the patterns drawn, whether they were all. */
export function randomizationFromSums(
  ctx: SumsContext,
  d: DesignStrata,
  at: { key: string; n: number }
): { pValues: Float64Array; permutations: number; exact: boolean } {
  const k = ctx.rules.metrics.size
  const P = ctx.rules.statistics.permutations
  if (at.n === 0) return { pValues: new Float64Array(k).fill(1), permutations: 0, exact: true }
  const pValues = new Float64Array(k)
  let exact = false
  let permutations = P
  for (let c = 0; c < k; c++) {
    if (at.n <= EXACT_UNITS && 2 ** at.n <= Math.max(P, 1)) {
      const r = everyPattern(ctx, d, { c, key: at.key })
      pValues[c] = r.pValue
      exact = true
      permutations = r.permutations
    } else pValues[c] = drawnPatterns(ctx, d, { c, ...at })
  }
  return { pValues, permutations: exact ? permutations : P, exact }
}

/** The observed |statistic| of a column, and the tolerance of ties (1e-9 of the sum of |y|). */
function observedOf(d: DesignStrata, c: number): { f: number[]; observed: number; tol: number } {
  const f = d.strata.map((s) => s.weight / s.size)
  let observed = 0
  let absSum = 0
  d.strata.forEach((s, si) => {
    observed += f[si] * s.sums.metrics[c].sum
    absSum += f[si] * s.sums.metrics[c].sumAbs
  })
  return { f, observed: Math.abs(observed), tol: 1e-9 * absSum }
}

/** Every sign pattern, from the units' values (the histogram of so few queries is always sent), stratum by stratum. */
function everyPattern(
  ctx: SumsContext,
  d: DesignStrata,
  at: { c: number; key: string }
): { pValue: number; permutations: number } {
  const ys: number[] = []
  for (const s of d.strata) {
    const h = s.sums.metrics[at.c].histogram
    // The SQL always sends the histogram of so few queries: aggregates without it were not written by it.
    if (h === null)
      throw new InputError(
        { file: ctx.aggregates.source, key: `histogram ${metricName(ctx, at.c)}` },
        `${ctx.labelOf(at.key)} has ${d.strata.reduce((a, t) => a + t.size, 0)} queries, so its randomization test takes every sign pattern of their differences, but these aggregates hold no histogram of ${quote(metricName(ctx, at.c))} there`,
        'pass the result of the statement `retrieval-gate sql --rules RULES` writes, unchanged (it sends the histogram of every subset of so few queries)'
      )
    h.values.forEach((v, i) => {
      for (let j = 0; j < h.counts[i]; j++) ys.push(v)
    })
  }
  const design = {
    k: 1,
    units: ys.length,
    values: Float64Array.from(ys),
    counts: null,
    strata: d.strata,
    clusters: null,
    unitOfMember: new Int32Array(ys.length),
    notes: []
  }
  const { permutations, seed } = ctx.rules.statistics
  const r = signFlipPlan(design, { permutations, seed, stream: `${at.key}\u0000flip` }).finish()
  return { pValue: r.pValues[0], permutations: r.permutations }
}

/** Drawn sign patterns: by counts of |y| where the rows' engine would, else from the SQL's hashed sign sums. */
function drawnPatterns(ctx: SumsContext, d: DesignStrata, at: { c: number; key: string; n: number }): number {
  const { c, n } = at
  const P = ctx.rules.statistics.permutations
  const hist = d.strata.map((s) => s.sums.metrics[c].histogram)
  const { f, observed, tol } = observedOf(d, c)
  const abs = absGroupsFrom(hist, f)
  const cheap = abs !== null && countsCost(abs.multiplicity) <= FLIP_COST * Math.ceil(n / 4)
  const byCounts = cheap && (ctx.law === 'multinomial' || fewOf(distinctIn(hist), n))
  if (byCounts && abs !== null) {
    const job = signCountJob({
      grouped: [abs],
      columns: [c],
      observed: Float64Array.of(observed),
      tol: Float64Array.of(tol),
      permutations: P,
      seed: ctx.rules.statistics.seed,
      stream: `${at.key}\u0000flip`
    })
    ctx.runner.run([job])
    let hits = 0
    for (let b = 0; b < job.blocks; b++) hits += job.out[b]
    return (hits + 1) / (P + 1)
  }
  if (ctx.law === 'multinomial') refuse(ctx, at, 'its randomization test flips a sign per query, which needs the rows')
  if (ctx.aggregates.sums === 'histograms') refuseNoSums(ctx.rules, metricName(ctx, c))
  let hits = 0
  const limit = observed - tol
  for (let p = 0; p < P; p++) {
    let t = 0
    d.strata.forEach((s, si) => (t += f[si] * (s.sums.metrics[c].sum - 2 * s.sums.metrics[c].minus[p])))
    if (Math.abs(t) >= limit) hits++
  }
  return (hits + 1) / (P + 1)
}

/** A column's distinct values over the strata's histograms (Infinity when some stratum sent none). */
function distinctIn(hist: ReadonlyArray<{ values: Float64Array } | null>): number {
  return hist.every((h) => h !== null) ? hist.reduce((a, h) => a + (h?.values.length ?? 0), 0) : Infinity
}

function metricName(ctx: SumsContext, c: number): string {
  return [...ctx.rules.metrics.values()][c].name
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

/** A multinomial law refused: what needs the rows (`what`) in this subset, and why the law is multinomial. */
function refuse(ctx: SumsContext, at: { c: number; key: string; n: number }, what: string): never {
  const rules = ctx.rules
  const metric = metricName(ctx, at.c)
  const method = rules.statistics.method ?? 'auto'
  const why =
    method === 'auto'
      ? `these aggregates hold ${ctx.units} queries, fewer than the ${POISSON_FROM_UNITS} from which statistics.method auto uses Poisson weights`
      : 'statistics.method is multinomial'
  throw new InputError(
    { file: rules.source.file, key: 'statistics.method' },
    `${metric} in ${ctx.labelOf(at.key)} (${at.n} queries) has too many distinct differences to be drawn by counts from its histogram; ${why}, and then ${what}`,
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

import type { PairedTable } from '../align/pair.js'
import type { StatisticsRules } from '../config/types.js'
import { InputError } from '../errors.js'
import { quote, quoteList } from '../util/show.js'
import { workerArray } from './threads.js'

/** Local bindings: a global lookup of Math per call is slow in some hosts (Jest's vm context: 100x). */
const { abs } = Math

/** One stratum of a design: a contiguous run of units, resampled among themselves. */
export interface Stratum {
  /** The stratum's value of `statistics.weights.by`, or null when the design has no strata. */
  value: string | null
  /** First unit and number of units. */
  start: number
  size: number
  /** Queries in the stratum. */
  queries: number
  /** Weight in the estimate (the target share, renormalised over the strata present; 1 without weights). */
  weight: number
  /** The stratum's share of the subset's queries (the observed mix). */
  observedShare: number
}

/**
 * How a subset of queries is resampled and summarised: the units drawn (clusters, or single queries),
 * grouped by stratum, and per unit one value per column. The estimate of a column is
 *
 *   Σ_s weight_s · (Σ_{u in s} value_u) / denominator_s
 *
 * where value_u is the unit's sum and denominator_s the stratum's number of queries (query-weighted, the
 * default), or value_u is the unit's mean and denominator_s its number of units (cluster-weighted).
 * Without clusters or weights this is the plain mean over queries. Every method (bootstrap, BCa
 * jackknife, randomization, t interval, power) reads this one structure, so they cannot disagree about
 * what the statistic is.
 */
export interface Design {
  /** Number of columns (metrics). */
  k: number
  /** Number of units. */
  units: number
  /** Row-major: values[u * k + c]. */
  values: Float64Array
  /** Queries per unit when the estimator is a ratio (query-weighted clusters); null when each unit counts once. */
  counts: Float64Array | null
  strata: Stratum[]
  /** Number of clusters, or null when queries are resampled one by one. */
  clusters: number | null
  /** For each member (in the subset's order), the unit it belongs to. */
  unitOfMember: Int32Array
  /** Facts about the design the report must show (single-unit strata, renormalised weights). */
  notes: string[]
}

const byCode = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0)

/** The rules a design is built under, and the words its notes and refusals use. */
export interface DesignOptions {
  /** statistics.cluster, statistics.weights and statistics.cluster_weighting shape the design. */
  statistics: StatisticsRules
  /** The subset as a note names it ("segment = new"); default "all queries". */
  label?: string
  /** The rules file a refusal names (statistics.cluster against statistics.weights). */
  rulesFile?: string
}

/**
 * Builds the design of a subset for the given columns (per-query values aligned with the table). Units
 * and strata are ordered by their attribute values (code-unit order) and queries by the table's fixed
 * order, so the design depends on nothing but the data.
 */
export function buildDesign(
  table: PairedTable,
  members: Int32Array,
  columns: Float64Array[],
  options: DesignOptions
): Design {
  const { statistics, label: subsetLabel = 'all queries', rulesFile } = options
  const k = columns.length
  const m = members.length
  const weights = statistics.weights
  const clusterAttr = statistics.cluster
  const stratumCol = weights ? (table.attrs.get(weights.by) as string[]) : null
  const clusterCol = clusterAttr !== undefined ? (table.attrs.get(clusterAttr) as string[]) : null
  const clusterWeighted = clusterCol !== null && statistics.clusterWeighting === 'cluster'

  // Group member positions by stratum, then by unit.
  const strataMap = new Map<string, number[]>()
  for (let j = 0; j < m; j++) {
    const v = stratumCol ? stratumCol[members[j]] : ''
    let list = strataMap.get(v)
    if (!list) strataMap.set(v, (list = []))
    list.push(j)
  }
  const strataValues = [...strataMap.keys()].sort(byCode)
  const unitMembers: number[][] = []
  // Without clusters every unit is one member: their positions in unit order, flat (no array per query: at 10^6
  // queries the million one-element arrays were 40 MB of garbage per design).
  const single: number[] = []
  const unitCount = (): number => (clusterCol ? unitMembers.length : single.length)
  const clusterStratum = new Map<string, string>()
  const sizes: Array<{ value: string; size: number; queries: number }> = []
  for (const sv of strataValues) {
    const positions = strataMap.get(sv) as number[]
    const start = unitCount()
    if (clusterCol) {
      const byCluster = new Map<string, number[]>()
      for (const j of positions) {
        const cv = clusterCol[members[j]]
        const seen = clusterStratum.get(cv)
        if (seen !== undefined && seen !== sv && weights) {
          throw new InputError(
            { file: rulesFile, key: 'statistics.cluster' },
            `cluster ${clusterAttr} = ${quote(cv)} has queries in ${weights.by} = ${quote(seen)} and ${weights.by} = ${quote(sv)}; clusters are resampled within strata, so each must lie in one stratum`,
            `choose a weights.by attribute that is constant within each ${clusterAttr}, or drop one of statistics.cluster / statistics.weights`
          )
        }
        clusterStratum.set(cv, sv)
        let list = byCluster.get(cv)
        if (!list) byCluster.set(cv, (list = []))
        list.push(j)
      }
      for (const cv of [...byCluster.keys()].sort(byCode)) unitMembers.push(byCluster.get(cv) as number[])
    } else {
      for (const j of positions) single.push(j)
    }
    sizes.push({ value: sv, size: unitCount() - start, queries: positions.length })
  }
  const { strata, notes } = strataOf(weights, sizes, { label: subsetLabel, unit: clusterCol ? 'cluster' : 'query' })
  const units = unitCount()
  const values = workerArray(units * k)
  const counts = clusterCol && !clusterWeighted ? new Float64Array(units) : null
  const unitOfMember = new Int32Array(m)
  const at = { members, columns, values, unitOfMember }
  if (!clusterCol) {
    singleValues(single, at)
    return { k, units, values, counts, strata, clusters: null, unitOfMember, notes }
  }
  clusterValues(unitMembers, { ...at, counts, clusterWeighted })
  return { k, units, values, counts, strata, clusters: units, unitOfMember, notes }
}

/** Where unit values are written: the subset's members, the columns, the design's values and each member's unit. */
interface UnitValues {
  members: Int32Array
  columns: Float64Array[]
  values: Float64Array
  unitOfMember: Int32Array
}

/** One member per unit: its value as the compensated sum of one term gives it (x + 0, so -0 becomes 0; NaN for an infinite x). */
function singleValues(single: readonly number[], at: UnitValues): void {
  const { members, columns, values, unitOfMember } = at
  const k = columns.length
  for (let u = 0; u < single.length; u++) {
    const row = members[single[u]]
    unitOfMember[single[u]] = u
    for (let c = 0; c < k; c++) {
      const x = columns[c][row]
      values[u * k + c] = x - x === 0 ? x + 0 : Number.NaN
    }
  }
}

/** A cluster's value: the compensated sum of its members (their mean when clusters are weighted equally). */
function clusterValues(
  unitMembers: readonly number[][],
  at: UnitValues & { counts: Float64Array | null; clusterWeighted: boolean }
): void {
  const { members, columns, values, unitOfMember, counts, clusterWeighted } = at
  const k = columns.length
  for (let u = 0; u < unitMembers.length; u++) {
    const list = unitMembers[u]
    for (const j of list) unitOfMember[j] = u
    if (counts) counts[u] = list.length
    for (let c = 0; c < k; c++) {
      const col = columns[c]
      let s = 0
      let comp = 0
      for (const j of list) {
        const x = col[members[j]]
        const t = s + x
        comp += abs(s) >= abs(x) ? s - t + x : x - t + s
        s = t
      }
      s += comp
      values[u * k + c] = clusterWeighted ? s / list.length : s
    }
  }
}

/**
 * A subset's strata, in the design's order, from each one's value of statistics.weights.by, units and queries: the
 * weight of each (its target share renormalised over the values present; 1 without weights), and the notes they
 * call for (a stratum of one unit; every query weighted 0, or strata absent and the weights renormalised). The rows'
 * designs and a warehouse's sums (src/stats/aggregate-engine.ts) both build their strata here, so the same words.
 */
export function strataOf(
  weights: StatisticsRules['weights'],
  present: ReadonlyArray<{ value: string; size: number; queries: number }>,
  words: { label: string; unit: 'cluster' | 'query' }
): { strata: Stratum[]; notes: string[] } {
  const m = present.reduce((a, s) => a + s.queries, 0)
  const targetOf = new Map(weights?.target ?? [])
  let targetPresent = 0
  for (const s of present) targetPresent += weights ? (targetOf.get(s.value) as number) : 1
  const notes: string[] = []
  let start = 0
  const strata = present.map((s): Stratum => {
    const stratum = {
      value: weights ? s.value : null,
      start,
      size: s.size,
      queries: s.queries,
      weight: weights ? (targetOf.get(s.value) as number) / targetPresent : 1,
      observedShare: s.queries / m
    }
    start += s.size
    if (s.size === 1 && m > 1) {
      notes.push(
        `${weights ? `${weights.by} = ${s.value}` : words.label} has a single ${words.unit}: its variability cannot be estimated and is counted as none`
      )
    }
    return stratum
  })
  const values = present.map((s) => s.value)
  if (weights && m > 0 && targetPresent === 0) {
    // Every query here is in a stratum the target weighs 0: the weighted estimate is 0/0 (NaN), and the
    // reader must learn why rather than see a bare non_finite.
    notes.push(
      `every query here has a target weight of 0 for ${weights.by} (${values.join(', ')}): these queries are outside the target population, so the weighted statistics are undefined`
    )
  } else if (weights && values.length < weights.target.length && m > 0) {
    const absent = weights.target.filter(([v]) => !values.includes(v)).map(([v]) => v)
    notes.push(
      `no queries with ${weights.by} = ${absent.join(', ')} here: the target weights were renormalised over the values present`
    )
  }
  return { strata, notes }
}

/**
 * Target weights must describe the data (`present`: the values of statistics.weights.by, from rows or a warehouse's
 * sums): every value they name occurs, and every value that occurs has a weight (a value without one would silently
 * drop out of the statistic; give it 0 to mean that).
 */
export function checkWeights(
  weights: NonNullable<StatisticsRules['weights']>,
  file: string,
  present: ReadonlySet<string>
): void {
  for (const [v] of weights.target) {
    if (!present.has(v)) {
      throw new InputError(
        { file, key: `statistics.weights.target.${v}` },
        `no query has ${weights.by} = ${quote(v)}`,
        `values present: ${quoteList([...present].sort(), 20)}`
      )
    }
  }
  const named = new Set(weights.target.map(([v]) => v))
  const missing = [...present].filter((v) => !named.has(v)).sort()
  if (missing.length > 0) {
    throw new InputError(
      { file, key: 'statistics.weights.target' },
      `${weights.by} = ${quoteList(missing, 5)} occurs in the data but has no target weight`,
      'give every value its share of the target population (0 to leave it out on purpose)'
    )
  }
}

/**
 * The given columns of a row-major units x k array (a design's values, the sign-flip test's contributions) as their
 * own row-major array, one cache line per unit the kernels read; every column in order is the array itself, not a copy.
 */
export function columnsOf(
  rows: { values: Float64Array; k: number; units: number },
  columns: readonly number[]
): Float64Array {
  const { values, k, units } = rows
  const width = columns.length
  if (width === k && columns.every((c, i) => c === i)) return values
  const out = new Float64Array(units * width)
  for (let u = 0; u < units; u++) for (let i = 0; i < width; i++) out[u * width + i] = values[u * k + columns[i]]
  return out
}

/** The denominator of each stratum's estimate: its queries (ratio / per-query) or its units (cluster means). */
export function denominator(design: Design, s: Stratum): number {
  return design.counts ? s.queries : s.size
}

/**
 * The estimate of column c (see {@link Design}) with the design's weights. Sums run in unit order with
 * compensation ({@link stratumSum}).
 */
export function estimate(design: Design, c: number): number {
  let total = 0
  for (const s of design.strata) total += (s.weight * stratumSum(design, c, s)) / denominator(design, s)
  return design.units === 0 ? Number.NaN : total
}

/** Σ of column c over a stratum's units in unit order, compensated (Neumaier): what the estimate and the moments add. */
export function stratumSum(design: Design, c: number, s: Stratum): number {
  const { k, values } = design
  let sum = 0
  let comp = 0
  for (let u = s.start; u < s.start + s.size; u++) {
    const x = values[u * k + c]
    const t = sum + x
    comp += abs(sum) >= abs(x) ? sum - t + x : x - t + sum
    sum = t
  }
  return sum + comp
}

import { METRIC_STATS, subsetFamilies, type SubsetFamily } from '../config/aggregates-plan.js'
import type { Rules } from '../config/types.js'
import { InputError, type Where } from '../errors.js'
import type { AggregateCount } from '../model/aggregates.js'
import { quote } from '../util/show.js'

/**
 * The rows of aggregates gathered into their shards' cells as they arrive, each row checked against the rules
 * (its family, value, stratum, metric, statistic and slot) and refused with its file and line, or when a key
 * comes twice in a shard. What a whole shard must hold is checked once all files are read (src/readers/aggregates.ts).
 */

/** The metric statistics that are counts of queries (checked to be whole and non-negative); the others are sums. */
const COUNTED: ReadonlySet<string> = new Set(['wins', 'losses', 'gained', 'lost'])

/** Most rows read over all files: at 10^4 resamples and sign patterns a subset and stratum is about 80,000 rows. */
export const MAX_AGGREGATE_ROWS = 20_000_000

/** Most shards (names) the files may hold. */
export const MAX_SHARDS = 10_000

/** The words every refusal of a row ends with. */
export const HINT =
  'pass the result of the statement `retrieval-gate sql --rules RULES` writes, run on the rows these rules gate, unchanged'

/** One row as read, with where it is. */
export interface Row {
  section: string
  shard: string
  family: number
  value: string
  stratum: string
  metric: string
  stat: string
  slot: number
  x: number
  y: number
  where: Where
}

/** One shard's sums of one subset and stratum, as its rows arrive. */
export interface Cell {
  family: number
  value: string
  stratum: string
  n: number | undefined
  /** stats[m * METRIC_STATS.length + i], NaN until given. */
  stats: Float64Array
  regressions: Array<Map<number, number>>
  /** Per metric and the weights (index M): Σ per resample; seen[r] per pair. */
  poisson: Float64Array[]
  poissonSeen: Uint8Array[]
  minus: Float64Array[]
  minusSeen: Uint8Array[]
  histogram: Array<Map<number, number> | null>
}

export interface Shard {
  meta: Map<string, string>
  coverage: Map<string, AggregateCount>
  cells: Map<string, Cell>
}

/** What the rows are checked against: the rules' metrics, families, resamples, sign patterns and checks. */
export interface RowPlan {
  rules: Rules
  metrics: string[]
  metricIndex: Map<string, number>
  families: SubsetFamily[]
  pairs: number
  permutations: number
  /** Each max_regressions check's index → its metric's index. */
  checks: Map<number, number>
}

/** The plan of these rules' aggregates. */
export function rowPlan(rules: Rules): RowPlan {
  const metrics = [...rules.metrics.keys()]
  const metricIndex = new Map(metrics.map((m, i) => [m, i]))
  return {
    rules,
    metrics,
    metricIndex,
    families: subsetFamilies(rules),
    pairs: Math.ceil(rules.statistics.resamples / 2),
    permutations: rules.statistics.permutations,
    checks: new Map(
      rules.checks
        .filter((c) => c.kind.type === 'max_regressions')
        .map((c) => [c.index, metricIndex.get(c.metric) as number])
    )
  }
}

/** Gathers rows into shards: `onRow` for each row as read, `shards` once all are. */
export function createCollector(plan: RowPlan): { onRow: (r: Row) => void; shards: Map<string, Shard> } {
  const shards = new Map<string, Shard>()
  let rows = 0
  const onRow = (r: Row): void => {
    if (++rows > MAX_AGGREGATE_ROWS)
      throw new InputError(
        r.where,
        `more than ${MAX_AGGREGATE_ROWS} rows of aggregates`,
        'fewer slice values, resamples or permutations (docs/limits.md)'
      )
    const shard = shardOf(shards, r)
    if (r.section === 'meta') {
      if (shard.meta.has(r.stat)) twice(r, `meta ${quote(r.stat)}`)
      shard.meta.set(r.stat, r.value)
    } else if (r.section === 'coverage') {
      if (shard.coverage.has(r.stat)) twice(r, `coverage ${quote(r.stat)}`)
      shard.coverage.set(r.stat, { count: count(r, r.x, `coverage ${quote(r.stat)}`), example: r.value })
    } else {
      checkCellKey(plan, r)
      const cell = cellOf(plan, { shard, r })
      if (r.section === 'sums') onSums(plan, { cell, r })
      else if (r.section === 'poisson') onPoisson(plan, { cell, r })
      else if (r.section === 'signs') onSigns(plan, { cell, r })
      else onHistogram(plan, { cell, r })
    }
  }
  return { onRow, shards }
}

function shardOf(shards: Map<string, Shard>, r: Row): Shard {
  let shard = shards.get(r.shard)
  if (!shard) {
    if (shards.size >= MAX_SHARDS)
      throw new InputError(
        r.where,
        `more than ${MAX_SHARDS} shards`,
        'run the SQL over larger shards (or the whole table at once)'
      )
    shards.set(r.shard, (shard = { meta: new Map(), coverage: new Map(), cells: new Map() }))
  }
  return shard
}

/** The row's family is one of the rules', its value given only where the family has an attribute, its stratum only with weights. */
function checkCellKey(plan: RowPlan, r: Row): void {
  const { families, rules } = plan
  if (r.family < 0 || r.family >= families.length)
    throw new InputError(
      r.where,
      `names family ${r.family}; these rules have ${families.length} (0 .. ${families.length - 1})`,
      HINT
    )
  if (families[r.family].by === undefined && r.value !== '')
    throw new InputError(r.where, `gives family ${r.family} the value ${quote(r.value)}, but it has no attribute`, HINT)
  if (rules.statistics.weights === undefined && r.stratum !== '')
    throw new InputError(
      r.where,
      `names the stratum ${quote(r.stratum)}, but the rules have no statistics.weights`,
      HINT
    )
}

function cellOf(plan: RowPlan, at: { shard: Shard; r: Row }): Cell {
  const { shard, r } = at
  const key = `${r.family}\u0000${r.value}\u0000${r.stratum}`
  let cell = shard.cells.get(key)
  if (!cell) {
    const { metrics, pairs, permutations } = plan
    const M = metrics.length
    cell = {
      family: r.family,
      value: r.value,
      stratum: r.stratum,
      n: undefined,
      stats: new Float64Array(M * METRIC_STATS.length).fill(Number.NaN),
      regressions: metrics.map(() => new Map<number, number>()),
      poisson: Array.from({ length: M + 1 }, () => new Float64Array(2 * pairs)),
      poissonSeen: Array.from({ length: M + 1 }, () => new Uint8Array(pairs)),
      minus: Array.from({ length: M }, () => new Float64Array(permutations)),
      minusSeen: Array.from({ length: M }, () => new Uint8Array(permutations)),
      histogram: metrics.map(() => null)
    }
    shard.cells.set(key, cell)
  }
  return cell
}

function twice(r: Row, what: string): never {
  throw new InputError(
    r.where,
    `${what} of shard ${quote(r.shard)} is given twice`,
    'each shard sends every sum once: do not concatenate a shard with itself'
  )
}

function count(r: Row, x: number, what: string): number {
  if (!Number.isSafeInteger(x) || x < 0) throw new InputError(r.where, `${what} is ${x}, not a count`, HINT)
  return x
}

function metricOf(plan: RowPlan, r: Row): number {
  const m = plan.metricIndex.get(r.metric)
  if (m === undefined)
    throw new InputError(
      r.where,
      `names the metric ${quote(r.metric)}, which the rules do not have`,
      `the rules' metrics: ${plan.metrics.map((x) => quote(x)).join(', ')}; ${HINT}`
    )
  return m
}

/** A sums row: the count of queries, a max_regressions count, or one of the metric's sums. */
function onSums(plan: RowPlan, at: { cell: Cell; r: Row }): void {
  const { cell, r } = at
  if (r.stat === 'n') {
    if (cell.n !== undefined) twice(r, 'the count of queries')
    cell.n = count(r, r.x, 'n')
    return
  }
  const m = metricOf(plan, r)
  if (r.stat.startsWith('regressions:')) {
    const check = Number(r.stat.slice('regressions:'.length))
    if (plan.checks.get(check) !== m)
      throw new InputError(
        r.where,
        `${quote(r.stat)} of ${quote(r.metric)} names no max_regressions check of the rules on that metric`,
        HINT
      )
    if (cell.regressions[m].has(check)) twice(r, quote(r.stat))
    cell.regressions[m].set(check, count(r, r.x, quote(r.stat)))
    return
  }
  const i = (METRIC_STATS as readonly string[]).indexOf(r.stat)
  if (i < 0)
    throw new InputError(
      r.where,
      `the statistic ${quote(r.stat)} is not one of the sums (${METRIC_STATS.join(', ')})`,
      HINT
    )
  const slot = m * METRIC_STATS.length + i
  if (!Number.isNaN(cell.stats[slot])) twice(r, `${r.stat} of ${quote(r.metric)}`)
  cell.stats[slot] = COUNTED.has(METRIC_STATS[i]) ? count(r, r.x, r.stat) : r.x
}

/** A Poisson row: a pair of resamples' Σ w·d of a metric, or Σ w (metric ''). */
function onPoisson(plan: RowPlan, at: { cell: Cell; r: Row }): void {
  const { cell, r } = at
  const { metrics, pairs } = plan
  const m = r.metric === '' ? metrics.length : metricOf(plan, r)
  if (r.stat !== 'weights' || r.slot >= pairs)
    throw new InputError(
      r.where,
      `Poisson row ${quote(r.stat)} ${r.slot}: the rules have ${pairs} pairs of resamples (slots 0 .. ${pairs - 1}, stat weights)`,
      HINT
    )
  if (cell.poissonSeen[m][r.slot]) twice(r, `Poisson pair ${r.slot}${r.metric === '' ? '' : ` of ${quote(r.metric)}`}`)
  cell.poissonSeen[m][r.slot] = 1
  if (m === metrics.length) {
    count(r, r.x, 'a sum of weights')
    count(r, r.y, 'a sum of weights')
  }
  cell.poisson[m][2 * r.slot] = r.x
  if (2 * r.slot + 1 < 2 * pairs) cell.poisson[m][2 * r.slot + 1] = r.y
}

/** A sign row: Σ d over the queries whose sign is −1 in pattern `slot`. */
function onSigns(plan: RowPlan, at: { cell: Cell; r: Row }): void {
  const { cell, r } = at
  const m = metricOf(plan, r)
  if (r.stat !== 'minus' || r.slot >= plan.permutations)
    throw new InputError(
      r.where,
      `sign row ${quote(r.stat)} ${r.slot}: the rules have ${plan.permutations} sign patterns (slots 0 .. ${plan.permutations - 1}, stat minus)`,
      HINT
    )
  if (cell.minusSeen[m][r.slot]) twice(r, `sign pattern ${r.slot} of ${quote(r.metric)}`)
  cell.minusSeen[m][r.slot] = 1
  cell.minus[m][r.slot] = r.x
}

/** A histogram row: a distinct difference x of a metric and its count y. */
function onHistogram(plan: RowPlan, at: { cell: Cell; r: Row }): void {
  const { cell, r } = at
  const m = metricOf(plan, r)
  if (r.stat !== 'count')
    throw new InputError(r.where, `histogram row ${quote(r.stat)}: the stat of a histogram row is count`, HINT)
  const h = (cell.histogram[m] ??= new Map())
  const v = r.x + 0
  if (h.has(v)) twice(r, `the histogram value ${v} of ${quote(r.metric)}`)
  h.set(v, count(r, r.y, 'a histogram count'))
}

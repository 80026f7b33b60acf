import { METRIC_STATS, subsetFamilies, type SubsetFamily } from '../config/aggregates-plan.js'
import type { Rules } from '../config/types.js'
import { InputError, type Where } from '../errors.js'
import { AGGREGATE_COLUMNS, type AggregateCount } from '../model/aggregates.js'
import { quote } from '../util/show.js'
import { MAX_ATTRIBUTE_CHARS } from './field-caps.js'
import { parseDecimal } from './numbers.js'
import { csvTableHeader, forEachCsvRecord } from './csv.js'
import { forEachJsonRecord, memberValue } from './json/lines.js'
import { forEachParquetRow, plain, withParquet } from './parquet.js'

/**
 * The rows of aggregates one at a time: read in the three layouts of the aggregates `retrieval-gate sql` computes
 * (Parquet, CSV with a header, JSON Lines: the format registry's `aggregates` entries, src/readers/formats.ts), each
 * row's cells by column name with where the row is (what a cell may hold is src/readers/aggregates.ts's business),
 * then gathered into their shards' cells as they arrive, each row checked against the rules (its family, value,
 * stratum, metric, statistic and slot) and refused with its file and line, or when a key comes twice in a shard.
 * What a whole shard must hold is checked once all files are read (src/readers/aggregates.ts).
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

/** A row from its fields (numbers or text), every field checked. */
export function toRow(get: (column: string) => unknown, where: Where): Row {
  const text = (c: string, empty = true): string => {
    const v = get(c)
    const s =
      v === null || v === undefined
        ? ''
        : typeof v === 'string'
          ? v
          : typeof v === 'number' || typeof v === 'bigint'
            ? String(v)
            : undefined
    if (s === undefined) throw new InputError({ ...where, key: c }, `is not text`, HINT)
    if (s.length > MAX_ATTRIBUTE_CHARS)
      throw new InputError({ ...where, key: c }, `is ${s.length} characters long; at most ${MAX_ATTRIBUTE_CHARS}`, HINT)
    if (!empty && s === '') throw new InputError({ ...where, key: c }, 'is empty', HINT)
    return s
  }
  const number = (c: string, integer: boolean): number => {
    const v = get(c)
    const x = typeof v === 'number' ? v : typeof v === 'string' ? (parseDecimal(v.trim()) ?? Number.NaN) : Number.NaN
    if (!Number.isFinite(x) || (integer && !Number.isSafeInteger(x)))
      throw new InputError(
        { ...where, key: c },
        `${JSON.stringify(typeof v === 'string' ? v.slice(0, 40) : v)} is not ${integer ? 'a whole number' : 'a finite number'}`,
        HINT
      )
    return x
  }
  const section = text('section', false)
  if (!SECTIONS.has(section))
    throw new InputError(
      { ...where, key: 'section' },
      `${quote(section)} is not a section of the aggregates (${[...SECTIONS].join(', ')})`,
      HINT
    )
  const row: Row = {
    section,
    shard: text('shard', false),
    family: number('family', true),
    value: text('value'),
    stratum: text('stratum'),
    metric: text('metric'),
    stat: text('stat', false),
    slot: number('slot', true),
    x: number('x', false),
    y: number('y', false),
    where
  }
  if (row.slot < 0) throw new InputError({ ...where, key: 'slot' }, `${row.slot} is negative`, HINT)
  return row
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

/** The sections a row of aggregates is in (its first cell; a CSV file whose first line starts so has no header). */
const SECTIONS: ReadonlySet<string> = new Set(['meta', 'coverage', 'sums', 'poisson', 'signs', 'histogram'])

/** One row's cells (a column's value, as the layout holds it) and where the row is. */
export type AggregateCells = (get: (column: string) => unknown, where: Where) => void

/** What an aggregates reader needs: the file read, the name refusals give it, and what a good file is. */
export interface AggregateTarget {
  path: string
  name: string
  hint: string
  onCells: AggregateCells
}

/** A Parquet table of the aggregates, by its column names. */
export async function readParquetAggregates(to: AggregateTarget): Promise<void> {
  await withParquet(to.path, async (pq) => {
    const missing = AGGREGATE_COLUMNS.filter((c) => !pq.columns.some((x) => x.name === c))
    if (missing.length > 0)
      throw new InputError({ file: to.name }, `has no column ${missing.map((c) => quote(c)).join(', ')}`, to.hint)
    await forEachParquetRow(to.path, pq, [...AGGREGATE_COLUMNS], (record, row) =>
      to.onCells((c) => plain(record[c]), { file: to.name, line: row })
    )
  })
}

/** A CSV file of the aggregates with a header naming the columns (any order, blank lines skipped). */
export async function readCsvAggregates(to: AggregateTarget): Promise<void> {
  let header: string[] | undefined
  // where each column is, found once from the header
  const at = new Map<string, number>()
  await forEachCsvRecord(to.path, (fields, line) => {
    const where: Where = { file: to.name, line }
    if (header === undefined) {
      header = fields.map((f) => f.trim())
      const missing = AGGREGATE_COLUMNS.filter((c) => !(header as string[]).includes(c))
      if (missing.length > 0 && SECTIONS.has(header[0]))
        throw new InputError(
          where,
          'has no header: its first line is a row of aggregates',
          "write the header line (Spark: .write.option('header', True).csv(DIR), whose default writes none; or write Parquet)"
        )
      if (missing.length > 0)
        throw new InputError(where, `the header has no column ${missing.map((c) => quote(c)).join(', ')}`, to.hint)
      // a name given twice (which column is meant?) or empty is refused, as in every CSV the gate reads
      csvTableHeader(fields, { file: to.name, line })
      for (const c of AGGREGATE_COLUMNS) at.set(c, header.indexOf(c))
      return
    }
    if (fields.length === 1 && fields[0] === '') return
    if (fields.length !== header.length)
      throw new InputError(where, `${fields.length} fields, but the header has ${header.length}`, to.hint)
    to.onCells((c) => fields[at.get(c) ?? -1], where)
  })
}

/** A JSON Lines file of the aggregates, one object per row (blank lines skipped), read as every JSON Lines file is. */
export async function readJsonlAggregates(to: AggregateTarget): Promise<void> {
  await forEachJsonRecord(to.path, (m, line) => to.onCells((c) => memberValue(m, c), { file: to.name, line }), {
    hint: to.hint,
    name: to.name
  })
}

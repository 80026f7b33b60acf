import type { FormatChoice } from './format.js'

/**
 * The typed shapes that flow through the pipeline. Inputs are read once into these; every later stage is a
 * pure function of them. Maps (not plain objects) hold user-named keys, so an id or field called
 * `__proto__` or `constructor` is plain data.
 */

/**
 * Everything read from one side's file, as columns aligned by row (rows in file order). Columns, not one
 * object per row: at a million queries an object with two Maps per row and side cost about 620 bytes a row
 * (1.2 GB for both sides) and most of the run's garbage-collection time; a metric column is 8 bytes a row.
 * Build one with {@link SideRowsBuilder}; read a row with {@link valueAt} / {@link attrAt}, or, off the hot
 * path (init, the metrics command, tests), as objects with {@link rowsOf}.
 */
export interface SideRows {
  /** The file as the user named it. */
  source: string
  /** Query ids exactly as written (strings; "01" and "1" differ, no Unicode normalisation), unique within the side. */
  ids: string[]
  /** 1-based line in the source file where each row starts (0 when computed, e.g. a judged query absent from a run). */
  lines: Float64Array
  /** Row of each id. */
  index: ReadonlyMap<string, number>
  /**
   * Metric values by field name, one per row; NaN = missing (the field was absent, empty or null in that row).
   * Metric values are finite numbers (readers refuse anything else), so NaN is free to mark a missing one.
   * A field has a column when some row had it.
   */
  values: Map<string, Float64Array>
  /** Attribute values by field name (slices, clusters, strata) as strings, one per row; undefined where the row has none. */
  attrs: Map<string, Array<string | undefined>>
  /** Field names seen that hold numbers / strings (for "did you mean" and `init`). */
  numericFields: Set<string>
  attributeFields: Set<string>
  /** Facts about how the rows were made that the report must show (e.g. queries scored 0 because absent from a run). */
  notes: string[]
  /** The format the file was read as and why (src/readers/read.ts); absent for rows not read from a file. */
  format?: FormatChoice
  /** For rows computed from a run and judgments (src/metrics/evaluate.ts): the run's queries and what became of them. */
  run?: RunQueries
}

/**
 * Where row `row` of a side stands, for a refusal: `file:line`, or the file alone where the row has no line (0: a
 * Parquet row, a deepeval case, a computed row), never a `:0` that reads as a line.
 */
export function placeOf(side: Pick<SideRows, 'source' | 'lines'>, row: number): string {
  const line = row < 0 ? 0 : side.lines[row]
  return line > 0 ? `${side.source}:${line}` : side.source
}

/**
 * How a run's queries met the judgments when its rows were computed: the rows are the judged queries', so a count
 * of rows alone hides a run query without judgments (ignored) and a judged query the run lacks (scored 0).
 */
export interface RunQueries {
  /** Queries in the run. */
  queries: number
  /** Judged queries absent from the run: in the rows with 0 for every measure. */
  absentScoredZero: number
  /** Queries in the run without judgments: in no row. */
  withoutJudgmentsIgnored: number
}

/** One query's record on one side, as an object: the row view of {@link rowsOf}, for code off the hot path. */
export interface QueryRow {
  id: string
  line: number
  /** Metric values by field name; null = missing in this row (absent, empty or null). */
  values: Map<string, number | null>
  attrs: Map<string, string>
}

/** Number of rows of a side. */
export function rowCount(side: SideRows): number {
  return side.ids.length
}

/** The value of metric `field` in row `row`, or null when missing (or when no row has the field). */
export function valueAt(side: SideRows, field: string, row: number): number | null {
  const column = side.values.get(field)
  if (column === undefined) return null
  const v = column[row]
  return Number.isNaN(v) ? null : v
}

/** The attribute `field` of row `row`, or undefined when the row has none. */
export function attrAt(side: SideRows, field: string, row: number): string | undefined {
  return side.attrs.get(field)?.[row]
}

/**
 * Sets attribute `field` of row `row` on a side already built (the evaluation set's attributes are given to a
 * run's rows after it was scored: src/trust/load-trust.ts).
 */
export function setAttrAt(side: SideRows, field: string, row: number, value: string): void {
  let column = side.attrs.get(field)
  if (column === undefined)
    side.attrs.set(field, (column = new Array<string | undefined>(side.ids.length).fill(undefined)))
  column[row] = value
}

/**
 * Every row as an object, in file order: for commands and tests that look at a few thousand rows. The
 * pipeline reads the columns; this allocates two Maps a row.
 */
export function rowsOf(side: SideRows): QueryRow[] {
  const values = [...side.values]
  const attrs = [...side.attrs]
  return side.ids.map((id, i) => {
    const row: QueryRow = { id, line: side.lines[i], values: new Map(), attrs: new Map() }
    for (const [name, column] of values) row.values.set(name, Number.isNaN(column[i]) ? null : column[i])
    for (const [name, column] of attrs) {
      const v = column[i]
      if (v !== undefined) row.attrs.set(name, v)
    }
    return row
  })
}

/** Rows as plain data (tests, computed sides): id, line, metric values (null = missing) and attributes. */
export interface RowInput {
  id: string
  line: number
  values: Iterable<readonly [string, number | null]>
  attrs?: Iterable<readonly [string, string]>
}

/**
 * A side from rows given as data (ids must be unique): what a test or a computation that already holds its
 * rows uses instead of a reader. The field sets are the fields the rows hold, unless given.
 */
export function sideFromRows(
  source: string,
  rows: readonly RowInput[],
  fields: Partial<Pick<SideRows, 'numericFields' | 'attributeFields' | 'notes'>> = {}
): SideRows {
  const builder = new SideRowsBuilder(source)
  const numericFields = new Set<string>()
  const attributeFields = new Set<string>()
  for (const r of rows) {
    if (builder.rowOf(r.id) !== undefined)
      throw new Error(`sideFromRows: query id ${JSON.stringify(r.id)} appears twice`)
    const row = builder.add(r.id, r.line)
    for (const [name, v] of r.values) {
      builder.setValue(row, name, v)
      numericFields.add(name)
    }
    for (const [name, v] of r.attrs ?? []) {
      builder.setAttr(row, name, v)
      attributeFields.add(name)
    }
  }
  return builder.build({
    numericFields: fields.numericFields ?? numericFields,
    attributeFields: fields.attributeFields ?? attributeFields,
    notes: fields.notes ?? []
  })
}

/** First capacity of a builder's columns (they double as rows are added). */
const FIRST_CAPACITY = 1024

/**
 * Builds a {@link SideRows} row by row while a file is read: columns grow by doubling (amortised O(1) a value,
 * no object per row), and the id index that finds a repeated id is the one the pairing uses. Readers check the
 * values (finite, capped) before they set them; the builder only stores.
 */
export class SideRowsBuilder {
  private n = 0
  private capacity = FIRST_CAPACITY
  private readonly ids: string[] = []
  private lines = new Float64Array(FIRST_CAPACITY)
  private readonly values = new Map<string, Float64Array>()
  private readonly attrs = new Map<string, Array<string | undefined>>()
  private readonly index = new Map<string, number>()

  constructor(readonly source: string) {}

  /** Rows added so far. */
  get size(): number {
    return this.n
  }

  /** The row of `id`, or undefined when it was not added. */
  rowOf(id: string): number | undefined {
    return this.index.get(id)
  }

  /** The query id of row `row`. */
  idOf(row: number): string {
    return this.ids[row]
  }

  /** The line of row `row`. */
  lineOf(row: number): number {
    return this.lines[row]
  }

  /** Appends a row for a new id (the caller has checked {@link rowOf}) and returns its number. */
  add(id: string, line: number): number {
    if (this.n === this.capacity) this.grow()
    const row = this.n++
    this.ids.push(id)
    this.lines[row] = line
    this.index.set(id, row)
    return row
  }

  /** Sets metric `field` of `row` (null = missing). */
  setValue(row: number, field: string, value: number | null): void {
    let column = this.values.get(field)
    if (column === undefined) this.values.set(field, (column = new Float64Array(this.capacity).fill(Number.NaN)))
    column[row] = value === null ? Number.NaN : value
  }

  /** Sets attribute `field` of `row`. */
  setAttr(row: number, field: string, text: string): void {
    let column = this.attrs.get(field)
    if (column === undefined) this.attrs.set(field, (column = []))
    // Kept dense (no holes): rows without the attribute read undefined.
    while (column.length < row) column.push(undefined)
    if (column.length === row) column.push(text)
    else column[row] = text
  }

  /** The attribute `field` of `row` set so far, or undefined. */
  attr(row: number, field: string): string | undefined {
    return this.attrs.get(field)?.[row]
  }

  /** The side, with its field sets and notes; the columns are cut to the rows added. */
  build(fields: Pick<SideRows, 'numericFields' | 'attributeFields' | 'notes'>): SideRows {
    const n = this.n
    const values = new Map<string, Float64Array>()
    for (const [name, column] of this.values) values.set(name, column.slice(0, n))
    for (const column of this.attrs.values()) while (column.length < n) column.push(undefined)
    return {
      source: this.source,
      ids: this.ids,
      lines: this.lines.slice(0, n),
      index: this.index,
      values,
      attrs: this.attrs,
      ...fields
    }
  }

  private grow(): void {
    this.capacity *= 2
    const lines = new Float64Array(this.capacity)
    lines.set(this.lines)
    this.lines = lines
    for (const [name, column] of this.values) {
      const wider = new Float64Array(this.capacity).fill(Number.NaN)
      wider.set(column)
      this.values.set(name, wider)
    }
  }
}

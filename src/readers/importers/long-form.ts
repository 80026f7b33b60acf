import { InputError } from '../../errors.js'
import type { SideRows } from '../../model/rows.js'
import { forEachCsvRecord } from '../csv.js'
import { forEachJsonRecord, memberValue, type JsonMembers } from '../json/lines.js'
import { forEachLine } from '../lines.js'
import { RowsSink } from './rows-sink.js'
import type { RowsOptions } from '../rows-input.js'
import { quote } from '../../util/show.js'

/**
 * Per-query rows in long (tidy) form: one line per query and measure, `qid,measure,value` (ir_measures
 * `iter_calc` to a DataFrame, PyTerrier `Experiment(perquery=True)`, most notebooks), in CSV, TSV or JSON
 * Lines. Pivoted into the same rows the wide form gives (one per query, in order of first appearance, one
 * metric field per measure), so pairing, statistics and reports are byte-identical. A measure repeated for
 * one query is refused with both lines (two runs concatenated, or a missing grouping column). Other columns
 * are attributes of the query: they must hold one value per query (a slice is a property of the query, not
 * of one measure line), else the file is refused with both lines. pandas' unnamed index column (`to_csv` with
 * its default `index=True`) is ignored and noted, as in the ragas reader.
 */

/** Query id column names, in order of preference (`--id-field` overrides). */
export const ID_NAMES = ['query_id', 'qid']
/** Measure column names (`name`: PyTerrier's per-query frame). */
export const MEASURE_NAMES = ['measure', 'metric', 'name']
/** Value column names. */
export const VALUE_NAMES = ['value', 'score']

/** Where the three long-form columns are in a header (indices, or keys for JSON Lines). */
export interface LongColumns {
  id: string
  measure: string
  value: string
}

/**
 * The long-form columns of a header, or undefined when it is not long form. Detected only when a query id,
 * a measure and a value column are all present and the rules do not name the measure or value column as a
 * metric (then the file is wide: `query_id,name,score` with a metric `score`).
 */
export function longColumns(
  header: readonly string[],
  metricFields: ReadonlySet<string>,
  idField?: string
): LongColumns | undefined {
  const pick = (names: readonly string[]): string | undefined => names.find((n) => header.includes(n))
  const id = idField !== undefined ? (header.includes(idField) ? idField : undefined) : pick(ID_NAMES)
  const measure = pick(MEASURE_NAMES)
  const value = pick(VALUE_NAMES)
  if (id === undefined || measure === undefined || value === undefined) return undefined
  if (metricFields.has(measure) || metricFields.has(value)) return undefined
  return { id, measure, value }
}

/** The layout of a long-form file: by `.tsv` / `.csv` name or first character (`{` JSON Lines), else a tab in the header. */
export type LongLayout = 'csv' | 'tsv' | 'jsonl'

/** One query being pivoted: its row and the lines of its measures and attributes. */
interface Entry {
  /** The query's row in the sink, and its id (for messages). */
  row: number
  id: string
  measures: Map<string, number>
  attrs: Map<string, { text: string; line: number }>
}

/**
 * Pivots long-form lines into wide rows (one per query, in order of first appearance), refusing a repeated
 * measure and an attribute that varies within a query. Shared by the text readers here, the measure listings of
 * ir_measures and trec_eval -q (./ir-measures.ts) and the Parquet reader (src/readers/parquet.ts), whose
 * "lines" are row numbers (`unit` says which, for the messages).
 */
export class Pivot {
  readonly sink: RowsSink
  private readonly entries = new Map<string, Entry>()

  constructor(
    readonly file: string,
    metricFields: ReadonlySet<string>,
    keepAttributes: ReadonlySet<string> | undefined,
    private readonly unit: 'line' | 'row' = 'line'
  ) {
    this.sink = new RowsSink(file, metricFields, keepAttributes)
  }

  /** The query's entry, started at `line` the first time the id is seen. */
  entry(id: string, line: number): Entry {
    let e = this.entries.get(id)
    if (e === undefined) {
      // A new id (the entries are keyed by id, so the sink never sees a repeat).
      const row = this.sink.start(id, line) as number
      e = { row, id, measures: new Map(), attrs: new Map() }
      this.entries.set(id, e)
    }
    return e
  }

  /** Records `measure` of the query once (refused when repeated, with both lines), then stores it with `put`. */
  measure(e: Entry, measure: string, line: number, put: () => void): void {
    if (measure === '')
      throw new InputError(
        { file: this.file, line, queryId: e.id },
        'the measure name is empty',
        'every line names its measure'
      )
    const earlier = e.measures.get(measure)
    if (earlier !== undefined) {
      throw new InputError(
        { file: this.file, line, queryId: e.id },
        `measure ${quote(measure)} appears twice for query ${quote(e.id)} (${this.unit}s ${earlier} and ${line})`,
        'keep one line per query and measure (two runs concatenated? a missing column such as the system name?)'
      )
    }
    e.measures.set(measure, line)
    put()
  }

  /**
   * Records an attribute of the query: true the first time (the caller stores it), false when a later line repeats
   * it; a different value on a later line is refused.
   */
  attribute(e: Entry, key: string, text: string, line: number): boolean {
    const earlier = e.attrs.get(key)
    if (earlier === undefined) {
      e.attrs.set(key, { text, line })
      return true
    }
    if (earlier.text !== text) {
      throw new InputError(
        { file: this.file, line, queryId: e.id },
        `attribute ${quote(key)} of query ${quote(e.id)} is ${quote(earlier.text, 40)} on ${this.unit} ${earlier.line} and ${quote(text, 40)} on ${this.unit} ${line}`,
        'in long form an attribute (slice column) belongs to the query: give it one value per query, or drop the column'
      )
    }
    return false
  }

  /** An attribute cell of the query: a scalar kept once (refused when it varies); lists and objects are not attributes. */
  attributeValue(e: Entry, key: string, v: unknown, line: number): void {
    if (
      (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') &&
      this.attribute(e, key, String(v), line)
    )
      this.sink.value(e.row, key, v, { line })
  }

  /** The rows, refused when there are none (or duplicates, which the pivot cannot produce); `emptyHint` says what to write. */
  finish(emptyHint = 'write one line per query and measure: query_id,measure,value'): SideRows {
    return this.sink.finish(emptyHint)
  }
}

/**
 * The refusal of a table named as long form that lacks the query id, measure and value columns, listing (cut,
 * escaped) the columns it has. `what` names a wide one in the hint: a "file" (CSV, JSON Lines) or a "table" (Parquet).
 */
export function notLongForm(
  where: { file: string; line?: number },
  names: readonly string[],
  idField: string | undefined,
  what: 'file' | 'table'
): InputError {
  const found = names
    .slice(0, 20)
    .map((h) => quote(h, 40))
    .join(', ')
  return new InputError(
    where,
    `is not long form: it needs a query id (${idField === undefined ? ID_NAMES.join(' or ') : quote(idField)}), a measure (${MEASURE_NAMES.join(', ')}) and a value (${VALUE_NAMES.join(', ')}) column; found ${found}`,
    `name the columns so, pass --id-field for the query id, or drop --input-format long for a wide ${what} (one column per metric)`
  )
}

/** Reads a long-form per-query file (see the module comment), its columns found by name in the header / first record. */
export async function readLongRows(file: string, layout: LongLayout, options: RowsOptions): Promise<SideRows> {
  const pivot = new Pivot(file, options.metricFields, options.keepAttributes)
  // long form names the measures in its data, so the metric columns are never those of the header
  const forced = new Set<string>()
  if (layout === 'jsonl') {
    let columns: LongColumns | undefined
    const onRecord = (record: JsonMembers, line: number): void => {
      if (columns === undefined) {
        const keys = record.keys.slice(0, record.size)
        columns = longColumns(keys, forced, options.idField)
        if (columns === undefined) throw notLongForm({ file, line }, keys, options.idField, 'file')
      }
      const { id: idKey, measure: mKey, value: vKey } = columns
      const id = memberValue(record, idKey)
      const measure = memberValue(record, mKey)
      if (typeof id !== 'string' || id === '')
        throw new InputError(
          { file, line },
          `${quote(idKey)} is ${id === undefined ? 'missing' : quote(id)}, not a non-empty string`,
          'write query ids as JSON strings ("17", not 17)'
        )
      if (typeof measure !== 'string')
        throw new InputError(
          { file, line, queryId: id },
          `${quote(mKey)} is ${measure === undefined ? 'missing' : quote(measure)}, not a string`,
          'name the measure as a string'
        )
      const e = pivot.entry(id, line)
      pivot.measure(e, measure, line, () => pivot.sink.value(e.row, measure, memberValue(record, vKey), { line }))
      for (let k = 0; k < record.size; k++) {
        const key = record.keys[k]
        if (key === idKey || key === mKey || key === vKey) continue
        pivot.attributeValue(e, key, record.values[k], line)
      }
    }
    await forEachJsonRecord(file, onRecord, {
      nonFinite: true,
      hint: 'write one JSON object per line, e.g. {"query_id": "q1", "measure": "nDCG@10", "value": 0.5}'
    })
    return pivot.finish()
  }
  let header: string[] | undefined
  let cols: { id: number; measure: number; value: number } | undefined
  const onRecord = (fields: string[], line: number): void => {
    if (header === undefined) {
      header = fields.map((f) => f.trim())
      const found = longColumns(header, forced, options.idField)
      if (found === undefined) throw notLongForm({ file, line }, header, options.idField, 'file')
      cols = {
        id: header.indexOf(found.id),
        measure: header.indexOf(found.measure),
        value: header.indexOf(found.value)
      }
      if (header[0] === '') pivot.sink.notes.push(`${file}: the unnamed first column (pandas' row index) was ignored`)
      return
    }
    if (fields.length === 1 && fields[0].trim() === '') return
    const c = cols as { id: number; measure: number; value: number }
    if (fields.length !== header.length)
      throw new InputError(
        { file, line },
        `has ${fields.length} fields but the header has ${header.length}`,
        'every line needs one value per header column'
      )
    const id = fields[c.id]
    const measure = fields[c.measure].trim()
    const e = pivot.entry(id, line)
    pivot.measure(e, measure, line, () => pivot.sink.cell(e.row, measure, fields[c.value]))
    for (let k = 0; k < header.length; k++) {
      const key = header[k]
      if (k === c.id || k === c.measure || k === c.value || (k === 0 && key === '')) continue
      if (pivot.attribute(e, key, fields[k], line)) pivot.sink.cell(e.row, key, fields[k])
    }
  }
  if (layout === 'csv') await forEachCsvRecord(file, onRecord)
  else await forEachLine(file, (text, line) => onRecord(text.split('\t'), line))
  if (header === undefined)
    throw new InputError(
      { file },
      'is empty',
      'write a header line (query_id, measure, value), then one line per query and measure'
    )
  return pivot.finish()
}

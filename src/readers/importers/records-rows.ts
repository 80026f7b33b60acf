import { InputError } from '../../errors.js'
import { csvTableHeader, forEachCsvRecord } from '../csv.js'
import { forEachJsonRecord, hasMember, memberValue, type JsonMembers } from '../json/lines.js'
import type { SideRows } from '../../model/rows.js'
import { RowsSink } from './rows-sink.js'
import { looksLikeRagas } from './ragas.js'
import { isObject } from '../json/document.js'
import { quote } from '../../util/show.js'

/**
 * Per-sample records: one record per question with its metric columns, as any evaluator that keeps a table of
 * samples writes it through pandas (ragas' `result.to_pandas()` is the best-known one):
 * - `df.to_csv(path, index=False)` (lists become their Python repr text; NaN an empty cell). With the index
 *   (`index=True`, pandas' default) the first header cell is empty: that column is ignored and noted.
 * - `df.to_json(path, orient="records")`: a JSON array of objects (NaN becomes null).
 * - `df.to_json(path, orient="records", lines=True)`: JSON Lines.
 * pandas' default `to_json` layout (orient="columns") is refused with the fix.
 *
 * Query ids: such rows often carry none, yet the gate pairs baseline and candidate by id. The id is the
 * `query_id` column, else an `id` column, else the column the user names with `--id-field` (`--id-field
 * user_input` makes the question text the id). Without any of these the file is refused: pairing by row position
 * or by a hash would silently pair different questions when the two exports differ in order or content. This is
 * the reader `--id-field` selects for any CSV or JSON Lines rows file.
 */

/** Id columns tried in this order when the user names none. */
const ID_COLUMNS = ['query_id', 'id']

/** Options of the records importers. */
export interface RecordsOptions {
  metricFields: ReadonlySet<string>
  /** The column holding the query id (default: query_id, else id). */
  idField?: string
  /** Attributes to keep (those the rules use); undefined keeps all (see RowsSink). */
  keepAttributes?: ReadonlySet<string>
}

function chooseId(columns: readonly string[], file: string, idField: string | undefined, line?: number): string {
  if (idField !== undefined) {
    if (!columns.includes(idField)) {
      throw new InputError(
        { file, line },
        `has no column ${quote(idField)} (named with --id-field)`,
        `columns: ${columns
          .slice(0, 30)
          .map((c) => quote(c, 40))
          .join(', ')}`
      )
    }
    return idField
  }
  const found = ID_COLUMNS.find((c) => columns.includes(c))
  if (found !== undefined) return found
  const question = ['user_input', 'question', 'input'].find((c) => columns.includes(c)) ?? 'user_input'
  throw new InputError(
    { file, line },
    'has no query id column ("query_id" or "id"): every row is one question, and the gate pairs baseline and candidate by query id',
    `add a query_id column before saving (e.g. df.insert(0, "query_id", ids)), or pass --id-field ${question} to use the question text itself as the id (repeated questions are then refused as duplicates)`
  )
}

function idText(value: unknown, file: string, column: string, where: { line?: number; key?: string }): string {
  if (typeof value === 'string') return value
  if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value)
  if (typeof value === 'number') {
    throw new InputError(
      { file, ...where },
      `${quote(column)} is the number ${String(value)}, which is not a whole number a query id can be read from exactly`,
      'write query ids as strings'
    )
  }
  throw new InputError(
    { file, ...where },
    `${quote(column)} is ${value === null || value === undefined ? 'missing' : typeof value}, not a query id`,
    'every row needs an id (a string)'
  )
}

/** Reads a per-sample export in CSV (see the module comment). */
export async function readCsvRecords(file: string, options: RecordsOptions): Promise<SideRows> {
  const sink = new RowsSink(file, options.metricFields, options.keepAttributes)
  let header: string[] | null = null
  let idColumn = -1
  let indexColumn = -1
  await forEachCsvRecord(file, (fields, line) => {
    if (header === null) {
      header = csvTableHeader(fields, { file, line }, true)
      if (header[0] === '') indexColumn = 0
      idColumn = header.indexOf(
        chooseId(
          header.filter((_, c) => c !== indexColumn),
          file,
          options.idField,
          line
        )
      )
      if (indexColumn === 0) sink.notes.push(`${file}: the unnamed first column (pandas' row index) was ignored`)
      return
    }
    if (fields.length !== header.length) {
      throw new InputError(
        { file, line },
        `has ${fields.length} fields but the header has ${header.length}`,
        'every row needs one value per header column (quote values that contain commas)'
      )
    }
    const row = sink.start(fields[idColumn], line)
    if (row === undefined) return
    for (let c = 0; c < header.length; c++) {
      if (c === idColumn || c === indexColumn) continue
      sink.cell(row, header[c], fields[c])
    }
  })
  if (header === null) throw new InputError({ file }, 'is empty', 'write a header line and one row per question')
  return sink.finish('write one row per question after the header')
}

/** Reads a per-sample export in JSON Lines. */
export async function readJsonlRecords(file: string, options: RecordsOptions): Promise<SideRows> {
  const sink = new RowsSink(file, options.metricFields, options.keepAttributes)
  let idColumn: string | undefined
  await forEachJsonRecord(
    file,
    (m, line) => {
      idColumn ??= chooseId(m.keys.slice(0, m.size), file, options.idField, line)
      addRecord(sink, m, idColumn, line)
    },
    { hint: 'write one JSON object per line (pandas: to_json(path, orient="records", lines=True))' }
  )
  return sink.finish('write one JSON object per question')
}

/** Rows from a parsed JSON document of records (an array of objects); any other document is refused with the fix. */
export function jsonRecordsToRows(doc: unknown, file: string, options: RecordsOptions): SideRows {
  if (isObject(doc)) {
    const keys = Object.keys(doc)
    if (looksLikeRagas(keys) && keys.every((k) => isObject(doc[k]))) throw columnsOrient(file)
    throw new InputError(
      { file },
      'is a JSON object, not an array of records',
      'write the per-sample table as records: df.to_json(path, orient="records")'
    )
  }
  if (!Array.isArray(doc))
    throw new InputError(
      { file },
      'is not a JSON array of records',
      'write the per-sample table as df.to_json(path, orient="records")'
    )
  const sink = new RowsSink(file, options.metricFields, options.keepAttributes)
  let idColumn: string | undefined
  doc.forEach((record, i) => {
    if (!isObject(record))
      throw new InputError({ file, key: `[${i}]` }, 'is not a JSON object', 'each record is {"column": value, ...}')
    const keys = Object.keys(record)
    idColumn ??= chooseId(keys, file, options.idField)
    addRecord(sink, { size: keys.length, keys, values: keys.map((k) => record[k]) }, idColumn, `[${i}]`)
  })
  return sink.finish('the array is empty: write one record per question')
}

/** One record into the sink; `place` is its line, or for a record of a JSON document its label (`[3]`). */
function addRecord(sink: RowsSink, record: JsonMembers, idColumn: string, place: number | string): void {
  const line = typeof place === 'number' ? place : 0
  const label = typeof place === 'number' ? `line ${place}` : place
  const where = line > 0 ? { line } : { key: `${label}.${idColumn}` }
  const row = sink.start(
    idText(hasMember(record, idColumn) ? memberValue(record, idColumn) : undefined, sink.file, idColumn, where),
    line,
    label
  )
  if (row === undefined) return
  for (let k = 0; k < record.size; k++) {
    const key = record.keys[k]
    if (key === idColumn) continue
    sink.value(row, key, record.values[k], line > 0 ? {} : { key: `${label}.${key}` })
  }
}

/** The refusal for pandas' default to_json layout ({column: {row: value}}). */
export function columnsOrient(file: string): InputError {
  return new InputError(
    { file },
    'looks like pandas\' default to_json layout (orient="columns": {column: {row index: value}}), which has no per-question records',
    'write it with df.to_json(path, orient="records") (or lines=True), or df.to_csv(path, index=False)'
  )
}

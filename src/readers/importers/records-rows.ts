import { InputError } from '../../errors.js'
import { csvTableHeader, forEachCsvRecord } from '../csv.js'
import { forEachJsonRecord, hasMember, memberValue, type JsonLinesOptions, type JsonMembers } from '../json/lines.js'
import { checkQueryIdLength } from '../field-caps.js'
import type { RowsOptions } from '../rows-input.js'
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
 *
 * The gate's own rows (src/readers/plain-rows.ts) are read by the same loops into a sink in its own mode
 * ({@link RowsSink}): the id is `query_id`, a JSON string as written (never a number), the header names the fields,
 * a repeated id's record is still checked, and the refusals keep their words.
 */

/** The field that names a query in the gate's own rows. */
export const ID_FIELD = 'query_id'

/** Id columns tried in this order when the user names none. */
const ID_COLUMNS = ['query_id', 'id']

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

/** The query id of a record of the gate's own rows (a CSV cell, or a JSON value): a non-empty string within the cap. */
function ownId(value: unknown, file: string, line: number): string {
  if (typeof value === 'string') {
    if (value === '')
      throw new InputError({ file, line }, `"${ID_FIELD}" is empty`, 'every row needs a non-empty query id')
    checkQueryIdLength(value, { file, line })
    return value
  }
  if (value === undefined)
    throw new InputError({ file, line }, `has no "${ID_FIELD}" field`, `every row needs "${ID_FIELD}" (a string)`)
  if (typeof value === 'number') {
    throw new InputError(
      { file, line },
      `"${ID_FIELD}" is a number (${String(value)}), not a string`,
      'write query ids as strings ("17", not 17): numbers lose digits beyond 2^53 and "01" would become 1'
    )
  }
  throw new InputError({ file, line }, `"${ID_FIELD}" must be a string`, 'write query ids as JSON strings')
}

/** The id column of the gate's own CSV rows, whose header names every field: metric or attribute. */
function ownHeader(sink: RowsSink, header: readonly string[], line: number): number {
  const idColumn = header.indexOf(ID_FIELD)
  if (idColumn < 0)
    throw new InputError(
      { file: sink.file, line },
      `the header has no "${ID_FIELD}" column`,
      `the first line must be a header naming "${ID_FIELD}" and the metric columns`
    )
  for (const name of header)
    if (name !== ID_FIELD) (sink.metricFields.has(name) ? sink.numericFields : sink.attributeFields).add(name)
  return idColumn
}

/** Reads a per-sample export in CSV (see the module comment). */
export async function readCsvRecords(file: string, options: RowsOptions): Promise<SideRows> {
  const sink = new RowsSink(file, options.metricFields, options.keepAttributes)
  await readCsvInto(sink, options)
  return sink.finish('write one row per question after the header')
}

/** The records of a CSV file into `sink` (an export's, or in its own mode the gate's own rows). */
export async function readCsvInto(sink: RowsSink, options: RowsOptions): Promise<void> {
  const { file, own } = sink
  let header: string[] | null = null
  let idColumn = -1
  let indexColumn = -1
  const onRecord = (fields: string[], line: number): void => {
    if (header === null) {
      header = csvTableHeader(fields, { file, line }, !own)
      if (header[0] === '') indexColumn = 0
      const columns = header.filter((_, c) => c !== indexColumn)
      idColumn = own ? ownHeader(sink, header, line) : header.indexOf(chooseId(columns, file, options.idField, line))
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
    const id = own ? ownId(fields[idColumn], file, line) : fields[idColumn]
    // a repeated id is refused with the others after the file; its values are still checked
    const row = sink.start(id, line)
    const where = { line, queryId: id }
    for (let c = 0; c < header.length; c++)
      if (c !== idColumn && c !== indexColumn) sink.cell(row, header[c], fields[c], where)
  }
  await forEachCsvRecord(file, onRecord, options)
  if (header === null) {
    const ownHint = `write a header line naming "${ID_FIELD}" and the metric columns, then one row per query`
    throw new InputError({ file }, 'is empty', own ? ownHint : 'write a header line and one row per question')
  }
}

/** Reads a per-sample export in JSON Lines. */
export async function readJsonlRecords(file: string, options: RowsOptions): Promise<SideRows> {
  const sink = new RowsSink(file, options.metricFields, options.keepAttributes)
  const hint = 'write one JSON object per line (pandas: to_json(path, orient="records", lines=True))'
  await readJsonlInto(sink, options, { ...options, hint })
  return sink.finish('write one JSON object per question')
}

/** The records of a JSON Lines file into `sink` (an export's, or in its own mode the gate's own rows). */
export async function readJsonlInto(sink: RowsSink, options: RowsOptions, lines: JsonLinesOptions): Promise<void> {
  let idColumn: string | undefined
  const onRecord = (m: JsonMembers, line: number): void => {
    idColumn ??= sink.own ? ID_FIELD : chooseId(m.keys.slice(0, m.size), sink.file, options.idField, line)
    addRecord(sink, m, idColumn, line)
  }
  await forEachJsonRecord(sink.file, onRecord, lines)
}

/** Rows from a parsed JSON document of records (an array of objects); any other document is refused with the fix. */
export function jsonRecordsToRows(doc: unknown, file: string, options: RowsOptions): SideRows {
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
  const value = hasMember(record, idColumn) ? memberValue(record, idColumn) : undefined
  const id = sink.own ? ownId(value, sink.file, line) : idText(value, sink.file, idColumn, where)
  const row = sink.start(id, line, label)
  const onLine = line > 0 ? { line, queryId: id } : undefined
  for (let k = 0; k < record.size; k++) {
    const key = record.keys[k]
    if (key !== idColumn) sink.value(row, key, record.values[k], onLine ?? { key: `${label}.${key}` })
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

import { InputError } from '../errors.js'
import { SideRowsBuilder, type SideRows } from '../model/rows.js'
import { csvTableHeader, forEachCsvRecord } from './csv.js'
import { nonFiniteRefusal } from './non-finite.js'
import type { RowsOptions } from './rows-input.js'
import { forEachJsonRecord, type JsonMembers } from './json/lines.js'
import { checkAttributeLength, checkQueryIdLength, rememberField } from './field-caps.js'
import { parseMetricCell } from './numbers.js'
import { documentField, firstLineHint, RUN_WITHOUT_JUDGMENTS } from '../util/input-hints.js'
import { Probe } from './probe.js'
import { lookalikes, shapeRefusal } from './shapes.js'
import { quote } from '../util/show.js'

/** The field that names a query in every per-query rows file. */
const ID_FIELD = 'query_id'

/** How many offending ids an error lists before it says "and N more". */
const LIST_LIMIT = 20

/**
 * The gate's own per-query rows: JSON Lines (one object per line) or CSV with a header, each record a `query_id`
 * (a string) plus metric fields (numbers) and attribute fields, read in one streaming pass into {@link SideRows}.
 * Metric fields must be finite numbers (an empty / null value is kept as a missing value for the pairing
 * stage to refuse or fill, as the rules say); query ids are strings taken exactly as written. Duplicate ids
 * are collected and refused together, each with its lines.
 */
export async function readPlainRows(file: string, layout: 'jsonl' | 'csv', options: RowsOptions): Promise<SideRows> {
  const rows = new SideRowsBuilder(file)
  const fields: Fields = { numericFields: new Set(), attributeFields: new Set() }
  const duplicates: string[] = []
  let firstRepeat = ''
  let duplicateCount = 0
  /** The row for `id` at `line`, or undefined for a repeated id (collected, refused after the whole file). */
  const start = (id: string, line: number): number | undefined => {
    const seen = rows.rowOf(id)
    if (seen !== undefined) {
      if (duplicateCount === 0) firstRepeat = `query ${quote(id)} on lines ${rows.lineOf(seen)} and ${line}`
      if (duplicates.length < LIST_LIMIT) duplicates.push(`${quote(id)} (lines ${rows.lineOf(seen)} and ${line})`)
      duplicateCount++
      return undefined
    }
    return rows.add(id, line)
  }
  const read: RowsRead = { file, options, fields, rows, start }
  if (layout === 'csv') await readCsv(read)
  else await readJsonl(read)
  if (duplicateCount > 0) {
    // A repeated id with a document field is a run (one line per retrieved document): say that, not the repeats.
    const doc = documentField(fields.attributeFields)
    if (doc !== undefined)
      throw new InputError(
        { file },
        `this looks like a run (one line per retrieved document, field ${quote(doc)}; ${firstRepeat}), not per-query rows`,
        RUN_WITHOUT_JUDGMENTS
      )
    const more = duplicateCount - duplicates.length
    throw new InputError(
      { file },
      `duplicate query ids: ${duplicates.join(', ')}${more > 0 ? ` and ${more} more` : ''}`,
      'each query must appear once per file; remove the repeats or give them distinct ids'
    )
  }
  if (rows.size === 0) {
    throw new InputError({ file }, 'has no rows', `write one record per query with a "${ID_FIELD}" field`)
  }
  const side = rows.build({ ...fields, notes: [] })
  const lookAlikes = normalizationTwins(side)
  if (lookAlikes.length > 0) {
    side.notes.push(
      `${file}: ${lookAlikes.length} query ${lookAlikes.length === 1 ? 'id differs' : 'ids differ'} from another only in Unicode normalisation (NFC/NFD), kept as distinct queries: ${lookAlikes.slice(0, 5).join(', ')}${lookAlikes.length > 5 ? ` and ${lookAlikes.length - 5} more` : ''}`
    )
  }
  return side
}

/** The field names a reader has seen, by kind. */
type Fields = Pick<SideRows, 'numericFields' | 'attributeFields'>

/** Starts the row of a new id (undefined: a repeat, recorded by the caller). */
type StartRow = (id: string, line: number) => number | undefined

/** One file being read: where its rows and field names go, and how a new id starts its row. */
interface RowsRead {
  file: string
  options: RowsOptions
  fields: Fields
  rows: SideRowsBuilder
  start: StartRow
}

/**
 * Ids are compared exactly as written ("café" in NFC and NFD are two queries, as "01" and "1" are), because
 * normalising would silently merge queries some system does tell apart. Look-alikes are rare and usually an
 * export bug, so they are named in the report instead of being merged or refused.
 */
function normalizationTwins(side: SideRows): string[] {
  const byNfc = new Map<string, string>()
  const twins: string[] = []
  side.ids.forEach((id, row) => {
    if (/^[\x00-\x7f]*$/.test(id)) return
    const nfc = id.normalize('NFC')
    const other = byNfc.get(nfc)
    if (other === undefined) byNfc.set(nfc, id)
    else twins.push(`${escapeNonAscii(id)} (line ${side.lines[row]}) ~ ${escapeNonAscii(other)}`)
  })
  return twins
}

async function readJsonl(read: RowsRead): Promise<void> {
  const { file, options } = read
  const hint = `write one JSON object per line, e.g. {"${ID_FIELD}": "q1", "recall@10": 0.5}; a truncated last line is refused`
  await forEachJsonRecord(file, (m, line) => fieldsToRow(read, m, line), {
    ...options,
    nonFinite: true,
    hint: (text, line) => (line === 1 ? firstLineHint(text, hint) : hint),
    beforeParse: (text, line) => {
      // Read as JSON Lines by name (--input-format jsonl), a TREC run or judgments still gets its shape's refusal
      // (the registry's rows entries, formats.ts, refuse the same shapes when the format is detected).
      if (line !== 1) return
      const probe = new Probe({ file, head: Buffer.from(text.slice(0, 1000)) })
      const shape = lookalikes('rows', ['jsonl-run']).find((s) => s.test(probe))
      if (shape !== undefined) throw shapeRefusal(shape, 'rows', { file, line })
    }
  })
}

/** One record's members (in Object.keys order) into its row. */
function fieldsToRow(read: RowsRead, record: JsonMembers, line: number): void {
  const { file, fields, rows, start } = read
  const { metricFields, keepAttributes } = read.options
  const { keys, values, size } = record
  let at = -1
  for (let k = 0; k < size && at < 0; k++) if (keys[k] === ID_FIELD) at = k
  const id = readId(at < 0 ? undefined : values[at], file, line)
  // A repeated id is refused with the others after the file; its values are still checked, as before.
  const row = start(id, line)
  for (let k = 0; k < size; k++) {
    const key = keys[k]
    if (key === ID_FIELD) continue
    const value = values[k]
    if (metricFields.has(key)) {
      if (value === null) {
        if (row !== undefined) rows.setValue(row, key, null)
      } else if (typeof value === 'number') {
        if (!Number.isFinite(value)) throw nonFiniteRefusal({ file, line, queryId: id }, key, value)
        if (row !== undefined) rows.setValue(row, key, value)
      } else if (typeof value === 'string') {
        throw new InputError(
          { file, line, queryId: id },
          `${quote(key)} is a string (${quote(value, 40)}), not a number`,
          'write metric values as JSON numbers without quotes'
        )
      } else {
        throw new InputError(
          { file, line, queryId: id },
          `${quote(key)} is ${Array.isArray(value) ? 'an array' : typeof value}, not a number`,
          'write metric values as JSON numbers'
        )
      }
      fields.numericFields.add(key)
    } else if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
      const names = typeof value === 'number' ? fields.numericFields : fields.attributeFields
      if (typeof value === 'number' && !Number.isFinite(value)) {
        // NaN in a field the rules do not read is not read; as a label the rules slice by it is refused.
        if (keepAttributes?.has(key) === true) throw nonFiniteRefusal({ file, line, queryId: id }, key, value)
        rememberField(names, key)
      } else if (keepAttributes === undefined || keepAttributes.has(key)) {
        const text = String(value)
        if (keepAttributes !== undefined) checkAttributeLength(key, text, { file, line, queryId: id })
        if (row !== undefined) rows.setAttr(row, key, text)
        names.add(key)
      } else {
        rememberField(names, key)
      }
    }
  }
}

/** The query id of a record (a CSV cell, or a JSON value), refused unless a non-empty string within the cap. */
function readId(value: unknown, file: string, line: number): string {
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

async function readCsv(read: RowsRead): Promise<void> {
  const { file, options, fields, rows, start } = read
  let header: string[] | null = null
  let idColumn = -1
  await forEachCsvRecord(
    file,
    (cells, line) => {
      if (header === null) {
        header = csvTableHeader(cells, { file, line })
        idColumn = header.indexOf(ID_FIELD)
        if (idColumn < 0) {
          throw new InputError(
            { file, line },
            `the header has no "${ID_FIELD}" column`,
            `the first line must be a header naming "${ID_FIELD}" and the metric columns`
          )
        }
        for (const name of header) {
          if (name !== ID_FIELD)
            (options.metricFields.has(name) ? fields.numericFields : fields.attributeFields).add(name)
        }
        return
      }
      if (cells.length !== header.length) {
        throw new InputError(
          { file, line },
          `has ${cells.length} fields but the header has ${header.length}`,
          'every row needs one value per header column (quote values that contain commas)'
        )
      }
      const id = readId(cells[idColumn], file, line)
      const row = start(id, line)
      for (let c = 0; c < header.length; c++) {
        if (c === idColumn) continue
        const name = header[c]
        const text = cells[c]
        if (options.metricFields.has(name)) {
          const value = parseMetricCell(text, name, { file, line, queryId: id })
          if (row !== undefined) rows.setValue(row, name, value)
        } else if (options.keepAttributes === undefined || options.keepAttributes.has(name)) {
          if (options.keepAttributes !== undefined) checkAttributeLength(name, text, { file, line, queryId: id })
          if (row !== undefined) rows.setAttr(row, name, text)
        }
      }
    },
    options
  )
  if (header === null)
    throw new InputError(
      { file },
      'is empty',
      `write a header line naming "${ID_FIELD}" and the metric columns, then one row per query`
    )
}

/** `"cafe\u0301"`: look-alike ids printed so a reader can see how they differ (here and in the pairing's refusal). */
export function escapeNonAscii(id: string): string {
  return JSON.stringify(id).replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
}

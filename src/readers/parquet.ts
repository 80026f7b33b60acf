import type { FileHandle } from 'node:fs/promises'
import { parquetMetadataAsync, parquetReadObjects, parquetSchema, type AsyncBuffer, type FileMetaData } from 'hyparquet'
import { InputError } from '../errors.js'
import type { SideRows } from '../model/rows.js'
import { RowsSink } from './importers/rows-sink.js'
import { openError, openReadable } from './whole-file.js'
import { rememberField } from './field-caps.js'
import { quote } from '../util/show.js'
import { toByteString } from '../util/order.js'
import type { BlockCollector } from './run-blocks.js'

/**
 * Per-query rows in Parquet (wide form: one row per query, a query id column, one numeric column per
 * metric, string attribute columns), as pandas `to_parquet`, pyarrow and Spark write them. Read with
 * hyparquet (pure JavaScript, no native build, snappy built in) through positioned file reads: the footer
 * first, then one row group at a time and only the columns the rules use, so memory follows the largest
 * row group, not the file. Rows go through the same {@link RowsSink} as the CSV / JSON importers, so ids,
 * metrics and attributes obey the same caps (src/readers/field-caps.ts) and the same refusals.
 */

/** Largest footer (schema + row group index) read; a per-query table's footer is a few KiB. */
const MAX_FOOTER_BYTES = 16 * 1024 * 1024

/**
 * Largest row group, uncompressed, decoded at once. pyarrow writes up to 1 Mi rows per group: a per-query
 * table of a million queries and a dozen metrics is ~100 MiB. Bigger groups are a file that is not
 * per-query rows, or one built to exhaust memory.
 */
export const MAX_ROW_GROUP_BYTES = 256 * 1024 * 1024

const HINT = 'write per-query rows with pandas DataFrame.to_parquet (snappy or no compression), or export them as CSV'

/** The file seen by hyparquet: positioned reads through one open handle. */
function fileBuffer(handle: FileHandle, size: number, file: string): AsyncBuffer {
  return {
    byteLength: size,
    async slice(start: number, end?: number): Promise<ArrayBuffer> {
      const stop = Math.min(end ?? size, size)
      const length = Math.max(0, stop - start)
      const buf = Buffer.alloc(length)
      let done = 0
      while (done < length) {
        const { bytesRead } = await handle.read(buf, done, length - done, start + done).catch((error: unknown) => {
          throw openError(file, error)
        })
        if (bytesRead === 0) break
        done += bytesRead
      }
      return buf.buffer.slice(buf.byteOffset, buf.byteOffset + done)
    }
  }
}

/** A Parquet library failure (a truncated or corrupt file, an unsupported codec) as a refusal naming the file. */
function corrupt(file: string, error: unknown): InputError {
  if (error instanceof InputError) return error
  const message = error instanceof Error ? error.message : String(error)
  const codec = /unsupported compression codec: (\w+)/.exec(message)
  if (codec) return new InputError({ file }, `is Parquet compressed with ${codec[1]}, which is not read`, `${HINT}: pandas and pyarrow use snappy by default`)
  return new InputError({ file }, `is not a readable Parquet file (${message.slice(0, 200)})`, `the file is truncated or corrupt; ${HINT}`)
}

/** Checks both magic numbers and the footer length before the library parses anything. */
async function checkFrame(buffer: AsyncBuffer, file: string): Promise<void> {
  const size = buffer.byteLength
  if (size < 12) throw new InputError({ file }, `is ${size} bytes long, too short for a Parquet file`, `the file is truncated; ${HINT}`)
  const tail = new Uint8Array(await buffer.slice(size - 8, size))
  const magic = String.fromCharCode(tail[4], tail[5], tail[6], tail[7])
  if (magic !== 'PAR1') throw new InputError({ file }, 'starts like Parquet but does not end with the PAR1 footer', `the file is truncated (an interrupted copy or upload?); ${HINT}`)
  const footer = new DataView(tail.buffer, tail.byteOffset).getUint32(0, true)
  if (footer > MAX_FOOTER_BYTES || footer > size - 12) {
    throw new InputError({ file }, `has a Parquet footer of ${footer} bytes in a file of ${size} bytes`, `the file is corrupt; ${HINT}`)
  }
}

/** The top-level columns: name, and whether values are numbers (for the hint lists of columns not read). */
function topColumns(metadata: FileMetaData): Array<{ name: string; numeric: boolean; nested: boolean }> {
  return parquetSchema(metadata).children.map((c) => ({
    name: c.element.name,
    numeric: c.children.length === 0 && ['INT32', 'INT64', 'FLOAT', 'DOUBLE'].includes(c.element.type ?? ''),
    nested: c.children.length > 0
  }))
}

/** A Parquet value as the sink takes it: 64-bit integers as numbers when exact, as text otherwise. */
export function plain(value: unknown): unknown {
  if (typeof value === 'bigint') return Number.isSafeInteger(Number(value)) ? Number(value) : value.toString()
  return value
}

/** An open Parquet file: its positioned-read buffer, footer and top-level columns. */
export interface OpenParquet {
  buffer: AsyncBuffer
  metadata: FileMetaData
  columns: Array<{ name: string; numeric: boolean; nested: boolean }>
}

/** Opens `file`, checks its frame and reads its footer, runs `use`, and closes the file whatever happens. */
export async function withParquet<T>(file: string, use: (pq: OpenParquet) => Promise<T>): Promise<T> {
  const { handle, stats } = await openReadable(file)
  try {
    // positioned reads need a regular file: a pipe (the one other kind openReadable lets through) has no footer to read first
    if (!stats.isFile()) throw new InputError({ file }, 'is a pipe, not a regular file', 'write the Parquet file to disk first')
    const buffer = fileBuffer(handle, stats.size, file)
    await checkFrame(buffer, file)
    let metadata: FileMetaData
    try {
      metadata = await parquetMetadataAsync(buffer, { initialFetchSize: 64 * 1024 })
    } catch (error) {
      throw corrupt(file, error)
    }
    return await use({ buffer, metadata, columns: topColumns(metadata) })
  } finally {
    await handle.close()
  }
}

/** Decodes the `read` columns one row group at a time (capped), handing each row with its 1-based number. */
export async function forEachParquetRow(file: string, pq: OpenParquet, read: string[], onRow: (record: Record<string, unknown>, row: number) => void): Promise<void> {
  let offset = 0
  for (const [index, group] of pq.metadata.row_groups.entries()) {
    const rows = Number(group.num_rows)
    const bytes = Number(group.total_byte_size)
    if (bytes > MAX_ROW_GROUP_BYTES) {
      throw new InputError(
        { file },
        `row group ${index + 1} holds ${bytes} bytes uncompressed; the limit is ${MAX_ROW_GROUP_BYTES}`,
        'write smaller row groups (pyarrow: row_group_size=100000) or keep only the per-query columns'
      )
    }
    let objects: Array<Record<string, unknown>>
    try {
      objects = await parquetReadObjects({ file: pq.buffer, metadata: pq.metadata, columns: read, rowStart: offset, rowEnd: offset + rows })
    } catch (error) {
      throw corrupt(file, error)
    }
    for (let i = 0; i < objects.length; i++) onRow(objects[i], offset + i + 1)
    offset += rows
  }
}

/** Refuses a file without column `name`, listing the columns it has. */
function requireColumn(file: string, pq: OpenParquet, name: string, hint: string): void {
  if (pq.columns.some((c) => c.name === name)) return
  const shown = pq.columns
    .slice(0, 20)
    .map((c) => quote(c.name))
    .join(', ')
  throw new InputError({ file }, `has no ${quote(name)} column (columns: ${shown}${pq.columns.length > 20 ? ', …' : ''})`, hint)
}

/** Options of {@link readParquetRows}, the subset of the rows reader's. */
export interface ParquetRowsOptions {
  metricFields: ReadonlySet<string>
  idField?: string
  keepAttributes?: ReadonlySet<string>
}

/**
 * Reads an open Parquet table of per-query rows in wide form into {@link SideRows} (the long form and the choice
 * between them: src/readers/parquet-long.ts). The query id column is `query_id` (or `idField`): strings, or
 * integers (written in decimal, as a CSV export of the same table would). Errors name the file and the row
 * (1-based, in file order) or the query id.
 */
export async function readWideParquetRows(file: string, pq: OpenParquet, options: ParquetRowsOptions): Promise<SideRows> {
  const idField = options.idField ?? 'query_id'
  requireColumn(file, pq, idField, options.idField === undefined ? 'name the query id column query_id, or pass --id-field with its name' : 'pass --id-field with the name of the query id column')
  const sink = new RowsSink(file, options.metricFields, options.keepAttributes)
  const read: string[] = []
  for (const c of pq.columns) {
    const wanted = c.name === idField || options.metricFields.has(c.name) || options.keepAttributes === undefined || options.keepAttributes.has(c.name)
    if (wanted) read.push(c.name)
    else if (!c.nested) rememberField(c.numeric ? sink.numericFields : sink.attributeFields, c.name)
  }
  await forEachParquetRow(file, pq, read, (record, n) => {
    const label = `row ${n}`
    const id = plain(record[idField])
    if (typeof id !== 'string' && !(typeof id === 'number' && Number.isInteger(id))) {
      throw new InputError({ file, key: label }, `${quote(idField)} is ${id === null || id === undefined ? 'null' : typeof id}, not a string`, 'every row needs a query id (text, or a whole number)')
    }
    const row = sink.start(String(id), 0, label)
    if (row === undefined) return
    for (const name of read) if (name !== idField) sink.value(row, name, plain(record[name]), { key: label })
  })
  return sink.finish(`write one row per query with a ${quote(idField)} column`)
}

/** Query id column names of a run table: ranx `Run.to_dataframe()` writes `q_id`; others `query_id` or `qid`. */
const RUN_ID_COLUMNS = ['q_id', 'query_id', 'qid']

/**
 * Reads a run stored as a Parquet table with one row per (query, document): a query id column (`q_id`, as
 * ranx's `Run.to_dataframe()` names it, or `query_id` / `qid`), `doc_id` and `score`, into `collector`.
 * Row numbers (1-based) stand where a text run has line numbers.
 */
export async function readParquetRun(file: string, collector: BlockCollector): Promise<void> {
  await withParquet(file, async (pq) => {
    const idColumn = RUN_ID_COLUMNS.find((name) => pq.columns.some((c) => c.name === name)) ?? 'q_id'
    const hint = 'a run table has columns q_id (or query_id), doc_id and score, one row per retrieved document (ranx: run.to_dataframe().to_parquet(...))'
    for (const name of [idColumn, 'doc_id', 'score']) requireColumn(file, pq, name, hint)
    await forEachParquetRow(file, pq, [idColumn, 'doc_id', 'score'], (record, n) => {
      const id = plain(record[idColumn])
      if (!(typeof id === 'string' && id !== '') && !(typeof id === 'number' && Number.isInteger(id))) {
        throw new InputError({ file, line: n }, `${quote(idColumn)} is not a query id (found ${quote(id)})`, hint)
      }
      const doc = plain(record.doc_id)
      if (!(typeof doc === 'string' && doc !== '') && !(typeof doc === 'number' && Number.isInteger(doc))) {
        throw new InputError({ file, line: n, queryId: String(id) }, `"doc_id" is not a document id (found ${quote(doc)})`, hint)
      }
      const score = plain(record.score)
      if (typeof score !== 'number' || !Number.isFinite(score)) {
        throw new InputError({ file, line: n, queryId: String(id) }, `"score" is not a finite number (found ${quote(score)})`, hint)
      }
      collector.startQuery(String(id), n)
      collector.add(toByteString(String(doc)), score, n)
    })
  })
}

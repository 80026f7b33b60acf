import type { FileHandle } from 'node:fs/promises'
import { parquetRead, type AsyncBuffer, type ColumnData, type FileMetaData } from 'hyparquet'
import { InputError, type Where } from '../errors.js'
import type { SideRows } from '../model/rows.js'
import { RowsSink } from './importers/rows-sink.js'
import { longColumns, notLongForm, Pivot, type LongColumns } from './importers/long-form.js'
import { runTableMistake } from '../util/input-hints.js'
import { openError, openReadable } from './whole-file.js'
import { rememberField } from './field-caps.js'
import { quote } from '../util/show.js'
import { toByteString } from '../util/order.js'
import type { BlockCollector } from './run-blocks.js'
import type { RowsOptions } from './rows-input.js'
import {
  corruptParquet,
  footerInt,
  MAX_ROW_GROUP_BYTES,
  ROW_GROUP_HINT,
  readParquetFooter,
  type ParquetColumn,
  type ParquetFooter,
  type RangeReader
} from './parquet-footer.js'
import { checkColumnChunk } from './parquet-pages.js'

/**
 * Per-query rows in Parquet (wide form: one row per query, a query id column, one numeric column per
 * metric, string attribute columns), as pandas `to_parquet`, pyarrow and Spark write them. Read with
 * hyparquet (pure JavaScript, no native build, snappy built in) through positioned file reads, and never on
 * the file's word: the footer is checked before hyparquet parses it and against the file
 * (src/readers/parquet-footer.ts), every page of every column read is checked before hyparquet decodes it
 * (src/readers/parquet-pages.ts), and rows are decoded a window at a time, only the columns the rules use, so
 * memory follows the window, not what a row group claims. Rows go through the same {@link RowsSink} as the
 * CSV / JSON importers, so ids, metrics and attributes obey the same caps (src/readers/field-caps.ts) and the
 * same refusals. A library failure on a checked file is still a refusal naming the file and the row group.
 */

/**
 * Most values (rows x columns read) decoded at once: hyparquet builds one object per row of a window, ~100 MB
 * at this size. A row group of fewer values is one window; a bigger one is read in windows of this many values,
 * each decoding the pages that overlap it (a page that straddles two windows is decoded twice).
 */
const WINDOW_VALUES = 1 << 20

/** Strings must be UTF-8, as in every other input (hyparquet's default decoder replaces bad bytes silently). */
const UTF8 = new TextDecoder('utf-8', { fatal: true })
class BadUtf8 extends Error {}
const PARSERS = {
  stringFromBytes(bytes: Uint8Array | undefined): string | undefined {
    if (bytes === undefined) return undefined
    try {
      return UTF8.decode(bytes)
    } catch {
      throw new BadUtf8('holds text that is not valid UTF-8')
    }
  }
}

/**
 * The file seen by hyparquet and by the checks: positioned reads through one open handle. hyparquet's reads
 * (`slice`) are kept for the row group being read, because each window of rows asks for the same column
 * chunks again; {@link RangeReader.read} (the checks) is not kept.
 */
function fileBuffer(
  handle: FileHandle,
  size: number,
  file: string
): { buffer: AsyncBuffer; reader: RangeReader; forget: () => void } {
  const read = async (start: number, end: number): Promise<Uint8Array> => {
    const stop = Math.min(end, size)
    const length = Math.max(0, stop - start)
    const buf = new Uint8Array(length)
    let done = 0
    while (done < length) {
      const { bytesRead } = await handle.read(buf, done, length - done, start + done).catch((error: unknown) => {
        throw openError(file, error)
      })
      if (bytesRead === 0) break
      done += bytesRead
    }
    return done === length ? buf : buf.subarray(0, done)
  }
  const kept = new Map<string, Promise<ArrayBuffer>>()
  const buffer: AsyncBuffer = {
    byteLength: size,
    slice(start: number, end?: number): Promise<ArrayBuffer> {
      const key = `${start}:${end ?? size}`
      let bytes = kept.get(key)
      if (bytes === undefined) {
        bytes = read(start, end ?? size).then(
          (b) => b.buffer.slice(b.byteOffset, b.byteOffset + b.length) as ArrayBuffer
        )
        kept.set(key, bytes)
      }
      return bytes
    }
  }
  return { buffer, reader: { byteLength: size, read }, forget: () => kept.clear() }
}

/** A Parquet library failure (on a checked file) as a refusal naming the file (and the row group). */
function corrupt(where: Where, error: unknown): InputError {
  if (error instanceof InputError) return error
  if (error instanceof BadUtf8)
    return new InputError(where, error.message, 'write text columns as UTF-8 (pandas and pyarrow do)')
  // (a codec hyparquet does not read cannot get here: the page checks refuse it first)
  const message = error instanceof Error ? error.message : String(error)
  return corruptParquet(where, `is not a readable Parquet file (${message.slice(0, 200)})`)
}

/** A query or document id cell: non-empty text, or a whole number written in decimal; undefined for anything else. */
export function parquetId(value: unknown): string | undefined {
  const v = plain(value)
  return (typeof v === 'string' && v !== '') || (typeof v === 'number' && Number.isInteger(v)) ? String(v) : undefined
}

/** A Parquet value as the sink takes it: 64-bit integers as numbers when exact, as text otherwise. */
export function plain(value: unknown): unknown {
  if (typeof value === 'bigint') return Number.isSafeInteger(Number(value)) ? Number(value) : value.toString()
  return value
}

/** An open Parquet file: its positioned-read buffer, checked footer and top-level columns. */
export interface OpenParquet {
  buffer: AsyncBuffer
  reader: RangeReader
  /** Drops hyparquet's kept reads (between row groups). */
  forget: () => void
  footer: ParquetFooter
  metadata: FileMetaData
  columns: ParquetColumn[]
}

/** Opens `file`, checks its frame and footer, runs `use`, and closes the file whatever happens. */
export async function withParquet<T>(file: string, use: (pq: OpenParquet) => Promise<T>): Promise<T> {
  const { handle, stats } = await openReadable(file)
  try {
    // positioned reads need a regular file: a pipe (the one other kind openReadable lets through) has no footer to read first
    if (!stats.isFile())
      throw new InputError({ file }, 'is a pipe, not a regular file', 'write the Parquet file to disk first')
    const { buffer, reader, forget } = fileBuffer(handle, stats.size, file)
    const footer = await readParquetFooter(file, reader)
    return await use({ buffer, reader, forget, footer, metadata: footer.metadata, columns: footer.columns })
  } finally {
    await handle.close()
  }
}

/** Refuses reading a column that is not one plain value per row (a list, a struct, a map, a repeated column). */
function refuseNested(file: string, pq: OpenParquet, read: string[]): ParquetColumn[] {
  return read.map((name) => {
    const c = pq.columns.find((col) => col.name === name) as ParquetColumn
    if (c.nested) {
      throw new InputError(
        { file },
        `column ${quote(name)} is a list, struct or repeated column, not one value per row`,
        'a query id, metric or attribute column holds one number or label per row'
      )
    }
    return c
  })
}

/** A decoded window of a file's rows: the `read` columns' chunks, covering rows `start..end` (0-based in the file). */
interface DecodedWindow {
  file: string
  read: string[]
  chunks: Map<string, ColumnData[]>
  start: number
  end: number
}

/**
 * Hands the rows of a decoded window to `onRow`, one record object reused for
 * every row (the readers copy what they keep; a null prototype, so a column named `__proto__` is plain data). A
 * row no chunk of a column covers, or covers with undefined, is a corrupt file, never a missing value.
 */
function zipRows(window: DecodedWindow, onRow: (record: Record<string, unknown>, row: number) => void): void {
  const { file, read, chunks, start, end } = window
  const columns = read.map((name) => ({ name, chunks: chunks.get(name) as ColumnData[], at: 0 }))
  const record = Object.create(null) as Record<string, unknown>
  for (let row = start; row < end; row++) {
    for (const c of columns) {
      while (c.at < c.chunks.length && c.chunks[c.at].rowEnd <= row) c.at++
      const chunk = c.chunks[c.at]
      const value =
        chunk !== undefined && chunk.rowStart <= row ? (chunk.columnData[row - chunk.rowStart] as unknown) : undefined
      if (value === undefined)
        throw corruptParquet(
          { file, key: `row ${row + 1}` },
          `column ${quote(c.name)} has no value where the footer promises one`
        )
      record[c.name] = value
    }
    onRow(record, row + 1)
  }
}

/**
 * Decodes the `read` columns (flat, present) one row group and one window of rows at a time, each column chunk
 * checked page by page first, handing each row with its 1-based number. A value hyparquet leaves undefined
 * (no data for a row the footer promised) is a corrupt file, never a missing value.
 */
export async function forEachParquetRow(
  file: string,
  pq: OpenParquet,
  read: string[],
  onRow: (record: Record<string, unknown>, row: number) => void
): Promise<void> {
  const columns = refuseNested(file, pq, read)
  const window = Math.max(1, Math.floor(WINDOW_VALUES / Math.max(1, read.length)))
  let offset = 0
  for (const [index, group] of pq.metadata.row_groups.entries()) {
    const rows = pq.footer.groupRows[index]
    if (rows === 0) continue
    // the bytes held while this group is read (hyparquet's reads are kept for its windows) follow its chunks' sizes
    const bytes = columns.reduce(
      (n, c) => n + (footerInt(group.columns[c.leaf].meta_data?.total_compressed_size) ?? 0),
      0
    )
    if (bytes > MAX_ROW_GROUP_BYTES) {
      throw new InputError(
        { file, key: `row group ${index + 1}` },
        `holds ${bytes} bytes in the columns read; the limit is ${MAX_ROW_GROUP_BYTES}`,
        ROW_GROUP_HINT
      )
    }
    for (const c of columns) {
      const leaf = pq.footer.leaves[c.leaf]
      const meta = group.columns[c.leaf].meta_data as NonNullable<(typeof group.columns)[number]['meta_data']>
      const start = (footerInt(meta.dictionary_page_offset) || footerInt(meta.data_page_offset)) as number
      const bytes = await pq.reader.read(start, start + (footerInt(meta.total_compressed_size) as number))
      checkColumnChunk(bytes, {
        leaf,
        codec: meta.codec,
        rows,
        where: { file, key: `row group ${index + 1}, column ${quote(c.name, 60)}` }
      })
    }
    const where = { file, key: `row group ${index + 1}` }
    for (let first = 0; first < rows; first += window) {
      const last = Math.min(rows, first + window)
      // the decoded columns, as hyparquet hands them (pages may reach before the window), zipped into rows here
      const chunks = new Map<string, ColumnData[]>(read.map((name) => [name, []]))
      try {
        await parquetRead({
          file: pq.buffer,
          metadata: pq.metadata,
          columns: read,
          rowStart: offset + first,
          rowEnd: offset + last,
          parsers: PARSERS,
          onChunk: (c) => chunks.get(c.columnName)?.push(c)
        })
      } catch (error) {
        throw corrupt(where, error)
      }
      zipRows({ file, read, chunks, start: offset + first, end: offset + last }, onRow)
    }
    pq.forget()
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
  throw new InputError(
    { file },
    `has no ${quote(name)} column (columns: ${shown}${pq.columns.length > 20 ? ', …' : ''})`,
    hint
  )
}

/**
 * Reads an open Parquet table of per-query rows in wide form into {@link SideRows} (the long form and the choice
 * between them: {@link readParquetRows}). The query id column is `query_id` (or `idField`): strings, or
 * integers (written in decimal, as a CSV export of the same table would). Errors name the file and the row
 * (1-based, in file order) or the query id.
 */
async function readWideParquetRows(file: string, pq: OpenParquet, options: RowsOptions): Promise<SideRows> {
  const idField = options.idField ?? 'query_id'
  requireColumn(
    file,
    pq,
    idField,
    options.idField === undefined
      ? 'name the query id column query_id, or pass --id-field with its name'
      : 'pass --id-field with the name of the query id column'
  )
  const sink = new RowsSink(file, options.metricFields, options.keepAttributes)
  const read: string[] = []
  for (const c of pq.columns) {
    const named = c.name === idField || options.metricFields.has(c.name) || options.keepAttributes?.has(c.name) === true
    // a list or struct column is read only when named (and then refused): otherwise it is noted, as JSON's are
    if (named || (options.keepAttributes === undefined && !c.nested)) read.push(c.name)
    else if (!c.nested) rememberField(c.numeric ? sink.numericFields : sink.attributeFields, c.name)
    else if (options.keepAttributes === undefined)
      sink.notes.push(`${file}: column ${quote(c.name)} skipped (a list or struct column, not a number or label)`)
  }
  await forEachParquetRow(file, pq, read, (record, n) => {
    const label = `row ${n}`
    const id = plain(record[idField])
    if (typeof id !== 'string' && !(typeof id === 'number' && Number.isInteger(id))) {
      throw new InputError(
        { file, key: label },
        `${quote(idField)} is ${id === null || id === undefined ? 'null' : typeof id}, not a string`,
        'every row needs a query id (text, or a whole number)'
      )
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
    const hint =
      'a run table has columns q_id (or query_id), doc_id and score, one row per retrieved document (ranx: run.to_dataframe().to_parquet(...))'
    for (const name of [idColumn, 'doc_id', 'score']) requireColumn(file, pq, name, hint)
    await forEachParquetRow(file, pq, [idColumn, 'doc_id', 'score'], (record, n) => {
      const id = parquetId(record[idColumn])
      if (id === undefined)
        throw new InputError(
          { file, line: n },
          `${quote(idColumn)} is not a query id (found ${quote(plain(record[idColumn]))})`,
          hint
        )
      const doc = parquetId(record.doc_id)
      if (doc === undefined)
        throw new InputError(
          { file, line: n, queryId: id },
          `"doc_id" is not a document id (found ${quote(plain(record.doc_id))})`,
          hint
        )
      const score = plain(record.score)
      if (typeof score !== 'number' || !Number.isFinite(score))
        throw new InputError(
          { file, line: n, queryId: id },
          `"score" is not a finite number (found ${quote(score)})`,
          hint
        )
      collector.startQuery(id, n)
      collector.add(toByteString(doc), score, n)
    })
  })
}

/** The names of a Parquet file's columns, from its checked footer (what tells long form from wide). */
export async function parquetColumnNames(file: string): Promise<string[]> {
  return withParquet(file, (pq) => Promise.resolve(pq.columns.map((c) => c.name)))
}

/**
 * Reads a Parquet file of per-query rows, wide (one row per query) or long (detected from the column names as for
 * CSV, or named with `long`: `--input-format long`).
 */
export async function readParquetRows(file: string, options: RowsOptions & { long?: boolean }): Promise<SideRows> {
  return withParquet(file, async (pq) => {
    const names = pq.columns.map((c) => c.name)
    const long = longColumns(names, options.long === true ? new Set() : options.metricFields, options.idField)
    if (long !== undefined) return readParquetLongRows(file, pq, long, options)
    if (options.long === true) throw notLongForm({ file }, names, options.idField, 'table')
    const run =
      options.idField === undefined ? runTableMistake(names, options.metricFields, 'a Parquet table') : undefined
    if (run !== undefined) throw new InputError({ file }, run.problem, run.hint)
    return readWideParquetRows(file, pq, options)
  })
}

/**
 * Per-query rows in long (tidy) form stored as Parquet: `qid, measure, value` (+ attribute columns), one row per
 * query and measure, as `df.melt(...)`, an ir_measures `iter_calc` frame or PyTerrier's per-query frame give them
 * with `to_parquet`. Pivoted by the same {@link Pivot} as the CSV / TSV / JSON Lines long form, so the rows (and
 * every report) are the same as for the wide table; the Parquet reader's caps apply (row groups one at a time,
 * only the columns the rules use). Row numbers (from 1) stand where a text file has line numbers.
 *
 * Reads the long-form table `pq` (columns found by {@link longColumns}) into rows.
 */
async function readParquetLongRows(
  file: string,
  pq: OpenParquet,
  columns: LongColumns,
  options: RowsOptions
): Promise<SideRows> {
  const pivot = new Pivot(file, options.metricFields, options.keepAttributes, 'row')
  const attributes = pq.columns
    .filter((c) => !c.nested && c.name !== columns.id && c.name !== columns.measure && c.name !== columns.value)
    .map((c) => c.name)
  const kept = attributes.filter((name) => options.keepAttributes === undefined || options.keepAttributes.has(name))
  for (const c of pq.columns)
    if (attributes.includes(c.name) && !kept.includes(c.name))
      rememberField(c.numeric ? pivot.sink.numericFields : pivot.sink.attributeFields, c.name)
  await forEachParquetRow(file, pq, [columns.id, columns.measure, columns.value, ...kept], (record, n) => {
    const qid = parquetId(record[columns.id])
    if (qid === undefined)
      throw new InputError(
        { file, line: n },
        `${quote(columns.id)} is not a query id (found ${quote(plain(record[columns.id]) ?? null)})`,
        'every row needs a query id (text, or a whole number)'
      )
    const measure = plain(record[columns.measure])
    if (typeof measure !== 'string')
      throw new InputError(
        { file, line: n, queryId: qid },
        `${quote(columns.measure)} is ${quote(measure ?? null)}, not a string`,
        'name the measure as text'
      )
    const e = pivot.entry(qid, n)
    pivot.measure(e, measure, n, () => pivot.sink.value(e.row, measure, plain(record[columns.value]), { line: n }))
    for (const key of kept) pivot.attributeValue(e, key, plain(record[key]), n)
  })
  return pivot.finish()
}

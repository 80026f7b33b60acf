import { InputError } from '../errors.js'
import type { SideRows } from '../model/rows.js'
import { quote } from '../util/show.js'
import { runTableMistake } from '../util/input-hints.js'
import { longColumns, notLongForm, Pivot, type LongColumns } from './importers/long-form.js'
import { rememberField } from './field-caps.js'
import type { RowsOptions } from './rows-input.js'
import { forEachParquetRow, parquetId, plain, readWideParquetRows, withParquet, type OpenParquet } from './parquet.js'

/**
 * Per-query rows in long (tidy) form stored as Parquet: `qid, measure, value` (+ attribute columns), one row per
 * query and measure, as `df.melt(...)`, an ir_measures `iter_calc` frame or PyTerrier's per-query frame give them
 * with `to_parquet`. Pivoted by the same {@link Pivot} as the CSV / TSV / JSON Lines long form, so the rows (and
 * every report) are the same as for the wide table; the Parquet reader's caps apply (row groups one at a time,
 * only the columns the rules use). Row numbers (from 1) stand where a text file has line numbers.
 */

/** The names of a Parquet file's columns, from its checked footer (what tells long form from wide). */
export async function parquetColumnNames(file: string): Promise<string[]> {
  return withParquet(file, (pq) => Promise.resolve(pq.columns.map((c) => c.name)))
}

/**
 * Reads a Parquet file of per-query rows, wide (one row per query: src/readers/parquet.ts) or long (detected from
 * the column names as for CSV, or named with `long`: `--input-format long`).
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

/** Reads the long-form table `pq` (columns found by {@link longColumns}) into rows. */
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

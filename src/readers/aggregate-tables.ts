import { InputError, type Where } from '../errors.js'
import { AGGREGATE_COLUMNS } from '../model/aggregates.js'
import { quote } from '../util/show.js'
import { csvTableHeader, forEachCsvRecord } from './csv.js'
import { forEachJsonRecord, memberValue } from './json/lines.js'
import { forEachParquetRow, plain, withParquet } from './parquet.js'

/**
 * The three layouts of the aggregates `retrieval-gate sql` computes (Parquet, CSV with a header, JSON Lines), as the
 * format registry's `aggregates` entries read them (src/readers/formats.ts): each row's cells by column name, with
 * where the row is, for src/readers/aggregates.ts to check and add up. Reading is all these do: what a cell may
 * hold is aggregates.ts's business.
 */

/** The sections a row of aggregates is in (its first cell), to recognise a CSV file written without its header. */
export const AGGREGATE_SECTIONS = ['meta', 'coverage', 'sums', 'poisson', 'signs', 'histogram']

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
      if (missing.length > 0 && AGGREGATE_SECTIONS.includes(header[0]))
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

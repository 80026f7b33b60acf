import type { SideRows } from '../model/rows.js'
import { detectFormat } from './detect.js'
import type { RowsOptions } from './rows-input.js'

export type { RowsOptions } from './rows-input.js'

/**
 * Reads one per-query rows file in whatever format it is (JSON Lines, CSV, Parquet, long form, other tools'
 * exports: src/readers/formats.ts), detected once (src/readers/detect.ts) or named with `options.format`. The rows
 * carry the format chosen and why (`format`), for the report. Every reader gives the same {@link SideRows}, so
 * pairing, statistics and reports do not depend on the format.
 */
export async function readRows(file: string, options: RowsOptions): Promise<SideRows> {
  const { entry, choice, probe } = await detectFormat({
    kind: 'rows',
    file,
    format: options.format,
    metricFields: options.metricFields,
    idField: options.idField
  })
  const side = await entry.read(probe, options)
  side.format = choice
  return side
}

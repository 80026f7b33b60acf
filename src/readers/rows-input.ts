import { InputError } from '../errors.js'
import type { LineOptions } from './lines.js'

/**
 * The names `--input-format` takes for per-query rows, in the order the help lists them. Each names one or more
 * entries of the format registry (src/readers/formats.ts: an entry's `named`), the layout then told from the content
 * (`long` is long-form CSV, TSV, JSON Lines or Parquet).
 */
export const ROW_FORMATS = [
  'jsonl',
  'csv',
  'long',
  'parquet',
  'ragas',
  'deepeval',
  'pytrec_eval',
  'ir_measures',
  'trec_eval'
] as const
export type RowsFormat = (typeof ROW_FORMATS)[number]

/** Checks an `--input-format` value, refusing an unknown one with the list. */
export function parseRowsFormat(text: string): RowsFormat {
  const normalized = text.trim().toLowerCase().replace(/-/g, '_')
  const found = ROW_FORMATS.find((f) => f === normalized)
  if (found === undefined)
    throw new InputError({ key: 'format' }, `unknown format "${text}"`, `formats: ${ROW_FORMATS.join(', ')}`)
  return found
}

/** How per-query rows files are read: a named format and the id field of exports without `query_id`. */
export interface RowsInput {
  format?: RowsFormat
  idField?: string
}

/** What every per-query rows reader is given. */
export interface RowsOptions extends LineOptions {
  /** Fields to read as metric values (numbers); every other scalar field is an attribute. */
  metricFields: ReadonlySet<string>
  /** `--input-format`: the format named instead of detected (src/readers/read.ts). */
  format?: RowsFormat
  /** The field holding the query id in exports that have no `query_id` (ragas, deepeval; see importers). */
  idField?: string
  /**
   * Attributes to keep (the ones the rules use: src/config/attributes.ts); other fields are only named in
   * the hints. Kept values are capped at MAX_ATTRIBUTE_CHARS. Undefined keeps every attribute (`init`).
   */
  keepAttributes?: ReadonlySet<string>
}

import type { RowsFormat } from './importers/index.js'

/** How per-query rows files are read: a named format (src/readers/importers) and the id field of exports without `query_id`. */
export interface RowsInput {
  format?: RowsFormat
  idField?: string
}

/**
 * Most per-slice rows a Markdown table shows (the first ones, in the report's fixed order: attribute, value,
 * metric). A pull-request comment is read by people and capped by GitHub; with up to 20,000 slice values
 * (MAX_SLICE_VALUES) the rest goes to the JSON report only, and the Markdown says so under the table.
 */
export const MARKDOWN_SLICE_ROWS = 200

/** The rows a Markdown table shows, and a note naming how many are in the JSON report only (null when none). */
export function shownSliceRows<T>(rows: T[], where: string): { shown: T[]; note: string | null } {
  if (rows.length <= MARKDOWN_SLICE_ROWS) return { shown: rows, note: null }
  const rest = rows.length - MARKDOWN_SLICE_ROWS
  return {
    shown: rows.slice(0, MARKDOWN_SLICE_ROWS),
    note: `_The first ${MARKDOWN_SLICE_ROWS} of ${rows.length} slice rows are shown; the other ${rest} are in the JSON report only (\`${where}\`, written with --json)._`
  }
}

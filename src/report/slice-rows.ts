import { code, em, paragraph, words, type Block } from '../model/document.js'

/**
 * Most per-slice rows a Markdown table shows (the first ones, in the report's fixed order: attribute, value,
 * metric). A pull-request comment is read by people and capped by GitHub; with up to 20,000 slice values
 * (MAX_SLICE_VALUES) the rest goes to the JSON report only, and the Markdown says so under the table.
 */
export const MARKDOWN_SLICE_ROWS = 200

/** The rows a Markdown table shows, and a note naming how many are in the JSON report only (null when none). */
export function shownSliceRows<T>(rows: T[], where: string): { shown: T[]; note: Block | null } {
  if (rows.length <= MARKDOWN_SLICE_ROWS) return { shown: rows, note: null }
  const rest = rows.length - MARKDOWN_SLICE_ROWS
  const first = `The first ${MARKDOWN_SLICE_ROWS} of ${rows.length} slice rows are shown; the other ${rest} are in the JSON report only (`
  return {
    shown: rows.slice(0, MARKDOWN_SLICE_ROWS),
    note: paragraph(em(words(first), code(where), words(', written with --json).')))
  }
}

/**
 * The rows a picture draws when there are more than MARKDOWN_SLICE_ROWS (a per_slice check over 20,000 values
 * would draw 20,000 lines): every row `first` marks (failing, inconclusive, a limit exceeded) comes before the
 * others, up to the cap; the kept rows stay in the report's order. `hidden` says how many are left to the JSON.
 */
export function pictureRows<T>(rows: T[], first: (row: T) => boolean): { shown: T[]; hidden: number } {
  if (rows.length <= MARKDOWN_SLICE_ROWS) return { shown: rows, hidden: 0 }
  const keep = new Uint8Array(rows.length)
  let room = MARKDOWN_SLICE_ROWS
  const take = (i: number): void => {
    keep[i] = 1
    room--
  }
  for (let i = 0; i < rows.length && room > 0; i++) if (first(rows[i])) take(i)
  for (let i = 0; i < rows.length && room > 0; i++) if (keep[i] === 0) take(i)
  const shown = rows.filter((_, i) => keep[i] === 1)
  return { shown, hidden: rows.length - shown.length }
}

/** The line under a picture that left rows out. */
export function hiddenRowsLine(hidden: number): string {
  return `… ${hidden} more ${hidden === 1 ? 'row is' : 'rows are'} in the JSON report only (failing and inconclusive rows are drawn first).`
}

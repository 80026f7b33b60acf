/**
 * The Markdown report stays bounded with up to 20,000 slice values: at most MARKDOWN_SLICE_ROWS rows per
 * per-slice table, then a note naming how many rows are in the JSON report only.
 */
import { describe, expect, it } from '@jest/globals'
import { MARKDOWN_SLICE_ROWS, shownSliceRows } from '../../src/report/slice-rows.js'

describe('per-slice rows in Markdown', () => {
  it('shows every row up to the cap, with no note', () => {
    const rows = Array.from({ length: MARKDOWN_SLICE_ROWS }, (_, i) => i)
    expect(shownSliceRows(rows, 'comparisons')).toEqual({ shown: rows, note: null })
  })

  it('beyond the cap shows the first rows and says how many are in the JSON report only, and where', () => {
    const rows = Array.from({ length: 35_000 }, (_, i) => i)
    const { shown, note } = shownSliceRows(rows, 'comparisons')
    expect(shown).toEqual(rows.slice(0, MARKDOWN_SLICE_ROWS))
    expect(note).toBe(`_The first ${MARKDOWN_SLICE_ROWS} of 35000 slice rows are shown; the other ${35_000 - MARKDOWN_SLICE_ROWS} are in the JSON report only (\`comparisons\`, written with --json)._`)
    expect(MARKDOWN_SLICE_ROWS).toBe(200)
  })
})

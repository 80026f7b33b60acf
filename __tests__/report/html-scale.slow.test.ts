/**
 * The HTML page at 10^6 queries (slow: building the result takes seconds): the caps, not n, set its size. The rest
 * of the page's tests are in html.test.ts.
 */
import { describe, expect, it } from '@jest/globals'
import { POINTS_PER_PLOT, REGRESSED_ROWS, toHtmlReport } from '../../src/report/html/index.js'
import { scaledResult } from './html-scenarios.js'

describe('size bounded', () => {
  it('10^6 queries: each scatter draws POINTS_PER_PLOT of them, the table lists REGRESSED_ROWS, the page stays small', () => {
    const result = scaledResult(1_000_000)
    const html = toHtmlReport(result)
    const scatters = [
      ...html.matchAll(/<svg class="plot scatter"[^>]*data-points="(\d+)" data-drawable="(\d+)"[\s\S]*?<\/svg>/g)
    ]
    expect(scatters).toHaveLength(2) // recall@10 and hit@10 are gated
    for (const s of scatters) {
      expect([Number(s[1]), Number(s[2])]).toEqual([POINTS_PER_PLOT, 1_000_000])
      expect(s[0].match(/class="pt /g)).toHaveLength(POINTS_PER_PLOT)
    }
    const table = /<table class="sortable" id="regressed">[\s\S]*?<\/table>/.exec(html)?.[0] ?? ''
    expect(table.match(/<tr>/g)).toHaveLength(REGRESSED_ROWS + 1)
    // Measured: 715 kB, and 708 kB at 10^4 queries (docs/report.md, "The HTML page"): the caps, not n, set the size.
    expect(html.length).toBeLessThan(1_000_000)
    expect(html).toContain(`${POINTS_PER_PLOT} of 1000000 queries are drawn (at most ${POINTS_PER_PLOT} per plot)`)
  })
})

/**
 * The Markdown report stays bounded with up to 20,000 slice values: at most MARKDOWN_SLICE_ROWS rows per
 * per-slice table, then a note naming how many rows are in the JSON report only.
 */
import { describe, expect, it } from '@jest/globals'
import { toMarkdownLines } from '../../src/report/doc/markdown.js'
import { MARKDOWN_SLICE_ROWS, pictureRows, shownSliceRows } from '../../src/report/slice-rows.js'
import { cli, writeFiles } from '../helpers.js'

describe('per-slice rows in Markdown', () => {
  it('shows every row up to the cap, with no note', () => {
    const rows = Array.from({ length: MARKDOWN_SLICE_ROWS }, (_, i) => i)
    expect(shownSliceRows(rows, 'comparisons')).toEqual({ shown: rows, note: null })
  })

  it('beyond the cap shows the first rows and says how many are in the JSON report only, and where', () => {
    const rows = Array.from({ length: 35_000 }, (_, i) => i)
    const { shown, note } = shownSliceRows(rows, 'comparisons')
    expect(shown).toEqual(rows.slice(0, MARKDOWN_SLICE_ROWS))
    expect(toMarkdownLines(note === null ? [] : [note])[0]).toBe(
      `_The first ${MARKDOWN_SLICE_ROWS} of 35000 slice rows are shown; the other ${35_000 - MARKDOWN_SLICE_ROWS} are in the JSON report only (\`comparisons\`, written with --json)._`
    )
    expect(MARKDOWN_SLICE_ROWS).toBe(200)
  })
})

describe('pictures stay bounded with thousands of slice values', () => {
  it('pictureRows keeps the flagged rows first, then fills the cap in order, keeping the report order', () => {
    const rows = Array.from({ length: 1000 }, (_, i) => i)
    const { shown, hidden } = pictureRows(rows, (r) => r % 100 === 99)
    expect(shown).toHaveLength(MARKDOWN_SLICE_ROWS)
    expect(hidden).toBe(800)
    expect(shown.filter((r) => r % 100 === 99)).toHaveLength(10)
    expect(shown.slice(0, 5)).toEqual([0, 1, 2, 3, 4])
    expect([...shown].sort((a, b) => a - b)).toEqual(shown)
  })

  it('a per_slice check over 1,000 one-query slices draws at most 200 rows per picture, the failing slice among them', async () => {
    const n = 1000
    const lines = (cand: (i: number) => number) =>
      ['query_id,user,recall', ...Array.from({ length: n }, (_, i) => `q${i},u${i},${cand(i)}`)].join('\n') + '\n'
    const files = writeFiles({
      'rules.yml': [
        'version: 1',
        'metrics: { recall: { better: higher, range: [0, 1] } }',
        'queries: { min_per_slice: 1 }',
        'on_too_few: pass',
        'checks:',
        '  - name: few regressions per user',
        '    metric: recall',
        '    per_slice: user',
        '    max_regressions: { count: 0, threshold: 0.5 }'
      ].join('\n'),
      'b.csv': lines(() => 0.9),
      // the last user loses 0.8: the only failing slice, beyond the first 200
      'c.csv': lines((i) => (i === n - 1 ? 0.1 : 0.9))
    })
    const out = await cli([
      'gate',
      '--rules',
      files['rules.yml'],
      '--baseline',
      files['b.csv'],
      '--candidate',
      files['c.csv'],
      '--format',
      'markdown'
    ])
    expect(out.code).toBe(1)
    const blocks = [...out.stdout.matchAll(/```text\n([\s\S]*?)```/g)].map((m) => m[1])
    expect(blocks.length).toBeGreaterThan(0)
    for (const b of blocks) expect(b.split('\n').length).toBeLessThan(MARKDOWN_SLICE_ROWS + 30)
    expect(out.stdout).toContain('u999')
    expect(out.stdout).toContain('more rows are in the JSON report only')
  })
})

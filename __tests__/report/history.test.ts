/**
 * The History section (src/capabilities/history/section.ts): each gated metric over the past gate runs with this PR's
 * candidate as the last point, as a Mermaid xychart-beta line chart and a table; what could not be read is a
 * counted note. The structure is checked with GitHub's parser (cmark-gfm), as __tests__/report/gfm.test.ts does.
 */
import { expect, it } from '@jest/globals'
import { spawnSync } from 'node:child_process'
import { toMarkdown } from '../../src/report/markdown.js'
import { executableAt, needing } from '../programs.js'
import { HISTORY, historyScenario, withHistory } from './history-scenario.js'
import { passScenario } from './scenarios.js'
import { toJsonReport } from '../helpers.js'

const CMARK = process.env.CMARK_GFM_PATH ?? '/usr/bin/cmark-gfm'
const { describe } = needing('the GFM rendering tests (cmark-gfm)', executableAt(CMARK, 'CMARK_GFM_PATH'))

function cmark(markdown: string): string {
  const r = spawnSync(CMARK, ['-e', 'table', '-e', 'autolink', '-e', 'strikethrough', '-e', 'tagfilter'], {
    input: markdown,
    encoding: 'utf8',
    timeout: 20000
  })
  if (r.error) throw r.error
  expect(r.status).toBe(0)
  return r.stdout
}

const section = (md: string): string =>
  md.slice(md.indexOf('### History'), md.indexOf('<details>', md.indexOf('### History')))

it('draws each gated series over the past runs, this PR last, and counts what was left out', () => {
  const md = section(toMarkdown(historyScenario()))
  expect(md).toContain(
    'Gate reports of the last 7 successful push runs on main (history.runs is 7): 5 read; left out (never a failure): 1 no report artifact, 1 expired.'
  )
  expect(md).toContain('- Run 791 (commit 89abcde): artifact "retrieval-gate-report" has expired.')
  const charts = [...md.matchAll(/```mermaid\n([\s\S]*?)```/g)].map((m) => m[1])
  // recall@10 overall, mrr@10 overall, then one per segment of the per_slice check
  expect(charts[0]).toContain('title "past runs, then this PR"')
  // the series is named in Markdown above its chart, never inside the Mermaid source (issue 19: names as typed)
  expect(md).toMatch(/^`recall@10`:\n\n```mermaid\n/m)
  expect(md).toMatch(/^`mrr@10`:\n\n```mermaid\n/m)
  expect(charts[0]).toMatch(/x-axis \["0000000", "1111111", "2222222", "3333333", "4444444", "this PR"\]/)
  expect(charts[0]).toMatch(/line \[0\.7000, 0\.6960, 0\.6920, 0\.6880, 0\.6840, \d\.\d{4}\]/)
  // run 2 gated no mrr@10: that chart has one point fewer
  expect(charts[1]).toContain('x-axis ["0000000", "1111111", "3333333", "4444444", "this PR"]')
  const pr = passScenario()
  const recall = pr.comparisons.find((c) => c.metric === 'recall@10' && c.slice.length === 0)
  expect(charts[0]).toContain(`${(recall?.candidate ?? NaN).toFixed(4)}]`)
})

it('without history nothing changes (the section is absent) and the JSON report has no history field', () => {
  const md = toMarkdown(passScenario())
  expect(md).not.toContain('### History')
  expect(JSON.parse(toJsonReport(passScenario())).history).toBeUndefined()
})

it('the JSON report names the runs read and counts the ones left out (additive)', () => {
  const json = JSON.parse(toJsonReport(historyScenario()))
  expect(json.history).toMatchObject({
    branch: 'main',
    requested: 7,
    read: 5,
    skipped: { missing: 1, expired: 1, unreadable: 0, wrong_version: 0, stale: 0 }
  })
  expect(json.history.runs[0]).toEqual({
    run_id: 800,
    commit: '0'.repeat(40),
    date: '2025-06-01T10:00:00Z',
    holdout_looks: 1
  })
})

it('two runs of one commit keep two points (a shared category would hide one)', () => {
  const twice = {
    ...HISTORY,
    reports: [HISTORY.reports[0], { ...HISTORY.reports[1], commit: HISTORY.reports[0].commit }]
  }
  const md = section(toMarkdown(withHistory(passScenario(), twice)))
  expect(md).toContain('x-axis ["0000000", "0000000 run 801", "this PR"]')
})

it('no past report: a note, no chart', () => {
  const md = section(
    toMarkdown(
      withHistory(passScenario(), { ...HISTORY, reports: [], skipped: { ...HISTORY.skipped, missing: 7, expired: 0 } })
    )
  )
  expect(md).toContain('0 read; left out (never a failure): 7 no report artifact.')
  expect(md).toContain('No past report to draw')
  expect(md).not.toContain('```mermaid')
})

describe('History under cmark-gfm', () => {
  it('the charts are mermaid code blocks and the numbers a table whose last row is this PR', () => {
    const html = cmark(toMarkdown(historyScenario()))
    const start = html.indexOf('<h3>History</h3>')
    expect(start).toBeGreaterThan(0)
    // in safe mode (GitHub's) the raw <details> of the next section is omitted: the section ends at the first table's end
    const part = html.slice(start, html.indexOf('</table>', start))
    const blocks = [...part.matchAll(/<pre><code class="language-mermaid">([\s\S]*?)<\/code><\/pre>/g)]
    expect(blocks.length).toBe(4) // recall@10, mrr@10, mrr@10 segment = new, mrr@10 segment = returning
    for (const b of blocks) expect(b[1]).toMatch(/^xychart-beta\n[\s\S]*\n {2}line \[/)
    const rows = [...part.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map((r) =>
      [...r[1].matchAll(/<t[hd][^>]*>([\s\S]*?)<\/t[hd]>/g)].map((c) => c[1].replace(/<[^>]+>/g, ''))
    )
    expect(rows[0].slice(0, 4)).toEqual(['Run', 'Commit', 'Date', 'recall@10'])
    expect(rows.length).toBe(1 + 5 + 1)
    expect(rows[1].slice(0, 4)).toEqual(['800', '0000000', '2025-06-01', '0.7000'])
    expect(rows[6][0]).toBe('this PR')
    // run 2 has no mrr@10 value: a dash, not a zero
    expect(rows[3][4]).toBe('—')
    // the run number links to the run
    expect(part).toContain('<a href="https://github.com/acme/search/actions/runs/800">800</a>')
  })
})

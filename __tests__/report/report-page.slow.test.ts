/**
 * The report as a reviewer sees it: each example report rendered by cmark-gfm, styled like GitHub (light and dark),
 * 880 px wide (a PR comment), its Mermaid drawn by the real mermaid package in headless Chromium
 * (scripts/report-page.js, which scripts/screenshot-report.js uses for the pictures in docs/report.md). Measured:
 * the head checks table needs no horizontal scroll bar, every picture's axis has numeric labels (a Unicode tick rule
 * with numbers under it; a Mermaid SVG with numeric tick texts), names render as typed, and a screenshot is taken.
 * Without chromium or cmark-gfm the tests are skipped with one line, and fail under CI=true (../programs.ts).
 * RG_REPORT_SHOTS=dir keeps the screenshots.
 */
import { loadFiles } from '../helpers.js'
import { afterAll, beforeAll, expect, it } from '@jest/globals'
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { loadRules } from '../../src/config/rules.js'
import { runGate } from '../../src/gate.js'
import { toMarkdown } from '../../src/report/markdown.js'
import { executableAt, needing, skippedBy } from '../programs.js'
import { SCENARIOS, TYPED } from './scenarios.js'

interface Drawn {
  tables: Array<{ scrollWidth: number; clientWidth: number; natural: number; header: string[] }>
  blocks: Array<{ scrollWidth: number; clientWidth: number; text: string }>
  pictures: Array<{ ok: boolean; error: string; texts: string[]; shapes: number }>
  pageWidth: number
}
// scripts/report-page.js is plain JavaScript (the screenshot script runs it on its own): imported by a computed path, untyped.
const pageModule = '../../scripts/report-page.js'
const page = (await import(pageModule)) as {
  CHROMIUM: string
  CMARK: string
  COMMENT_WIDTH: number
  axisHasNumbers: (picture: string | { texts: string[] }) => boolean
  openReportBrowser: () => Promise<{
    show: (markdown: string, theme?: 'light' | 'dark') => Promise<Drawn>
    screenshot: (file: string) => Promise<void>
    close: () => Promise<void>
  }>
}

const suite = needing(
  'the report page tests (chromium, cmark-gfm)',
  skippedBy('RG_SKIP_BROWSER') ??
    (executableAt(page.CHROMIUM, 'CHROMIUM_PATH').run
      ? executableAt(page.CMARK, 'CMARK_GFM_PATH')
      : executableAt(page.CHROMIUM, 'CHROMIUM_PATH'))
).describe

/** The example evaluation of `npm run demo` (fewer resamples: layout is under test, not digits). */
async function example(): Promise<string> {
  const rules = loadRules(
    readFileSync('examples/rules.yml', 'utf8').replace('resamples: 10000', 'resamples: 500'),
    'examples/rules.yml'
  )
  return toMarkdown(
    runGate(await loadFiles(rules, { baseline: 'examples/baseline.jsonl', candidate: 'examples/candidate.jsonl' }))
  )
}

suite('the report in a browser, as GitHub shows it', () => {
  let browser: Awaited<ReturnType<typeof page.openReportBrowser>> | undefined
  const shots = process.env.RG_REPORT_SHOTS ?? mkdtempSync(path.join(tmpdir(), 'rg-shots-'))

  beforeAll(async () => {
    browser = await page.openReportBrowser()
  }, 90000)

  afterAll(async () => {
    await browser?.close()
    if (!process.env.RG_REPORT_SHOTS) rmSync(shots, { recursive: true, force: true })
  }, 40000)

  const reports: Array<[string, () => Promise<string>]> = [
    ...SCENARIOS.map(([name, make]): [string, () => Promise<string>] => [
      name,
      () => Promise.resolve(toMarkdown(make()))
    ]),
    ['example', example]
  ]
  for (const [name, markdown] of reports) {
    for (const theme of ['light', 'dark'] as const) {
      it(`${name} (${theme}): the checks table fits 880 px, every axis has numbers, a screenshot is taken`, async () => {
        const b = browser as NonNullable<typeof browser>
        const drawn = await b.show(await markdown(), theme)
        // The head checks table: no horizontal scroll bar in an 880 px comment.
        const checks = drawn.tables[0]
        expect(checks.header).toEqual([
          'Status',
          'Check',
          'Metric',
          'Queries',
          'n',
          'Δ',
          expect.stringMatching(/CI$/),
          'Needs'
        ])
        expect({ name, scrollWidth: checks.scrollWidth, clientWidth: checks.clientWidth }).toEqual({
          name,
          scrollWidth: checks.clientWidth,
          clientWidth: checks.clientWidth
        })
        expect(drawn.pageWidth).toBeLessThanOrEqual(page.COMMENT_WIDTH + 16)
        // Nor does any code block shown open (the pictures): no horizontal scroll bar either.
        for (const blk of drawn.blocks)
          expect({ block: blk.text.slice(0, 80), over: blk.scrollWidth - blk.clientWidth }).toEqual({
            block: blk.text.slice(0, 80),
            over: 0
          })
        // Every forest plot has numbers under its tick rule, and there is one per gated metric at least.
        const forests = drawn.blocks.filter((blk) => blk.text.includes('┴'))
        expect(forests.length).toBeGreaterThanOrEqual(1)
        for (const f of forests)
          expect({ axis: f.text, numbers: page.axisHasNumbers(f.text) }).toEqual({ axis: f.text, numbers: true })
        // Mermaid pictures draw, and their value axis is numeric.
        expect(drawn.pictures.length).toBeGreaterThanOrEqual(1)
        for (const p of drawn.pictures) {
          expect({ error: p.error, ok: p.ok }).toEqual({ error: '', ok: true })
          expect({ texts: p.texts, numbers: page.axisHasNumbers(p) }).toEqual({ texts: p.texts, numbers: true })
        }
        const file = path.join(shots, `${name}-${theme}.png`)
        await b.screenshot(file)
        expect(statSync(file).size).toBeGreaterThan(10000)
      }, 120000)
    }
  }

  it('names with % _ * @ # and non-ASCII show as typed in the drawn pictures', async () => {
    const b = browser as NonNullable<typeof browser>
    const drawn = await b.show(toMarkdown((SCENARIOS.find(([n]) => n === 'names') as (typeof SCENARIOS)[number])[1]()))
    const pictures = drawn.blocks.map((blk) => blk.text).join('\n')
    for (const typed of [
      TYPED.metric,
      TYPED.check,
      `${TYPED.attribute} = ${TYPED.slices[0]}`,
      `${TYPED.attribute} = ${TYPED.slices[1]}`
    ])
      expect(pictures).toContain(typed)
  }, 120000)

  it('an axis without numbers fails the check (the old Gantt interval chart, ticks labelled ".")', async () => {
    const b = browser as NonNullable<typeof browser>
    const gantt = [
      'gantt',
      '  title recall@10',
      '  dateFormat x',
      '  axisFormat .',
      '  todayMarker off',
      '  section 1. recall does not drop',
      '  +2.1 (+1.1 to +2.9) all queries :done, u0, 1870, 2000'
    ]
    const drawn = await b.show(
      [
        '```mermaid',
        ...gantt,
        '```',
        '',
        '```text',
        'a row  ├──●──┤',
        '       ┴─────┴',
        '       .     .',
        '```',
        ''
      ].join('\n')
    )
    expect(drawn.pictures).toHaveLength(1)
    expect(drawn.pictures[0].ok).toBe(true)
    expect(page.axisHasNumbers(drawn.pictures[0])).toBe(false)
    expect(page.axisHasNumbers(drawn.blocks[0].text)).toBe(false)
  }, 120000)
})

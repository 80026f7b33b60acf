/**
 * The report's pictures render: every ```mermaid block of every example report is parsed and drawn by the
 * real mermaid package in headless Chromium (no parse error, a non-empty SVG with shapes). Runs whenever
 * chromium is installed; without it the tests are skipped with one line saying what to install, except on CI
 * (CI=true), where that is a failure (see ../programs.ts). RG_SKIP_BROWSER=1 skips explicitly.
 * RG_MERMAID_SHOT=file.png saves a screenshot of everything drawn, to look at.
 */
import { loadFiles } from '../helpers.js'
import { afterAll, beforeAll, expect, it } from '@jest/globals'
import { readFileSync } from 'node:fs'
import { loadRules } from '../../src/config/rules.js'
import { runGate } from '../../src/gate.js'
import { toMarkdown } from '../../src/report/markdown.js'
import { executableAt, needing, skippedBy } from '../programs.js'
import { CHROMIUM, mermaidBlocks, openMermaid } from './mermaid-browser.js'
import { SCENARIOS } from './scenarios.js'
import { historyScenario } from './history-scenario.js'

const suite = needing(
  'the Mermaid rendering tests (chromium)',
  skippedBy('RG_SKIP_BROWSER') ?? executableAt(CHROMIUM, 'CHROMIUM_PATH')
).describe

suite('mermaid pictures render in headless chromium', () => {
  let browser: Awaited<ReturnType<typeof openMermaid>> | undefined

  beforeAll(async () => {
    browser = await openMermaid()
  }, 90000)

  afterAll(async () => {
    if (browser && process.env.RG_MERMAID_SHOT) await browser.screenshot(process.env.RG_MERMAID_SHOT)
    await browser?.close()
  }, 40000)

  const reports: Array<[string, () => string]> = [
    ...SCENARIOS.map(([name, make]): [string, () => string] => [name, () => toMarkdown(make())])
  ]
  // The example evaluation of `npm run demo` (fewer resamples: the pictures' syntax is under test, not digits).
  const example = async (): Promise<string> => {
    const rules = loadRules(
      readFileSync('examples/rules.yml', 'utf8').replace('resamples: 10000', 'resamples: 500'),
      'examples/rules.yml'
    )
    return toMarkdown(
      runGate(await loadFiles(rules, { baseline: 'examples/baseline.jsonl', candidate: 'examples/candidate.jsonl' }))
    )
  }
  for (const [name, markdown] of [...reports, ['examples (npm run demo)', example] as const]) {
    it(`${name}: every block parses and draws`, async () => {
      const blocks = mermaidBlocks(await markdown())
      expect(blocks.length).toBeGreaterThanOrEqual(1) // the histogram (the interval pictures are Unicode: forest.ts)
      for (const src of blocks) {
        const r = await (browser as NonNullable<typeof browser>).render(src)
        expect({ error: r.error, ok: r.ok }).toEqual({ error: '', ok: true })
        expect(r.svgLength).toBeGreaterThan(1000)
        expect(r.shapes).toBeGreaterThan(5)
      }
    }, 120000)
  }

  it("the histogram draws an empty bin, and every series' 0, as nothing: no stub in a side's colour", async () => {
    // The example's histogram (npm run demo): three series (worse, same, better), each 0 in the other sides' bins.
    const [src] = mermaidBlocks(await example()).filter((b) => b.includes('xychart-beta horizontal'))
    const series = [...src.matchAll(/^ {2}bar \[([^\]]*)\]$/gm)].map((m) => m[1].split(', ').map(Number))
    expect(series.length).toBe(3)
    const r = await (browser as NonNullable<typeof browser>).render(src)
    expect(r.ok).toBe(true)
    expect(r.barWidths.map((bars) => bars.length)).toEqual(series.map((values) => values.length))
    const stubs: string[] = []
    series.forEach((values, s) =>
      values.forEach((v, j) => {
        const w = r.barWidths[s][j]
        if (v === 0 ? w > 0.01 : !(w > 0.5))
          stubs.push(`series ${s}, bin ${j}: count ${v} drawn ${w.toFixed(2)} px wide`)
      })
    )
    expect(stubs).toEqual([])
    // Each bar's width is proportional to its count (the count axis starts at the plot's edge).
    const perQuery = series.flatMap((values, s) => values.flatMap((v, j) => (v > 0 ? [r.barWidths[s][j] / v] : [])))
    for (const x of perQuery) expect(x).toBeCloseTo(perQuery[0], 3)
  }, 120000)

  it('history: every line chart of a PR with history renders with its line', async () => {
    const md = toMarkdown(historyScenario())
    const blocks = mermaidBlocks(md.slice(md.indexOf('### History')))
    const charts = blocks.filter((b) => b.startsWith('xychart-beta') && b.includes('  line ['))
    expect(charts.length).toBe(4)
    for (const src of charts) {
      const r = await (browser as NonNullable<typeof browser>).render(src)
      expect({ error: r.error, ok: r.ok }).toEqual({ error: '', ok: true })
      expect(r.linePlots).toBe(1)
    }
  }, 120000)

  it('a line chart without its line draws no line plot (the check can fail)', async () => {
    const r = await (browser as NonNullable<typeof browser>).render(
      'xychart-beta\n  x-axis ["a", "b"]\n  y-axis "m" 0 --> 1\n  bar [0.2, 0.4]'
    )
    expect(r.ok).toBe(true)
    expect(r.linePlots).toBe(0)
  }, 60000)

  it('a broken diagram is reported as an error (the check can fail)', async () => {
    const r = await (browser as NonNullable<typeof browser>).render('xychart-beta\n  bar [1, 2\n')
    expect(r.ok).toBe(false)
    expect(r.error).not.toBe('')
  }, 60000)
})

/**
 * The HTML page (src/report/html/) opened from disk in Debian's chromium (playwright-core, the project's flags, a
 * fresh profile: mermaid-browser.ts `openChromium`): no console error and no page error (a script or style the
 * Content-Security-Policy refused would be one), no request but the page's own file, no dialog (an `alert` that
 * ran), every picture's axis numeric (tick labels are numbers that grow along the axis), one mark per query in
 * each scatter (or the cap) and one row per check unit in each forest plot, hostile query ids shown as their text,
 * the table's sorting and filtering working, and no horizontal scroll at 880 px. Two controls show the checks can
 * fail: a page whose script lost one byte is refused (a console error), and a page without the policy that loads
 * an image is seen requesting it. Without chromium: skipped with one line, failing under CI=true (../programs.ts).
 */
import { afterAll, beforeAll, expect, it } from '@jest/globals'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import type { BrowserContext } from 'playwright-core'
import { POINTS_PER_PLOT, toHtmlReport } from '../../src/report/html/index.js'
import { executableAt, needing, skippedBy } from '../programs.js'
import { HOSTILE_IDS, hostileIdsScenario, scaledResult } from './html-scenarios.js'
import { CHROMIUM, openChromium, withTimeout } from './mermaid-browser.js'
import {
  failProtectedSliceScenario,
  hostileScenario,
  inconclusiveScenario,
  namesScenario,
  passScenario
} from './scenarios.js'

const suite = needing(
  'the HTML page browser tests (chromium)',
  skippedBy('RG_SKIP_BROWSER') ?? executableAt(CHROMIUM, 'CHROMIUM_PATH')
).describe

/** What the page showed and did, measured in the page. */
interface Seen {
  console: string[]
  errors: string[]
  requests: string[]
  dialogs: string[]
  drawn: {
    plots: Array<{
      kind: string
      ticks: Array<{ axis: string; text: string; at: number }>
      marks: number
      points: number | null
      drawable: number | null
      rows: number | null
    }>
    images: number
    scripts: number
    handlers: number
    cells: string[]
    titles: string[]
    scrollWidth: number
  }
}

/** Runs in the page (a string: the tests' TypeScript has no DOM types). */
const MEASURE = `(() => {
  const plots = [...document.querySelectorAll('svg.plot')].map((svg) => {
    const kind = [...svg.classList].find((c) => c !== 'plot')
    const ticks = [...svg.querySelectorAll('g.axis')].flatMap((g) =>
      [...g.querySelectorAll('text.tick')].map((t) => ({ axis: g.classList.contains('x') ? 'x' : 'y', text: t.textContent, at: Number(g.classList.contains('x') ? t.getAttribute('x') : t.getAttribute('y')) }))
    )
    const marks = kind === 'scatter' ? svg.querySelectorAll('.pt').length : kind === 'forest' ? svg.querySelectorAll('g.unit').length : kind === 'bars' ? svg.querySelectorAll('g.slice-row').length : svg.querySelectorAll('g.bin').length
    const n = (a) => (svg.hasAttribute(a) ? Number(svg.getAttribute(a)) : null)
    return { kind, ticks, marks, points: n('data-points'), drawable: n('data-drawable'), rows: n('data-rows') ?? n('data-bins') }
  })
  const handlers = [...document.querySelectorAll('*')].filter((e) => [...e.attributes].some((a) => a.name.startsWith('on'))).length
  return {
    plots,
    images: document.querySelectorAll('img, image, iframe, object, embed').length,
    scripts: document.querySelectorAll('script').length,
    handlers,
    cells: [...document.querySelectorAll('#regressed td.id')].map((td) => td.textContent),
    titles: [...document.querySelectorAll('svg.scatter .pt > title')].map((t) => t.textContent),
    scrollWidth: document.documentElement.scrollWidth
  }
})()`

suite('the HTML page in chromium, opened from disk', () => {
  let browser: { context: BrowserContext; close: () => Promise<void> } | undefined
  const dir = mkdtempSync(path.join(tmpdir(), 'rg-html-'))

  beforeAll(async () => {
    browser = await openChromium({ viewport: { width: 1280, height: 900 } })
  }, 90000)

  afterAll(async () => {
    await browser?.close()
    rmSync(dir, { recursive: true, force: true })
  }, 40000)

  /** Opens `html` from a file in a new page, watching the console, errors, requests (any but the file is aborted) and dialogs. */
  async function open(
    name: string,
    html: string,
    width = 1280
  ): Promise<Seen & { page: Awaited<ReturnType<BrowserContext['newPage']>> }> {
    const file = path.join(dir, `${name}.html`)
    writeFileSync(file, html)
    const url = pathToFileURL(file).href
    const page = await withTimeout((browser as NonNullable<typeof browser>).context.newPage(), 15000, 'opening a page')
    page.setDefaultTimeout(20000)
    await page.setViewportSize({ width, height: 900 })
    const seen: Omit<Seen, 'drawn'> = { console: [], errors: [], requests: [], dialogs: [] }
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') seen.console.push(`${m.type()}: ${m.text()}`)
    })
    page.on('pageerror', (e) => seen.errors.push(e.message))
    page.on('request', (r) => seen.requests.push(r.url()))
    page.on('dialog', (d) => {
      seen.dialogs.push(d.message())
      void d.dismiss()
    })
    await page.route('**/*', (route) => (route.request().url() === url ? route.continue() : route.abort()))
    await withTimeout(page.goto(url, { waitUntil: 'load' }), 30000, `loading ${name}`)
    const drawn = await page.evaluate<Seen['drawn']>(MEASURE)
    return { ...seen, drawn, page }
  }

  const pages: Array<[string, () => string]> = [
    ['pass', () => toHtmlReport(passScenario())],
    ['fail-protected-slice', () => toHtmlReport(failProtectedSliceScenario())],
    ['inconclusive-too-few', () => toHtmlReport(inconclusiveScenario())],
    ['hostile', () => toHtmlReport(hostileScenario())],
    ['names', () => toHtmlReport(namesScenario())],
    ['hostile-ids', () => toHtmlReport(hostileIdsScenario())],
    ['capped', () => toHtmlReport(scaledResult(20000))]
  ]
  for (const [name, make] of pages) {
    it(`${name}: no console error, no request but the file, numeric axes, one mark per query or row`, async () => {
      const seen = await open(name, make())
      try {
        expect({ console: seen.console, errors: seen.errors, dialogs: seen.dialogs }).toEqual({
          console: [],
          errors: [],
          dialogs: []
        })
        expect(seen.requests).toEqual([pathToFileURL(path.join(dir, `${name}.html`)).href])
        expect({ images: seen.drawn.images, scripts: seen.drawn.scripts, handlers: seen.drawn.handlers }).toEqual({
          images: 0,
          scripts: 1,
          handlers: 0
        })
        const kinds = seen.drawn.plots.map((p) => p.kind)
        for (const kind of ['forest', 'scatter', 'histogram', 'bars']) expect(kinds).toContain(kind)
        for (const p of seen.drawn.plots) {
          // Every axis has at least two ticks, each labelled with a number, placed in the order of their values.
          for (const axis of ['x', 'y']) {
            const ticks = p.ticks.filter((t) => t.axis === axis)
            if (axis === 'y' && p.kind !== 'scatter') continue
            expect({ kind: p.kind, axis, ticks: ticks.length >= 2 }).toEqual({ kind: p.kind, axis, ticks: true })
            const values = ticks.map((t) => Number(t.text.replace(/^\+/, '')))
            expect({
              kind: p.kind,
              labels: ticks.map((t) => t.text).filter((_, i) => !Number.isFinite(values[i]))
            }).toEqual({ kind: p.kind, labels: [] })
            // Increasing to the right; on a y axis upwards (smaller y). The bars' axis counts away from its centre.
            const order = ticks.map((t, i) => ({
              at: t.at,
              v: p.kind === 'bars' ? (i < ticks.length / 2 ? -values[i] : values[i]) : values[i]
            }))
            for (let i = 1; i < order.length; i++)
              expect(axis === 'x' ? order[i].at > order[i - 1].at : order[i].at < order[i - 1].at).toBe(
                order[i].v > order[i - 1].v
              )
          }
          if (p.kind === 'scatter') {
            expect(p.marks).toBe(p.points)
            expect(p.points).toBe(Math.min(p.drawable as number, POINTS_PER_PLOT))
          } else expect({ kind: p.kind, marks: p.marks }).toEqual({ kind: p.kind, marks: p.rows })
        }
        if (name === 'capped')
          expect(seen.drawn.plots.filter((p) => p.kind === 'scatter').map((p) => [p.points, p.drawable])).toEqual([
            [POINTS_PER_PLOT, 20000],
            [POINTS_PER_PLOT, 20000]
          ])
      } finally {
        await seen.page.close()
      }
    }, 120000)
  }

  it('hostile query ids render as their text: in the table and in the points’ tooltips', async () => {
    const seen = await open('hostile-ids-text', toHtmlReport(hostileIdsScenario()))
    try {
      for (const id of HOSTILE_IDS) {
        const shown = id.replace(/[\r\n]+/g, ' ').replace(/[\u202a-\u202e\u2066-\u2069]/g, '')
        expect({ id, cell: seen.drawn.cells.includes(shown) }).toEqual({ id, cell: true })
        expect({ id, tooltip: seen.drawn.titles.some((t) => t.startsWith(`${shown}: `)) }).toEqual({
          id,
          tooltip: true
        })
      }
      expect(seen.dialogs).toEqual([])
    } finally {
      await seen.page.close()
    }
  }, 120000)

  it('the regressed queries sort by a column and filter by a text (the page’s own script runs)', async () => {
    const seen = await open('sorting', toHtmlReport(failProtectedSliceScenario()))
    const { page } = seen
    try {
      const column = (i: number): Promise<string[]> =>
        page.evaluate<string[]>(
          `[...document.querySelectorAll('#regressed tbody:not([hidden]) > tr:first-child')].map((r) => r.cells[${i}].textContent)`
        )
      const ids = await column(0)
      expect(ids.length).toBe(40)
      await page.click('#regressed thead th:nth-child(1) button')
      expect(await column(0)).toEqual([...ids].sort())
      await page.click('#regressed thead th:nth-child(1) button')
      expect(await column(0)).toEqual([...ids].sort().reverse())
      // The change column, ascending: the worst first, the page's own order.
      await page.click('#regressed thead th:nth-child(4) button')
      const deltas = (await column(3)).map((t) => parseFloat(t))
      expect(deltas).toEqual([...deltas].sort((a, b) => a - b))
      expect(await page.getAttribute('#regressed thead th:nth-child(4)', 'aria-sort')).toBe('ascending')
      await page.fill('input[data-filter="regressed"]', ids[0])
      expect(await column(0)).toEqual([ids[0]])
      expect(await page.textContent('output[data-count="regressed"]')).toBe('1 of 40 rows')
      await page.fill('input[data-filter="regressed"]', '')
      expect((await column(0)).length).toBe(40)
      expect(seen.console).toEqual([])
    } finally {
      await page.close()
    }
  }, 120000)

  it('at 880 px (a narrow window) nothing scrolls sideways but inside a table', async () => {
    const seen = await open('narrow', toHtmlReport(hostileScenario()), 880)
    try {
      expect(seen.drawn.scrollWidth).toBeLessThanOrEqual(880)
    } finally {
      await seen.page.close()
    }
  }, 120000)

  it('control: a page whose script lost a byte is refused by the policy (the console says so)', async () => {
    const html = toHtmlReport(passScenario()).replace("'use strict'", "'use strict' ")
    const seen = await open('tampered', html)
    try {
      expect(seen.console.some((m) => m.includes('Content Security Policy'))).toBe(true)
    } finally {
      await seen.page.close()
    }
  }, 120000)

  it('control: without the policy, an image is requested, and the observer sees it', async () => {
    const html = toHtmlReport(passScenario())
      .replace(/<meta http-equiv="Content-Security-Policy"[^>]*>/, '')
      .replace('<main>', '<main><img src="https://example.invalid/pixel.png" alt="">')
    const seen = await open('no-policy', html)
    try {
      expect(seen.requests).toContain('https://example.invalid/pixel.png')
    } finally {
      await seen.page.close()
    }
  }, 120000)
})

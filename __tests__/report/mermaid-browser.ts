/**
 * Renders Mermaid sources with the real `mermaid` package (its browser build) in Debian's headless
 * Chromium through playwright-core: the closest thing to what GitHub does with a ```mermaid block. Every
 * step has a timeout, so a broken browser fails the test instead of hanging it. `openChromium` is the browser
 * itself (the project's flags, a fresh profile), shared with the HTML page's test (html-page.slow.test.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { chromium, type BrowserContext } from 'playwright-core'

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
const MERMAID_JS = path.join(process.cwd(), 'node_modules', 'mermaid', 'dist', 'mermaid.min.js')
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-quic',
  '--no-first-run',
  '--disable-sync'
]

export interface Rendered {
  ok: boolean
  /** Length of the SVG markup, and how many drawn shapes it holds. */
  svgLength: number
  shapes: number
  /** Line plots an xychart drew (`g.line-plot-N > path` with a drawn path). */
  linePlots: number
  /** The drawn width of every bar of an xychart, per bar series (`g.bar-plot-N > rect`), in series and bar order. */
  barWidths: number[][]
  error: string
}

/** Rejects after `ms` with a message naming the step. */
export function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const t = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms)
  })
  return Promise.race([p, t]).finally(() => clearTimeout(timer))
}

/**
 * Debian's chromium through playwright-core with the project's flags (headless, no sandbox, no GPU, no background
 * networking or component updates) and a fresh user data folder, which `close` removes with the browser.
 */
export async function openChromium(
  options: { viewport?: { width: number; height: number } } = {}
): Promise<{ context: BrowserContext; close: () => Promise<void> }> {
  const userData = mkdtempSync(path.join(tmpdir(), 'rg-chromium-'))
  try {
    const context = await withTimeout(
      chromium.launchPersistentContext(userData, {
        executablePath: CHROMIUM,
        headless: true,
        args: ARGS,
        timeout: 30000,
        viewport: options.viewport
      }),
      40000,
      'launching chromium'
    )
    const close = async (): Promise<void> => {
      await withTimeout(context.close(), 15000, 'closing chromium').catch(() => undefined)
      rmSync(userData, { recursive: true, force: true })
    }
    return { context, close }
  } catch (error) {
    rmSync(userData, { recursive: true, force: true })
    throw error
  }
}

/** A browser page with mermaid loaded; `close` removes the browser and its fresh user data folder. */
export async function openMermaid(): Promise<{
  render: (src: string) => Promise<Rendered>
  screenshot: (file: string) => Promise<void>
  close: () => Promise<void>
}> {
  const browser = await openChromium()
  const { context } = browser
  try {
    const page = await withTimeout(context.newPage(), 15000, 'opening a page')
    page.setDefaultTimeout(15000)
    await withTimeout(page.goto('about:blank'), 15000, 'about:blank')
    await withTimeout(page.addScriptTag({ path: MERMAID_JS }), 60000, 'loading mermaid.min.js')
    await page.evaluate(() => {
      ;(globalThis as unknown as { mermaid: { initialize: (c: object) => void } }).mermaid.initialize({
        startOnLoad: false,
        securityLevel: 'strict'
      })
    })
    let n = 0
    const render = (src: string): Promise<Rendered> =>
      withTimeout(
        page.evaluate(
          async ({ src, id }) => {
            const m = (
              globalThis as unknown as {
                mermaid: {
                  parse: (s: string) => Promise<unknown>
                  render: (id: string, s: string) => Promise<{ svg: string }>
                }
              }
            ).mermaid
            try {
              await m.parse(src)
              const { svg } = await m.render(id, src)
              // Runs in the page: the test's TypeScript has no DOM types, so the document is reached untyped.
              const doc = (
                globalThis as unknown as {
                  document: {
                    createElement: (t: string) => {
                      innerHTML: string
                      querySelectorAll: (q: string) => ArrayLike<unknown>
                    }
                    body: { appendChild: (n: unknown) => void }
                  }
                }
              ).document
              const holder = doc.createElement('div')
              holder.innerHTML = svg
              doc.body.appendChild(holder)
              const shapes = holder.querySelectorAll('rect, path, polygon, line, circle, text').length
              const linePlots = holder.querySelectorAll('g[class^="line-plot-"] > path[d^="M"]').length
              const plots = holder.querySelectorAll('g[class^="bar-plot-"]') as unknown as Array<{
                querySelectorAll: (q: string) => Array<{ getAttribute: (a: string) => string | null }>
              }>
              const barWidths = Array.from(plots).map((g) =>
                Array.from(g.querySelectorAll('rect')).map((r) => Number(r.getAttribute('width')))
              )
              // Mermaid's error picture says so in its root's aria-roledescription.
              const failed = /aria-roledescription="error"/.test(svg)
              return {
                ok: !failed,
                svgLength: svg.length,
                shapes,
                linePlots,
                barWidths,
                error: failed ? 'mermaid drew its error picture' : ''
              }
            } catch (e) {
              return {
                ok: false,
                svgLength: 0,
                shapes: 0,
                linePlots: 0,
                barWidths: [],
                error: String((e as Error)?.message ?? e)
              }
            }
          },
          { src, id: `m${n++}` }
        ),
        30000,
        'rendering a diagram'
      )
    const screenshot = async (file: string): Promise<void> => {
      await page.setViewportSize({ width: 1000, height: 800 })
      await withTimeout(page.screenshot({ path: file, fullPage: true }), 20000, 'screenshot')
    }
    return { render, screenshot, close: browser.close }
  } catch (error) {
    await browser.close()
    throw error
  }
}

/** The bodies of the ```mermaid blocks of a Markdown text. */
export function mermaidBlocks(markdown: string): string[] {
  const out: string[] = []
  const re = /^```mermaid\n([\s\S]*?)\n```$/gm
  for (let m = re.exec(markdown); m; m = re.exec(markdown)) out.push(m[1])
  return out
}

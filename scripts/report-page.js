// Shows a report the way a reviewer sees it on GitHub: the Markdown rendered by Debian's cmark-gfm (GitHub's fork
// of cmark, with the extensions github.com enables), styled with the essentials of GitHub's Markdown CSS in light or
// dark, 880 px wide (a PR comment in the conversation column), every ```mermaid block drawn by the real mermaid
// package (node_modules, no network) in headless Chromium. Used by scripts/screenshot-report.js (the screenshots in
// docs/report.md) and by __tests__/report/report-page.slow.test.ts (which measures what is drawn).
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { chromium } from 'playwright-core'

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
export const CMARK = process.env.CMARK_GFM_PATH ?? '/usr/bin/cmark-gfm'
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

/** Width of a comment in a pull request's conversation column, the narrowest place the report is read. */
export const COMMENT_WIDTH = 880

/** GitHub's Markdown colours (primer, 2025) for the two themes. */
const THEMES = {
  light: { bg: '#ffffff', fg: '#1f2328', border: '#d1d9e0', code: '#818b981f', pre: '#f6f8fa', link: '#0969da' },
  dark: { bg: '#0d1117', fg: '#f0f6fc', border: '#3d444d', code: '#656c7633', pre: '#151b23', link: '#4493f8' }
}

/** The essentials of GitHub's markdown-body CSS that decide widths: fonts, table layout, code blocks. */
function css(theme) {
  const t = THEMES[theme]
  return `
  html, body { margin: 0; background: ${t.bg}; }
  .comment { width: ${COMMENT_WIDTH}px; box-sizing: border-box; padding: 16px; border: 1px solid ${t.border}; border-radius: 6px; margin: 8px; }
  .markdown-body { color: ${t.fg}; font-family: -apple-system, BlinkMacSystemFont, "Segoe UI", "Noto Sans", Helvetica, Arial, sans-serif; font-size: 14px; line-height: 1.5; word-wrap: break-word; }
  .markdown-body h2 { font-size: 1.5em; font-weight: 600; padding-bottom: .3em; border-bottom: 1px solid ${t.border}; margin: 0 0 16px; }
  .markdown-body h3 { font-size: 1.25em; font-weight: 600; margin: 24px 0 16px; }
  .markdown-body p, .markdown-body ul, .markdown-body table, .markdown-body pre, .markdown-body details { margin: 0 0 16px; }
  .markdown-body table { display: block; width: max-content; max-width: 100%; overflow: auto; border-spacing: 0; border-collapse: collapse; font-variant: tabular-nums; }
  .markdown-body table th, .markdown-body table td { padding: 6px 13px; border: 1px solid ${t.border}; }
  .markdown-body table th { font-weight: 600; }
  .markdown-body code { font-family: ui-monospace, SFMono-Regular, "SF Mono", Menlo, Consolas, "Liberation Mono", monospace; font-size: 85%; padding: .2em .4em; border-radius: 6px; background: ${t.code}; white-space: break-spaces; }
  .markdown-body pre { padding: 16px; overflow: auto; font-size: 85%; line-height: 1.45; background: ${t.pre}; border-radius: 6px; }
  .markdown-body pre code { font-size: 100%; padding: 0; background: transparent; white-space: pre; }
  .markdown-body a { color: ${t.link}; }
  .markdown-body .mermaid-drawn { margin: 0 0 16px; }
  `
}

/** The Markdown rendered as GitHub renders it (raw <details>/<summary> kept, as GitHub's sanitizer keeps them). */
export function renderGfm(markdown) {
  const r = spawnSync(CMARK, ['-e', 'table', '-e', 'autolink', '-e', 'strikethrough', '-e', 'tagfilter', '--unsafe'], {
    input: markdown,
    encoding: 'utf8',
    timeout: 20000
  })
  if (r.error) throw r.error
  if (r.status !== 0) throw new Error(`cmark-gfm exited ${r.status}: ${r.stderr}`)
  return r.stdout
}

function withTimeout(p, ms, what) {
  let timer
  const t = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms)
  })
  return Promise.race([p, t]).finally(() => clearTimeout(timer))
}

/**
 * A browser for report pages. `show(markdown, theme)` renders one and returns what was drawn, measured:
 * tables and code blocks (their widths: scrollWidth > clientWidth is a horizontal scroll bar), the text of every
 * code block, and for every Mermaid picture whether it drew and the text of its SVG. `screenshot(file)` saves the
 * page as shown last. `close()` removes the browser and its fresh profile.
 */
export async function openReportBrowser() {
  const userData = mkdtempSync(path.join(tmpdir(), 'rg-report-'))
  let context
  try {
    context = await withTimeout(
      chromium.launchPersistentContext(userData, {
        executablePath: CHROMIUM,
        headless: true,
        args: ARGS,
        timeout: 30000,
        viewport: { width: COMMENT_WIDTH + 16, height: 900 }
      }),
      40000,
      'launching chromium'
    )
    const page = await withTimeout(context.newPage(), 15000, 'opening a page')
    page.setDefaultTimeout(20000)
    const show = async (markdown, theme = 'light') => {
      const html = renderGfm(markdown)
      await page.setContent(
        `<!doctype html><html><head><meta charset="utf-8"><style>${css(theme)}</style></head><body><div class="comment"><article class="markdown-body">${html}</article></div></body></html>`
      )
      await withTimeout(page.addScriptTag({ path: MERMAID_JS }), 60000, 'loading mermaid.min.js')
      return withTimeout(
        page.evaluate(async (theme) => {
          const doc = globalThis.document
          const mermaid = globalThis.mermaid
          mermaid.initialize({
            startOnLoad: false,
            securityLevel: 'strict',
            theme: theme === 'dark' ? 'dark' : 'default'
          })
          const pictures = []
          let n = 0
          for (const code of [...doc.querySelectorAll('pre > code.language-mermaid')]) {
            const pre = code.parentElement
            const source = code.textContent
            const holder = doc.createElement('div')
            holder.className = 'mermaid-drawn'
            try {
              const { svg } = await mermaid.render(`m${n++}`, source)
              holder.innerHTML = svg
              pre.replaceWith(holder)
              const failed = /aria-roledescription="error"/.test(svg)
              pictures.push({
                ok: !failed,
                error: failed ? 'mermaid drew its error picture' : '',
                texts: [...holder.querySelectorAll('text')].map((t) => t.textContent.trim()),
                shapes: holder.querySelectorAll('rect, path, line, text').length
              })
            } catch (e) {
              pictures.push({ ok: false, error: String(e?.message ?? e), texts: [], shapes: 0 })
            }
          }
          const box = (el) => ({ scrollWidth: el.scrollWidth, clientWidth: el.clientWidth })
          const tables = [...doc.querySelectorAll('article > table')].map((t) => {
            // Its width with no cell wrapped: how wide the table wants to be.
            const probe = t.cloneNode(true)
            probe.style.maxWidth = 'none'
            probe.style.visibility = 'hidden'
            for (const cell of probe.querySelectorAll('th, td')) cell.style.whiteSpace = 'nowrap'
            t.parentElement.appendChild(probe)
            const natural = probe.scrollWidth
            probe.remove()
            return {
              ...box(t),
              natural,
              rowHeights: [...t.querySelectorAll('tr')].map((r) => r.offsetHeight),
              header: [...t.querySelectorAll('th')].map((th) => th.textContent.trim())
            }
          })
          const blocks = [...doc.querySelectorAll('article > pre')].map((p) => ({ ...box(p), text: p.textContent }))
          return { tables, blocks, pictures, pageWidth: doc.documentElement.scrollWidth }
        }, theme),
        60000,
        'rendering the report'
      )
    }
    const screenshot = (file) => withTimeout(page.locator('.comment').screenshot({ path: file }), 30000, 'screenshot')
    const close = async () => {
      await withTimeout(context.close(), 15000, 'closing chromium').catch(() => undefined)
      rmSync(userData, { recursive: true, force: true })
    }
    return { show, screenshot, close }
  } catch (error) {
    await context?.close().catch(() => undefined)
    rmSync(userData, { recursive: true, force: true })
    throw error
  }
}

/** A number as an axis tick label shows it: "-12.5", "+5", "0", "40". */
const NUMBER = /^[+\-−]?\d+(?:\.\d+)?$/

/** A histogram bin's label, its range and its count: "▼ -15 to -12.5 (13)", "= 0 (1)" (src/report/charts.ts). */
const BIN = /^[▼=▲] [+\-−]?\d+(?:\.\d+)?(?: to [+\-−]?\d+(?:\.\d+)?)? \(\d+\)$/

/**
 * Whether a drawn axis carries numbers: a Unicode picture's tick rule (a line with `┴`) must be followed by a line
 * with at least two numeric labels; a Mermaid picture's SVG must hold at least two numeric labels, or histogram bin
 * labels with their ranges and counts (the histogram's count axis has no tick labels: they would pad it, and draw
 * every 0 as a stub). The old interval chart (a Gantt chart with `axisFormat .`) fails this: its ticks were
 * labelled ".".
 */
export function axisHasNumbers(picture) {
  if (typeof picture === 'string') {
    const lines = picture.split('\n')
    const rule = lines.findIndex((l) => l.includes('┴'))
    if (rule < 0 || rule + 1 >= lines.length) return false
    return (
      lines[rule + 1]
        .trim()
        .split(/\s+/)
        .filter((w) => NUMBER.test(w)).length >= 2
    )
  }
  return picture.texts.filter((t) => NUMBER.test(t) || BIN.test(t)).length >= 2
}

// Screenshots of the HTML page (src/report/html/, `gate --html FILE`) opened from disk in headless Chromium: the whole
// page 880 px wide (a narrow window), and its first 2,300 px at 1280 (a laptop's window: the verdict, the checks, the
// forest plots and the first scatter), light and dark. The pictures in docs/report.md were made with
//   npm run bundle && npm run demo && node scripts/screenshot-html.js examples/report.html docs/images/report-page
// which writes docs/images/report-page-880.png, report-page-1280.png and report-page-1280-dark.png. Each shot says
// what the browser saw: console errors, requests other than the file (both must be none), the plots drawn and the
// widest element, and docs/images/screenshots.json records which page each shows (screenshot-manifest.js; a test
// fails when the page the sources draw is not that one). Needs chromium (apt-get install chromium); CHROMIUM_PATH
// points elsewhere.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { chromium } from 'playwright-core'
import { recordShot } from './screenshot-manifest.js'

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
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
/** Width, colour scheme, and the height of the shot (null: the whole page). */
const SHOTS = [
  [880, 'light', null],
  [1280, 'light', 2300],
  [1280, 'dark', 2300]
]

const [input = 'examples/report.html', prefix = 'docs/images/report-page'] = process.argv.slice(2)
const url = pathToFileURL(path.resolve(input)).href
const userData = mkdtempSync(path.join(tmpdir(), 'rg-html-shot-'))
const context = await chromium.launchPersistentContext(userData, {
  executablePath: CHROMIUM,
  headless: true,
  args: ARGS,
  timeout: 30000
})
let failed = false
try {
  for (const [width, scheme, height] of SHOTS) {
    const page = await context.newPage()
    const errors = []
    const requests = []
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()))
    page.on('pageerror', (e) => errors.push(e.message))
    page.on('request', (r) => r.url() !== url && requests.push(r.url()))
    await page.route('**/*', (route) => (route.request().url() === url ? route.continue() : route.abort()))
    await page.emulateMedia({ colorScheme: scheme })
    await page.setViewportSize({ width, height: height ?? 900 })
    await page.goto(url, { waitUntil: 'load' })
    const file = `${prefix}-${width}${scheme === 'dark' ? '-dark' : ''}.png`
    await page.screenshot({ path: file, fullPage: height === null })
    recordShot(file, input, `node scripts/screenshot-html.js ${input} ${prefix}`)
    // Measured in the page (a string: the document is the browser's, not this script's).
    const drawn = await page.evaluate(`({
      plots: document.querySelectorAll('svg.plot').length,
      points: document.querySelectorAll('svg.scatter .pt').length,
      scrollWidth: document.documentElement.scrollWidth,
      height: document.documentElement.scrollHeight
    })`)
    console.log(
      `${file}: ${drawn.plots} plots, ${drawn.points} points, page ${drawn.scrollWidth} x ${drawn.height} px, ${errors.length} console error(s), ${requests.length} request(s) besides the file`
    )
    for (const line of [...errors, ...requests]) console.log(`  ${line}`)
    if (errors.length > 0 || requests.length > 0 || drawn.scrollWidth > width) failed = true
    await page.close()
  }
} finally {
  await context.close()
  rmSync(userData, { recursive: true, force: true })
}
process.exit(failed ? 1 : 0)

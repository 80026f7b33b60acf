// Screenshots of a Markdown report as GitHub shows it (cmark-gfm, GitHub's Markdown CSS essentials, mermaid drawn in
// headless Chromium), light and dark, 880 px wide. The pictures in docs/report.md were made with
//   npm run bundle && npm run demo && node scripts/screenshot-report.js examples/report.md docs/images/report
// which writes docs/images/report-light.png and docs/images/report-dark.png, and records in
// docs/images/screenshots.json which report each shows (screenshot-manifest.js; a test fails when the report the
// sources print is not that one). Needs cmark-gfm and chromium (apt-get install cmark-gfm chromium);
// CMARK_GFM_PATH and CHROMIUM_PATH point elsewhere.
import { readFileSync } from 'node:fs'
import { axisHasNumbers, openReportBrowser } from './report-page.js'
import { recordShot } from './screenshot-manifest.js'

const [input = 'examples/report.md', prefix = 'docs/images/report'] = process.argv.slice(2)
const markdown = readFileSync(input, 'utf8')
const browser = await openReportBrowser()
try {
  for (const theme of ['light', 'dark']) {
    const drawn = await browser.show(markdown, theme)
    const file = `${prefix}-${theme}.png`
    await browser.screenshot(file)
    recordShot(file, input, `node scripts/screenshot-report.js ${input} ${prefix}`)
    const unlabelled = [
      ...drawn.blocks.filter((b) => b.text.includes('┴')).map((b) => b.text),
      ...drawn.pictures
    ].filter((p) => !axisHasNumbers(p)).length
    const overflowing = drawn.tables.filter((t) => t.scrollWidth > t.clientWidth).length
    console.log(
      `${file}: ${drawn.pictures.length} Mermaid picture(s), ${drawn.blocks.length} code block(s), ${overflowing} table(s) wider than the comment, ${unlabelled} axis/axes without numbers`
    )
  }
} finally {
  await browser.close()
}

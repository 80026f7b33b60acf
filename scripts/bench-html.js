// How big the HTML page (src/report/html/) gets, and how long toHtmlReport takes, as the number of queries grows:
// the fail-protected-slice report's result scaled to N queries (__tests__/report/html-scenarios.ts `scaledResult`:
// recall@10 and hit@10 gated, three metrics, two slice attributes), the page built in-process. The figures in
// docs/report.md ("The HTML page") were printed by
//   npx tsc -p tsconfig.json && node scripts/bench-html.js
// (tsc writes the compiled sources and tests to build/, the tsconfig's outDir; the bundle holds no test helper).
import path from 'node:path'
import { pathToFileURL } from 'node:url'

const build = (file) => pathToFileURL(path.resolve('build', file)).href
const { scaledResult } = await import(build('__tests__/report/html-scenarios.js'))
const { toHtmlReport } = await import(build('src/report/html/index.js'))
for (const n of [1e3, 1e4, 1e5, 1e6]) {
  const result = scaledResult(n)
  const start = process.hrtime.bigint()
  const html = toHtmlReport(result)
  const ms = Number(process.hrtime.bigint() - start) / 1e6
  console.log(`${n} queries: ${Buffer.byteLength(html)} bytes, ${ms.toFixed(0)} ms`)
}

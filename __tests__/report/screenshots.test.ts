/**
 * Issue 34 item 6: the screenshots in the README and docs show what the code draws today. Each image in
 * docs/images is listed in docs/images/screenshots.json with the sha256 of the report it was taken of (the demo's
 * report.md or report.html, written by `npm run demo`) and its own sha256 (scripts/screenshot-manifest.js, called
 * by the screenshot scripts). This test renders the demo's reports from the sources, in-process, as `npm run demo`
 * writes them, and fails when a shot was taken of other bytes (the page changed since: take the shots again), when
 * an image is not the one recorded, or when the README or a docs page shows an image the record does not list. The
 * README's excerpt of the Markdown report is checked against the same Markdown (its figures are the demo's:
 * readme-figures.test.ts).
 */
import { describe, expect, it } from '@jest/globals'
import { createHash } from 'node:crypto'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { runGate } from '../../src/gate.js'
import { readRules } from '../../src/load.js'
import { toHtmlReport } from '../../src/report/html/index.js'
import { toMarkdown } from '../../src/report/markdown.js'
import { loadFiles } from '../helpers.js'

const MANIFEST = 'docs/images/screenshots.json'
const sha256 = (bytes: string | Buffer): string => createHash('sha256').update(bytes).digest('hex')

interface Shot {
  source: string
  source_sha256: string
  image_sha256: string
  command: string
}

let demo: Promise<Record<string, string>> | undefined

/** The demo's reports (scripts/demo.js: `gate --json --markdown --html` on examples/), from the sources; once. */
function demoReports(): Promise<Record<string, string>> {
  demo ??= renderDemo()
  return demo
}

async function renderDemo(): Promise<Record<string, string>> {
  const rules = await readRules('examples/rules.yml')
  const result = runGate(
    await loadFiles(rules, { baseline: 'examples/baseline.jsonl', candidate: 'examples/candidate.jsonl' })
  )
  // The reports name the page the demo writes (gate --html examples/report.html), as cli-main.ts passes it.
  const files = { html: 'examples/report.html' }
  return {
    'examples/report.html': toHtmlReport(result, { files }),
    'examples/report.md': toMarkdown(result, { files })
  }
}

/** Every image under docs/images that the README or a page of docs/ shows. */
function shownImages(): string[] {
  const pages = ['README.md', ...readdirSync('docs').flatMap((f) => (f.endsWith('.md') ? [`docs/${f}`] : []))]
  const out = new Set<string>()
  for (const page of pages)
    for (const m of readFileSync(page, 'utf8').matchAll(/!\[[^\]]*\]\(((?:docs\/)?images\/[^)\s]+)\)/g))
      out.add(m[1].replace(/^(docs\/)?images\//, ''))
  return [...out].sort()
}

describe('the screenshots in the README and docs are of what the code draws', () => {
  const shots = JSON.parse(readFileSync(MANIFEST, 'utf8')) as Record<string, Shot>

  it('every image the README or docs show is recorded, and every recorded image exists as recorded', () => {
    const shown = shownImages()
    expect(shown).toContain('report-page-1280.png')
    expect(shown.filter((image) => shots[image] === undefined)).toEqual([])
    for (const [image, shot] of Object.entries(shots)) {
      const file = `docs/images/${image}`
      expect({ image, exists: existsSync(file) }).toEqual({ image, exists: true })
      expect({ image, sha256: sha256(readFileSync(file)) }).toEqual({ image, sha256: shot.image_sha256 })
    }
  })

  it('each was taken of the report the sources print today (else: npm run bundle && npm run demo, then its command)', async () => {
    const reports = await demoReports()
    const stale = Object.entries(shots).flatMap(([image, shot]) => {
      const report = reports[shot.source]
      if (report === undefined) return [`${image}: of ${shot.source}, which is not one of the demo's reports`]
      if (sha256(report) === shot.source_sha256) return []
      return [`${image} shows an older ${shot.source}: npm run bundle && npm run demo && ${shot.command}`]
    })
    expect(stale).toEqual([])
  })

  it("the README's excerpt of the report is the demo's Markdown, line for line and in order", async () => {
    // The report keeps a number and its unit together with no-break spaces; the README writes plain ones.
    const report = (await demoReports())['examples/report.md'].replace(/\u00a0/g, ' ').split('\n')
    const readme = readFileSync('README.md', 'utf8')
    const excerpt = /```\n(## ❌ retrieval-gate:[\s\S]*?)\n```/.exec(readme)?.[1].split('\n') ?? []
    const shown = excerpt.filter((l) => l.trim() !== '' && l !== '...')
    expect(shown.length).toBeGreaterThan(5)
    let at = 0
    const missing = shown.filter((line) => {
      const found = report.indexOf(line, at)
      if (found < 0) return true
      at = found + 1
      return false
    })
    expect(missing).toEqual([])
  })
})

/**
 * The Markdown report rendered by GitHub's own parser: Debian's cmark-gfm (GitHub's fork of cmark) with
 * the extensions github.com enables (table, autolink, strikethrough, tagfilter). The AST (-t xml) shows
 * which raw HTML the report contains; --unsafe shows what raw HTML would reach GitHub's sanitizer; the
 * default (safe) mode mirrors GitHub's parser. Untrusted text must stay text in all three.
 */
import { beforeAll, expect, it } from '@jest/globals'
import { spawnSync } from 'node:child_process'
import { executableAt, needing } from '../programs.js'
import { toMarkdown } from '../../src/report/markdown.js'
import { isFolded } from '../../src/report/folded-checks.js'
import type { GateResult } from '../../src/decide/result.js'
import { HOSTILE, SCENARIOS } from './scenarios.js'
import { toMarkdownLines } from '../../src/report/doc/markdown.js'
import { paragraph, text, words, type Block } from '../../src/model/document.js'

const CMARK = process.env.CMARK_GFM_PATH ?? '/usr/bin/cmark-gfm'
// without cmark-gfm: skipped with one line off CI, a failure on CI (see ../programs.ts)
const { describe } = needing('the GFM rendering tests (cmark-gfm)', executableAt(CMARK, 'CMARK_GFM_PATH'))
const EXT = ['-e', 'table', '-e', 'autolink', '-e', 'strikethrough', '-e', 'tagfilter']

function cmark(markdown: string, extra: string[] = []): string {
  const r = spawnSync(CMARK, [...EXT, ...extra], { input: markdown, encoding: 'utf8', timeout: 20000 })
  if (r.error) throw r.error
  expect(r.status).toBe(0)
  return r.stdout
}

const decode = (s: string): string =>
  s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')

/** Tags cmark-gfm itself writes for the Markdown the report uses, plus the two raw ones it may contain. */
const ALLOWED_TAGS = new Set([
  'h2',
  'h3',
  'p',
  'strong',
  'em',
  'code',
  'pre',
  'table',
  'thead',
  'tbody',
  'tr',
  'th',
  'td',
  'ul',
  'li',
  'details',
  'summary'
])

function tags(html: string): Set<string> {
  return new Set([...html.matchAll(/<\/?([a-zA-Z][a-zA-Z0-9-]*)/g)].map((m) => m[1].toLowerCase()))
}

/** Rendered tables as rows of cell texts (tags stripped, entities decoded). */
function tables(html: string): string[][][] {
  return [...html.matchAll(/<table>([\s\S]*?)<\/table>/g)].map((t) =>
    [...t[1].matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map((r) =>
      [...r[1].matchAll(/<t[hd][^>]*>([\s\S]*?)<\/t[hd]>/g)].map((c) => decode(c[1].replace(/<[^>]+>/g, '')))
    )
  )
}

/** Unescaped pipes of a Markdown table line (a `\|` is a literal pipe inside a cell). */
function pipes(line: string): number {
  return (line.replace(/\\\\/g, '').match(/(?<!\\)\|/g) ?? []).length
}

function visibleText(html: string): string {
  return decode(html.replace(/<pre[\s\S]*?<\/pre>/g, '').replace(/<[^>]+>/g, ''))
}

const results = new Map<string, GateResult>(SCENARIOS.map(([name, make]) => [name, make()]))

describe.each([...results.keys()])('%s report under cmark-gfm', (name) => {
  const result = results.get(name) as GateResult
  const markdown = toMarkdown(result)

  it('contains no raw HTML but <details> and <summary>', () => {
    const xml = cmark(markdown, ['-t', 'xml'])
    const raw = [...xml.matchAll(/<html_(?:block|inline)[^>]*>([\s\S]*?)<\/html_(?:block|inline)>/g)].map((m) =>
      decode(m[1])
    )
    expect(raw.length).toBeGreaterThan(0)
    for (const r of raw) {
      // <code> holds a linkish word inside a <summary> line (escape.ts htmlText).
      const rest = r.replace(/<\/?(?:details|summary|code)>/g, '')
      expect({ raw: r, rest: rest.includes('<') }).toEqual({ raw: r, rest: false })
    }
    // With --unsafe (what reaches GitHub's sanitizer) and in safe mode, only the known tags appear.
    for (const html of [cmark(markdown, ['--unsafe']), cmark(markdown)]) {
      expect([...tags(html)].filter((t) => !ALLOWED_TAGS.has(t))).toEqual([])
      expect(html).not.toMatch(/<!--(?! raw HTML omitted -->)/)
    }
  })

  it('fires no mention, issue reference or link', () => {
    const html = cmark(markdown, ['--unsafe'])
    expect(html).not.toMatch(/<a\s/)
    // GitHub links @name and #123 (also org/repo#123, GH-123, URLs) in text, but never inside <code> or <pre>:
    // every such word is a code span, so the text outside code has none.
    const text = visibleText(html.replace(/<code>[\s\S]*?<\/code>/g, ' '))
    expect(text.match(/@.{0,30}/g)).toBeNull()
    expect(text.match(/#\d.{0,30}/g)).toBeNull()
    expect(text).not.toMatch(/\bGH-\d/i)
    expect(text).not.toMatch(/:\/\//)
    expect(text).not.toMatch(/\bwww\./i)
  })

  it('inserts no invisible character: a name reads and copies exactly as written (recall@10, not recall@\u200d10)', () => {
    expect(markdown).not.toMatch(/[\u200b-\u200d\u2060]/)
    if (name !== 'hostile') expect(visibleText(cmark(markdown))).toContain('recall@10')
  })

  it('keeps every table row to its header’s columns, and the checks table has one row per unit', () => {
    const lines = markdown.split('\n')
    let header = -1
    for (const line of lines) {
      if (!line.startsWith('|')) {
        header = -1
        continue
      }
      if (header < 0) header = pipes(line)
      else expect({ line, pipes: pipes(line) }).toEqual({ line, pipes: header })
    }
    const html = cmark(markdown, ['--unsafe'])
    const all = tables(html)
    for (const t of all) for (const row of t) expect(row.length).toBe(t[0].length)
    const checks = all[0]
    expect(checks[0]).toEqual(['Status', 'Check', 'Metric', 'Queries', 'n', 'Δ', '95% CI', 'Needs'])
    // One row per unit, except a max_regressions check over slices: one row, its slices in a table collapsed under it.
    const units = result.decision.checks.reduce((n, c) => n + c.units.length, 0)
    const rowsShown = result.decision.checks.reduce((n, c) => n + (isFolded(c) ? 1 : c.units.length), 0)
    if (result.decision.checks.some(isFolded)) expect(rowsShown).toBeLessThan(units)
    expect(checks.length).toBe(1 + rowsShown)
    for (const c of result.decision.checks.filter(isFolded)) {
      expect(markdown).toContain(`<details><summary>Check ${c.rule.index + 1} `)
      expect(
        all.some((t) => t[0].join('|') === 'Status|Queries|n|Worse|Limit|Δ|95% CI' && t.length === 1 + c.units.length)
      ).toBe(true)
    }
    const shown = (name: string): string => name.slice(0, 47).replace(/\s+/g, ' ') + (name.length > 48 ? '…' : '')
    result.decision.checks.forEach((c, i) =>
      expect(checks.some((row) => row[1] === `${i + 1}. ${shown(c.rule.name)}`)).toBe(true)
    )
    // Numbers are right-aligned (n, Δ, interval), so their digits line up.
    const head = /<table>\s*<thead>\s*<tr>([\s\S]*?)<\/tr>/.exec(html)?.[1] ?? ''
    expect([...head.matchAll(/<th([^>]*)>/g)].map((m) => /right/.test(m[1]))).toEqual([
      false,
      false,
      false,
      false,
      true,
      true,
      true,
      false
    ])
    // The full columns are kept, collapsed.
    const details = all.find((t) => t[0].includes('W/L/T') && t[0].includes('Baseline') && t[0].includes('Needs'))
    expect(details?.length).toBe(1 + units)
  })

  it('removes bidi overrides and control characters', () => {
    expect(markdown).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/)
  })
})

describe('hostile text stays visible as text', () => {
  const markdown = toMarkdown(results.get('hostile') as GateResult)
  let text = ''
  // in beforeAll, not here: a describe's body runs even when it is skipped, and cmark-gfm may be missing
  beforeAll(() => {
    text = visibleText(cmark(markdown, ['--unsafe']))
  })

  it('shows planted markers, HTML and pipes literally instead of obeying them', () => {
    expect(markdown).not.toContain('<!-- retrieval-gate')
    expect(text).toContain('<!-- retrieval-gate:sticky -->')
    expect(text).toContain('<img src=x onerror=alert(1)>')
    expect(text).toContain('a|b||c')
    expect(text).toContain(HOSTILE.mention)
    expect(text).toContain('[click](https://evil.example/x)')
    expect(text).toContain('**bold** _em_ `code` ~~s~~ $x$')
  })

  it('cuts long cells', () => {
    expect(markdown).not.toContain('L'.repeat(80))
    expect(markdown).toContain('L'.repeat(60))
  })

  it('keeps the details sections balanced although a value tries to close one', () => {
    const opens = markdown.match(/^<details>/gm)?.length ?? 0
    const closes = markdown.match(/^<\/details>$/gm)?.length ?? 0
    expect(opens).toBeGreaterThanOrEqual(5)
    expect(closes).toBe(opens)
    expect(text).toContain('</details><details><summary>fake</summary>')
  })
})

describe('untrusted text at the start of a line makes no block', () => {
  // Query ids, notes and names a pull request controls, each a block marker when a Markdown line starts with it.
  const STARTS = [
    '# big',
    '## two',
    '> quoted',
    '  > quoted',
    ' > q',
    '\t> q',
    '- item',
    '+ item',
    '* item',
    '1. first',
    '2) second',
    '| a | b |'
  ]
  const RULES = [
    '---',
    '-- -',
    '--- -',
    '\t---',
    '===',
    '- - -',
    '***',
    '___',
    '    indented code',
    '```',
    '~~~',
    '<details>',
    '[x]: https://e.x'
  ]
  const lines = [...STARTS, ...RULES]
  const blocks: Block[] = [
    {
      kind: 'paragraph',
      lines: [
        ...lines.map((s) => [text(s), words(' (the rest)')]),
        // words of the report's own that render to nothing or to spaces do not hide where the untrusted text starts
        ...lines.map((s) => [words(''), text(s)]),
        ...lines.map((s) => [words('  '), text(s)])
      ]
    },
    ...lines.map((s) => paragraph(text(s))),
    { kind: 'list', items: lines.map((s) => ({ spans: [text(s)], children: [[text(s)]] })) }
  ]
  let xml = ''
  beforeAll(() => {
    xml = cmark(toMarkdownLines(blocks).join('\n'), ['-t', 'xml'])
  })

  it('no heading, quote, rule, code block, HTML block or nested list', () => {
    for (const node of ['heading', 'block_quote', 'thematic_break', 'code_block', 'html_block', 'table'])
      expect({ node, found: xml.includes(`<${node}`) }).toEqual({ node, found: false })
    // The one list is the renderer's own, its items and their children: two lists, no list inside an item's line.
    expect(xml.match(/<list /g)).toHaveLength(1 + lines.length)
    expect(xml.match(/<item>/g)).toHaveLength(2 * lines.length)
    expect(xml.match(/<paragraph>/g)).toHaveLength(1 + lines.length + 2 * lines.length)
  })

  it('each text still reads as typed', () => {
    const shown = visibleText(cmark(toMarkdownLines(blocks).join('\n')))
    for (const s of lines) expect(shown).toContain(s.trimStart())
  })
})

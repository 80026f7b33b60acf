/**
 * The HTML page (src/report/html/): untrusted text stays text (escaped for HTML and SVG, no tag or attribute from
 * the inputs), the Content-Security-Policy names exactly the page's own style and script, a holdout query never
 * appears, the page is the same bytes whatever the row order, and its size is bounded at 10^6 queries (a scatter
 * draws POINTS_PER_PLOT queries, the table lists REGRESSED_ROWS). The browser test (html-page.slow.test.ts)
 * opens the page in chromium.
 */
import { describe, expect, it } from '@jest/globals'
import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { loadRules } from '../../src/config/rules.js'
import { runGate } from '../../src/gate.js'
import { toHtmlReport } from '../../src/report/html/index.js'
import { toMarkdownLines } from '../../src/report/doc/markdown.js'
import { spansHtml, toHtml } from '../../src/report/doc/html.js'
import { cells, code, em, row, strong, table, text, words, type Block } from '../../src/model/document.js'
import { selectPoints } from '../../src/report/html/points.js'
import { toMarkdown } from '../../src/report/markdown.js'
import { historySection } from '../../src/capabilities/history/section.js'
import {
  checkDetailsTable,
  checksTable,
  comparabilityBody,
  comparisonsTable,
  coverageBody,
  methodBody
} from '../../src/report/sections.js'
import { publishableLine, trustBody } from '../../src/report/trust-lines.js'
import { executableAt, needing, skippedBy } from '../programs.js'
import { cli, loadFiles, tempDir } from '../helpers.js'
import path from 'node:path'
import { HISTORY, historyScenario } from './history-scenario.js'
import { toText } from '../../src/report/text.js'
import { HOSTILE_IDS, HOSTILE_SEGMENT, hostileIdRows, hostileIdsScenario, shuffled } from './html-scenarios.js'
import { failProtectedSliceScenario, HOSTILE, hostileScenario, SCENARIOS } from './scenarios.js'

/**
 * Every tag of the page, with its quoted attribute values blanked (escaped values hold no `"`: a sound split) and
 * the inside of its one style and script left out (their `<` and `>` are code, and the CSP pins their bytes).
 */
function tags(html: string): string[] {
  const markup = html.replace(/(<style>)[\s\S]*?(<\/style>)/, '$1$2').replace(/(<script>)[\s\S]*?(<\/script>)/, '$1$2')
  return [...markup.matchAll(/<[^>]*>/g)].map((m) => m[0].replace(/"[^"]*"/g, '""'))
}

/** The text of every element `<name ...>text</name>` (no nested markup), entity-decoded. */
function texts(html: string, name: string): string[] {
  return [...html.matchAll(new RegExp(`<${name}\\b[^>]*>([^<]*)</${name}>`, 'g'))].map((m) => decode(m[1]))
}

function decode(s: string): string {
  return s.replace(
    /&(amp|lt|gt|quot|#39);/g,
    (_, e: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[e] as string
  )
}

const base64 = (s: string): string => createHash('sha256').update(s).digest('base64')

describe('untrusted text is inert', () => {
  const pages = [
    ...SCENARIOS.map(([name, make]) => [name, toHtmlReport(make())] as const),
    ['hostile ids', toHtmlReport(hostileIdsScenario())] as const
  ]

  it.each(pages)(
    '%s: only the page’s own tags and attributes, no handler, style, source or foreign link',
    (_name, html) => {
      const allowed = new Set([
        'html',
        'head',
        'meta',
        'title',
        'style',
        'script',
        'body',
        'header',
        'nav',
        'main',
        'section',
        'footer',
        'details',
        'summary',
        'figure',
        'figcaption',
        'h1',
        'h2',
        'h3',
        'h4',
        'p',
        'ul',
        'ol',
        'li',
        'span',
        'strong',
        'em',
        'code',
        'pre',
        'a',
        'div',
        'table',
        'thead',
        'tbody',
        'tr',
        'th',
        'td',
        'button',
        'label',
        'input',
        'output',
        'svg',
        'g',
        'line',
        'rect',
        'circle',
        'path',
        'text'
      ])
      for (const tag of tags(html)) {
        const name = /^<\/?([a-z0-9]+)/.exec(tag)?.[1] ?? tag
        expect({ tag, allowed: allowed.has(name) || tag === '<!DOCTYPE html>' }).toEqual({ tag, allowed: true })
        expect({ tag, handler: /\son[a-z]+=/i.test(tag) }).toEqual({ tag, handler: false })
        expect({
          tag,
          style: /\sstyle=/i.test(tag),
          src: /\s(src|srcset|xlink:href|action|formaction)=/i.test(tag)
        }).toEqual({ tag, style: false, src: false })
      }
      for (const href of [...html.matchAll(/<a\b[^>]*\shref="([^"]*)"/g)].map((m) => m[1]))
        expect(href).toMatch(/^(#[a-z-]+|https:\/\/)/)
      expect(html.match(/<script\b/g)).toHaveLength(1)
      expect(html.match(/<\/script>/g)).toHaveLength(1)
      expect(html.match(/<style\b/g)).toHaveLength(1)
      // Nothing a renderer could reorder or hide: bidi controls and C0/C1 controls (but tab and newline) are gone.
      expect(html).not.toMatch(/[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/)
      expect(html).not.toMatch(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/)
    }
  )

  it('a hostile query id is shown as its text in the table and in its point’s tooltip, never as markup', () => {
    const html = toHtmlReport(hostileIdsScenario())
    const cells = texts(html, 'td')
    const titles = texts(html, 'title')
    for (const id of HOSTILE_IDS) {
      // As every report shows it: line breaks folded, bidi controls removed (src/report/escape.ts clean()).
      const shown = id.replace(/[\r\n]+/g, ' ').replace(/[\u202a-\u202e\u2066-\u2069]/g, '')
      expect({ id, inTable: cells.includes(shown) }).toEqual({ id, inTable: true })
      expect({ id, inTooltip: titles.some((t) => t.startsWith(`${shown}: `)) }).toEqual({ id, inTooltip: true })
    }
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;')
    expect(html).toContain('&lt;/script&gt;&lt;script&gt;alert(2)&lt;/script&gt;')
    expect(html).toContain('&quot;double&quot; and &#39;single&#39; quotes&quot; onmouseover=&quot;alert(3)')
    expect(html).toContain('&lt;!-- retrieval-gate:sticky --&gt; &amp; &amp;amp; entity')
    expect(texts(html, 'li').some((t) => t.includes(`segment = ${HOSTILE_SEGMENT}`))).toBe(true)
  })

  it('names in the hostile scenario (metric, check, slice, file) are text too', () => {
    const html = toHtmlReport(hostileScenario())
    expect(html).toContain('recall@10 &lt;!-- retrieval-gate:m --&gt;')
    expect(html).toContain(`${'L'.repeat(30)}`)
    expect(html).not.toContain(HOSTILE.html)
    expect(html).not.toContain(HOSTILE.marker)
    expect(html).not.toContain(HOSTILE.details)
  })
})

describe('the Content-Security-Policy', () => {
  const html = toHtmlReport(failProtectedSliceScenario())
  const meta = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(html)
  const policy = (meta?.[1] ?? '').split(';').map((d) => d.trim())

  it('is the first thing after the charset, before any style or script', () => {
    expect(meta).not.toBeNull()
    const at = html.indexOf('Content-Security-Policy')
    expect(at).toBeGreaterThan(html.indexOf('<meta charset="utf-8">'))
    expect(at).toBeLessThan(html.indexOf('<style'))
    expect(at).toBeLessThan(html.indexOf('<script'))
  })

  it('forbids everything but the page’s own style and script, named by their sha256', () => {
    const style = /<style>([\s\S]*?)<\/style>/.exec(html)?.[1] as string
    const script = /<script>([\s\S]*?)<\/script>/.exec(html)?.[1] as string
    expect(policy).toEqual([
      `default-src 'none'`,
      `style-src 'sha256-${base64(style)}'`,
      `script-src 'sha256-${base64(script)}'`,
      `base-uri 'none'`,
      `form-action 'none'`
    ])
  })

  it('is the same for every result (the style and script hold no data)', () => {
    const other = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(
      toHtmlReport(hostileScenario())
    )?.[1]
    expect(other).toBe(meta?.[1])
  })
})

describe('holdout queries never appear one by one', () => {
  const D = '__tests__/fixtures/trust/dataset'
  // The holdout test's fixture (__tests__/decide/holdout.test.ts): holdout h1..h4, dev d1; h3 and h4 get worse.
  const rulesText = readFileSync(`${D}/rules.yml`, 'utf8')
    .replace(/max_zero_hit_share.*\n/, '')
    .replace('non_inferior: { margin: 0.6 }', 'max_regressions: { share: 0.5 }')

  async function page(split: string): Promise<string> {
    const rules = loadRules(rulesText.replace('split: holdout }', `split: ${split} }`), 'rules.yml')
    const loaded = await loadFiles(rules, { baseline: `${D}/baseline.jsonl`, candidate: `${D}/candidate.jsonl` })
    return toHtmlReport(runGate({ ...loaded, evidence: new Map([...loaded.evidence, ['holdout', { thisPr: 0 }]]) }))
  }

  it('grading both splits: no holdout id in a table cell or a tooltip, the dev query drawn, both counted', async () => {
    const html = await page('all')
    for (const id of ['h1', 'h2', 'h3', 'h4']) {
      expect(texts(html, 'td')).not.toContain(id)
      expect(texts(html, 'title').filter((t) => t.startsWith(`${id}:`))).toEqual([])
    }
    expect(texts(html, 'title').filter((t) => t.startsWith('d1:')).length).toBeGreaterThan(0)
    expect(html).toContain(
      '2 holdout queries that got worse are not listed: the holdout is reported in aggregates only.'
    )
    expect(html).toContain('4 holdout queries are not drawn: the holdout is reported in aggregates only.')
  })

  it('grading the dev split, the queries are drawn and listed as usual', async () => {
    const html = await page('dev')
    expect(html).not.toContain('holdout queries are not drawn')
  })
})

describe('the same bytes', () => {
  it('whatever the order of the rows (and with the point cap in force)', () => {
    const rows = hostileIdRows()
    const again = { base: shuffled(rows.base, 'b'), cand: shuffled(rows.cand, 'c') }
    expect(toHtmlReport(hostileIdsScenario(again))).toBe(toHtmlReport(hostileIdsScenario(rows)))
    expect(toHtmlReport(hostileIdsScenario(again), { maxPoints: 20, maxRows: 5 })).toBe(
      toHtmlReport(hostileIdsScenario(rows), { maxPoints: 20, maxRows: 5 })
    )
  })

  it('run after run', () => {
    const result = failProtectedSliceScenario()
    expect(toHtmlReport(result)).toBe(toHtmlReport(result))
  })
})

describe('size bounded', () => {
  it('the cap takes the queries that lost most, then a sample fixed by the ids', () => {
    const n = 1000
    const ids = Array.from({ length: n }, (_, i) => `q${String(i).padStart(4, '0')}`)
    const base = Float64Array.from(ids, () => 0.5)
    const cand = Float64Array.from(ids, (_, i) => (i % 2 === 0 ? 0.5 - i / 10000 : 0.6)) // even ids lose, more and more
    const s = selectPoints({ ids, base, cand, sign: 1, isHoldout: () => false, cap: 100 })
    expect(s.indices.length).toBe(100)
    expect(s.worstTaken).toBe(50)
    const drawn = new Set(s.indices)
    // The 50 that lost most: indices 998, 996, ... 900 (index 0 did not lose: its delta is 0).
    for (let i = 900; i < 1000; i += 2) expect(drawn.has(i)).toBe(true)
    expect(s.worseTotal).toBe(499)
    // A higher-is-worse metric (latency) loses where the candidate rises.
    const latency = selectPoints({ ids, base, cand, sign: -1, isHoldout: () => false, cap: 100 })
    expect(latency.worseTotal).toBe(500)
    // Under the cap every query is drawn, those that got worse last (on top).
    const all = selectPoints({ ids: ids.slice(0, 10), base, cand, sign: 1, isHoldout: (i) => i === 3, cap: 100 })
    expect({ drawn: Array.from(all.indices), holdout: all.holdout }).toEqual({
      drawn: [0, 1, 5, 7, 9, 2, 4, 6, 8],
      holdout: 1
    })
  })
})

describe('query details: columns appear when the caller has them', () => {
  const result = hostileIdsScenario()
  const worst = result.regressions[0].id

  it('without details: no row of text or top-k lists', () => {
    const html = toHtmlReport(result)
    expect(html).not.toContain('<tr class="docs">')
    expect(html).not.toContain('top documents')
  })

  it('with text and both top-k lists: a row under the query, escaped, with the grades', () => {
    const text = new Map([[worst, 'how do I <b>reset</b> my "password"?']])
    const doc = (d: string, grade: number | null) => ({ doc: d, grade })
    const baselineTop = new Map([[worst, [doc('doc-1', 2), doc('<img src=x>', null)]]])
    const candidateTop = new Map([[worst, Array.from({ length: 12 }, (_, i) => doc(`d${i}`, i === 0 ? 0 : 1))]])
    const html = toHtmlReport(result, { details: { text, baselineTop, candidateTop } })
    expect(html).toContain('<p class="side">Baseline top documents (grade)</p>')
    expect(html).toContain('<p class="text">how do I &lt;b&gt;reset&lt;/b&gt; my &quot;password&quot;?</p>')
    expect(html).toContain(
      '<li><span class="doc">doc-1</span> <span class="grade rel">2</span></li><li><span class="doc">&lt;img src=x&gt;</span> <span class="grade">–</span></li>'
    )
    expect(html).toContain('<li class="more">and 2 more</li>')
  })
})

describe('the reports name the page when it was written', () => {
  const result = failProtectedSliceScenario()
  it('the CLI: the file as given', () => {
    const words =
      'The full page, with every check and slice on one axis and each query plotted, is out/page.html: one HTML file that opens in a browser, from disk.'
    expect(toMarkdown(result, { files: { html: 'out/page.html' } })).toContain(words)
    expect(toText(result, { color: false, files: { html: 'out/page.html' } })).toContain(words)
  })
  it('the action: report.html in the report artifact', () => {
    const markdown = toMarkdown(result, { files: { html: 'rg-report/report.html', reportDir: 'rg-report' } })
    expect(markdown).toContain('is report.html in the report artifact (report-dir rg-report)')
  })
  it('gate --html FILE writes the page, and the Markdown on stdout names it', async () => {
    const file = path.join(tempDir(), 'page.html')
    const r = await cli([
      'gate',
      '--rules',
      'examples/rules.yml',
      '--baseline',
      'examples/baseline.jsonl',
      '--candidate',
      'examples/candidate.jsonl',
      '--html',
      file,
      '--format',
      'markdown'
    ])
    expect(r.code).toBe(1)
    const html = readFileSync(file, 'utf8')
    expect(html.startsWith('<!DOCTYPE html>')).toBe(true)
    expect(html).toContain('decided by check 2 “new users are protected”')
    expect(r.stdout).toContain(
      `The full page, with every check and slice on one axis and each query plotted, is ${file}:`
    )
  })
  it('not written: not named', () => {
    expect(toMarkdown(result)).not.toContain('The full page')
  })
})

describe('the HTML renderer of the report document', () => {
  it('spans: untrusted text escaped (a linkish word as code), strong, emphasis, code, safe links only, symbols', () => {
    const html = spansHtml([
      text('a *b* <i> &lt; @octocat'),
      words(' '),
      strong(words('c')),
      words(' '),
      em(words('d e')),
      words(' on_inconclusive '),
      code('x<y'),
      words(' '),
      { kind: 'link', href: 'https://github.com/o/r/actions/runs/1', spans: [words('run')] },
      words(' '),
      { kind: 'link', href: 'javascript:alert', spans: [words('bad')] },
      words(' '),
      { kind: 'link', href: 'http://evil.example/', spans: [words('x')] }
    ])
    expect(html).toBe(
      'a *b* &lt;i&gt; &amp;lt; <code>@octocat</code> <strong>c</strong> <em>d e</em> on_inconclusive <code>x&lt;y</code> <a href="https://github.com/o/r/actions/runs/1" rel="noopener noreferrer">run</a> bad x'
    )
    expect(spansHtml([words('✅ pass, ❌ fail, ⚠️ differs')])).toBe('✓ pass, ✗ fail, ⚠ differs')
  })

  it('blocks: a table with its alignment and status cells, a nested list, a paragraph, figures', () => {
    const html = toHtml([
      table(cells('Status', 'n'), [row('❌ fail', '40'), row(text('a|b'), '1')], ['l', 'r']),
      { kind: 'list', items: [{ spans: [words('one')], children: [[words('sub')]] }, { spans: [words('two')] }] },
      { kind: 'paragraph', lines: [[words('para')], [words('graph')]] },
      { kind: 'figure', language: 'mermaid', lines: ['xychart-beta'] },
      { kind: 'figure', language: 'text', lines: ['<b> ├──┤'] }
    ])
    expect(html).toBe(
      [
        '<div class="table"><table>',
        '<thead><tr><th>Status</th><th class="num">n</th></tr></thead>',
        '<tbody><tr><td class="st fail">✗ fail</td><td class="num">40</td></tr>\n<tr><td>a|b</td><td class="num">1</td></tr></tbody>',
        '</table></div>',
        '<ul><li>one<ul><li>sub</li></ul></li>\n<li>two</li></ul>',
        '<p>para graph</p>',
        '<p class="note">(A chart the Markdown report draws with Mermaid; its numbers are in the table.)</p>',
        '<pre>&lt;b&gt; ├──┤</pre>'
      ].join('\n')
    )
  })

  it('a bounded list says how many more there are, in every renderer', () => {
    const list: Block = { kind: 'list', items: [{ spans: [text('q1')] }], more: 41 }
    expect(toHtml([list])).toBe('<ul><li>q1</li>\n<li>and 41 more</li></ul>')
    expect(toMarkdownLines([list])).toEqual(['- q1', '- and 41 more', ''])
  })
})

const CMARK = process.env.CMARK_GFM_PATH ?? '/usr/bin/cmark-gfm'
needing(
  'the HTML renderer’s comparison with GitHub’s parser (cmark-gfm)',
  skippedBy('RG_SKIP_CMARK') ?? executableAt(CMARK, 'CMARK_GFM_PATH')
).describe(
  'the page says what GitHub shows (the same text, block by block, as cmark-gfm renders the Markdown of the same blocks)',
  () => {
    /** The text a reader sees: tags dropped, entities decoded, the status emoji as the page writes them, spaces folded. */
    const seen = (html: string): string =>
      decode(html.replace(/<[^>]*>/g, ' '))
        .replace(/✅/g, '✓')
        .replace(/❌/g, '✗')
        .replace(/⚠️?/g, '⚠')
        .replace(/❔/g, '?')
        .replace(/\s+/g, ' ')
        .trim()
    const gfm = (markdown: string): string => {
      const r = spawnSync(CMARK, ['-e', 'table', '-e', 'autolink', '-e', 'strikethrough', '-e', 'tagfilter'], {
        input: markdown,
        encoding: 'utf8',
        timeout: 20000
      })
      return r.stdout
    }
    const bodies: Array<[string, () => Block[] | Promise<Block[]>]> = []
    for (const [name, make] of SCENARIOS) {
      const r = make()
      bodies.push(
        [`${name}: checks`, () => [checksTable(r), checkDetailsTable(r)]],
        [`${name}: comparisons`, () => [comparisonsTable(r, r.comparisons)]],
        [`${name}: coverage`, () => coverageBody(r)],
        [`${name}: comparability`, () => comparabilityBody(r)],
        [`${name}: method`, () => methodBody(r)]
      )
    }
    bodies.push([
      'history (links, bold, italic notes)',
      () => historySection(historyScenario(), HISTORY).filter((b) => b.kind !== 'figure')
    ])
    bodies.push([
      'trust (bold, lists, tables)',
      async () => {
        const D = '__tests__/fixtures/trust/dataset'
        const rules = loadRules(readFileSync(`${D}/rules.yml`, 'utf8'), 'rules.yml')
        const r = runGate(
          await loadFiles(rules, { baseline: `${D}/baseline.jsonl`, candidate: `${D}/candidate.jsonl` })
        )
        const trust = r.trust as NonNullable<typeof r.trust>
        return [...trustBody(trust, r), { kind: 'paragraph', lines: [publishableLine(trust)] }]
      }
    ])
    it.each(bodies)('%s', async (_name, body) => {
      const blocks = await body()
      expect(seen(toHtml(blocks))).toBe(seen(gfm(toMarkdownLines(blocks).join('\n'))))
    })
  }
)

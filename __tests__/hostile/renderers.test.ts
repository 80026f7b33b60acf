import { describe, expect, it } from '@jest/globals'
import { code, em, strong, text, toned, words, type Block } from '../../src/model/document.js'
import { toHtml } from '../../src/report/doc/html.js'
import { toMarkdownLines } from '../../src/report/doc/markdown.js'
import { toText } from '../../src/report/text.js'
import { hostileScenario } from '../report/scenarios.js'
import { terminalText, toTextLines, type Paint } from '../../src/report/doc/text.js'

/** Strings a pull request controls, aimed at each output's syntax. */
const HOSTILE = [
  '<script>alert(1)</script>',
  '<!-- retrieval-gate:sticky -->',
  '@octocat #12 owner/repo#3 https://evil.example/x',
  '| a | b |\n| - | - |',
  '**bold** _em_ `code` [link](javascript:alert(1)) ~~s~~ $x$ \\',
  '\u001b[31mred\u001b[0m \u202eevil\u202c \u0007',
  '"quoted" \'single\' & ampersand',
  '::error::planted',
  '\u009b31m8-bit CSI\u009b0m \u001b]52;c;ZXZpbA==\u0007 \u001b]8;;https://evil.example\u001b\\link\u001b]8;;\u001b\\',
  'line one\r\nline two\u2028three\u0085four\tfive',
  '\u2066isolate\u2069 \u200fmark\u200e \u061cletter \ufeffbom'
]

function doc(s: string): Block[] {
  return [
    { kind: 'headline', level: 3, spans: [words('Head '), text(s)] },
    { kind: 'paragraph', lines: [[strong(text(s)), words(' '), em(text(s)), words(' '), code(s)]] },
    { kind: 'table', head: [[words('Name')], [text(s)]], rows: [[[text(s)], [code(s)]]], align: ['l', 'r'] },
    { kind: 'list', items: [{ spans: [text(s)], children: [[text(s)]] }] },
    {
      kind: 'details',
      summary: [words('Summary '), text(s), code(s)],
      body: [{ kind: 'paragraph', lines: [[text(s)]] }]
    }
  ]
}

describe('the report renderers escape every untrusted span at render time', () => {
  it.each(HOSTILE)('HTML: no tag, entity or link from %j', (s) => {
    const html = toHtml(doc(s))
    expect(html).not.toMatch(/<script|<!--|href="javascript|href="https:\/\/evil/)
    expect(html).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f\u202a-\u202e]/)
    const link = toHtml([
      { kind: 'paragraph', lines: [[{ kind: 'link', href: 'javascript:alert(1)', spans: [text(s)] }]] }
    ])
    expect(link).not.toContain('<a ')
  })

  it.each(HOSTILE)('Markdown: no raw tag, comment, mention, table break or control character from %j', (s) => {
    const md = toMarkdownLines(doc(s)).join('\n')
    // Code spans show their text as typed (GitHub renders nothing inside them); outside them nothing is markup.
    expect(md.replace(/`[^`]*`/g, '')).not.toMatch(/<script|<!--/)
    expect(md).not.toContain('<!--')
    expect(md).not.toMatch(/(^|[^`>])@octocat/)
    expect(md).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f\u202a-\u202e]/)
    // One table row per row: a planted newline or pipe never adds a row or a column.
    const rows = md.split('\n').filter((l) => l.startsWith('|'))
    expect(rows).toHaveLength(3)
    for (const r of rows) expect(r.replace(/\\\|/g, '').split('|')).toHaveLength(4)
  })

  /** What a terminal must never get raw: C0 and C1 controls (ESC, CSI, BEL, CR, LF, tab) and bidi controls. */
  const TERMINAL_UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\ufeff]/

  it.each(HOSTILE)('text: no control character, ESC sequence or bidi override from %j', (s) => {
    const lines = toTextLines(doc(s))
    for (const l of lines) expect(l).not.toMatch(TERMINAL_UNSAFE)
    expect(terminalText(s)).not.toMatch(TERMINAL_UNSAFE)
  })

  it.each(HOSTILE)('text: a planted line break adds no line and no table row from %j', (s) => {
    // The same document with a harmless string has as many lines: nothing from the input starts a line.
    expect(toTextLines(doc(s))).toHaveLength(toTextLines(doc('x')).length)
  })

  it.each(HOSTILE)('text in colour: the only escape sequences are the colours the renderer adds, from %j', (s) => {
    const paint: Paint = (tone, t) => `\u001b[${tone === 'bold' ? 1 : 2}m${t}\u001b[0m`
    const lines = toTextLines(
      [...doc(s), { kind: 'paragraph', lines: [[toned('PASS', 'pass'), text(s)]] }],
      '  ',
      paint
    )
    for (const l of lines) expect(l.replace(/\u001b\[[012]m/g, '')).not.toMatch(TERMINAL_UNSAFE)
  })

  it('text: every block kind drawn without Markdown syntax', () => {
    const lines = toTextLines([
      { kind: 'headline', level: 2, spans: [words('Head')] },
      { kind: 'table', head: [[words('a')], [words('bb')]], rows: [[[words('ccc')], [words('d')]]], align: ['l', 'r'] },
      { kind: 'details', summary: [words('Section')], body: [{ kind: 'paragraph', lines: [[strong(words('body'))]] }] },
      { kind: 'list', items: [{ spans: [em(words('one'))], children: [[code('two')]] }], more: 3 }
    ])
    expect(lines).toEqual([
      'Head',
      '  a    bb',
      '  ccc   d',
      '',
      'Section',
      '  body',
      '',
      '  - one',
      '      two',
      '  - and 3 more'
    ])
  })

  it('cuts untrusted text at its span length in every output', () => {
    const long: Block[] = [{ kind: 'paragraph', lines: [[text('x'.repeat(500), 10)]] }]
    expect(toMarkdownLines(long)[0]).toBe('xxxxxxxxx…')
    expect(toHtml(long)).toBe('<p>xxxxxxxxx…</p>')
    expect(toTextLines(long, '')[0]).toBe('xxxxxxxxx…')
  })

  it('the terminal report of hostile names, in colour: only its own colour codes, no planted line', () => {
    const result = hostileScenario()
    for (const color of [false, true]) {
      const out = toText(result, { color })
      const bare = out.replace(/\u001b\[(?:1|2|22|31|32|33|39)m/g, '')
      for (const line of bare.split('\n')) expect(line).not.toMatch(TERMINAL_UNSAFE)
      // Colour adds no line: the coloured report is the plain one with its SGR codes.
      expect(bare).toBe(toText(result, { color: false }))
    }
  })
})

describe('a link whose target could break the output is shown as its label alone', () => {
  const link = (href: string): Block[] => [
    { kind: 'paragraph', lines: [[{ kind: 'link', href, spans: [words('run 7')] }]] }
  ]
  it.each(['javascript:alert(1)', 'https://x.example/a)b c', 'https://x.example/|', 'http://x.example/plain'])(
    '%s',
    (href) => {
      const md = toMarkdownLines(link(href)).join('\n')
      expect(md).not.toContain('](')
      expect(md).toContain('run 7')
      expect(toHtml(link(href))).not.toContain('href=')
    }
  )
  it('a safe https target is linked in both', () => {
    expect(toMarkdownLines(link('https://github.com/o/r/actions/runs/7')).join('\n')).toContain(
      '[run 7](https://github.com/o/r/actions/runs/7)'
    )
    expect(toHtml(link('https://github.com/o/r/actions/runs/7'))).toContain(
      'href="https://github.com/o/r/actions/runs/7"'
    )
  })
})

describe('a bounded list that shows none of its items still says how many it left out', () => {
  const none: Block[] = [{ kind: 'list', items: [], more: 12 }]
  it('in every renderer', () => {
    expect(toMarkdownLines(none).join('\n')).toContain('and 12 more')
    expect(toHtml(none)).toContain('and 12 more')
    expect(toTextLines(none).join('\n')).toContain('and 12 more')
  })
})

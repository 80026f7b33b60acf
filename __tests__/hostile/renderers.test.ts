import { describe, expect, it } from '@jest/globals'
import { code, em, strong, text, words, type Block } from '../../src/model/document.js'
import { toHtml } from '../../src/report/doc/html.js'
import { toMarkdownLines } from '../../src/report/doc/markdown.js'
import { toTextLines } from '../../src/report/doc/text.js'

/** Strings a pull request controls, aimed at each output's syntax. */
const HOSTILE = [
  '<script>alert(1)</script>',
  '<!-- retrieval-gate:sticky -->',
  '@octocat #12 owner/repo#3 https://evil.example/x',
  '| a | b |\n| - | - |',
  '**bold** _em_ `code` [link](javascript:alert(1)) ~~s~~ $x$ \\',
  '\u001b[31mred\u001b[0m \u202eevil\u202c \u0007',
  '"quoted" \'single\' & ampersand',
  '::error::planted'
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

  it.each(HOSTILE)('text: no control character or bidi override from %j', (s) => {
    const lines = toTextLines(doc(s))
    for (const l of lines) expect(l).not.toMatch(/[\u0000-\u001f\u007f\u202a-\u202e]/)
  })

  it('cuts untrusted text at its span length in every output', () => {
    const long: Block[] = [{ kind: 'paragraph', lines: [[text('x'.repeat(500), 10)]] }]
    expect(toMarkdownLines(long)[0]).toBe('xxxxxxxxx…')
    expect(toHtml(long)).toBe('<p>xxxxxxxxx…</p>')
    expect(toTextLines(long, '')[0]).toBe('xxxxxxxxx…')
  })
})

import { entities } from './escape.js'

/**
 * The report's own Markdown (the section bodies src/report/ writes for the PR comment: GFM tables, `- ` lists
 * one level deep, paragraphs, `**bold**`, `_italic_`, code spans, backslash escapes, the entities escape.ts
 * writes, https links and fenced blocks) as HTML, so the page shows the same words as the Markdown report from
 * the same code instead of writing every sentence twice. It is not a Markdown parser for arbitrary input: it
 * knows the subset src/report/ writes, and it is safe for any input, because it never passes a character
 * through as markup. Every piece of text is entity-escaped; the only tags are the ones written here; a link is
 * kept only when its target is a plain https URL (anything else shows its label); raw HTML in the input (there
 * is none in the report's Markdown: escape.ts turns `<` into `&lt;`) would show as text.
 */

/** What a fenced Mermaid block becomes: the page runs no script but its own, so the chart is not drawn here. */
const MERMAID_NOTE =
  '<p class="note">(A chart the Markdown report draws with Mermaid; its numbers are in the table.)</p>'

/** The link targets kept: a plain https URL (the API's run links), nothing that could be a script or a fetch. */
const SAFE_URL = /^https:\/\/[A-Za-z0-9.-]+(?::[0-9]+)?\/[A-Za-z0-9._~%/?=&#:+-]*$/

/** ASCII punctuation, the characters a backslash escapes in CommonMark. */
const PUNCTUATION = /[!-/:-@[-`{-~]/

/** The entities escape.ts writes (decoded here, escaped again on output: the text reads as the Markdown shows it). */
const ENTITY = /^&(amp|lt|gt|quot|#39);/
const DECODED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" }

const STATUS_CLASS: Array<[string, string]> = [
  ['✓', 'pass'],
  ['✗', 'fail'],
  ['⚠', 'inconclusive'],
  ['?', 'unknown']
]

/**
 * The status emoji of the Markdown (GitHub draws them from its own images) as text symbols every system font has:
 * a page that opens from disk cannot count on an emoji font, and a missing one draws an empty box.
 */
const SYMBOLS: Array<[RegExp, string]> = [
  [/✅/g, '✓'],
  [/❌/g, '✗'],
  [/⚠️?/g, '⚠'],
  [/❔/g, '?']
]
const textSymbols = (s: string): string => SYMBOLS.reduce((t, [re, to]) => t.replace(re, to), s)

/**
 * The Markdown lines (an element may hold several lines, as a table does) as HTML. `headingLevel` is the level
 * a `### ` heading becomes (the page's sections are `<h2>`, so the report's `### ` is `<h3>` by default).
 */
export function markdownToHtml(markdown: readonly string[], headingLevel = 3): string {
  const lines = markdown.join('\n').split('\n')
  const out: string[] = []
  let i = 0
  while (i < lines.length) {
    const line = lines[i]
    if (line.trim() === '') {
      i++
      continue
    }
    const fence = /^(`{3,})([A-Za-z0-9_-]*)\s*$/.exec(line)
    if (fence) {
      const body: string[] = []
      i++
      while (i < lines.length && lines[i] !== fence[1]) body.push(lines[i++])
      i++
      out.push(fence[2] === 'mermaid' ? MERMAID_NOTE : `<pre>${entities(body.join('\n'))}</pre>`)
      continue
    }
    const heading = /^(#{1,6}) (.*)$/.exec(line)
    if (heading) {
      const level = Math.min(6, headingLevel + heading[1].length - 3)
      out.push(`<h${level}>${inlineHtml(heading[2])}</h${level}>`)
      i++
      continue
    }
    if (line.startsWith('|') && i + 1 < lines.length && isDelimiterRow(lines[i + 1])) {
      const rows: string[] = [line]
      const delimiter = lines[i + 1]
      i += 2
      while (i < lines.length && lines[i].startsWith('|')) rows.push(lines[i++])
      out.push(table(rows, delimiter))
      continue
    }
    if (/^ *- /.test(line)) {
      const items: string[] = []
      while (i < lines.length && lines[i].trim() !== '' && (/^ *- /.test(lines[i]) || /^ {2,}\S/.test(lines[i])))
        items.push(lines[i++])
      out.push(list(items))
      continue
    }
    const paragraph: string[] = []
    while (i < lines.length && lines[i].trim() !== '' && !startsBlock(lines, i)) paragraph.push(lines[i++].trim())
    out.push(`<p>${inlineHtml(paragraph.join(' '))}</p>`)
  }
  return out.join('\n')
}

/** True when line `i` starts a block other than a paragraph (a paragraph ends there). */
function startsBlock(lines: string[], i: number): boolean {
  const line = lines[i]
  if (/^`{3,}/.test(line) || /^#{1,6} /.test(line) || /^ *- /.test(line)) return true
  return line.startsWith('|') && i + 1 < lines.length && isDelimiterRow(lines[i + 1])
}

function isDelimiterRow(line: string): boolean {
  const cells = splitRow(line)
  return cells.length > 0 && cells.every((c) => /^\s*:?-+:?\s*$/.test(c))
}

/** The cells of a table row: split at every `|` that no backslash escapes, the outer pipes dropped. */
function splitRow(line: string): string[] {
  const cells: string[] = []
  let cell = ''
  const body = line.trim().replace(/^\|/, '')
  for (let i = 0; i < body.length; i++) {
    const ch = body[i]
    if (ch === '\\' && i + 1 < body.length) {
      cell += ch + body[++i]
    } else if (ch === '|') {
      cells.push(cell)
      cell = ''
    } else cell += ch
  }
  if (cell.trim() !== '') cells.push(cell)
  return cells
}

function table(rows: string[], delimiter: string): string {
  const align = splitRow(delimiter).map((c) => {
    const t = c.trim()
    return t.startsWith(':') && t.endsWith(':') ? 'center' : t.endsWith(':') ? 'right' : ''
  })
  const cellHtml = (tag: 'th' | 'td', text: string, j: number): string => {
    const status =
      tag === 'td' ? STATUS_CLASS.find(([mark]) => textSymbols(text.trim()).startsWith(`${mark} `)) : undefined
    const classes = [
      align[j] === 'right' ? 'num' : align[j] === 'center' ? 'mid' : '',
      status ? `st ${status[1]}` : ''
    ].filter((c) => c !== '')
    return `<${tag}${classes.length > 0 ? ` class="${classes.join(' ')}"` : ''}>${inlineHtml(text.trim())}</${tag}>`
  }
  const [head, ...body] = rows.map(splitRow)
  const width = head.length
  const pad = (cells: string[]): string[] =>
    [...cells, ...Array.from({ length: Math.max(0, width - cells.length) }, () => '')].slice(0, width)
  return [
    '<div class="table"><table>',
    `<thead><tr>${head.map((c, j) => cellHtml('th', c, j)).join('')}</tr></thead>`,
    `<tbody>${body
      .map(
        (r) =>
          `<tr>${pad(r)
            .map((c, j) => cellHtml('td', c, j))
            .join('')}</tr>`
      )
      .join('\n')}</tbody>`,
    '</table></div>'
  ].join('\n')
}

/**
 * `- ` items; an item indented by two or more spaces is a sub-item of the item before it (the report nests one
 * level: evidence under a next step); an indented line without a marker continues its item.
 */
function list(lines: string[]): string {
  const items: Array<{ text: string; children: string[] }> = []
  for (const line of lines) {
    const m = /^( *)- (.*)$/.exec(line)
    const last = items[items.length - 1]
    if (m === null) {
      if (last === undefined) items.push({ text: line.trim(), children: [] })
      else if (last.children.length > 0) last.children[last.children.length - 1] += ` ${line.trim()}`
      else last.text += ` ${line.trim()}`
    } else if (m[1].length >= 2 && last !== undefined) last.children.push(m[2])
    else items.push({ text: m[2], children: [] })
  }
  const li = (text: string, children: string[]): string =>
    `<li>${inlineHtml(text)}${children.length > 0 ? `<ul>${children.map((c) => li(c, [])).join('')}</ul>` : ''}</li>`
  return `<ul>${items.map((it) => li(it.text, it.children)).join('\n')}</ul>`
}

type Token =
  | { kind: 'text'; text: string }
  | { kind: 'html'; html: string }
  | { kind: 'strong' }
  | { kind: 'em'; open: boolean; close: boolean }

const space = (ch: string | undefined): boolean => ch === undefined || /\s/.test(ch)
const punctuation = (ch: string | undefined): boolean => ch !== undefined && /[\p{P}\p{S}]/u.test(ch)

/**
 * One line of inline Markdown as HTML: code spans (content escaped as is), backslash escapes, the entities
 * escape.ts writes, `**strong**`, `_emphasis_` (an underscore inside a word, as in `on_inconclusive`, is a
 * letter, as in CommonMark) and `[label](https://...)` links. Every other character is text, entity-escaped.
 */
export function inlineHtml(source: string): string {
  const tokens: Token[] = []
  let text = ''
  const flush = (): void => {
    if (text !== '') tokens.push({ kind: 'text', text })
    text = ''
  }
  let i = 0
  while (i < source.length) {
    const ch = source[i]
    if (ch === '\\' && i + 1 < source.length && PUNCTUATION.test(source[i + 1])) {
      text += source[i + 1]
      i += 2
    } else if (ch === '`') {
      let run = 1
      while (source[i + run] === '`') run++
      const close = closingRun(source, i + run, run)
      if (close < 0) {
        text += '`'.repeat(run)
        i += run
      } else {
        flush()
        tokens.push({ kind: 'html', html: `<code>${entities(source.slice(i + run, close))}</code>` })
        i = close + run
      }
    } else if (ch === '&' && ENTITY.test(source.slice(i, i + 6))) {
      const m = ENTITY.exec(source.slice(i, i + 6)) as RegExpExecArray
      text += DECODED[m[1]]
      i += m[0].length
    } else if (ch === '*' && source[i + 1] === '*') {
      flush()
      tokens.push({ kind: 'strong' })
      i += 2
    } else if (ch === '_') {
      const before = source[i - 1]
      const after = source[i + 1]
      const open = (i === 0 || space(before) || punctuation(before)) && !space(after)
      const close = i > 0 && !space(before) && (space(after) || punctuation(after))
      if (open || close) {
        flush()
        tokens.push({ kind: 'em', open, close })
      } else text += ch
      i++
    } else if (ch === '[') {
      const m = /^\[([^\]\n]*)\]\(([^()\s]*)\)/.exec(source.slice(i))
      if (m === null) {
        text += ch
        i++
      } else {
        flush()
        const label = inlineHtml(m[1])
        tokens.push({
          kind: 'html',
          html: SAFE_URL.test(m[2]) ? `<a href="${entities(m[2])}" rel="noopener noreferrer">${label}</a>` : label
        })
        i += m[0].length
      }
    } else {
      text += ch
      i++
    }
  }
  flush()
  return render(tokens)
}

/** Index of the next run of exactly `run` backticks at or after `from`, or -1. */
function closingRun(source: string, from: number, run: number): number {
  for (let j = from; j < source.length; j++) {
    if (source[j] !== '`') continue
    let k = 0
    while (source[j + k] === '`') k++
    if (k === run) return j
    j += k - 1
  }
  return -1
}

/** The tokens as HTML: strong markers pair in order, emphasis markers opener-to-closer; an unpaired one is text. */
function render(tokens: Token[]): string {
  const strong = tokens.flatMap((t, i) => (t.kind === 'strong' ? [i] : []))
  const paired = new Map<number, 'open' | 'close'>()
  for (let k = 0; k + 1 < strong.length; k += 2) {
    paired.set(strong[k], 'open')
    paired.set(strong[k + 1], 'close')
  }
  const openEm: number[] = []
  tokens.forEach((t, i) => {
    if (t.kind !== 'em') return
    if (t.close && openEm.length > 0) {
      paired.set(openEm.pop() as number, 'open')
      paired.set(i, 'close')
    } else if (t.open) openEm.push(i)
  })
  return tokens
    .map((t, i) => {
      if (t.kind === 'text') return entities(textSymbols(t.text))
      if (t.kind === 'html') return t.html
      const side = paired.get(i)
      const tag = t.kind === 'strong' ? 'strong' : 'em'
      if (side === 'open') return `<${tag}>`
      if (side === 'close') return `</${tag}>`
      return t.kind === 'strong' ? '**' : '_'
    })
    .join('')
}

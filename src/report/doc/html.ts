import { entities, esc, inlineText, symbolsText } from '../html/escape.js'
import { CODE_MAX, SAFE_URL } from '../../model/document.js'
import { spansMarkdown } from './markdown.js'
import type { Block, Inline, Item, Span } from '../../model/document.js'

/**
 * The HTML renderer of the report document (the page's sections of text and tables): the one place the
 * document's text is escaped for the page (html/escape.ts). The tags are the ones written here; a link is kept
 * only when its target is a plain https URL (anything else shows its label).
 */

/** What a Mermaid figure becomes: the page runs no script but its own, so the chart is not drawn here. */
const MERMAID_NOTE =
  '<p class="note">(A chart the Markdown report draws with Mermaid; its numbers are in the table.)</p>'

/** A table cell's status mark (its first word) and the class that colours it. */
const STATUS_CLASS: Array<[string, string]> = [
  ['✓', 'pass'],
  ['✗', 'fail'],
  ['⚠', 'inconclusive'],
  ['?', 'unknown']
]

function span(s: Span): string {
  switch (s.kind) {
    case 'text':
      return inlineText(s.text, s.max)
    case 'words':
      return symbolsText(s.text)
    case 'code':
      return `<code>${esc(s.text, s.max ?? CODE_MAX)}</code>`
    case 'strong':
      return `<strong>${spansHtml(s.spans)}</strong>`
    case 'em':
      return `<em>${spansHtml(s.spans)}</em>`
    case 'link':
      return SAFE_URL.test(s.href)
        ? `<a href="${entities(s.href)}" rel="noopener noreferrer">${spansHtml(s.spans)}</a>`
        : spansHtml(s.spans)
  }
}

/** A line of spans as HTML. */
export function spansHtml(spans: Inline): string {
  return spans.map(span).join('')
}

/** The status class of a body cell: the Markdown cell starts with a status mark (✅ pass, ⚠️ differs). */
function statusOf(cell: Inline): string | undefined {
  const md = symbolsText(spansMarkdown(cell).trim())
  return STATUS_CLASS.find(([mark]) => md.startsWith(`${mark} `))?.[1]
}

function tableHtml(b: Extract<Block, { kind: 'table' }>): string {
  const cell = (tag: 'th' | 'td', c: Inline, j: number): string => {
    const status = tag === 'td' ? statusOf(c) : undefined
    const align = b.align?.[j]
    const classes = [align === 'r' ? 'num' : align === 'c' ? 'mid' : '', status ? `st ${status}` : ''].filter(
      (x) => x !== ''
    )
    return `<${tag}${classes.length > 0 ? ` class="${classes.join(' ')}"` : ''}>${spansHtml(c)}</${tag}>`
  }
  const width = b.head.length
  const pad = (r: Inline[]): Inline[] =>
    [...r, ...Array.from({ length: Math.max(0, width - r.length) }, (): Inline => [])].slice(0, width)
  return [
    '<div class="table"><table>',
    `<thead><tr>${b.head.map((c, j) => cell('th', c, j)).join('')}</tr></thead>`,
    `<tbody>${b.rows
      .map(
        (r) =>
          `<tr>${pad(r)
            .map((c, j) => cell('td', c, j))
            .join('')}</tr>`
      )
      .join('\n')}</tbody>`,
    '</table></div>'
  ].join('\n')
}

function itemHtml(it: Item): string {
  const children = it.children ?? []
  const sub = children.length > 0 ? `<ul>${children.map((c) => `<li>${spansHtml(c)}</li>`).join('')}</ul>` : ''
  return `<li>${spansHtml(it.spans)}${sub}</li>`
}

/**
 * The blocks as HTML, one element a line. `headingLevel` is the level a `### ` headline becomes (the page's
 * sections are `<h2>`, so the report's level 3 is `<h3>` by default).
 */
export function toHtml(blocks: readonly Block[], headingLevel = 3): string {
  const out: string[] = []
  for (const b of blocks) {
    if (b.kind === 'headline') {
      const level = Math.min(6, headingLevel + b.level - 3)
      out.push(`<h${level}>${spansHtml(b.spans)}</h${level}>`)
    } else if (b.kind === 'paragraph') out.push(`<p>${b.lines.map(spansHtml).join(' ')}</p>`)
    else if (b.kind === 'table') out.push(tableHtml(b))
    else if (b.kind === 'figure')
      out.push(b.language === 'mermaid' ? MERMAID_NOTE : `<pre>${entities(b.lines.join('\n'))}</pre>`)
    else if (b.kind === 'list') {
      const more = b.more ? [`<li>and ${b.more} more</li>`] : []
      if (b.items.length > 0 || more.length > 0) out.push(`<ul>${[...b.items.map(itemHtml), ...more].join('\n')}</ul>`)
    } else out.push(`<details><summary>${spansHtml(b.summary)}</summary>\n${toHtml(b.body, headingLevel)}\n</details>`)
  }
  return out.join('\n')
}

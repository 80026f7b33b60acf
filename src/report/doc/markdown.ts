import { markdownTable } from 'markdown-table'
import { codeText, htmlText, inline } from '../escape.js'
import { CODE_MAX, SAFE_URL } from '../../model/document.js'
import type { Block, Inline, Item, Span } from '../../model/document.js'

/**
 * The Markdown renderer of the report document (PR comment, job summary): the one place the document's text is
 * escaped for GitHub Markdown (escape.ts `inline` for untrusted text; `htmlText` inside a `<summary>`, where
 * GitHub parses no Markdown). Each block is its lines and one blank line, the shape fit.ts cuts at.
 */

/** The longest run of backticks in `s`: a fence around it must be longer. */
function longestTicks(s: string): number {
  let longest = 0
  for (const m of s.matchAll(/`+/g)) longest = Math.max(longest, m[0].length)
  return longest
}

/** A code span whose fence no backtick inside can close. */
function codeSpan(s: string): string {
  const longest = longestTicks(s)
  const mark = '`'.repeat(longest + 1)
  return longest > 0 ? `${mark} ${s} ${mark}` : `${mark}${s}${mark}`
}

/** One span as Markdown; `cell`: in a table row, where GFM splits at a pipe even inside a code span. */
function span(s: Span, cell: boolean): string {
  switch (s.kind) {
    case 'text':
      return inline(s.text, s.max)
    case 'words':
      return s.text
    case 'code':
      return codeSpan(
        cell ? codeText(s.text, s.max ?? CODE_MAX).replace(/\|/g, '\\|') : codeText(s.text, s.max ?? CODE_MAX)
      )
    case 'strong':
      return `**${spansMarkdown(s.spans, cell)}**`
    case 'em':
      return `_${spansMarkdown(s.spans, cell)}_`
    case 'link':
      return SAFE_URL.test(s.href) ? `[${spansMarkdown(s.spans, cell)}](${s.href})` : spansMarkdown(s.spans, cell)
  }
}

/** A line of spans as Markdown. */
export function spansMarkdown(spans: Inline, cell = false): string {
  return spans.map((s) => span(s, cell)).join('')
}

/**
 * A line of spans that starts a line of the Markdown (a paragraph's line, a list item). When it starts with untrusted
 * text, a block marker there would make the line a list item (`- `, `+ `, `1. `, `1) `), a rule or a heading's
 * underline (`---`, `===`) or indented code, so its leading spaces are dropped (Markdown shows none) and the marker is
 * backslash-escaped. (`inline` makes `#`, `|`, `*`, `_`, `~` and backticks inert anywhere, and `>` unless blanks come before it.)
 */
function lineMarkdown(spans: Inline): string {
  const out = spansMarkdown(spans)
  // the span that starts the line as read (spans that render to nothing or to spaces come before it): untrusted
  // text, or a link, whose label is shown bare when its address is not safe
  const first = spans.find((s) => span(s, false).trim() !== '')?.kind
  if (first !== 'text' && first !== 'link') return out
  // a list marker; a rule (dashes with any spaces between them) or a setext underline; a `>` that `inline` left
  // raw because blanks came before it: each backslash-escaped once the blanks are gone
  return out
    .replace(/^[ \t]+/, '')
    .replace(/^(?:[-+](?=[ \t]|$)|-(?=[- \t]*$)|=(?=[= \t]*$)|>)/, '\\$&')
    .replace(/^(\d{1,9})([.)])(?=[ \t]|$)/, '$1\\$2')
}

/** A `<summary>`'s spans: raw HTML, where GitHub parses no Markdown (untrusted text through htmlText). */
function summaryHtml(spans: Inline): string {
  return spans
    .map((s) =>
      s.kind === 'text'
        ? htmlText(s.text, s.max)
        : s.kind === 'code'
          ? `<code>${htmlText(s.text, s.max ?? CODE_MAX)}</code>`
          : s.kind === 'words'
            ? s.text
            : summaryHtml(s.spans)
    )
    .join('')
}

/**
 * A fenced block of Unicode picture lines. The fence is one backtick longer than the longest run of backticks
 * in the lines, so no name can close it (every line also starts with a word or a space, never a fence).
 */
function fence(lines: string[], language: string): string[] {
  const mark = '`'.repeat(lines.reduce((m, line) => Math.max(m, longestTicks(line) + 1), 3))
  return [mark + language, ...lines, mark]
}

function item(it: Item): string[] {
  return [`- ${lineMarkdown(it.spans)}`, ...(it.children ?? []).map((c) => `  - ${lineMarkdown(c)}`)]
}

/** One block as Markdown lines (without the blank line after it). */
function blockLines(b: Block): string[] {
  switch (b.kind) {
    case 'headline':
      return [`${'#'.repeat(b.level)} ${spansMarkdown(b.spans)}`]
    case 'paragraph':
      return b.lines.map(lineMarkdown)
    case 'table': {
      const rows = [b.head, ...b.rows].map((r) => r.map((c) => spansMarkdown(c, true)))
      return [markdownTable(rows, { alignDelimiters: false, ...(b.align ? { align: b.align } : {}) })]
    }
    case 'figure':
      return fence(b.lines, b.language)
    case 'details':
      return [`<details><summary>${summaryHtml(b.summary)}</summary>`, '', ...toMarkdownLines(b.body), '</details>']
    case 'list':
      return [...b.items.flatMap(item), ...(b.more ? [`- and ${b.more} more`] : [])]
  }
}

/** The blocks as Markdown lines, each block followed by a blank line. */
export function toMarkdownLines(blocks: readonly Block[]): string[] {
  const out: string[] = []
  for (const b of blocks) {
    for (const line of blockLines(b)) out.push(line)
    if (!(b.kind === 'paragraph' && b.tight === true)) out.push('')
  }
  return out
}

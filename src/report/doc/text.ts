import { clean } from '../escape.js'
import { maxOf } from '../../util/extent.js'
import { CODE_MAX, type Block, type Inline, type Span, type Tone } from '../../model/document.js'

/**
 * The terminal renderer of the report document (`retrieval-gate gate` on a terminal or a pipe). No markup: a
 * headline is a plain line, a table aligned columns, a collapsed section its title and its body indented, a
 * bounded list its items and "and N more"; strong, emphasis and code are their text, a link its label. It is the
 * one place the document's text is made safe for a terminal ({@link terminalText}). Colour is optional: `paint`
 * (given by the caller only for a terminal without NO_COLOR) draws strong text bold, emphasis dim, a toned word in
 * its colour and a table's header row dim; without it the output is plain text.
 */

/** What colouring a renderer is given: a tone and the text to wrap (already safe). */
export type Paint = (tone: Tone | 'bold' | 'dim', s: string) => string

/**
 * Untrusted text for a terminal: control characters (ESC sequences could rewrite the screen or the clipboard),
 * bidi overrides and isolates removed, line breaks folded into one space, cut at `max` code points (escape.ts
 * `clean`, the rule every output shares).
 */
export function terminalText(s: string, max?: number): string {
  return clean(s, max)
}

const NO_PAINT: Paint = (_tone, s) => s

function span(s: Span, paint: Paint): string {
  switch (s.kind) {
    case 'text':
      return terminalText(s.text, s.max)
    case 'code':
      return terminalText(s.text, s.max ?? CODE_MAX)
    case 'words':
      return s.tone === undefined ? s.text : paint(s.tone, s.text)
    case 'strong':
      return paint('bold', spansText(s.spans, paint))
    case 'em':
      return paint('dim', spansText(s.spans, paint))
    case 'link':
      return spansText(s.spans, paint)
  }
}

/** A line of spans as terminal text. */
export function spansText(spans: Inline, paint: Paint = NO_PAINT): string {
  return spans.map((s) => span(s, paint)).join('')
}

/** Display width, counting code points (the report avoids wide and combining characters of its own). */
const width = (s: string): number => Array.from(s).length

/** A table as aligned columns: widths from the unpainted text, then each cell painted and padded. */
function columns(b: Extract<Block, { kind: 'table' }>, indent: string, paint: Paint): string[] {
  const all = [b.head, ...b.rows]
  const bare = all.map((r) => r.map((c) => spansText(c)))
  const widths = bare[0].map((_, j) => maxOf(bare.map((r) => width(r[j] ?? ''))))
  return all.map((r, i) => {
    const line = r
      .map((c, j) => {
        const pad = ' '.repeat(Math.max(0, widths[j] - width(bare[i][j])))
        return b.align?.[j] === 'r' ? pad + spansText(c, paint) : spansText(c, paint) + pad
      })
      .join('  ')
      .trimEnd()
    return i === 0 && line.trim() !== '' ? indent + paint('dim', line) : indent + line
  })
}

/** One block as terminal lines, each indented by `indent`. */
function blockLines(b: Block, indent: string, paint: Paint): string[] {
  switch (b.kind) {
    case 'headline':
      return [paint('bold', spansText(b.spans, paint))]
    case 'paragraph':
      return b.lines.map((line) => indent + spansText(line, paint))
    case 'figure':
      return b.lines.map((line) => `${indent}${line}`.trimEnd())
    case 'list': {
      const out: string[] = []
      for (const it of b.items) {
        out.push(`${indent}- ${spansText(it.spans, paint)}`)
        for (const c of it.children ?? []) out.push(paint('dim', `${indent}    ${spansText(c, paint)}`))
      }
      if (b.more) out.push(`${indent}- and ${b.more} more`)
      return out
    }
    case 'details':
      return [paint('bold', spansText(b.summary, paint)), ...toTextLines(b.body, indent, paint)]
    case 'table':
      return columns(b, indent, paint)
  }
}

/**
 * The blocks as terminal lines: paragraphs, lists, tables and pictures indented by `indent`, headlines and section
 * titles at the margin; a blank line between blocks, none after a `tight` paragraph (as in Markdown).
 */
export function toTextLines(blocks: readonly Block[], indent = '  ', paint: Paint = NO_PAINT): string[] {
  const out: string[] = []
  blocks.forEach((b, i) => {
    for (const line of blockLines(b, indent, paint)) out.push(line)
    const last = i === blocks.length - 1
    if (!last && !(b.kind === 'paragraph' && b.tight === true) && b.kind !== 'headline') out.push('')
  })
  return out
}

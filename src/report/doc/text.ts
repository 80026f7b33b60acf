import { plain } from '../escape.js'
import { maxOf } from '../../util/extent.js'
import { CODE_MAX, type Block, type Inline, type Span } from '../../model/document.js'

/**
 * The terminal renderer of the report document: the one place its text is made safe for a terminal (escape.ts
 * `plain`: control characters, ESC sequences and bidi overrides removed, cut at the span's `max`). No markup:
 * strong, emphasis and code are their text, a link its label.
 */

function span(s: Span): string {
  if (s.kind === 'text') return plain(s.text, s.max)
  if (s.kind === 'code') return plain(s.text, s.max ?? CODE_MAX)
  if (s.kind === 'words') return s.text
  return spansText(s.spans)
}

/** A line of spans as terminal text. */
export function spansText(spans: Inline): string {
  let out = ''
  for (const s of spans) out += span(s)
  return out
}

/** Display width, counting code points (the report avoids wide and combining characters of its own). */
const width = (s: string): number => Array.from(s).length

/** The blocks as terminal lines, each indented by `indent`; tables as aligned columns. */
export function toTextLines(blocks: readonly Block[], indent = '  '): string[] {
  const out: string[] = []
  for (const b of blocks) {
    if (b.kind === 'headline') out.push(spansText(b.spans))
    else if (b.kind === 'paragraph') for (const line of b.lines) out.push(indent + spansText(line))
    else if (b.kind === 'figure') for (const line of b.lines) out.push(`${indent}${line}`.trimEnd())
    else if (b.kind === 'list') {
      for (const it of b.items) {
        out.push(`${indent}- ${spansText(it.spans)}`)
        for (const c of it.children ?? []) out.push(`${indent}    ${spansText(c)}`)
      }
      if (b.more) out.push(`${indent}- and ${b.more} more`)
    } else if (b.kind === 'details') out.push(indent + spansText(b.summary), ...toTextLines(b.body, indent + '  '))
    else {
      const rows = [b.head, ...b.rows].map((r) => r.map(spansText))
      const widths = rows[0].map((_, j) => maxOf(rows.map((r) => width(r[j] ?? ''))))
      for (const r of rows)
        out.push((indent + r.map((c, j) => c + ' '.repeat(widths[j] - width(c))).join('  ')).trimEnd())
    }
  }
  return out
}

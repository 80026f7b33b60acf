/**
 * Untrusted text (query ids, query text, slice values, attribute names, metric and check names, file names:
 * in a pull request they come from the PR) made inert for each place a report puts it. One function per
 * context, because what is safe differs: a Markdown table cell, raw HTML (inside `<summary>`), a Mermaid
 * label, a terminal line.
 */

/** Longest untrusted text a table cell shows before it is cut with an ellipsis. */
export const MAX_CELL = 80

const ZWJ = '\u200d'
// C0/C1 controls (tab, CR, LF and the Unicode line separators are turned into spaces first), bidi marks,
// embeddings, overrides and isolates, the Arabic letter mark, BOM / zero-width no-break space, and the
// interlinear annotation and object replacement characters.
const UNSAFE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\ufeff\ufff9-\ufffc]/g
const BREAKS = /[\t\r\n\u0085\u2028\u2029]+/g

/**
 * Removes what must never reach any output (control characters, including the terminal's ESC, and bidi
 * overrides that reorder what a reviewer reads), folds line breaks into one space and cuts the text to
 * `max` code points (never splitting a surrogate pair), marking the cut with an ellipsis.
 */
export function clean(text: string, max = MAX_CELL): string {
  const s = String(text).replace(BREAKS, ' ').replace(UNSAFE, '')
  const chars = Array.from(s)
  return chars.length > max ? chars.slice(0, Math.max(0, max - 1)).join('') + '…' : s
}

/** Breaks GitHub's autolinks: @mention, #123 / owner/repo#123, GH-123, bare URLs and www. links. */
function defuseLinks(s: string): string {
  return s
    .replace(/@/g, `@${ZWJ}`)
    .replace(/#/g, `#${ZWJ}`)
    .replace(/\b(gh)-(?=\d)/gi, `$1-${ZWJ}`)
    .replace(/:\/\//g, `:${ZWJ}//`)
    .replace(/\b(www)\./gi, `$1${ZWJ}.`)
}

/**
 * Makes untrusted text inert in GitHub Markdown (a table cell or running text): no @mention, #123, GH-123
 * or URL autolink fires (a zero-width joiner is put after `@`, `#`, `GH-`, `:` of `://` and `www`), no HTML
 * or HTML comment survives (`<`, `>`, `&` become entities, so a planted `<!-- retrieval-gate:... -->`
 * marker is plain text), no `|` or newline breaks a table, no emphasis, code, link, strikethrough or math
 * syntax applies, no bidi override reorders the text, and the cell is cut at `max` code points.
 */
export function inline(text: string, max = MAX_CELL): string {
  return defuseLinks(
    clean(text, max)
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/([\\`*_~[\]|$!])/g, '\\$1')
  )
}

/**
 * Untrusted text inside raw HTML (a `<summary>` line): GitHub does not parse Markdown there, so backslash
 * escapes would show; entities are decoded, so `<`, `>`, `&` and quotes are entity-escaped, and mentions
 * and autolinks are still defused (GitHub applies them to HTML text too).
 */
export function htmlText(text: string, max = MAX_CELL): string {
  // Links are defused first: the entities written next contain '#', which must stay intact.
  return defuseLinks(clean(text, max))
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;')
}

/**
 * Untrusted text inside a Mermaid diagram (a label, a title, an axis category). Mermaid's own syntax
 * (`:` ends a Gantt task name, `#` starts a comment, `%%` a directive, `"` ends a quoted string, `;` a
 * statement) and HTML labels leave only a safe set: letters, digits, space and `_ . , + - / = ( ) @`;
 * anything else becomes `_`. Code blocks are not scanned for mentions, so `@` may stay.
 */
export function mermaidText(text: string, max = 48): string {
  const s = clean(text, max)
    .replace(/[^\p{L}\p{N} _.,+\-/=()@…]/gu, '_')
    .replace(/ {2,}/g, ' ')
    .trim()
  return s === '' ? '_' : s
}

/**
 * Untrusted text for a terminal: control characters (ESC sequences could rewrite the screen or the
 * clipboard) and bidi overrides removed, line breaks folded, cut at `max` code points.
 */
export function plain(text: string, max = MAX_CELL): string {
  return clean(text, max)
}

/** Longest untrusted text a table cell shows before it is cut with an ellipsis. */
export const MAX_CELL = 80

const ZWJ = '\u200d'
// C0/C1 controls (but tab, turned into a space below), bidi embeddings/overrides/isolates, BOM.
const UNSAFE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g

/**
 * Makes untrusted text (query ids, slice values, file names: they come from the pull request) inert in
 * GitHub Markdown: no @mention or #123 autolink fires, no HTML or HTML comment (which could plant a fake
 * sticky-comment marker) survives, no bidi override reorders the text, and no `|` or newline breaks a table.
 */
export function inline(text: string, max = MAX_CELL): string {
  let s = text.replace(UNSAFE, '').replace(/[\t\r\n\u2028\u2029]+/g, ' ')
  if (s.length > max) s = s.slice(0, max - 1) + '…'
  return s
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/\|/g, '\\|')
    .replace(/([\\`*_~[\]])/g, (m) => (m === '\\' ? '\\\\' : `\\${m}`))
    .replace(/@/g, `@${ZWJ}`)
    .replace(/#/g, `#${ZWJ}`)
}

import { byWord, clean, entities } from '../escape.js'

/**
 * Untrusted text (query ids and text, slice values, document ids, metric, check and file names) made inert in
 * the HTML page. One function serves every place the page puts text, because the page puts it only where the
 * same five entities make it inert: HTML text, a double-quoted attribute value, SVG `<text>` and `<title>`
 * (inline SVG is parsed by the HTML parser, and no text goes into a script, a style, a URL or an unquoted
 * attribute). Before escaping, the text is cleaned as in every report (src/report/escape.ts `clean`: control
 * characters and bidi marks removed, line breaks folded into a space, cut at `max` code points).
 */
export function esc(text: string, max = 120): string {
  return entities(clean(text, max))
}

/** Entity-escapes text that is already clean (our own words, numbers, RAW sentences after `clean`). */
export { entities }

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

/** Our own words (and clean text) on the page: the status emoji as text symbols, then entity-escaped. */
export function symbolsText(s: string): string {
  return entities(SYMBOLS.reduce((t, [re, to]) => t.replace(re, to), s))
}

/**
 * Untrusted running text on the page, as the PR comment shows it: cleaned and cut (as {@link esc}), a word
 * GitHub would link (an @mention, #123, a URL) in `<code>`, the status emoji as symbols, everything escaped.
 */
export function inlineText(text: string, max = 80): string {
  return byWord(clean(text, max), (w) => `<code>${entities(w)}</code>`, symbolsText)
}

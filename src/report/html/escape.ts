import { clean } from '../escape.js'

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
export function entities(s: string): string {
  return s
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;')
}

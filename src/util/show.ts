/**
 * Input values shown in messages and logs. Every byte of a file the pull request controls can reach a
 * refusal message, and the CLI's stderr / the action's log is read by the GitHub runner line by line: a
 * line that starts with `::` (after blanks) or holds `##[` anywhere is a workflow command (`::warning::`,
 * `::add-mask::`, `::stop-commands::`...). So a value is never printed raw: it is quoted, its control
 * characters, line separators and bidi marks are escaped (no raw newline or carriage return can start a new
 * line), `##[` is broken up, and it is cut to {@link MAX_SHOWN_CHARS} characters with an ellipsis and its
 * full length, so a 10 MB attribute value costs a short line, not a 10 MB message.
 *
 * Three layers use this module: {@link quote} where a message interpolates one input value, the
 * {@link sanitizeText} backstop on every field of an `InputError` (src/errors.ts), and {@link safeLines}
 * at the output boundaries (the CLI's stdout/stderr, the action's log calls).
 */

/** Longest part of an input value a message shows (characters, before escaping). */
export const MAX_SHOWN_CHARS = 100

/** Longest refusal (file, line, key, message and hint together) printed; the rest is cut with its length. */
export const MAX_ERROR_CHARS = 2000

/** Longest line the CLI writes to stderr or the action writes to its log (characters). */
export const MAX_LOG_LINE_CHARS = 4000

// One escape per character that may not appear raw in a log line: C0 controls (newline, carriage return,
// tab inside a value, ESC), DEL and C1 controls (U+0085 is a line break for some readers), U+2028/U+2029,
// the bidi marks, embeddings, overrides and isolates that reorder what a reviewer reads, and BOM.
// Tab and ESC are allowed by safeLines (reports are tab-separated or coloured), never inside a value.
const ESCAPED_IN_VALUE =
  /[\u0000-\u001f"\\\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g
const ESCAPED_IN_TEXT =
  /[\u0000-\u0008\u000a-\u001a\u001c-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff]/g
const SHORT: Record<string, string> = {
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
  '\b': '\\b',
  '\f': '\\f',
  '"': '\\"',
  '\\': '\\\\'
}

function unicodeEscape(c: string): string {
  return SHORT[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`
}

/** `s` cut to `max` UTF-16 units without splitting a surrogate pair. */
function cut(s: string, max: number): string {
  let end = Math.min(s.length, max)
  if (end < s.length && end > 0) {
    const last = s.charCodeAt(end - 1)
    if (last >= 0xd800 && last <= 0xdbff) end--
  }
  return s.slice(0, end)
}

/** A runner command prefix (`##[`) broken so the runner does not see it; the text still reads as `##[`. */
function breakCommandPrefix(s: string): string {
  return s.includes('##[') ? s.split('##[').join('#\\u0023[') : s
}

/**
 * One input value for a message: a JSON-style quoted string (`"q7"`, exactly what JSON.stringify gives for a
 * plain value), with control characters, line separators, bidi marks and lone surrogates escaped and `##[`
 * written `#\u0023[`; a longer value is cut at `max` characters and followed by its full length:
 * `"aaaa…" (10485760 characters)`. Non-strings are shown as JSON (numbers, booleans, null) under the same
 * rules. Linear in `max`, whatever the value's length.
 */
export function quote(value: unknown, max = MAX_SHOWN_CHARS): string {
  const s = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value))
  const shown = cut(s, max)
  const body = breakCommandPrefix(shown.replace(ESCAPED_IN_VALUE, unicodeEscape))
  const text = typeof value === 'string' ? `"${body}"` : body
  return shown.length < s.length
    ? `${typeof value === 'string' ? text.slice(0, -1) + '…"' : text + '…'} (${s.length} characters)`
    : text
}

/** The first `max` values, each {@link quote}d, comma-separated: the examples a refusal lists. */
export function quoteList(values: readonly unknown[], max: number): string {
  return values
    .slice(0, max)
    .map((v) => quote(v))
    .join(', ')
}

/**
 * An input value for a line of output where it usually reads best bare (a metric, an attribute, an id in a
 * list): the value itself when {@link quote} would change nothing but add the quotes, else {@link quote}'s form
 * (quoted, escaped, cut). So `recall@10` stays `recall@10`, while `a\nb` becomes `"a\nb"`: an input value can
 * never start a line, end one or carry a control character, whatever line it is written on.
 */
export function bare(value: string, max = MAX_SHOWN_CHARS): string {
  const quoted = quote(value, max)
  return quoted === `"${value}"` ? value : quoted
}

/**
 * The backstop for text that may hold input (a message, a hint, a file name, a rule key): control
 * characters (newline and carriage return included) and bidi marks escaped as `\n`, `\u001b`..., `##[`
 * broken, a `::` at the start cut off from it, and the whole cut to `max` characters with its full length.
 * Text that is already clean and short comes back unchanged.
 */
export function sanitizeText(text: string, max = MAX_ERROR_CHARS): string {
  const shown = cut(text, max)
  let s = breakCommandPrefix(shown.replace(ESCAPED_IN_TEXT, unicodeEscape).replace(/\u001b/g, '\\u001b'))
  s = s.replace(/^(\s*):(?=:)/, '$1\\u003a')
  return shown.length < text.length ? `${s}… (${text.length} characters)` : s
}

/**
 * Text about to be written to a log, made safe line by line: no line starts (after blanks) with `::`, none
 * holds `##[`, no carriage return or other control character survives except tab (and ESC when `colour`, for
 * the coloured terminal report), and with `maxLine` each line is cut with its full length. Line breaks the
 * gate wrote itself are kept. Clean text comes back byte-identical.
 */
export function safeLines(text: string, options: { maxLine?: number; colour?: boolean } = {}): string {
  const { maxLine, colour = false } = options
  if (!needsWork(text, maxLine)) return text
  return text
    .split('\n')
    .map((line) => {
      const shown = maxLine !== undefined ? cut(line, maxLine) : line
      let s = shown.replace(ESCAPED_IN_TEXT, unicodeEscape)
      if (!colour) s = s.replace(/\u001b/g, '\\u001b')
      s = breakCommandPrefix(s).replace(/^(\s*):(?=:)/, '$1\\u003a')
      return shown.length < line.length ? `${s}… (${line.length} characters)` : s
    })
    .join('\n')
}

/** A fast path: most output has nothing to escape, and reports can be megabytes. */
function needsWork(text: string, maxLine: number | undefined): boolean {
  if (text.includes('##[') || text.includes('::')) return true
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (
      (c < 0x20 && c !== 0x0a && c !== 0x09 && c !== 0x1b) ||
      (c >= 0x7f && c <= 0x9f) ||
      c === 0x061c ||
      c === 0x200e ||
      c === 0x200f ||
      c === 0x2028 ||
      c === 0x2029 ||
      (c >= 0x202a && c <= 0x202e) ||
      (c >= 0x2066 && c <= 0x2069) ||
      c === 0xfeff
    )
      return true
  }
  if (maxLine !== undefined) {
    let start = 0
    for (;;) {
      const nl = text.indexOf('\n', start)
      const end = nl < 0 ? text.length : nl
      if (end - start > maxLine) return true
      if (nl < 0) return false
      start = nl + 1
    }
  }
  return /\u001b/.test(text)
}

/**
 * One short log line for the action's `core.info` / `warning` / `setFailed`: {@link safeLines} with line
 * breaks kept (core escapes them in annotations; `info` writes raw) and each line cut to
 * {@link MAX_LOG_LINE_CHARS}.
 */
export function logText(text: string): string {
  return safeLines(text, { maxLine: MAX_LOG_LINE_CHARS })
}

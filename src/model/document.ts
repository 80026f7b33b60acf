/**
 * The report as a document: the sections return these typed blocks, and each output (Markdown, HTML, text)
 * draws them with its own renderer, which alone escapes (doc/markdown.ts, doc/html.ts, doc/text.ts). Text is a
 * list of spans, never a pre-escaped string, so no section knows the syntax of any output.
 */

/**
 * Inline text. `text` is untrusted (it may come from the pull request): each renderer cleans it, cuts it at
 * `max` code points and escapes it for its output. `words` are the report's own words and numbers (no syntax of
 * any output in them), shown as they are. `code` is code-like text (a rules key, a digest), shown as code.
 */
export type Span =
  | { kind: 'text'; text: string; max?: number }
  | { kind: 'words'; text: string; tone?: Tone }
  | { kind: 'code'; text: string; max?: number }
  | { kind: 'strong'; spans: Span[] }
  | { kind: 'em'; spans: Span[] }
  | { kind: 'link'; href: string; spans: Span[] }

/**
 * How a terminal may colour the report's own words (a status: pass green, fail red, inconclusive yellow); the
 * Markdown and HTML renderers show the words alone.
 */
export type Tone = 'pass' | 'fail' | 'inconclusive'

/** Longest code span before it is cut (a sha256 is 64). */
export const CODE_MAX = 200

/** One line of inline text. */
export type Inline = Span[]

/** A table column's alignment: left, right (numbers), centre. */
export type Align = 'l' | 'r' | 'c'

/** A list item, with sub-items one level deep (the evidence under a next step). */
export interface Item {
  spans: Inline
  children?: Inline[]
}

/**
 * A block of the report. A paragraph's lines read as one paragraph (joined by a space where lines do not break);
 * a `tight` paragraph has no blank line after it in Markdown (a list right under its lead-in line). A list an
 * answer can grow is bounded: its first items, and `more` counts the rest (every renderer writes "and N more").
 */
export type Block =
  | { kind: 'headline'; level: number; spans: Inline }
  | { kind: 'paragraph'; lines: Inline[]; tight?: boolean }
  | { kind: 'table'; head: Inline[]; rows: Inline[][]; align?: Align[]; compact?: boolean }
  | { kind: 'figure'; lines: string[]; language: string }
  | { kind: 'details'; summary: Inline; body: Block[] }
  | { kind: 'list'; items: Item[]; more?: number }

/** Untrusted text, cut at `max` code points (80 unless told) by every renderer. */
export const text = (s: string, max?: number): Span =>
  max === undefined ? { kind: 'text', text: s } : { kind: 'text', text: s, max }
/** The report's own words. */
export const words = (s: string): Span => ({ kind: 'words', text: s })
/** The report's own words in a tone (a status word a terminal colours). */
export const toned = (s: string, tone: Tone): Span => ({ kind: 'words', text: s, tone })
/** Code-like text (a rules key, a digest), cleaned and cut at `max` (200 unless told) like any text. */
export const code = (s: string, max?: number): Span =>
  max === undefined ? { kind: 'code', text: s } : { kind: 'code', text: s, max }
/** Strong emphasis. */
export const strong = (...spans: Span[]): Span => ({ kind: 'strong', spans })
/** Emphasis. */
export const em = (...spans: Span[]): Span => ({ kind: 'em', spans })

/** A paragraph of one line. */
export const paragraph = (...spans: Span[]): Block => ({ kind: 'paragraph', lines: [spans] })
/** A table: its header row and rows of cells. */
export const table = (head: Inline[], rows: Inline[][], align?: Align[]): Block =>
  align === undefined ? { kind: 'table', head, rows } : { kind: 'table', head, rows, align }
/** A row of own-words cells (a header row). */
export const cells = (...labels: string[]): Inline[] => labels.map((l) => [words(l)])
/** A table row: a string is the report's own words, a span is itself (untrusted text: `text(...)`). */
export const row = (...xs: Array<string | Span>): Inline[] => xs.map((x) => (typeof x === 'string' ? [words(x)] : [x]))
/** A picture of our own lines in a fenced block, Unicode unless told (the renderer makes the fence longer than any backtick run in it). */
export const figure = (lines: string[], language = 'text'): Block => ({ kind: 'figure', language, lines })
/** Items in one line, `, ` between them ("segment, category"): our words between untrusted names. */
export const commas = (items: Inline[]): Inline => items.flatMap((it, i) => (i === 0 ? it : [words(', '), ...it]))
/** A list of one-line items. */
export const list = (...items: Inline[]): Block => ({ kind: 'list', items: items.map((spans) => ({ spans })) })

/**
 * The link targets a report may carry: https, a host, and a path of URL-safe characters only (no quote, bracket,
 * parenthesis, pipe or space), so no renderer's syntax can be broken by one. A renderer shows a link whose target
 * fails it as its label alone.
 */
export const SAFE_URL = /^https:\/\/[A-Za-z0-9.-]+(?::[0-9]+)?\/[A-Za-z0-9._~%/?=&#:+-]*$/

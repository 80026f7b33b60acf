/**
 * Untrusted text (query ids, query text, slice values, attribute names, metric and check names, file names:
 * in a pull request they come from the PR) made inert for each place a report puts it. One function per
 * context, because what is safe differs: a Markdown table cell, raw HTML (inside `<summary>`), a code block (the
 * terminal's is doc/text.ts `terminalText`, on {@link clean}). (Pictures take no escaping of their own: the Unicode
 * ones sit in code blocks, which parse nothing, and the Mermaid one carries no name from the inputs.)
 */

/** Longest untrusted text a table cell shows before it is cut with an ellipsis. */
const MAX_CELL = 80

// C0/C1 controls (tab, CR, LF and the Unicode line separators are turned into spaces first), bidi marks,
// embeddings, overrides and isolates, the Arabic letter mark, BOM / zero-width no-break space, and the
// interlinear annotation and object replacement characters.
const UNSAFE =
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\ufeff\ufff9-\ufffc]/g
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

/**
 * A word GitHub could turn into a link: an @mention (also `org/team`, an e-mail address), a #123 or
 * owner/repo#123 reference, GH-123, a URL (`://`) or a www. link. Words are maximal runs of characters other
 * than white space and ` | < > & (those are escaped on their own), so a linkish word can be shown as a code
 * span with a single-backtick fence: GitHub neither autolinks nor mentions inside code, and the text a
 * reader copies is exactly the text given (no invisible character is inserted).
 */
const WORD = /[^\s`|<>&]+/g
const LINKISH = /[@#]|gh-\d|:\/\/|www\./i
/** Sentence punctuation that ends a word without being part of the name. */
const TRAILING = new Set(['.', ',', ';', ':', '!', '?', ')'])

/** `word` without its trailing sentence punctuation (a loop: linear in the word's length). */
function trimTrailing(word: string): string {
  let end = word.length
  while (end > 0 && TRAILING.has(word[end - 1])) end--
  return word.slice(0, end)
}

/**
 * Markdown-escapes text that is not linkish (entities for HTML, backslashes for Markdown syntax). A `<` followed
 * by a space or tab, and a `>` after one, stay as typed: no HTML tag, comment, declaration or autolink can start
 * with `< ` (each needs a non-space character right after the `<`), and a `>` mid-line closes nothing that was not
 * opened, so `p < 0.050` reads the same in the raw Markdown (a pipe, a file viewer) as rendered, where `p &lt;
 * 0.050` showed its entity. Every other `<` and `>` is an entity: `<!--`, `<b>`, `<https://...>` stay inert.
 */
function escapeMarkdown(s: string): string {
  return s
    .replace(/&/g, '&amp;')
    .replace(/<(?![ \t])/g, '&lt;')
    .replace(/(?<![ \t])>/g, '&gt;')
    .replace(/([\\`*_~[\]|$!])/g, '\\$1')
}

/** Entity-escapes text for raw HTML (a `<summary>` here, the page in html/): the five entities that make it inert. */
export function entities(s: string): string {
  return s
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;')
}

/** Applies `code` to every linkish word of `s` and `other` to the text between them (each output's escape uses it). */
export function byWord(s: string, code: (word: string) => string, other: (text: string) => string): string {
  let out = ''
  let last = 0
  for (const m of s.matchAll(WORD)) {
    if (!LINKISH.test(m[0])) continue
    // Sentence punctuation after a name ("recall@10:", "#12.") stays outside the code span.
    const core = trimTrailing(m[0])
    const word = LINKISH.test(core) ? core : m[0]
    const at = m.index ?? 0
    out += other(s.slice(last, at)) + code(word)
    last = at + word.length
  }
  return out + other(s.slice(last))
}

/**
 * Makes untrusted text inert in GitHub Markdown (a table cell or running text): every word that could fire
 * an @mention, #123 / owner/repo#123 / GH-123 reference or URL autolink is a code span (`recall@10`,
 * `@octocat`: shown and copied exactly as given, linked by nothing), no HTML or HTML comment survives
 * (`&` and every `<`, `>` that could open or close a tag become entities, so a planted `<!-- retrieval-gate:...
 * -->` marker is plain text; `p < 0.05` stays as typed), no `|` or
 * newline breaks a table, no emphasis, code, link, strikethrough or math syntax applies, no bidi override
 * reorders the text, and the text is cut at `max` code points.
 */
export function inline(text: string, max = MAX_CELL): string {
  return byWord(clean(text, max), (w) => `\`${w}\``, escapeMarkdown)
}

/**
 * Untrusted text inside raw HTML (a `<summary>` line): GitHub does not parse Markdown there, so backslash
 * escapes would show; entities are decoded, so `<`, `>`, `&` and quotes are entity-escaped, and linkish
 * words are put in `<code>` (GitHub applies mentions and autolinks to HTML text too, but not inside code).
 */
export function htmlText(text: string, max = MAX_CELL): string {
  // A backtick is entity-escaped too: inside HTML it is plain text, but a reader (or a renderer) must never see
  // a code span an input opened.
  const safe = (t: string): string => entities(t).replace(/`/g, '&#96;')
  return byWord(clean(text, max), (w) => `<code>${safe(w)}</code>`, safe)
}

/**
 * Untrusted text inside a fenced code block (the Unicode pictures): a code block parses nothing (no Markdown,
 * no HTML, no mention, no link), so the text stays as typed (`%`, `_`, `*`, `@`, `#`, any script), after
 * {@link clean}. One exception: an HTML comment opener `<!--` becomes `<!- -`, because the sticky comment is
 * found by its `<!-- retrieval-gate:... -->` marker in the raw body, and no input may plant one, even in code.
 * (A fence cannot be closed from inside: the renderer makes each fence longer than any backtick run.)
 */
export function codeText(text: string, max = MAX_CELL): string {
  return clean(text, max).replace(/<!--/g, '<!- -')
}

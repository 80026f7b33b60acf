import { MAX_ERROR_CHARS, MAX_SHOWN_CHARS, quote, sanitizeText } from './util/show.js'

/**
 * Unusable input is the one thing the gate raises as an exception: a rule violation is a verdict (a value),
 * but a file that cannot be read honestly cannot be gated. Every such error says where (file and line, or a
 * rule key or query id) and what to do, so the CLI and the action can print it without a stack trace and
 * exit with code 2.
 */
export interface Where {
  /** The file as the user named it. */
  file?: string
  /** 1-based line number in that file. */
  line?: number
  /** A rule key path such as `checks[2].non_inferior.margin`. */
  key?: string
  /** A query id the problem is about. */
  queryId?: string
}

/**
 * What kind of refusal an error is, for the few callers that act on it (a missing workspace file falls back to
 * the working directory): a caller branches on this code, never on the message text, which is for people and
 * may be reworded.
 */
export type InputErrorCode = 'not_found'

/** Unusable input: the CLI exits 2 and the action fails, printing `toString()` and nothing else. */
export class InputError extends Error {
  readonly where: Where
  /** What is wrong, without the place and the hint (a job summary shows the three apart). */
  readonly problem: string
  readonly hint: string | undefined
  /** Set where a caller may need to branch on the kind of refusal; undefined for every other refusal. */
  readonly code: InputErrorCode | undefined

  constructor(where: Where, message: string, hint?: string, options: { code?: InputErrorCode } = {}) {
    super(formatInputError(where, message, hint))
    this.name = 'InputError'
    this.where = where
    this.problem = message
    this.hint = hint
    this.code = options.code
  }

  /** The problem and the hint without the place: the refusal as another refusal's detail or under another place. */
  get detail(): string {
    return this.hint ? `${this.problem}. ${this.hint}` : this.problem
  }
}

/** Longest file name or rule key shown in a refusal (characters; the rest is cut with its length). */
const MAX_PLACE_CHARS = 240

/**
 * `file:line: [key] message (query q7). hint` — the shape every refusal is printed in. Every part may hold
 * input (a file name, a key or id from the PR's files), so each is escaped and cut here whatever the caller
 * did (src/util/show.ts): the refusal is one line, holds no control character, never starts a workflow
 * command, and is at most {@link MAX_ERROR_CHARS} characters.
 */
export function formatInputError(where: Where, message: string, hint?: string): string {
  let place = ''
  if (where.file !== undefined) place += sanitizeText(where.file, MAX_PLACE_CHARS)
  // line 0 is no line (a Parquet row, a computed row): the key or query id says where instead
  if (where.line !== undefined && where.line > 0) place += `:${where.line}`
  if (where.key !== undefined)
    place += place ? ` (${sanitizeText(where.key, MAX_PLACE_CHARS)})` : sanitizeText(where.key, MAX_PLACE_CHARS)
  let text = place ? `${place}: ${message}` : message
  if (
    where.queryId !== undefined &&
    !message.includes(quote(where.queryId)) &&
    !(where.queryId.length <= MAX_SHOWN_CHARS && message.includes(where.queryId))
  ) {
    text += ` (query ${quote(where.queryId)})`
  }
  if (hint) text += `. ${hint}`
  return sanitizeText(text, MAX_ERROR_CHARS)
}

/** True for errors the user can act on (as opposed to a bug in the gate). */
export function isInputError(error: unknown): error is InputError {
  return error instanceof InputError
}

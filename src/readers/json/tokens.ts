import { parseScoreBytes } from '../score.js'

/**
 * The one JSON tokenizer: JSON's tokens lexed straight from bytes, `bytes[i..end)`, without a decoded string or a
 * regular expression. Both streaming readers use it: the JSON Lines fast path (src/readers/json/flat-record.ts,
 * one line at a time) and the streamed `{outer: {inner: number}}` documents of ranx and pytrec_eval
 * (src/readers/json/nested.ts, a window of the file at a time). Each function takes only what it fully
 * understands and says so by its return value, so a caller falls back to its slower path (or to the document
 * parser, src/readers/json/document.ts) for anything else and gets the same value or the same refusal.
 */

/** The index after JSON's white space (space, tab, LF, CR) from `i`, at most `end`. */
export function skipSpace(bytes: Buffer, i: number, end: number): number {
  while (i < end) {
    const c = bytes[i]
    if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) break
    i++
  }
  return i
}

/** {@link plainStringEnd}: the string holds a byte the plain path does not read (an escape, a control or non-ASCII byte). */
export const NOT_PLAIN = -1

/** {@link plainStringEnd}: `end` came before the closing quote. */
export const CUT = -2

/**
 * The index of the closing quote of a string whose text starts at `i` (after its opening quote), when every byte
 * before it is printable ASCII without a backslash: its text is then `latin1(bytes[i..closing))`, exactly what
 * JSON.parse gives. {@link NOT_PLAIN} or {@link CUT} otherwise.
 */
export function plainStringEnd(bytes: Buffer, i: number, end: number): number {
  for (; i < end; i++) {
    const c = bytes[i]
    if (c === 0x22) return i
    if (c === 0x5c || c < 0x20 || c > 0x7e) return NOT_PLAIN
  }
  return CUT
}

const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39

/** The end of a JSON number at `i` (RFC 8259: -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?), or -1. */
export function numberEnd(bytes: Buffer, i: number, end: number): number {
  if (bytes[i] === 0x2d) i++
  if (i >= end) return -1
  if (bytes[i] === 0x30) i++
  else if (bytes[i] >= 0x31 && bytes[i] <= 0x39) while (i < end && isDigit(bytes[i])) i++
  else return -1
  if (i < end && bytes[i] === 0x2e) {
    i++
    if (i >= end || !isDigit(bytes[i])) return -1
    while (i < end && isDigit(bytes[i])) i++
  }
  if (i < end && (bytes[i] === 0x65 || bytes[i] === 0x45)) {
    i++
    if (i < end && (bytes[i] === 0x2b || bytes[i] === 0x2d)) i++
    if (i >= end || !isDigit(bytes[i])) return -1
    while (i < end && isDigit(bytes[i])) i++
  }
  return i
}

/**
 * The double of a JSON number already checked by {@link numberEnd}: the number JSON.parse gives. Plain decimals
 * (every per-query metric value, most scores) take the score parser's exact fast path (src/readers/score.ts,
 * Clinger 1990: the same double as a correctly rounded parse); anything else goes through Number(), which reads
 * a JSON number as JSON.parse does.
 */
export function numberValue(bytes: Buffer, from: number, to: number): number {
  return parseScoreBytes(bytes, from, to, (b, start, end) => Number((b as Buffer).toString('latin1', start, end)))
}

/** The words JSON spells its literals with. */
export const TRUE = Buffer.from('true')
export const FALSE = Buffer.from('false')
export const NULL = Buffer.from('null')

/** True when `word` is at `bytes[i..)`, within `end`. */
export function matchesWord(bytes: Buffer, i: number, end: number, word: Buffer): boolean {
  if (end - i < word.length) return false
  for (let k = 0; k < word.length; k++) if (bytes[i + k] !== word[k]) return false
  return true
}

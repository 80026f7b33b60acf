/**
 * A fast path for the commonest JSON Lines record, a flat object of ASCII keys and scalar values
 * (`{"query_id": "q1", "recall@10": 0.5, "segment": "new"}`), parsed straight from the line's bytes: no
 * decoded line, no object per line, no second scan for repeated keys. At a million rows per side the general
 * path (decode, JSON.parse, the repeated-key scan of json-strict.ts) was about 3 s of a 16 s run.
 *
 * It accepts only what it fully understands and what JSON.parse would accept with the same result, and
 * returns false for anything else (an escape, a byte above 0x7f, a nested value, an array-index key, a
 * repeated key, any syntax error), so the caller takes the general path, which gives the same values or
 * the same refusal as before. Its acceptance is tested against JSON.parse on generated lines
 * (__tests__/readers/flat-json.test.ts).
 */

/** Most members a line may have on the fast path (more: the general path). */
const MAX_MEMBERS = 64

/** Most distinct key strings kept for reuse across lines (a file inventing keys on every line gets no more). */
const MAX_CACHED_KEYS = 64

/** Longest key kept for reuse, in bytes: field names are short, and a 16 MiB key must not be kept 64 times over. */
const MAX_CACHED_KEY_BYTES = 256

/** The members of one flat line, in the order of Object.keys on the parsed object (no array-index keys, so text order). */
export class FlatRecord {
  /** Members read: keys[0..size) and values[0..size). */
  size = 0
  readonly keys: string[] = []
  readonly values: Array<string | number | boolean | null> = []
  private readonly cache: Array<{ bytes: Buffer; text: string }> = []

  /**
   * Parses `bytes[start..end)` as one flat JSON object into this record; false (the record's content then
   * undefined) when the line is not one this path reads.
   */
  parse(bytes: Buffer, start: number, end: number): boolean {
    this.size = 0
    let i = skipSpace(bytes, start, end)
    if (i >= end || bytes[i] !== 0x7b) return false
    i = skipSpace(bytes, i + 1, end)
    if (i < end && bytes[i] === 0x7d) return skipSpace(bytes, i + 1, end) === end
    for (;;) {
      if (this.size === MAX_MEMBERS) return false
      if (i >= end || bytes[i] !== 0x22) return false
      const keyEnd = stringEnd(bytes, i + 1, end)
      if (keyEnd < 0) return false
      const key = this.keyOf(bytes, i + 1, keyEnd)
      if (key === undefined) return false
      i = skipSpace(bytes, keyEnd + 1, end)
      if (i >= end || bytes[i] !== 0x3a) return false
      i = skipSpace(bytes, i + 1, end)
      if (i >= end) return false
      const c = bytes[i]
      let value: string | number | boolean | null
      if (c === 0x22) {
        const valueEnd = stringEnd(bytes, i + 1, end)
        if (valueEnd < 0) return false
        value = bytes.toString('latin1', i + 1, valueEnd)
        i = valueEnd + 1
      } else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
        const numberEnd = jsonNumberEnd(bytes, i, end)
        if (numberEnd < 0) return false
        value = numberValue(bytes, i, numberEnd)
        i = numberEnd
      } else if (matches(bytes, i, end, TRUE)) {
        value = true
        i += 4
      } else if (matches(bytes, i, end, FALSE)) {
        value = false
        i += 5
      } else if (matches(bytes, i, end, NULL)) {
        value = null
        i += 4
      } else return false
      for (let k = 0; k < this.size; k++) if (this.keys[k] === key) return false
      this.keys[this.size] = key
      this.values[this.size] = value
      this.size++
      i = skipSpace(bytes, i, end)
      if (i >= end) return false
      if (bytes[i] === 0x2c) {
        i = skipSpace(bytes, i + 1, end)
        continue
      }
      if (bytes[i] !== 0x7d) return false
      return skipSpace(bytes, i + 1, end) === end
    }
  }

  /**
   * The key of bytes [from, to), reusing the string of an earlier line with the same bytes (keys repeat on
   * every line); undefined for an array-index key ("0", "17"), which Object.keys would put first.
   */
  private keyOf(bytes: Buffer, from: number, to: number): string | undefined {
    if (isArrayIndexLike(bytes, from, to)) return undefined
    const guess = this.cache[this.size]
    if (guess !== undefined && sameBytes(guess.bytes, bytes, from, to)) return guess.text
    for (const entry of this.cache) if (sameBytes(entry.bytes, bytes, from, to)) return entry.text
    const text = bytes.toString('latin1', from, to)
    if (this.cache.length < MAX_CACHED_KEYS && to - from <= MAX_CACHED_KEY_BYTES) this.cache.push({ bytes: Buffer.from(bytes.subarray(from, to)), text })
    return text
  }
}

const TRUE = Buffer.from('true')
const FALSE = Buffer.from('false')
const NULL = Buffer.from('null')

/** JSON's four white-space bytes. */
function skipSpace(bytes: Buffer, i: number, end: number): number {
  while (i < end) {
    const c = bytes[i]
    if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) break
    i++
  }
  return i
}

/** The index of the closing quote of a string starting at `i` (after its opening quote), or -1 for one this path does not read (an escape, a control or non-ASCII byte, no closing quote). */
function stringEnd(bytes: Buffer, i: number, end: number): number {
  for (; i < end; i++) {
    const c = bytes[i]
    if (c === 0x22) return i
    if (c === 0x5c || c < 0x20 || c > 0x7e) return -1
  }
  return -1
}

/** A key that is a canonical array index ("0", "42"): JSON.parse's object lists those first, so the general path keeps the order. */
function isArrayIndexLike(bytes: Buffer, from: number, to: number): boolean {
  if (to === from) return false
  for (let i = from; i < to; i++) if (bytes[i] < 0x30 || bytes[i] > 0x39) return false
  return true
}

function sameBytes(a: Buffer, bytes: Buffer, from: number, to: number): boolean {
  if (a.length !== to - from) return false
  for (let i = 0; i < a.length; i++) if (a[i] !== bytes[from + i]) return false
  return true
}

function matches(bytes: Buffer, i: number, end: number, word: Buffer): boolean {
  if (end - i < word.length) return false
  for (let k = 0; k < word.length; k++) if (bytes[i + k] !== word[k]) return false
  return true
}

const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39

/** The end of a JSON number at `i` (RFC 8259: -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?), or -1. */
function jsonNumberEnd(bytes: Buffer, i: number, end: number): number {
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

/** Powers of ten that are exact doubles (10^0 .. 10^22). */
const POW10 = Array.from({ length: 23 }, (_, k) => Number(`1e${k}`))

/**
 * The double of a JSON number already checked by {@link jsonNumberEnd}: the number JSON.parse gives.
 * Decimals of at most 15 significant digits without an exponent (every per-query metric value) take the
 * exact fast path: the digits as an integer below 2^53 divided by an exact power of ten is one correctly
 * rounded operation (Clinger 1990), the same double as a correctly rounded parse. Anything else goes
 * through Number(), which reads a JSON number as JSON.parse does.
 */
function numberValue(bytes: Buffer, from: number, to: number): number {
  let i = from
  const negative = bytes[i] === 0x2d
  if (negative) i++
  let digits = 0
  let mantissa = 0
  let scale = 0
  let afterPoint = false
  for (; i < to; i++) {
    const c = bytes[i]
    if (c === 0x2e) {
      afterPoint = true
      continue
    }
    if (!isDigit(c)) return Number(bytes.toString('latin1', from, to))
    if (mantissa !== 0 || c !== 0x30) digits++
    mantissa = mantissa * 10 + (c - 0x30)
    if (afterPoint) scale++
  }
  if (digits > 15 || scale > 22) return Number(bytes.toString('latin1', from, to))
  const value = scale === 0 ? mantissa : mantissa / POW10[scale]
  return negative ? -value : value
}

import { FALSE, matchesWord, NULL, numberEnd, numberValue, plainStringEnd, skipSpace, TRUE } from './tokens.js'

/**
 * A fast path for the commonest JSON Lines record, a flat object of ASCII keys and scalar values
 * (`{"query_id": "q1", "recall@10": 0.5, "segment": "new"}`), parsed straight from the line's bytes: no
 * decoded line, no object per line, no second scan for repeated keys. At a million rows per side the general
 * path (decode, JSON.parse, the repeated-key scan of document.ts) was about 3 s of a 16 s run.
 *
 * It accepts only what it fully understands and what JSON.parse would accept with the same result, and
 * returns false for anything else (an escape, a byte above 0x7f, a nested value, an array-index key, a
 * repeated key, any syntax error), so the caller takes the general path, which gives the same values or
 * the same refusal as before. Its acceptance is tested against JSON.parse on generated lines
 * (__tests__/property/flat-json.test.ts). The tokens are lexed by the one JSON tokenizer (./tokens.ts).
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
      const keyEnd = plainStringEnd(bytes, i + 1, end)
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
        const valueEnd = plainStringEnd(bytes, i + 1, end)
        if (valueEnd < 0) return false
        value = bytes.toString('latin1', i + 1, valueEnd)
        i = valueEnd + 1
      } else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
        const to = numberEnd(bytes, i, end)
        if (to < 0) return false
        value = numberValue(bytes, i, to)
        i = to
      } else if (matchesWord(bytes, i, end, TRUE)) {
        value = true
        i += 4
      } else if (matchesWord(bytes, i, end, FALSE)) {
        value = false
        i += 5
      } else if (matchesWord(bytes, i, end, NULL)) {
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
    if (this.cache.length < MAX_CACHED_KEYS && to - from <= MAX_CACHED_KEY_BYTES)
      this.cache.push({ bytes: Buffer.from(bytes.subarray(from, to)), text })
    return text
  }
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

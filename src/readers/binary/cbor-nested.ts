import { quote } from '../../util/show.js'

/**
 * A CBOR (RFC 8949) decoder for exactly one shape: a map of text keys to maps of text keys to numbers,
 * `{query_id: {doc_id: score}}`, which is what ranx's `save_lz4` hands to `cbor2.dumps` (a run's or qrels'
 * `to_dict()`). Shape-specific and iterative, so hostile input cannot nest it into deep recursion: anything other
 * than that shape (an array, a tag, bytes, an indefinite length, a third level) is refused with its byte offset.
 * Keys are capped like the JSON reader's (src/readers/json/nested.ts) and repeated keys are refused at
 * both levels, as in every JSON the gate reads. Numbers: integers (major types 0 and 1) and half, single and double
 * floats (cbor2 writes a Python float as a double, NaN and infinities as halves, which the caller refuses).
 */

/** Why the CBOR cannot be read as `{key: {key: number}}` (the caller adds the file and what to do). */
export class CborShapeError extends Error {}

/** Receives the entries in the order they are stored; `ordinal` counts inner entries from 1 (the "line" of a binary file). */
export interface CborNestedHandler {
  outer(key: string, ordinal: number): void
  entry(key: string, value: number, ordinal: number): void
}

const utf8 = new TextDecoder('utf-8', { fatal: true })

const MAJOR_NAMES = [
  'an unsigned integer',
  'a negative integer',
  'a byte string',
  'a text string',
  'an array',
  'a map',
  'a tag',
  'a simple value or float'
]

/** Decodes an IEEE 754 half-precision float. */
function half(bits: number): number {
  const exp = (bits >>> 10) & 0x1f
  const mant = bits & 0x3ff
  const sign = bits & 0x8000 ? -1 : 1
  if (exp === 0) return sign * mant * 2 ** -24
  if (exp === 31) return mant === 0 ? sign * Infinity : NaN
  return sign * (1 + mant / 1024) * 2 ** (exp - 15)
}

class Reader {
  pos = 0
  private readonly view: DataView

  constructor(private readonly b: Uint8Array) {
    this.view = new DataView(b.buffer, b.byteOffset, b.byteLength)
  }

  need(n: number): void {
    if (this.pos + n > this.b.length) throw new CborShapeError(`is cut short at byte ${this.pos}`)
  }

  /** Reads an item head: its major type and argument (lengths and integers; float bits for major 7). */
  head(): { major: number; info: number; arg: number; at: number } {
    const at = this.pos
    this.need(1)
    const first = this.b[this.pos++]
    const major = first >>> 5
    const info = first & 31
    let arg: number
    if (info < 24) arg = info
    else if (info === 24) {
      this.need(1)
      arg = this.b[this.pos]
      this.pos += 1
    } else if (info === 25) {
      this.need(2)
      arg = this.view.getUint16(this.pos)
      this.pos += 2
    } else if (info === 26) {
      this.need(4)
      arg = this.view.getUint32(this.pos)
      this.pos += 4
    } else if (info === 27) {
      this.need(8)
      arg = major === 7 ? NaN : this.view.getUint32(this.pos) * 2 ** 32 + this.view.getUint32(this.pos + 4)
      this.pos += 8
    } else if (info === 31)
      throw new CborShapeError(`has an indefinite-length item at byte ${at}, which cbor2 does not write for a dict`)
    else throw new CborShapeError(`has a malformed item head at byte ${at}`)
    return { major, info, arg, at }
  }

  mapLength(what: string): number {
    const h = this.head()
    if (h.major !== 5)
      throw new CborShapeError(`has ${MAJOR_NAMES[h.major]} at byte ${h.at} where ${what} should be a map`)
    return h.arg
  }

  text(maxBytes: number, what: string): string {
    const h = this.head()
    if (h.major !== 3)
      throw new CborShapeError(`has ${MAJOR_NAMES[h.major]} at byte ${h.at} where ${what} should be a text string`)
    if (h.arg > maxBytes)
      throw new CborShapeError(`has a ${what} of ${h.arg} bytes at byte ${h.at} (the limit is ${maxBytes})`)
    this.need(h.arg)
    let s: string
    try {
      s = utf8.decode(this.b.subarray(this.pos, this.pos + h.arg))
    } catch {
      throw new CborShapeError(`has a ${what} at byte ${h.at} that is not valid UTF-8`)
    }
    this.pos += h.arg
    return s
  }

  number(what: string): number {
    const at = this.pos
    this.need(1)
    const first = this.b[this.pos]
    const h = this.head()
    if (h.major === 0) return h.arg
    if (h.major === 1) return -1 - h.arg
    if (h.major === 7) {
      if (h.info === 25) return half(h.arg)
      if (h.info === 26) return this.view.getFloat32(this.pos - 4)
      if (h.info === 27) return this.view.getFloat64(this.pos - 8)
      if (first === 0xf6 || first === 0xf7)
        throw new CborShapeError(`has null at byte ${at} where a ${what} should be a number`)
      if (first === 0xf4 || first === 0xf5)
        throw new CborShapeError(`has a boolean at byte ${at} where a ${what} should be a number`)
    }
    throw new CborShapeError(`has ${MAJOR_NAMES[h.major]} at byte ${at} where a ${what} should be a number`)
  }

  done(): boolean {
    return this.pos >= this.b.length
  }
}

/** Words for the messages. */
export interface CborNestedWords {
  outerKey: string
  innerKey: string
  value: string
}

/**
 * Decodes `bytes` as `{outer: {inner: number}}`, handing each entry to `handler` in stored order; returns the
 * number of inner entries. Throws {@link CborShapeError} for any other shape, a key over `maxKeyBytes`, a
 * repeated key, or bytes after the map. Non-finite numbers are handed on (the caller refuses them with its words).
 */
export function decodeNestedNumbers(
  bytes: Uint8Array,
  handler: CborNestedHandler,
  words: CborNestedWords,
  maxKeyBytes: number
): number {
  const r = new Reader(bytes)
  const outerCount = r.mapLength('the whole file')
  const seenOuter = new Map<string, number>()
  let ordinal = 0
  for (let q = 0; q < outerCount; q++) {
    const key = r.text(maxKeyBytes, words.outerKey)
    const earlier = seenOuter.get(key)
    if (earlier !== undefined)
      throw new CborShapeError(
        `repeats the ${words.outerKey} ${quote(key)} (entries ${earlier} and ${q + 1} of the map)`
      )
    seenOuter.set(key, q + 1)
    handler.outer(key, ordinal + 1)
    const innerCount = r.mapLength(`the value of ${words.outerKey} ${quote(key)}`)
    const seenInner = new Set<string>()
    for (let d = 0; d < innerCount; d++) {
      const inner = r.text(maxKeyBytes, words.innerKey)
      if (seenInner.has(inner))
        throw new CborShapeError(`repeats the ${words.innerKey} ${quote(inner)} in ${words.outerKey} ${quote(key)}`)
      seenInner.add(inner)
      ordinal++
      handler.entry(inner, r.number(words.value), ordinal)
    }
  }
  if (!r.done()) throw new CborShapeError(`has ${bytes.length - r.pos} bytes after the map (at byte ${r.pos})`)
  return ordinal
}

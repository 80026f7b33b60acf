/**
 * A bounded walk of the Thrift compact protocol (thrift `doc/specs/thrift-compact-protocol.md`), the encoding
 * of a Parquet file's footer and of every page header, run before hyparquet parses the same bytes. It builds
 * nothing: hyparquet does the parsing. It exists because hyparquet parses on the bytes' word, recursively and
 * before anything can be checked: an 8 MiB footer of empty structs took it 4.9 s and 1,028 MB, a page header of
 * 8 million empty structs 2.8 s and 631 MB, 20,000 nested structs overflow its stack (docs/limits.md). So the
 * walk refuses, without recursion and in one pass, what no Parquet writer produces: nesting deeper than
 * `maxDepth`, more than `maxValues` fields and list elements in all, a list or string longer than the bytes left
 * could hold, an over-long varint, a type Parquet does not use (maps, sets), or bytes after the struct's end.
 * hyparquet's cost then follows the bounded count.
 */

/** Why the bytes are not a struct this walk accepts (the caller names the file and says what to do). */
export class ThriftError extends Error {}

/** Limits of one walk, and where it runs: `bytes[start, end)`; `exact`: the struct must end at `end`. */
export interface ThriftWalk {
  /** Deepest nesting of structs and lists (the outer struct is depth 1). */
  maxDepth: number
  /** Most fields and list elements in all. */
  maxValues: number
  start?: number
  end?: number
  exact?: boolean
}

const STOP = 0
const TRUE = 1
const FALSE = 2
const BYTE = 3
const I16 = 4
const I32 = 5
const I64 = 6
const DOUBLE = 7
const BINARY = 8
const LIST = 9
const STRUCT = 12

/** One open struct (`remaining` < 0) or list (`remaining` elements of `elemType` left) on the explicit stack. */
interface Frame {
  remaining: number
  elemType: number
  /** Struct: the last field id (ids are deltas from it). */
  lastId: number
}

class Cursor {
  constructor(
    readonly bytes: Uint8Array,
    public at: number,
    readonly end: number
  ) {}

  byte(): number {
    if (this.at >= this.end) throw new ThriftError(`ends at byte ${this.at} inside a struct`)
    return this.bytes[this.at++]
  }

  /** An unsigned varint of at most `maxBytes` bytes (5 for 32-bit values, 10 for 64-bit; exact up to 2^53). */
  varint(maxBytes: number): number {
    let result = 0
    for (let i = 0; i < maxBytes; i++) {
      const b = this.byte()
      result += (b & 0x7f) * 2 ** (7 * i)
      if ((b & 0x80) === 0) return result
    }
    throw new ThriftError(`has a varint longer than ${maxBytes} bytes at byte ${this.at}`)
  }

  /** A zigzag-encoded 32-bit (or 16-bit) integer. */
  int32(): number {
    const z = this.varint(5)
    if (z > 0xffffffff) throw new ThriftError(`has a 32-bit integer out of range at byte ${this.at}`)
    return z % 2 === 0 ? z / 2 : -(z + 1) / 2
  }

  /** A length (list size, binary length) that must fit in the bytes left, each item taking at least one byte. */
  length(what: string): number {
    const n = this.varint(5)
    if (n > this.end - this.at)
      throw new ThriftError(`has a ${what} of ${n} at byte ${this.at}, but only ${this.end - this.at} bytes follow`)
    return n
  }

  skip(n: number, what: string): void {
    if (this.at + n > this.end) throw new ThriftError(`ends at byte ${this.at} inside ${what}`)
    this.at += n
  }
}

function isElementType(t: number): boolean {
  return t === TRUE || t === FALSE || (t >= BYTE && t <= LIST) || t === STRUCT
}

/**
 * Walks the struct at `bytes[start..end)` and returns where it ends (exactly `end` when `exact`). Throws
 * {@link ThriftError} for anything outside the limits. Linear in the bytes; the stack is an array.
 */
export function walkThriftStruct(bytes: Uint8Array, walk: ThriftWalk): number {
  const c = new Cursor(bytes, walk.start ?? 0, walk.end ?? bytes.length)
  const stack: Frame[] = [{ remaining: -1, elemType: 0, lastId: 0 }]
  let values = 0
  while (stack.length > 0) {
    const top = stack[stack.length - 1]
    let type: number
    if (top.remaining >= 0) {
      if (top.remaining-- === 0) {
        stack.pop()
        continue
      }
      type = top.elemType
    } else {
      const head = c.byte()
      type = head & 0x0f
      if (type === STOP) {
        stack.pop()
        continue
      }
      const delta = head >> 4
      const id = delta !== 0 ? top.lastId + delta : c.int32()
      if (id < 0 || id > 0x7fff) throw new ThriftError(`has field id ${id} at byte ${c.at}`)
      top.lastId = id
    }
    if (++values > walk.maxValues) throw new ThriftError(`holds more than ${walk.maxValues} values (the limit)`)
    if (type === TRUE || type === FALSE) {
      if (top.remaining >= 0) c.skip(1, 'a boolean') // a list's booleans are a byte each; a field's are in its type
    } else if (type === BYTE) c.skip(1, 'a byte')
    else if (type === I16 || type === I32) c.int32()
    else if (type === I64) c.varint(10)
    else if (type === DOUBLE) c.skip(8, 'a double')
    else if (type === BINARY) c.skip(c.length('binary length'), 'a binary')
    else if (type === LIST || type === STRUCT) {
      if (stack.length >= walk.maxDepth)
        throw new ThriftError(`nests structs and lists deeper than ${walk.maxDepth} (the limit) at byte ${c.at}`)
      if (type === STRUCT) stack.push({ remaining: -1, elemType: 0, lastId: 0 })
      else {
        const head = c.byte()
        const elemType = head & 0x0f
        if (!isElementType(elemType))
          throw new ThriftError(`has a list of type ${elemType} at byte ${c.at}, which Parquet does not use`)
        const remaining = head >> 4 === 15 ? c.length('list size') : head >> 4
        if (remaining > c.end - c.at)
          throw new ThriftError(
            `has a list of ${remaining} elements at byte ${c.at}, but only ${c.end - c.at} bytes follow`
          )
        stack.push({ remaining, elemType, lastId: 0 })
      }
    } else throw new ThriftError(`has a value of type ${type} at byte ${c.at}, which Parquet does not use`)
  }
  if (walk.exact === true && c.at !== c.end)
    throw new ThriftError(`ends at byte ${c.at}, ${c.end - c.at} bytes before the end of its space`)
  return c.at
}

/**
 * A bounded reader of the Thrift compact protocol (thrift `doc/specs/thrift-compact-protocol.md`), the
 * encoding of a Parquet file's footer and of every page header. hyparquet parses both recursively and on the
 * bytes' word: a list that claims 2^31 elements is allocated, 20,000 nested structs overflow the stack, and a
 * 16 MiB footer of empty structs becomes 16 million objects. This reader walks the same bytes first, without
 * recursion, and refuses what no Parquet writer produces: nesting deeper than `maxDepth`, more than `maxValues`
 * fields and list elements in all, a list longer than the bytes left could hold, a string running past the end,
 * an over-long varint, a type Parquet does not use (maps, sets), or bytes after the struct's end. Only then is
 * the struct handed to hyparquet (whose cost then follows the bounded count), or, for page headers, read from
 * the tree this reader builds.
 */

/** Why the bytes are not a struct this reader accepts (the caller names the file and says what to do). */
export class ThriftError extends Error {}

/** A decoded struct: field id to value. */
export type ThriftStruct = Map<number, ThriftValue>
/** A decoded value: integers as numbers (i64 as bigint), binary as a view into the input. */
export type ThriftValue = number | bigint | boolean | Uint8Array | ThriftValue[] | ThriftStruct

/** Limits of one walk. */
export interface ThriftLimits {
  /** Deepest nesting of structs and lists (the outer struct is depth 1). */
  maxDepth: number
  /** Most fields and list elements in all. */
  maxValues: number
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

/** One open struct or list on the walk's explicit stack. */
interface Frame {
  list: boolean
  /** Struct: the last field id; list: unused. */
  lastId: number
  /** List: elements still to read, and their type. */
  remaining: number
  elemType: number
  /** The value being built (undefined when only checking). */
  value: ThriftStruct | ThriftValue[] | undefined
  /** Struct: the id of the field being read (its value, once complete, is stored under it). */
  slot: number
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

  /** An unsigned varint of at most `maxBytes` bytes (5 for 32-bit values, 10 for 64-bit). */
  varint(maxBytes: number): bigint {
    let result = 0n
    for (let i = 0; i < maxBytes; i++) {
      const b = this.byte()
      result |= BigInt(b & 0x7f) << BigInt(7 * i)
      if ((b & 0x80) === 0) return result
    }
    throw new ThriftError(`has a varint longer than ${maxBytes} bytes at byte ${this.at}`)
  }

  /** A zigzag-encoded 32-bit (or 16-bit) integer. */
  int32(): number {
    const z = this.varint(5)
    if (z > 0xffffffffn) throw new ThriftError(`has a 32-bit integer out of range at byte ${this.at}`)
    const n = Number(z)
    return n % 2 === 0 ? n / 2 : -(n + 1) / 2
  }

  int64(): bigint {
    const z = this.varint(10)
    if (z > 0xffffffffffffffffn) throw new ThriftError(`has a 64-bit integer out of range at byte ${this.at}`)
    return z % 2n === 0n ? z / 2n : -(z + 1n) / 2n
  }

  /** A length (list size, binary length) that must fit in the bytes left, each item taking at least `each` bytes. */
  length(each: number, what: string): number {
    const n = this.varint(5)
    const left = this.end - this.at
    if (n * BigInt(each) > BigInt(left))
      throw new ThriftError(`has a ${what} of ${n} at byte ${this.at}, but only ${left} bytes follow`)
    return Number(n)
  }
}

/**
 * Walks the struct at `bytes[start..end)` and returns where it ends (it must end exactly at `end` when
 * `exact`), with the decoded tree when `build`. Throws {@link ThriftError} for anything outside the limits.
 * Linear in the bytes; the stack is an array, so no input can make it recurse.
 */
export function readThriftStruct(
  bytes: Uint8Array,
  options: ThriftLimits & { start?: number; end?: number; build?: boolean; exact?: boolean }
): { end: number; value: ThriftStruct | undefined } {
  const { maxDepth, maxValues, build = false, exact = false } = options
  const c = new Cursor(bytes, options.start ?? 0, options.end ?? bytes.length)
  let values = 0
  const root: Frame = {
    list: false,
    lastId: 0,
    remaining: 0,
    elemType: 0,
    value: build ? new Map() : undefined,
    slot: -1
  }
  const stack: Frame[] = [root]

  /** Puts `value` into the frame on top (a struct field or the next list element). */
  const store = (top: Frame, value: ThriftValue | undefined): void => {
    if (top.value === undefined || value === undefined) return
    if (top.list) (top.value as ThriftValue[]).push(value)
    else (top.value as ThriftStruct).set(top.slot, value)
  }

  /** Reads one value of `type`; a struct or list is opened (pushed), the rest is returned. */
  const element = (type: number, top: Frame): ThriftValue | undefined => {
    if (++values > maxValues) throw new ThriftError(`holds more than ${maxValues} values (the limit)`)
    switch (type) {
      case TRUE:
      case FALSE:
        if (top.list) {
          const b = c.byte()
          return b === 1
        }
        return type === TRUE
      case BYTE: {
        const b = c.byte()
        return b > 127 ? b - 256 : b
      }
      case I16:
      case I32:
        return c.int32()
      case I64:
        return c.int64()
      case DOUBLE: {
        if (c.at + 8 > c.end) throw new ThriftError(`ends at byte ${c.at} inside a double`)
        const v = new DataView(bytes.buffer, bytes.byteOffset + c.at, 8).getFloat64(0, true)
        c.at += 8
        return v
      }
      case BINARY: {
        const n = c.length(1, 'binary length')
        const v = bytes.subarray(c.at, c.at + n)
        c.at += n
        return v
      }
      case LIST:
      case STRUCT: {
        if (stack.length >= maxDepth)
          throw new ThriftError(`nests structs and lists deeper than ${maxDepth} (the limit) at byte ${c.at}`)
        const frame: Frame = { list: type === LIST, lastId: 0, remaining: 0, elemType: 0, value: undefined, slot: -1 }
        if (type === LIST) {
          const head = c.byte()
          frame.elemType = head & 0x0f
          if (!isElementType(frame.elemType))
            throw new ThriftError(`has a list of type ${frame.elemType} at byte ${c.at}, which Parquet does not use`)
          const short = head >> 4
          frame.remaining = short === 15 ? c.length(1, 'list size') : short
          if (frame.remaining > c.end - c.at)
            throw new ThriftError(
              `has a list of ${frame.remaining} elements at byte ${c.at}, but only ${c.end - c.at} bytes follow`
            )
          if (build) frame.value = []
        } else if (build) frame.value = new Map()
        stack.push(frame)
        return undefined
      }
      default:
        throw new ThriftError(`has a value of type ${type} at byte ${c.at}, which Parquet does not use`)
    }
  }

  while (stack.length > 0) {
    const top = stack[stack.length - 1]
    let type: number
    if (top.list) {
      if (top.remaining === 0) {
        stack.pop()
        if (stack.length > 0) store(stack[stack.length - 1], top.value)
        continue
      }
      top.remaining--
      type = top.elemType
    } else {
      const head = c.byte()
      type = head & 0x0f
      if (type === STOP) {
        stack.pop()
        if (stack.length > 0) store(stack[stack.length - 1], top.value)
        continue
      }
      const delta = head >> 4
      const id = delta !== 0 ? top.lastId + delta : c.int32()
      if (id < 0 || id > 0x7fff) throw new ThriftError(`has field id ${id} at byte ${c.at}`)
      top.lastId = id
      top.slot = id
    }
    const before = stack.length
    const value = element(type, top)
    // a struct or list was opened: it is stored into `top` (under top.slot, unchanged meanwhile) when it closes
    if (stack.length > before) continue
    store(top, value)
  }
  if (exact && c.at !== c.end)
    throw new ThriftError(`ends at byte ${c.at}, ${c.end - c.at} bytes before the end of its space`)
  return { end: c.at, value: root.value as ThriftStruct | undefined }
}

function isElementType(t: number): boolean {
  return t === TRUE || t === FALSE || (t >= BYTE && t <= LIST) || t === STRUCT
}

/** Field `id` of `s` as a safe integer (i32 or i64), or undefined when absent or not an integer. */
export function intField(s: ThriftStruct, id: number): number | undefined {
  const v = s.get(id)
  if (typeof v === 'number' && Number.isInteger(v)) return v
  if (typeof v === 'bigint' && v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER))
    return Number(v)
  return undefined
}

/** Field `id` of `s` as a struct, or undefined. */
export function structField(s: ThriftStruct, id: number): ThriftStruct | undefined {
  const v = s.get(id)
  return v instanceof Map ? v : undefined
}

/** Field `id` of `s` as a boolean, or undefined. */
export function boolField(s: ThriftStruct, id: number): boolean | undefined {
  const v = s.get(id)
  return typeof v === 'boolean' ? v : undefined
}

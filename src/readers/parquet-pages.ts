import { snappyUncompress, type PageHeader } from 'hyparquet'
import { parquetHeader } from 'hyparquet/src/column.js'
import { InputError, type Where } from '../errors.js'
import { ThriftError, walkThriftStruct } from './binary/thrift-compact.js'
import { corruptParquet, PARQUET_HINT, type ParquetLeaf } from './parquet-footer.js'

/**
 * The pages of one column chunk, checked before hyparquet decodes them. hyparquet allocates what a page header
 * declares and writes every value a run-length run claims, even past the values the page holds (one 5-byte
 * run of 2^28 values cost 2.7 GB); it reads a value stream past its page into the next page's bytes, and
 * turns a dictionary index past the dictionary or a definition level out of range into a missing value. So each
 * page of every column read is walked here first, bounded: its header (walked by src/readers/binary/thrift-compact.ts,
 * then parsed by hyparquet), sizes inside the chunk and under the caps, its decompressed bytes, its definition levels
 * and dictionary indices run by run (no run may go past the page's values; every index inside the dictionary; every
 * level 0 or 1), and its value bytes against the count they must hold. The chunk's pages must add up to exactly the
 * row group's rows. What then reaches hyparquet decodes to exactly the values the file holds, in work and memory
 * proportional to them.
 *
 * Only flat columns (one value or null per row) are read, in the encodings pandas / pyarrow, Spark's default
 * writer, polars and DuckDB write by default: PLAIN, dictionary (PLAIN_DICTIONARY, RLE_DICTIONARY), RLE
 * booleans and BYTE_STREAM_SPLIT; data pages v1 and v2; no compression or snappy.
 */

/** Most values in one page: a page is at most a row group, and pyarrow writes row groups of up to 1 Mi rows. */
export const MAX_PAGE_VALUES = 1 << 20

/** Largest page, uncompressed (writers default to 1 MiB pages; a dictionary page is capped at 1 MiB by pyarrow). */
export const MAX_PAGE_BYTES = 32 * 1024 * 1024

/** Page headers are small structs (sizes, counts, statistics); these bound the walk of a damaged one. */
const HEADER_LIMITS = { maxDepth: 8, maxValues: 1000 }

const WIDTH: Record<string, number> = { INT32: 4, FLOAT: 4, INT64: 8, DOUBLE: 8, INT96: 12 }

/** What one column chunk must hold. */
export interface ChunkCheck {
  leaf: ParquetLeaf
  /** The chunk's codec as hyparquet names it (UNCOMPRESSED, SNAPPY, ...). */
  codec: string
  rows: number
  where: Where
}

/** Why a page is refused (turned into the refusal naming the file, row group, column and page). */
class PageError extends Error {}

/** A header field as hyparquet parsed it: an integer, or undefined (absent, or a value of another Thrift type). */
function int(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isInteger(v) ? v : undefined
}

/** The page header at `bytes[at..]`, walked (bounded) and then parsed by hyparquet; `end`: where its body starts. */
function pageHeader(bytes: Uint8Array, at: number): { header: PageHeader; end: number } {
  try {
    walkThriftStruct(bytes, { ...HEADER_LIMITS, start: at })
  } catch (error) {
    if (error instanceof ThriftError) throw new PageError(`has a page header that ${error.message}`)
    throw error
  }
  const reader = { view: new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength), offset: at }
  const header = parquetHeader(reader)
  return { header, end: reader.offset }
}

/**
 * Walks every page of the column chunk `bytes` (the chunk's bytes as the footer places them) and throws an
 * {@link InputError} naming the file, row group, column and page at the first thing hyparquet would decode
 * into more than the file holds, or into other values.
 */
export function checkColumnChunk(bytes: Uint8Array, chunk: ChunkCheck): void {
  const { codec, rows, where } = chunk
  if (codec !== 'UNCOMPRESSED' && codec !== 'SNAPPY') {
    throw new InputError(
      where,
      `is Parquet compressed with ${(codec as string | undefined) ?? 'an unknown codec'}, which is not read`,
      `${PARQUET_HINT}: pandas and pyarrow use snappy by default`
    )
  }
  let at = 0
  let values = 0
  let dictionary: number | undefined
  for (let pageNo = 1; values < rows; pageNo++) {
    const place = { ...where, key: `${where.key}, page ${pageNo}` }
    try {
      if (at >= bytes.length)
        throw new PageError(`is missing: the column chunk ends after ${values} of the row group's ${rows} values`)
      const { header, end: bodyAt } = pageHeader(bytes, at)
      const usize = int(header.uncompressed_page_size)
      const csize = int(header.compressed_page_size)
      if (csize === undefined || csize < 0 || bodyAt + csize > bytes.length) {
        throw new PageError(`claims ${String(csize)} bytes, but the column chunk has ${bytes.length - bodyAt} left`)
      }
      if (usize === undefined || usize < 0 || usize > MAX_PAGE_BYTES) {
        throw new PageError(
          `claims ${String(usize)} bytes uncompressed; a page is at most ${MAX_PAGE_BYTES} (writers default to 1 MiB)`
        )
      }
      const page: RawPage = { header, body: bytes.subarray(bodyAt, bodyAt + csize), usize }
      at = bodyAt + csize
      if (header.type === 'DICTIONARY_PAGE') {
        if (pageNo !== 1) throw new PageError('is a dictionary page after the first page')
        dictionary = checkDictionaryPage(page, chunk)
      } else if (header.type === 'DATA_PAGE' || header.type === 'DATA_PAGE_V2') {
        const n =
          header.type === 'DATA_PAGE'
            ? checkDataPageV1(page, chunk, dictionary)
            : checkDataPageV2(page, chunk, dictionary)
        if (values + n > rows)
          throw new PageError(`holds ${n} values, past the row group's ${rows} rows (${values} before it)`)
        values += n
      } else {
        throw new PageError(`has page type ${(header.type as string | undefined) ?? 'unknown'}, which is not read`)
      }
    } catch (error) {
      if (error instanceof PageError) throw corruptParquet(place, error.message)
      throw error
    }
  }
}

/** `body` decompressed to `size` bytes (snappy), or as it is (no compression, where it must be `size` long). */
function decompress(body: Uint8Array, size: number, codec: string): Uint8Array {
  if (codec === 'UNCOMPRESSED') {
    if (body.length !== size) throw new PageError(`is ${body.length} bytes but says ${size} (no compression)`)
    return body
  }
  const out = new Uint8Array(size)
  try {
    snappyUncompress(body, out)
  } catch (error) {
    throw new PageError(
      `is not valid snappy data of ${size} bytes (${String((error as Error)?.message ?? error).slice(0, 100)})`
    )
  }
  return out
}

/** A page as its header gives it: the header, its body (as stored), its size uncompressed. */
interface RawPage {
  header: PageHeader
  body: Uint8Array
  usize: number
}

/** The dictionary's size, after checking its values fill its page as PLAIN values. */
function checkDictionaryPage(raw: RawPage, chunk: ChunkCheck): number {
  const n = int(raw.header.dictionary_page_header?.num_values)
  if (n === undefined || n < 0 || n > MAX_PAGE_VALUES)
    throw new PageError(`is a dictionary of ${String(n)} values; a page holds at most ${MAX_PAGE_VALUES}`)
  const page = decompress(raw.body, raw.usize, chunk.codec)
  checkPlain(page, 0, n, chunk.leaf)
  return n
}

/** Checks a v1 data page (levels and values compressed together) and returns its value count (nulls included). */
function checkDataPageV1(raw: RawPage, chunk: ChunkCheck, dictionary: number | undefined): number {
  const h = raw.header.data_page_header
  const n = int(h?.num_values)
  if (h === undefined || n === undefined || n < 0 || n > MAX_PAGE_VALUES)
    throw new PageError(`claims ${String(n)} values; a page holds at most ${MAX_PAGE_VALUES}`)
  const page = decompress(raw.body, raw.usize, chunk.codec)
  let at = 0
  let present = n
  if (chunk.leaf.optional) {
    // hyparquet reads levels as the RLE / bit-packed hybrid only (the deprecated BIT_PACKED levels would be misread)
    const levels = (h.definition_level_encoding as string | undefined) ?? 'RLE'
    if (levels !== 'RLE') throw new PageError(`has definition levels in the ${levels} encoding, which is not read`)
    if (page.length < 4) throw new PageError('ends before its definition levels')
    const length = new DataView(page.buffer, page.byteOffset, page.length).getUint32(0, true)
    if (4 + length > page.length)
      throw new PageError(`claims ${length} bytes of definition levels in ${page.length - 4}`)
    present = hybridRuns(page.subarray(4, 4 + length), { count: n, width: 1, max: 1, what: 'definition levels' })
    at = 4 + length
  }
  checkValues({ bytes: page, at, n: present, encoding: h.encoding, v2: false }, chunk, dictionary)
  return n
}

/** Checks a v2 data page (levels uncompressed before the values) and returns its value count (nulls included). */
function checkDataPageV2(raw: RawPage, chunk: ChunkCheck, dictionary: number | undefined): number {
  const { body, usize } = raw
  const h = raw.header.data_page_header_v2
  if (h === undefined) throw new PageError('has no data page header')
  const n = int(h.num_values)
  const nulls = int(h.num_nulls)
  const rows = int(h.num_rows)
  const defBytes = int(h.definition_levels_byte_length) ?? -1
  const repBytes = int(h.repetition_levels_byte_length) ?? -1
  if (n === undefined || n < 0 || n > MAX_PAGE_VALUES)
    throw new PageError(`claims ${String(n)} values; a page holds at most ${MAX_PAGE_VALUES}`)
  if (rows !== n) throw new PageError(`claims ${String(rows)} rows for ${n} values in a flat column`)
  if (repBytes !== 0) throw new PageError(`has ${repBytes} bytes of repetition levels in a flat column`)
  if (defBytes < 0 || defBytes > body.length || defBytes > usize)
    throw new PageError(`claims ${defBytes} bytes of definition levels in ${body.length}`)
  let present = n
  if (chunk.leaf.optional)
    present = hybridRuns(body.subarray(0, defBytes), { count: n, width: 1, max: 1, what: 'definition levels' })
  else if (defBytes !== 0) throw new PageError(`has ${defBytes} bytes of definition levels in a required column`)
  if (nulls !== n - present)
    throw new PageError(`says ${String(nulls)} nulls, its definition levels say ${n - present}`)
  const rest = body.subarray(defBytes)
  // as hyparquet decides it: compressed unless the header says false, and an empty stream is not decompressed
  const compressed = h.is_compressed !== false && usize - defBytes > 0
  const values = compressed ? decompress(rest, usize - defBytes, chunk.codec) : rest
  checkValues({ bytes: values, at: 0, n: present, encoding: h.encoding, v2: true }, chunk, dictionary)
  return n
}

/** A page's values: `n` of them at `bytes[at..]` in `encoding`; `v2` for a v2 data page. */
interface PageValues {
  bytes: Uint8Array
  at: number
  n: number
  encoding: string | undefined
  v2: boolean
}

/**
 * Checks that the page holds its values of the leaf's type in their encoding, as hyparquet will read them (v2: a
 * v2 data page, where hyparquet walks the dictionary indices' runs even when they are 0 bits wide).
 */
function checkValues(values: PageValues, chunk: ChunkCheck, dictionary: number | undefined): void {
  const { bytes, at, n, encoding, v2 } = values
  const { type } = chunk.leaf
  if (encoding === 'PLAIN') return checkPlain(bytes, at, n, chunk.leaf)
  if (encoding === 'PLAIN_DICTIONARY' || encoding === 'RLE_DICTIONARY') {
    if (dictionary === undefined)
      throw new PageError(`is ${encoding} encoded but the column chunk has no dictionary page`)
    if (n === 0) return
    if (at >= bytes.length) throw new PageError('ends before its dictionary indices')
    const width = bytes[at]
    if (width > 32) throw new PageError(`has dictionary indices ${width} bits wide`)
    if (dictionary === 0) throw new PageError('refers to an empty dictionary')
    // v1 with 0 bits: hyparquet reads no runs, every index is 0
    if (width === 0 && !v2) return
    hybridRuns(bytes.subarray(at + 1), { count: n, width, max: dictionary - 1, what: 'dictionary indices' })
    return
  }
  if (encoding === 'RLE' && type === 'BOOLEAN') {
    if (at + 4 > bytes.length) throw new PageError('ends before its boolean values')
    const length = new DataView(bytes.buffer, bytes.byteOffset + at, 4).getUint32(0, true)
    if (at + 4 + length > bytes.length)
      throw new PageError(`claims ${length} bytes of boolean values in ${bytes.length - at - 4}`)
    hybridRuns(bytes.subarray(at + 4, at + 4 + length), { count: n, width: 1, max: 1, what: 'boolean values' })
    return
  }
  if (encoding === 'BYTE_STREAM_SPLIT' && (WIDTH[type] !== undefined || type === 'FIXED_LEN_BYTE_ARRAY')) {
    const width = type === 'FIXED_LEN_BYTE_ARRAY' ? (chunk.leaf.typeLength ?? 0) : WIDTH[type]
    if (width <= 0 || n * width > bytes.length - at)
      throw new PageError(`holds ${bytes.length - at} bytes for ${n} values of ${width} bytes`)
    return
  }
  throw new InputError(
    chunk.where,
    `is written in the ${encoding ?? 'unknown'} encoding, which is not read`,
    `${PARQUET_HINT}; pandas / pyarrow write PLAIN and dictionary encodings by default (rewrite with pyarrow.parquet.write_table(table, path) without column_encoding)`
  )
}

/** Checks `n` PLAIN values of the leaf's type at `bytes[at..]` fit in the bytes. */
function checkPlain(bytes: Uint8Array, at: number, n: number, leaf: ParquetLeaf): void {
  const left = bytes.length - at
  if (leaf.type === 'BOOLEAN') {
    if (Math.ceil(n / 8) > left) throw new PageError(`holds ${left} bytes for ${n} booleans`)
  } else if (leaf.type === 'BYTE_ARRAY') {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length)
    let p = at
    for (let i = 0; i < n; i++) {
      if (p + 4 > bytes.length) throw new PageError(`ends at value ${i + 1} of ${n}`)
      const length = view.getUint32(p, true)
      p += 4
      if (length > bytes.length - p)
        throw new PageError(`has value ${i + 1} of ${length} bytes, past the end of the page`)
      p += length
    }
  } else {
    const width = leaf.type === 'FIXED_LEN_BYTE_ARRAY' ? (leaf.typeLength ?? 0) : WIDTH[leaf.type]
    if (width === undefined || width <= 0) throw new PageError(`has values of type ${leaf.type} with no width`)
    if (n * width > left) throw new PageError(`holds ${left} bytes for ${n} values of ${width} bytes`)
  }
}

/** What a run of the RLE / bit-packed hybrid holds: `count` values, `width` bits each, each at most `max`; `what` names them. */
interface HybridValues {
  count: number
  width: number
  max: number
  what: string
}

/**
 * Walks `count` values of the RLE / bit-packed hybrid in `bytes` (exactly the runs' bytes), `width` bits each,
 * every value at most `max`, and returns how many equal `max` (for definition levels: the values present). An RLE
 * run may not go past `count`, nor any run's bytes past the end: hyparquet writes every value an RLE run claims. A
 * bit-packed run may (its padding; hyparquet stops at `count`) when its values have bytes in the page.
 */
function hybridRuns(bytes: Uint8Array, values: HybridValues): number {
  const { count, width, max, what } = values
  const end = bytes.length
  let at = 0
  let seen = 0
  let atMax = 0
  const valueBytes = Math.ceil(width / 8)
  while (seen < count) {
    let header = 0
    let shift = 0
    for (;;) {
      if (at >= end) throw new PageError(`ends inside its ${what} (${seen} of ${count} read)`)
      const b = bytes[at++]
      header += (b & 0x7f) * 2 ** shift
      if ((b & 0x80) === 0) break
      shift += 7
      if (shift > 28) throw new PageError(`has an over-long run header in its ${what}`)
    }
    if (header % 2 === 1) {
      const groups = (header - 1) / 2
      const n = groups * 8
      // Past `count` is padding a decoder skips (DuckDB pads its last run to 256 values), and at a positive width
      // its bytes must be in the page (checked next), so it costs no more than the page's bytes. At width 0 a run
      // holds no bytes: one past its padding would be a loop of any length over nothing.
      if (width === 0 && n - (count - seen) >= 8)
        throw new PageError(`has a bit-packed run of ${n} ${what} with only ${count - seen} left`)
      if (groups * width > end - at)
        throw new PageError(`has a bit-packed run of ${groups * width} bytes with ${end - at} left`)
      const take = Math.min(n, count - seen)
      for (let i = 0; i < take; i++) {
        const v = bitsAt(bytes, at, i * width, width)
        if (v > max) throw new PageError(`has ${what} value ${v}, more than ${max}`)
        if (v === max) atMax++
      }
      at += groups * width
      seen += take
    } else {
      const n = header / 2
      if (n > count - seen) throw new PageError(`has a run of ${n} ${what} with only ${count - seen} left`)
      if (at + valueBytes > end) throw new PageError(`ends inside a run of its ${what}`)
      let v = 0
      for (let i = 0; i < valueBytes; i++) v += bytes[at + i] * 2 ** (8 * i)
      at += valueBytes
      if (n > 0 && v > max) throw new PageError(`has ${what} value ${v}, more than ${max}`)
      if (v === max) atMax += n
      seen += n
    }
  }
  return atMax
}

/** The `width`-bit little-endian value at bit `bit` of `bytes[at..]` (width <= 32). */
function bitsAt(bytes: Uint8Array, at: number, bit: number, width: number): number {
  let v = 0
  for (let i = 0; i < width; i++) {
    const b = bit + i
    if ((bytes[at + (b >> 3)] >> (b & 7)) & 1) v += 2 ** i
  }
  return v
}

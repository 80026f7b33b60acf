import { parquetMetadata, type FileMetaData } from 'hyparquet'
import { InputError, type Where } from '../errors.js'
import { quote } from '../util/show.js'
import { ThriftError, walkThriftStruct } from './binary/thrift-compact.js'

/**
 * A Parquet file's frame and footer, checked before anything is decoded from them. hyparquet takes the
 * footer's word for everything (how many rows, where each column chunk is, how deep the schema nests), so
 * every number that decides what is read or allocated is checked here against the file: the footer's size
 * and its Thrift structure ({@link walkThriftStruct}: bounded depth and value count, no recursion) before
 * hyparquet parses it; then the schema's shape (depth, element count, every group's children present), and
 * every row group's row count and every column chunk's place and size against the file length. A file that
 * fails is refused as corrupt, naming the file and the row group and column, never read as "missing values".
 */

/**
 * Largest footer read, in bytes. A per-query table's footer is a few KiB: hyparquet-writer 0.17.0 writes 1.5 KB
 * for one row group of 20 columns, 1.36 MB for 1,000 of them.
 */
export const MAX_FOOTER_BYTES = 8 * 1024 * 1024

/**
 * Most Thrift values (fields and list elements) in the footer. hyparquet builds about two objects per value
 * (1,000,000 values grew a process by 152 MB, so this cap costs at most ~75 MB); hyparquet-writer 0.17.0 writes
 * ~23 values per column chunk (1,000 row groups of 20 columns: 464,130 values), pyarrow somewhat more.
 */
export const MAX_FOOTER_VALUES = 500_000

/** Deepest Thrift nesting in a footer: FileMetaData → row groups → columns → metadata → statistics is 8 deep. */
const MAX_FOOTER_DEPTH = 16

/** Most schema elements (groups and columns), and most leaf columns (one column chunk each per row group). */
export const MAX_SCHEMA_ELEMENTS = 10_000
export const MAX_LEAF_COLUMNS = 2_000

/**
 * Largest row group, uncompressed, as its footer declares it. pyarrow writes up to 1 Mi rows per group: a
 * per-query table of a million queries and a dozen metrics is ~100 MiB. Bigger groups are a file that is not
 * per-query rows, or one built to exhaust memory. (The declaration is only a first filter: what is decoded is
 * bounded by the page checks, src/readers/parquet-pages.ts, whatever the footer says.)
 */
export const MAX_ROW_GROUP_BYTES = 256 * 1024 * 1024

/** Deepest schema nesting (a list of structs is 3 deep); hyparquet builds the schema tree recursively. */
export const MAX_SCHEMA_DEPTH = 32

/**
 * Most rows per byte of the file. A row costs bytes (a query id is unique, a run's document is unique per
 * query): the densest honest tables (long form, constant values, run-length encoded) hold a few rows per byte,
 * up to ~12 with every column dictionary- and run-length encoded. A 250-byte file claiming 2^31 rows is a lie,
 * and the cap makes the work of reading any file at most this many rows per byte, however the pages encode
 * them.
 */
export const MAX_ROWS_PER_BYTE = 64

/** What to do with a row group over {@link MAX_ROW_GROUP_BYTES}. */
export const ROW_GROUP_HINT =
  'write smaller row groups (pyarrow: row_group_size=100000) or keep only the per-query columns'
/** What to do with a footer over {@link MAX_FOOTER_BYTES} or {@link MAX_FOOTER_VALUES}. */
const BIG_FOOTER_HINT =
  'such a footer lists thousands of row groups or columns: write fewer, larger row groups (pyarrow: row_group_size=1000000) and only the per-query columns'

export const PARQUET_HINT =
  'write per-query rows with pandas DataFrame.to_parquet (snappy or no compression), or export them as CSV'
const CORRUPT_HINT = `the file is truncated or corrupt, or was not written by a Parquet writer; ${PARQUET_HINT}`

/** The file as the footer checks read it: its length and positioned reads. */
export interface RangeReader {
  byteLength: number
  read(start: number, end: number): Promise<Uint8Array>
}

/** A leaf of the schema: a physical column, one chunk of it in every row group. */
export interface ParquetLeaf {
  path: string[]
  type: string
  typeLength: number | undefined
  /** A top-level column that is neither a group nor repeated: one value (or null) per row. */
  flat: boolean
  /** Values may be null (the column has definition levels). */
  optional: boolean
}

/** A top-level column, as the readers see it. */
export interface ParquetColumn {
  name: string
  numeric: boolean
  /** A group (struct, list, map) or a repeated column: not one plain value per row. */
  nested: boolean
  /** For a flat column, its leaf's index (= its column chunk's index in every row group). */
  leaf: number
}

/** The checked footer: hyparquet's metadata plus what the checks established. */
export interface ParquetFooter {
  metadata: FileMetaData
  leaves: ParquetLeaf[]
  columns: ParquetColumn[]
  /** Rows of each row group, as safe integers. */
  groupRows: number[]
}

/** A refusal of a corrupt file (or of one part of it). */
export function corruptParquet(where: Where, problem: string): InputError {
  return new InputError(where, problem, CORRUPT_HINT)
}

/** Checks the frame, walks and parses the footer, and checks the schema and the row groups against the file. */
export async function readParquetFooter(file: string, reader: RangeReader): Promise<ParquetFooter> {
  const size = reader.byteLength
  if (size < 12)
    throw new InputError(
      { file },
      `is ${size} bytes long, too short for a Parquet file`,
      `the file is truncated; ${PARQUET_HINT}`
    )
  const tail = await reader.read(size - 8, size)
  if (String.fromCharCode(tail[4], tail[5], tail[6], tail[7]) !== 'PAR1') {
    throw new InputError(
      { file },
      'starts like Parquet but does not end with the PAR1 footer',
      `the file is truncated (an interrupted copy or upload?); ${PARQUET_HINT}`
    )
  }
  const length = new DataView(tail.buffer, tail.byteOffset, 8).getUint32(0, true)
  if (length > size - 12)
    throw new InputError({ file }, `has a Parquet footer of ${length} bytes in a file of ${size} bytes`, CORRUPT_HINT)
  if (length > MAX_FOOTER_BYTES) {
    throw new InputError(
      { file },
      `has a Parquet footer of ${length} bytes; the limit is ${MAX_FOOTER_BYTES}`,
      BIG_FOOTER_HINT
    )
  }
  const footerStart = size - 8 - length
  const bytes = new Uint8Array(length + 8)
  bytes.set(await reader.read(footerStart, size - 8))
  bytes.set(tail, length)
  try {
    walkThriftStruct(bytes, { end: length, maxDepth: MAX_FOOTER_DEPTH, maxValues: MAX_FOOTER_VALUES, exact: true })
  } catch (error) {
    if (!(error instanceof ThriftError)) throw error
    if (/more than \d+ values/.test(error.message)) {
      throw new InputError({ file }, `has a Parquet footer that ${error.message}`, BIG_FOOTER_HINT)
    }
    throw corruptParquet({ file }, `has a Parquet footer that ${error.message}`)
  }
  let metadata: FileMetaData
  try {
    metadata = parquetMetadata(bytes, { geoparquet: false })
  } catch (error) {
    throw corruptParquet(
      { file },
      `has a Parquet footer that cannot be read (${String((error as Error)?.message ?? error).slice(0, 200)})`
    )
  }
  const { leaves, columns } = checkSchema(file, metadata)
  const groupRows = checkRowGroups(file, metadata, leaves, { size, footerStart })
  return { metadata, leaves, columns, groupRows }
}

const NUMERIC = new Set(['INT32', 'INT64', 'FLOAT', 'DOUBLE'])

/**
 * Walks the flattened schema (depth-first, each group followed by its `num_children` children) without
 * recursion: every group's children must be there, nothing may follow the last one, names are present and
 * unique among siblings, leaves have a type, and the depth and counts stay under the caps (hyparquet builds the
 * tree recursively and looks children up by name: 20,000 nested groups overflowed its stack).
 */
function checkSchema(file: string, metadata: FileMetaData): { leaves: ParquetLeaf[]; columns: ParquetColumn[] } {
  const schema = metadata.schema
  const bad = (problem: string): InputError => corruptParquet({ file }, `has a Parquet schema that ${problem}`)
  if (!Array.isArray(schema) || schema.length === 0) throw bad('is empty')
  if (schema.length > MAX_SCHEMA_ELEMENTS) {
    throw new InputError(
      { file },
      `has a Parquet schema of ${schema.length} elements; the limit is ${MAX_SCHEMA_ELEMENTS}`,
      `a per-query table has a column per metric and attribute; ${PARQUET_HINT}`
    )
  }
  const root = schema[0]
  if (!isCount(root.num_children) || root.num_children === 0) throw bad('has no columns')
  const leaves: ParquetLeaf[] = []
  const columns: ParquetColumn[] = []
  const stack: Array<{ remaining: number; path: string[]; names: Set<string> }> = [
    { remaining: root.num_children, path: [], names: new Set() }
  ]
  let i = 1
  while (stack.length > 0) {
    const top = stack[stack.length - 1]
    if (top.remaining === 0) {
      stack.pop()
      continue
    }
    top.remaining--
    if (i >= schema.length) throw bad(`ends after ${schema.length} elements inside a group that needs more children`)
    const e = schema[i++]
    if (typeof e.name !== 'string' || e.name === '') throw bad(`has an element without a name (element ${i - 1})`)
    if (top.names.has(e.name)) throw bad(`names ${quote([...top.path, e.name].join('.'))} twice`)
    top.names.add(e.name)
    const path = [...top.path, e.name]
    const group = e.num_children !== undefined && e.num_children !== 0
    if (stack.length === 1) {
      const nested = group || e.repetition_type === 'REPEATED'
      columns.push({
        name: e.name,
        numeric: !nested && NUMERIC.has(e.type ?? ''),
        nested,
        leaf: nested ? -1 : leaves.length
      })
    }
    if (group) {
      if (!isCount(e.num_children)) throw bad(`gives ${quote(path.join('.'))} ${String(e.num_children)} children`)
      if (stack.length >= MAX_SCHEMA_DEPTH) {
        throw new InputError(
          { file },
          `has a Parquet schema nested deeper than ${MAX_SCHEMA_DEPTH} levels (at ${quote(path.join('.'), 60)})`,
          `per-query rows are flat columns; ${PARQUET_HINT}`
        )
      }
      stack.push({ remaining: e.num_children, path, names: new Set() })
      continue
    }
    if (e.type === undefined)
      throw bad(`gives the column ${quote(path.join('.'))} no type (or one Parquet does not define)`)
    if (leaves.length >= MAX_LEAF_COLUMNS) {
      throw new InputError(
        { file },
        `has more than ${MAX_LEAF_COLUMNS} columns; that is the limit`,
        `keep the per-query columns only (a query id, the metrics, the attributes the rules use); ${PARQUET_HINT}`
      )
    }
    leaves.push({
      path,
      type: e.type,
      typeLength: e.type_length,
      flat: path.length === 1 && e.repetition_type !== 'REPEATED',
      optional: e.repetition_type === 'OPTIONAL'
    })
  }
  if (i !== schema.length) throw bad(`lists ${schema.length - i} elements after the last column of its root`)
  return { leaves, columns }
}

function isCount(n: unknown): n is number {
  return typeof n === 'number' && Number.isSafeInteger(n) && n >= 0
}

/** A footer integer (i64 bigint or i32 number) as a non-negative safe integer, or undefined. */
export function footerInt(v: unknown): number | undefined {
  const n = typeof v === 'bigint' ? (v >= 0n && v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : -1) : v
  return typeof n === 'number' && Number.isSafeInteger(n) && n >= 0 ? n : undefined
}

/**
 * Every row group's row count (non-negative, summing to the file's, at most {@link MAX_ROWS_PER_BYTE} per
 * byte of the file), and every column chunk: one per leaf, in schema order, in this file, with its path and
 * type, a value count matching the rows (flat columns), and its bytes inside the file, between the leading
 * `PAR1` and the footer.
 */
function checkRowGroups(
  file: string,
  metadata: FileMetaData,
  leaves: ParquetLeaf[],
  at: { size: number; footerStart: number }
): number[] {
  const groups = metadata.row_groups
  if (!Array.isArray(groups)) throw corruptParquet({ file }, 'has a Parquet footer without row groups')
  const groupRows: number[] = []
  let total = 0
  for (const [g, group] of groups.entries()) {
    const rows = footerInt(group.num_rows)
    if (rows === undefined)
      throw corruptParquet({ file, key: `row group ${g + 1}` }, `claims ${String(group.num_rows)} rows`)
    total += rows
    if (total > MAX_ROWS_PER_BYTE * at.size) {
      throw corruptParquet(
        { file, key: `row group ${g + 1}` },
        `claims ${total} rows up to here in a file of ${at.size} bytes; a Parquet table holds at most ${MAX_ROWS_PER_BYTE} rows per byte of its file`
      )
    }
    groupRows.push(rows)
    const bytes = footerInt(group.total_byte_size)
    if (bytes !== undefined && bytes > MAX_ROW_GROUP_BYTES) {
      throw new InputError(
        { file, key: `row group ${g + 1}` },
        `holds ${bytes} bytes uncompressed; the limit is ${MAX_ROW_GROUP_BYTES}`,
        ROW_GROUP_HINT
      )
    }
    if (!Array.isArray(group.columns) || group.columns.length !== leaves.length) {
      throw corruptParquet(
        { file, key: `row group ${g + 1}` },
        `has ${Array.isArray(group.columns) ? group.columns.length : 0} column chunks for the schema's ${leaves.length} columns`
      )
    }
    for (const [c, chunk] of group.columns.entries()) {
      const leaf = leaves[c]
      const where = { file, key: `row group ${g + 1}, column ${quote(leaf.path.join('.'), 60)}` }
      if (chunk.file_path !== undefined) {
        throw new InputError(
          where,
          `is stored in another file (${quote(chunk.file_path, 60)})`,
          `write the table as one self-contained Parquet file; ${PARQUET_HINT}`
        )
      }
      const meta = chunk.meta_data
      if (meta === undefined) throw corruptParquet(where, 'has no column metadata (an encrypted column?)')
      if (!Array.isArray(meta.path_in_schema) || meta.path_in_schema.join('\u0000') !== leaf.path.join('\u0000')) {
        throw corruptParquet(
          where,
          `is stored under the path ${quote(Array.isArray(meta.path_in_schema) ? meta.path_in_schema.join('.') : null, 60)}, not the schema's`
        )
      }
      if (meta.type !== leaf.type)
        throw corruptParquet(where, `holds ${String(meta.type)} values but the schema says ${leaf.type}`)
      const values = footerInt(meta.num_values)
      if (values === undefined || (leaf.flat && values !== rows))
        throw corruptParquet(where, `holds ${String(meta.num_values)} values for ${rows} rows`)
      const dictionary = meta.dictionary_page_offset === undefined ? undefined : footerInt(meta.dictionary_page_offset)
      const data = footerInt(meta.data_page_offset)
      const length = footerInt(meta.total_compressed_size)
      // hyparquet reads a chunk from its dictionary page when there is one (an offset of 0 meaning none)
      const start = dictionary || data
      if (
        start === undefined ||
        data === undefined ||
        length === undefined ||
        (dictionary !== undefined && dictionary !== 0 && dictionary > data)
      ) {
        throw corruptParquet(
          where,
          `has an impossible place (data at ${String(meta.data_page_offset)}, dictionary at ${String(meta.dictionary_page_offset)}, ${String(meta.total_compressed_size)} bytes)`
        )
      }
      if (start < 4 || start + length > at.footerStart || data >= start + Math.max(length, 1)) {
        throw corruptParquet(
          where,
          `claims bytes ${start} to ${start + length} of a file of ${at.size} bytes whose column data ends at byte ${at.footerStart}`
        )
      }
      if (rows > 0 && length === 0) throw corruptParquet(where, `holds ${rows} rows in 0 bytes`)
    }
  }
  const declared = footerInt(metadata.num_rows)
  if (declared !== total)
    throw corruptParquet({ file }, `says it holds ${String(metadata.num_rows)} rows, but its row groups hold ${total}`)
  return groupRows
}

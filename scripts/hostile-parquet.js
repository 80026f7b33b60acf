/**
 * Hostile Parquet files, built byte by byte: a tiny Thrift compact-protocol encoder (the footer and the page
 * headers are Thrift structs) and a file builder that lays out `PAR1`, column chunks, the footer, its length and
 * `PAR1`, so a test can write exactly the lie it wants (a row group claiming 2^31 rows, one run-length run of
 * 2^28 values, 20,000 nested schema groups, a 16 MiB footer, a column chunk past the end of the file).
 * Used by the hostile tests (__tests__/hostile/parquet.test.ts, parquet-memory.slow.test.ts) and by
 * scripts/bench-hostile.js; nothing here is committed as a binary. Plain JavaScript so that both can import it.
 *
 * The layout follows the Parquet format's parquet.thrift (apache/parquet-format): FileMetaData {1: version,
 * 2: schema, 3: num_rows, 4: row_groups}, SchemaElement {1: type, 3: repetition_type, 4: name, 5: num_children,
 * 6: converted_type}, RowGroup {1: columns, 2: total_byte_size, 3: num_rows}, ColumnChunk {2: file_offset,
 * 3: meta_data}, ColumnMetaData {1: type, 2: encodings, 3: path_in_schema, 4: codec, 5: num_values,
 * 6: total_uncompressed_size, 7: total_compressed_size, 9: data_page_offset, 11: dictionary_page_offset},
 * PageHeader {1: type, 2: uncompressed_page_size, 3: compressed_page_size, 5: data_page_header,
 * 7: dictionary_page_header, 8: data_page_header_v2}. A file built here with honest numbers reads back exactly
 * (the tests check that against hyparquet-writer's output for the same table).
 */

// Thrift compact protocol type ids
const BOOL_TRUE = 1
const BOOL_FALSE = 2
const I32 = 5
const I64 = 6
const BINARY = 8
const LIST = 9
const STRUCT = 12

/** Parquet enums used here (parquet.thrift). */
export const TYPE = { BOOLEAN: 0, INT32: 1, INT64: 2, FLOAT: 4, DOUBLE: 5, BYTE_ARRAY: 6 }
export const REPETITION = { REQUIRED: 0, OPTIONAL: 1, REPEATED: 2 }
export const ENCODING = {
  PLAIN: 0,
  PLAIN_DICTIONARY: 2,
  RLE: 3,
  DELTA_BINARY_PACKED: 5,
  DELTA_BYTE_ARRAY: 7,
  RLE_DICTIONARY: 8
}
export const PAGE = { DATA_PAGE: 0, DICTIONARY_PAGE: 2, DATA_PAGE_V2: 3 }
export const CODEC = { UNCOMPRESSED: 0, SNAPPY: 1 }
const UTF8 = 0

// Thrift values: { t: type, v: value } (lists also carry the element type)
export const i32 = (v) => ({ t: I32, v })
export const i64 = (v) => ({ t: I64, v: BigInt(v) })
export const bin = (v) => ({ t: BINARY, v: typeof v === 'string' ? Buffer.from(v, 'utf8') : Buffer.from(v) })
export const bool = (v) => ({ t: v ? BOOL_TRUE : BOOL_FALSE, v })
export const list = (elem, items) => ({ t: LIST, elem, v: items })
/** A struct from `[fieldId, value]` pairs (undefined values are left out). */
export const struct = (fields) => ({ t: STRUCT, v: fields.filter(([, value]) => value !== undefined) })
export const LIST_OF = { i32: I32, i64: I64, bin: BINARY, struct: STRUCT }
/** A value of Thrift type `t` whose encoded payload is `bytes` as given (to write megabytes without an object each). */
export const raw = (t, bytes) => ({ t, raw: bytes })

/** Bytes in small arrays and big buffers, joined once at the end. */
class Out {
  parts = []
  cur = []
  push(...bytes) {
    for (const b of bytes) this.cur.push(b)
  }
  buffer(b) {
    this.flush()
    this.parts.push(b)
  }
  flush() {
    if (this.cur.length) this.parts.push(Buffer.from(this.cur))
    this.cur = []
  }
  bytes() {
    this.flush()
    return Buffer.concat(this.parts)
  }
}

/** Unsigned LEB128 of a non-negative bigint. */
function varint(out, n) {
  let x = BigInt(n)
  for (;;) {
    const low = Number(x & 0x7fn)
    x >>= 7n
    if (x === 0n) {
      out.push(low)
      return
    }
    out.push(low | 0x80)
  }
}

const zigzag = (n) => {
  const x = BigInt(n)
  return x >= 0n ? x << 1n : (-x << 1n) - 1n
}

function writeValue(out, value) {
  if (value.raw !== undefined) {
    out.buffer(value.raw)
    return
  }
  switch (value.t) {
    case I32:
    case I64:
      varint(out, zigzag(value.v))
      return
    case BINARY:
      varint(out, value.v.length)
      out.buffer(value.v)
      return
    case LIST: {
      const n = value.v.length
      if (n < 15) out.push((n << 4) | value.elem)
      else {
        out.push(0xf0 | value.elem)
        varint(out, n)
      }
      for (const item of value.v) writeValue(out, item)
      return
    }
    case STRUCT: {
      let last = 0
      for (const [id, field] of [...value.v].sort((a, b) => a[0] - b[0])) {
        const delta = id - last
        if (delta > 0 && delta <= 15) out.push((delta << 4) | field.t)
        else {
          out.push(field.t)
          varint(out, zigzag(id))
        }
        last = id
        if (field.t !== BOOL_TRUE && field.t !== BOOL_FALSE) writeValue(out, field)
      }
      out.push(0)
      return
    }
    default:
      throw new Error(`cannot encode Thrift type ${value.t}`)
  }
}

/** The compact-protocol bytes of a Thrift struct. */
export function encode(value) {
  const out = new Out()
  writeValue(out, value)
  return out.bytes()
}

// ---- page bodies

/** PLAIN BYTE_ARRAY values: a 4-byte little-endian length before each. */
export function plainStrings(values) {
  return Buffer.concat(
    values.map((s) => {
      const b = Buffer.from(s, 'utf8')
      const len = Buffer.alloc(4)
      len.writeUInt32LE(b.length)
      return Buffer.concat([len, b])
    })
  )
}

/** PLAIN DOUBLE values. */
export function plainDoubles(values) {
  const b = Buffer.alloc(8 * values.length)
  values.forEach((v, i) => b.writeDoubleLE(v, i * 8))
  return b
}

/** One run-length run of the RLE / bit-packed hybrid: `count` copies of `value` (one byte wide: bit widths <= 8). */
export function rleRun(count, value) {
  const out = []
  varint(out, BigInt(count) << 1n)
  out.push(value)
  return Buffer.from(out)
}

/** Levels or indices as the V1 data page writes them: a 4-byte length, then the hybrid runs. */
export function lengthPrefixed(runs) {
  const len = Buffer.alloc(4)
  len.writeUInt32LE(runs.length)
  return Buffer.concat([len, runs])
}

/** A page: its header (a Thrift PageHeader) then its body. `header` overrides any field. */
export function page({
  type = PAGE.DATA_PAGE,
  body,
  numValues,
  encoding = ENCODING.PLAIN,
  uncompressed,
  compressed,
  v2
}) {
  const sizes = [
    [1, i32(type)],
    [2, i32(uncompressed ?? body.length)],
    [3, i32(compressed ?? body.length)]
  ]
  if (type === PAGE.DATA_PAGE) {
    sizes.push([
      5,
      struct([
        [1, i32(numValues)],
        [2, i32(encoding)],
        [3, i32(ENCODING.RLE)],
        [4, i32(ENCODING.RLE)]
      ])
    ])
  } else if (type === PAGE.DICTIONARY_PAGE) {
    sizes.push([
      7,
      struct([
        [1, i32(numValues)],
        [2, i32(ENCODING.PLAIN)]
      ])
    ])
  } else if (type === PAGE.DATA_PAGE_V2) {
    sizes.push([
      8,
      struct([
        [1, i32(numValues)],
        [2, i32(v2.nulls)],
        [3, i32(v2.rows ?? numValues)],
        [4, i32(encoding)],
        [5, i32(v2.defBytes)],
        [6, i32(0)],
        [7, bool(false)]
      ])
    ])
  }
  return Buffer.concat([encode(struct(sizes)), body])
}

// ---- whole files

/** A flat column: its schema element and its chunk (encoded pages), with what the chunk's metadata says. */
export function column({
  name,
  type,
  optional = false,
  pages,
  numValues,
  codec = CODEC.UNCOMPRESSED,
  dictionary = false,
  encodings,
  chunkFields = []
}) {
  return {
    name,
    type,
    optional,
    pages: Buffer.concat(pages),
    numValues,
    codec,
    dictionary,
    encodings: encodings ?? [ENCODING.PLAIN, ENCODING.RLE],
    chunkFields
  }
}

/** A SchemaElement of a leaf column. */
export function leaf(c) {
  return struct([
    [1, i32(c.type)],
    [3, i32(c.optional ? REPETITION.OPTIONAL : REPETITION.REQUIRED)],
    [4, bin(c.name)],
    [6, c.type === TYPE.BYTE_ARRAY ? i32(UTF8) : undefined]
  ])
}

/**
 * A Parquet file of flat columns. `groups`: row groups, each `{ rows, columns }`; every group has the same
 * columns. `patch(meta)` may change the footer before it is encoded: `meta.chunks[g][c]` (the ColumnMetaData
 * fields of a chunk, [id, value] pairs), `meta.rowGroups[g]` (`rows`, `bytes`, `cols`), `meta.numRows`,
 * `meta.schema`, `meta.extra` (more FileMetaData fields). `schema` replaces the schema list; `footer` replaces
 * the footer bytes whole.
 */
export function parquetFile({ groups, patch, schema, footer, numRows }) {
  const parts = [Buffer.from('PAR1')]
  let offset = 4
  const rowGroups = []
  const chunks = []
  for (const g of groups) {
    const cols = []
    const metas = []
    for (const c of g.columns) {
      const start = offset
      parts.push(c.pages)
      offset += c.pages.length
      const meta = [
        [1, i32(c.type)],
        [2, list(I32, c.encodings.map(i32))],
        [3, list(BINARY, [bin(c.name)])],
        [4, i32(c.codec)],
        [5, i64(c.numValues)],
        [6, i64(c.pages.length)],
        [7, i64(c.pages.length)],
        [9, i64(start)]
      ]
      if (c.dictionary) meta.push([11, i64(start)])
      metas.push(meta)
      cols.push({ meta, fields: c.chunkFields })
    }
    chunks.push(metas)
    rowGroups.push({ rows: g.rows, cols })
  }
  const first = groups[0]?.columns ?? []
  const meta = {
    version: 1,
    schema: schema ?? [
      struct([
        [4, bin('schema')],
        [5, i32(first.length)]
      ]),
      ...first.map(leaf)
    ],
    chunks,
    rowGroups,
    numRows: numRows ?? groups.reduce((n, g) => n + BigInt(g.rows), 0n),
    extra: []
  }
  patch?.(meta)
  const fileMeta = struct([
    [1, i32(meta.version)],
    [2, list(STRUCT, meta.schema)],
    [3, i64(meta.numRows)],
    [
      4,
      list(
        STRUCT,
        meta.rowGroups.map((g) =>
          struct([
            [
              1,
              list(
                STRUCT,
                g.cols.map((c) => struct([...c.fields, [2, i64(0)], [3, struct(c.meta)]]))
              )
            ],
            [2, i64(g.bytes ?? g.cols.reduce((n, c) => n + Number(c.meta.find(([id]) => id === 6)[1].v), 0))],
            [3, i64(g.rows)]
          ])
        )
      )
    ],
    ...meta.extra
  ])
  const footerBytes = footer ?? encode(fileMeta)
  const len = Buffer.alloc(4)
  len.writeUInt32LE(footerBytes.length)
  parts.push(footerBytes, len, Buffer.from('PAR1'))
  return Buffer.concat(parts)
}

/** The ids `q1`..`qN` as a REQUIRED string column in one PLAIN page. */
export function idColumn(n, name = 'query_id', first = 1) {
  const ids = Array.from({ length: n }, (_, i) => `q${i + first}`)
  return column({ name, type: TYPE.BYTE_ARRAY, pages: [page({ body: plainStrings(ids), numValues: n })], numValues: n })
}

/** `values` as a REQUIRED DOUBLE column in one PLAIN page. */
export function doubleColumn(name, values) {
  return column({
    name,
    type: TYPE.DOUBLE,
    pages: [page({ body: plainDoubles(values), numValues: values.length })],
    numValues: values.length
  })
}

/** A per-query table `query_id, m` of `n` rows (m = 0.5), honest: the reader must accept it. */
export function honestTable(n = 3) {
  return parquetFile({ groups: [{ rows: n, columns: [idColumn(n), doubleColumn('m', Array(n).fill(0.5))] }] })
}

// ---- the hostile files of issue 24, item 8

/**
 * A ~250-byte table of 3 rows whose optional `m` column's definition levels are one run-length run of
 * `count` values (2^28 in the issue): hyparquet writes every value of the run, whatever the page declared.
 */
export function rleRunTable(count = 2 ** 28) {
  const body = Buffer.concat([lengthPrefixed(rleRun(count, 1)), plainDoubles([0.5, 0.5, 0.5])])
  const m = column({
    name: 'm',
    type: TYPE.DOUBLE,
    optional: true,
    pages: [page({ body, numValues: 3 })],
    numValues: 3
  })
  return parquetFile({ groups: [{ rows: 3, columns: [idColumn(3), m] }] })
}

/** A 3-row table whose row group (and footer) claim `rows` rows (2^31 in the issue). */
export function claimedRowsTable(rows = 2 ** 31) {
  return parquetFile({ groups: [{ rows, columns: [idColumn(3), doubleColumn('m', [0.5, 0.5, 0.5])] }] })
}

/** A footer whose schema is `depth` nested optional groups around one leaf (20,000 in the issue). */
export function nestedSchemaFile(depth = 20000) {
  const schema = [
    struct([
      [4, bin('schema')],
      [5, i32(1)]
    ])
  ]
  for (let i = 0; i < depth; i++) {
    schema.push(
      struct([
        [3, i32(REPETITION.OPTIONAL)],
        [4, bin(`g${i}`)],
        [5, i32(1)]
      ])
    )
  }
  schema.push(leaf({ name: 'm', type: TYPE.DOUBLE, optional: true }))
  return parquetFile({ groups: [], schema, numRows: 0 })
}

/** A footer of about `bytes` bytes (16 MiB in the issue): a key_value_metadata list of empty KeyValue structs. */
export function bigFooterTable(bytes = 16 * 1024 * 1024 - 64) {
  return parquetFile({
    groups: [{ rows: 3, columns: [idColumn(3), doubleColumn('m', [0.5, 0.5, 0.5])] }],
    patch: (meta) => {
      // a list header (0xf0 | STRUCT, then the size as a varint), then one STOP byte per empty struct
      const n = Math.max(0, bytes - 200)
      const size = []
      varint(size, n)
      meta.extra.push([5, raw(LIST, Buffer.concat([Buffer.from([0xf0 | STRUCT, ...size]), Buffer.alloc(n)]))])
    }
  })
}

/** A 3-row table whose `m` chunk starts `past` bytes after the end of the file. */
export function chunkPastEndTable(past = 1000) {
  return parquetFile({
    groups: [{ rows: 3, columns: [idColumn(3), doubleColumn('m', [0.5, 0.5, 0.5])] }],
    patch: (meta) => {
      const m = meta.chunks[0][1]
      const at = m.find(([id]) => id === 9)
      at[1] = i64(1_000_000 + past)
    }
  })
}

/**
 * A 3-row table whose `m` page header carries an extra field 99 (a reader must skip unknown fields) holding the raw
 * Thrift `bytes` of type `t`: a list of millions of empty structs, or structs nested thousands deep, which hyparquet
 * parses on their word before the page is decoded.
 */
export function pageHeaderTable(t, bytes) {
  const body = plainDoubles([0.5, 0.5, 0.5])
  const header = encode(
    struct([
      [1, i32(PAGE.DATA_PAGE)],
      [2, i32(body.length)],
      [3, i32(body.length)],
      [
        5,
        struct([
          [1, i32(3)],
          [2, i32(ENCODING.PLAIN)],
          [3, i32(ENCODING.RLE)],
          [4, i32(ENCODING.RLE)]
        ])
      ],
      [99, raw(t, bytes)]
    ])
  )
  const m = column({ name: 'm', type: TYPE.DOUBLE, pages: [Buffer.concat([header, body])], numValues: 3 })
  return parquetFile({ groups: [{ rows: 3, columns: [idColumn(3), m] }] })
}

/** A page header holding a list of `count` empty structs (one STOP byte each). */
export function bigPageHeaderTable(count = 8 * 1024 * 1024) {
  const size = []
  varint(size, count)
  return pageHeaderTable(LIST, Buffer.concat([Buffer.from([0xf0 | STRUCT, ...size]), Buffer.alloc(count)]))
}

/** A page header with structs nested `depth` deep. */
export function nestedPageHeaderTable(depth = 20000) {
  return pageHeaderTable(STRUCT, Buffer.concat([Buffer.alloc(depth - 1, 0x10 | STRUCT), Buffer.alloc(depth)]))
}

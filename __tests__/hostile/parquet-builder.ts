/**
 * scripts/hostile-parquet.js (plain JavaScript: scripts/bench-hostile.js uses it too), imported by a computed
 * path and given the few types the tests use.
 */
type Thrift = { t: number; v?: unknown; raw?: Buffer }
type Column = { name: string; type: number; optional: boolean; pages: Buffer; numValues: number }
type Meta = {
  chunks: Array<Array<Array<[number, Thrift]>>>
  rowGroups: Array<{
    rows: number | bigint
    bytes?: number
    cols: Array<{ meta: Array<[number, Thrift]>; fields: Array<[number, Thrift]> }>
  }>
  numRows: number | bigint
  schema: Thrift[]
  extra: Array<[number, Thrift]>
}

export interface ParquetBuilder {
  TYPE: Record<'BOOLEAN' | 'INT32' | 'INT64' | 'FLOAT' | 'DOUBLE' | 'BYTE_ARRAY', number>
  REPETITION: Record<'REQUIRED' | 'OPTIONAL' | 'REPEATED', number>
  ENCODING: Record<
    'PLAIN' | 'PLAIN_DICTIONARY' | 'RLE' | 'DELTA_BINARY_PACKED' | 'DELTA_BYTE_ARRAY' | 'RLE_DICTIONARY',
    number
  >
  PAGE: Record<'DATA_PAGE' | 'DICTIONARY_PAGE' | 'DATA_PAGE_V2', number>
  CODEC: Record<'UNCOMPRESSED' | 'SNAPPY', number>
  LIST_OF: Record<'i32' | 'i64' | 'bin' | 'struct', number>
  i32(v: number): Thrift
  i64(v: number | bigint): Thrift
  bin(v: string | Uint8Array): Thrift
  list(elem: number, items: Thrift[]): Thrift
  struct(fields: Array<[number, Thrift | undefined]>): Thrift
  raw(t: number, bytes: Buffer): Thrift
  encode(value: Thrift): Buffer
  plainStrings(values: string[]): Buffer
  plainDoubles(values: number[]): Buffer
  rleRun(count: number, value: number): Buffer
  lengthPrefixed(runs: Buffer): Buffer
  page(p: {
    type?: number
    body: Buffer
    numValues?: number
    encoding?: number
    uncompressed?: number
    compressed?: number
    v2?: { nulls: number; rows?: number; defBytes: number }
  }): Buffer
  column(c: {
    name: string
    type: number
    optional?: boolean
    pages: Buffer[]
    numValues: number
    codec?: number
    dictionary?: boolean
    encodings?: number[]
    chunkFields?: Array<[number, Thrift]>
  }): Column
  leaf(c: { name: string; type: number; optional?: boolean }): Thrift
  parquetFile(f: {
    groups: Array<{ rows: number | bigint; columns: Column[] }>
    patch?: (meta: Meta) => void
    schema?: Thrift[]
    footer?: Buffer
    numRows?: number | bigint
  }): Buffer
  idColumn(n: number, name?: string, first?: number): Column
  doubleColumn(name: string, values: number[]): Column
  honestTable(n?: number): Buffer
  rleRunTable(count?: number): Buffer
  claimedRowsTable(rows?: number): Buffer
  nestedSchemaFile(depth?: number): Buffer
  bigFooterTable(bytes?: number): Buffer
  chunkPastEndTable(past?: number): Buffer
  bigPageHeaderTable(count?: number): Buffer
  nestedPageHeaderTable(depth?: number): Buffer
}

const builderModule = '../../scripts/hostile-parquet.js'
export const P = (await import(builderModule)) as ParquetBuilder

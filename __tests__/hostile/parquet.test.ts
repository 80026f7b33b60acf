/**
 * Hostile Parquet (issue 24, item 8): files built byte by byte (scripts/hostile-parquet.js, through
 * parquet-builder.ts) that lie in their footer or pages, through the in-process CLI. Each is refused with exit 2,
 * the file and (where known) the row group, column and page, what is wrong and what to do, in well under 2 s;
 * before the checks (src/readers/parquet-footer.ts, parquet-pages.ts) they cost gigabytes and minutes, a stack
 * trace, or were read as "missing values" (filled under `missing: zero`). Peak memory of the big claims is
 * measured in a child process by parquet-memory.slow.test.ts.
 */
import { describe, expect, it } from '@jest/globals'
import { parquetWriteBuffer } from 'hyparquet-writer'
import { readRows } from '../../src/readers/read.js'
import { rowsOf } from '../../src/model/rows.js'
import { writeFiles } from '../helpers.js'
import { RULES, runCase, type HostileCase } from './harness.js'
import { P } from './parquet-builder.js'

/** Missing values filled with 0: the policy under which a corrupt chunk read as "missing" turned into a verdict. */
const ZERO = RULES.replace('queries: { min_per_slice: 1 }', 'queries: { min_per_slice: 1, missing: zero }')
const args = [
  'gate',
  '--rules',
  '{rules.yml}',
  '--baseline',
  '{b.parquet}',
  '--candidate',
  '{c.parquet}',
  '--json',
  '{report.json}'
]
/** What to do, after the problem: rewrite the file with a Parquet writer's defaults, or as UTF-8 (every refusal here). */
const WHAT_TO_DO =
  /\. (the file is truncated or corrupt|a (footer|per-query)|such a footer|per-query rows|write|keep).*(pandas|pyarrow|UTF-8)/

/** A case: the honest table as baseline, `candidate` as the candidate, refused at `where` with `message` and what to do. */
function refused(name: string, candidate: Buffer, where: string, message: RegExp): HostileCase {
  return {
    name,
    files: { 'rules.yml': ZERO, 'b.parquet': P.honestTable(3), 'c.parquet': candidate },
    args,
    code: 2,
    where,
    message,
    check: (r) => expect(r.stderr).toMatch(WHAT_TO_DO)
  }
}

type ParquetBuilderColumn = typeof P.column

/** An optional DOUBLE column `m` of 3 rows in one v1 page with the given body (levels, then values). */
function optionalM(body: Buffer): ReturnType<ParquetBuilderColumn> {
  return P.column({
    name: 'm',
    type: P.TYPE.DOUBLE,
    optional: true,
    pages: [P.page({ body, numValues: 3 })],
    numValues: 3
  })
}

/** A table `query_id, m` of 3 rows with `m` as given. */
function withM(m: ReturnType<ParquetBuilderColumn>, patch?: Parameters<typeof P.parquetFile>[0]['patch']): Buffer {
  return P.parquetFile({ groups: [{ rows: 3, columns: [P.idColumn(3), m] }], patch })
}

/** A dictionary-encoded REQUIRED DOUBLE column `m`: a dictionary page of `dict`, then indices `indices` (runs). */
function dictionaryM(dict: number[], indices: Buffer, v2?: boolean): ReturnType<ParquetBuilderColumn> {
  const dictionary = P.page({ type: P.PAGE.DICTIONARY_PAGE, body: P.plainDoubles(dict), numValues: dict.length })
  const data = v2
    ? P.page({
        type: P.PAGE.DATA_PAGE_V2,
        body: indices,
        numValues: 3,
        encoding: P.ENCODING.RLE_DICTIONARY,
        v2: { nulls: 0, defBytes: 0 }
      })
    : P.page({ body: indices, numValues: 3, encoding: P.ENCODING.RLE_DICTIONARY })
  return P.column({
    name: 'm',
    type: P.TYPE.DOUBLE,
    pages: [dictionary, data],
    numValues: 3,
    dictionary: true,
    encodings: [P.ENCODING.PLAIN, P.ENCODING.RLE_DICTIONARY]
  })
}

/** Nested Thrift structs `depth` deep, as the raw bytes of one struct field. */
function nestedStructs(depth: number): Buffer {
  return Buffer.concat([Buffer.alloc(depth - 1, 0x1c), Buffer.alloc(depth, 0)])
}

const CASES: HostileCase[] = [
  // --- the four found in issue 24
  refused(
    'one run-length run of 2^28 definition levels in a 3-value page (2.7 GB before)',
    P.rleRunTable(2 ** 28),
    'c.parquet (row group 1, column "m", page 1)',
    /has a run of 268435456 definition levels with only 3 left/
  ),
  refused(
    'a row group that claims 2^31 rows in a 200-byte file',
    P.claimedRowsTable(2 ** 31),
    'c.parquet (row group 1)',
    /claims 2147483648 rows up to here in a file of \d+ bytes; a Parquet table holds at most 64 rows per byte/
  ),
  refused(
    '20,000 nested schema groups (a stack trace, exit 3, before)',
    P.nestedSchemaFile(20000),
    'c.parquet',
    /has a Parquet schema of 20002 elements; the limit is 10000/
  ),
  refused(
    '40 nested schema groups: deeper than the schema depth cap',
    P.nestedSchemaFile(40),
    'c.parquet',
    /has a Parquet schema nested deeper than 32 levels/
  ),
  refused(
    'a 16 MiB footer (1.4 GB before) is refused by its size before it is read',
    P.bigFooterTable(16 * 1024 * 1024 - 64),
    'c.parquet',
    /has a Parquet footer of \d+ bytes; the limit is 8388608/
  ),
  refused(
    'an 8 MiB footer of 8 million empty structs is refused by its value count',
    P.bigFooterTable(8 * 1024 * 1024 - 64),
    'c.parquet',
    /has a Parquet footer that holds more than 500000 values \(the limit\)/
  ),
  refused(
    'a column chunk past the end of the file is corrupt, not missing values (filled with 0 before)',
    P.chunkPastEndTable(1000),
    'c.parquet (row group 1, column "m")',
    /claims bytes 1001000 to \d+ of a file of \d+ bytes/
  ),
  // --- the class: what the footer says, against the file
  refused(
    'a row group without the chunk of one column (missing values before)',
    withM(P.doubleColumn('m', [0.5, 0.5, 0.5]), (meta) => void meta.rowGroups[0].cols.pop()),
    'c.parquet (row group 1)',
    /has 1 column chunks for the schema's 2 columns/
  ),
  refused(
    'a column chunk that holds fewer values than its row group (missing values before)',
    P.parquetFile({
      groups: [
        {
          rows: 5,
          columns: [
            P.idColumn(5),
            P.column({
              name: 'm',
              type: P.TYPE.DOUBLE,
              pages: [P.page({ body: P.plainDoubles([0.5, 0.5, 0.5]), numValues: 3 })],
              numValues: 5
            })
          ]
        }
      ]
    }),
    'c.parquet (row group 1, column "m", page 2)',
    /is missing: the column chunk ends after 3 of the row group's 5 values/
  ),
  refused(
    'a chunk whose metadata counts other values than the rows',
    withM(P.doubleColumn('m', [0.5, 0.5, 0.5]), (meta) => void (meta.chunks[0][1][4][1] = P.i64(7))),
    'c.parquet (row group 1, column "m")',
    /holds 7 values for 3 rows/
  ),
  refused(
    'a chunk stored in another file',
    P.parquetFile({
      groups: [
        {
          rows: 3,
          columns: [
            P.idColumn(3),
            P.column({
              name: 'm',
              type: P.TYPE.DOUBLE,
              pages: [P.page({ body: P.plainDoubles([0.5, 0.5, 0.5]), numValues: 3 })],
              numValues: 3,
              chunkFields: [[1, P.bin('../other.parquet')]]
            })
          ]
        }
      ]
    }),
    'c.parquet (row group 1, column "m")',
    /is stored in another file \("\.\.\/other\.parquet"\)/
  ),
  refused(
    'a row group that declares 1 GiB uncompressed',
    withM(P.doubleColumn('m', [0.5, 0.5, 0.5]), (meta) => void (meta.rowGroups[0].bytes = 2 ** 30)),
    'c.parquet (row group 1)',
    /holds 1073741824 bytes uncompressed; the limit is 268435456/
  ),
  refused(
    'row groups that add up to other rows than the footer says',
    withM(P.doubleColumn('m', [0.5, 0.5, 0.5]), (meta) => void (meta.numRows = 4)),
    'c.parquet',
    /says it holds 4 rows, but its row groups hold 3/
  ),
  refused(
    'a schema that ends inside a group',
    P.parquetFile({
      groups: [],
      numRows: 0,
      schema: [
        P.struct([
          [4, P.bin('schema')],
          [5, P.i32(3)]
        ]),
        P.leaf({ name: 'm', type: P.TYPE.DOUBLE })
      ]
    }),
    'c.parquet',
    /schema that ends after 2 elements inside a group/
  ),
  refused(
    'a column named twice',
    P.parquetFile({
      groups: [],
      numRows: 0,
      schema: [
        P.struct([
          [4, P.bin('schema')],
          [5, P.i32(2)]
        ]),
        P.leaf({ name: 'm', type: P.TYPE.DOUBLE }),
        P.leaf({ name: 'm', type: P.TYPE.DOUBLE })
      ]
    }),
    'c.parquet',
    /names "m" twice/
  ),
  refused(
    'Thrift structs nested 20,000 deep in the footer',
    withM(P.doubleColumn('m', [0.5, 0.5, 0.5]), (meta) => void meta.extra.push([99, P.raw(12, nestedStructs(20000))])),
    'c.parquet',
    /nests structs and lists deeper than 16 \(the limit\)/
  ),
  refused(
    'a footer list that claims 2^31 elements in a few bytes',
    withM(
      P.doubleColumn('m', [0.5, 0.5, 0.5]),
      (meta) => void meta.extra.push([5, P.raw(9, Buffer.from([0xfc, 0x80, 0x80, 0x80, 0x80, 0x08, 0, 0]))])
    ),
    'c.parquet',
    /has a list size of 2147483648 at byte \d+, but only \d+ bytes follow/
  ),
  // --- the class: what a page says, against the page
  refused(
    'a page whose compressed size runs past its chunk',
    withM(
      P.column({
        name: 'm',
        type: P.TYPE.DOUBLE,
        pages: [P.page({ body: P.plainDoubles([0.5, 0.5, 0.5]), numValues: 3, compressed: 100000 })],
        numValues: 3
      })
    ),
    'c.parquet (row group 1, column "m", page 1)',
    /claims 100000 bytes, but the column chunk has 24 left/
  ),
  refused(
    'a page header of 1 Mi empty structs (8 Mi: 2.8 s and 631 MB in hyparquet alone) is refused by its value count',
    P.bigPageHeaderTable(1024 * 1024),
    'c.parquet (row group 1, column "m", page 1)',
    /has a page header that holds more than 1000 values \(the limit\)/
  ),
  refused(
    'a page header of structs nested 20,000 deep (a stack overflow in hyparquet alone)',
    P.nestedPageHeaderTable(20000),
    'c.parquet (row group 1, column "m", page 1)',
    /has a page header that nests structs and lists deeper than 8 \(the limit\)/
  ),
  refused(
    'a chunk compressed with zstd (not read) is refused by its codec name',
    withM(
      P.column({
        name: 'm',
        type: P.TYPE.DOUBLE,
        codec: 6,
        pages: [P.page({ body: Buffer.from([0x28, 0xb5]), numValues: 3, uncompressed: 24 })],
        numValues: 3
      })
    ),
    'c.parquet (row group 1, column "m")',
    /is Parquet compressed with ZSTD, which is not read/
  ),
  refused(
    'a snappy page that claims 2 GiB uncompressed',
    withM(
      P.column({
        name: 'm',
        type: P.TYPE.DOUBLE,
        codec: P.CODEC.SNAPPY,
        pages: [P.page({ body: Buffer.from([0x18, 0x5c]), numValues: 3, uncompressed: 2 ** 31 - 1 })],
        numValues: 3
      })
    ),
    'c.parquet (row group 1, column "m", page 1)',
    /claims 2147483647 bytes uncompressed; a page is at most 33554432/
  ),
  refused(
    'a page that claims 2^24 values',
    withM(
      P.column({
        name: 'm',
        type: P.TYPE.DOUBLE,
        optional: true,
        pages: [
          P.page({
            body: Buffer.concat([P.lengthPrefixed(P.rleRun(2 ** 24, 1)), P.plainDoubles([0.5])]),
            numValues: 2 ** 24
          })
        ],
        numValues: 3
      })
    ),
    'c.parquet (row group 1, column "m", page 1)',
    /claims 16777216 values; a page holds at most 1048576/
  ),
  refused(
    'a definition level out of range (a null, so a missing value, before)',
    withM(optionalM(Buffer.concat([P.lengthPrefixed(P.rleRun(3, 3)), P.plainDoubles([0.5, 0.5, 0.5])]))),
    'c.parquet (row group 1, column "m", page 1)',
    /has definition levels value 3, more than 1/
  ),
  refused(
    'definition levels in the deprecated BIT_PACKED encoding (misread by hyparquet)',
    withM(
      P.column({
        name: 'm',
        type: P.TYPE.DOUBLE,
        optional: true,
        pages: [
          Buffer.concat([
            P.encode(
              P.struct([
                [1, P.i32(0)],
                [2, P.i32(29)],
                [3, P.i32(29)],
                [
                  5,
                  P.struct([
                    [1, P.i32(3)],
                    [2, P.i32(0)],
                    [3, P.i32(4)],
                    [4, P.i32(4)]
                  ])
                ]
              ])
            ),
            Buffer.from([0x07, 0, 0, 0, 0]),
            P.plainDoubles([0.5, 0.5, 0.5])
          ])
        ],
        numValues: 3
      })
    ),
    'c.parquet (row group 1, column "m", page 1)',
    /has definition levels in the BIT_PACKED encoding, which is not read/
  ),
  refused(
    'an index page where a data page must be',
    withM(
      P.column({
        name: 'm',
        type: P.TYPE.DOUBLE,
        pages: [
          P.encode(
            P.struct([
              [1, P.i32(1)],
              [2, P.i32(0)],
              [3, P.i32(0)]
            ])
          )
        ],
        numValues: 3
      })
    ),
    'c.parquet (row group 1, column "m", page 1)',
    /has page type INDEX_PAGE, which is not read/
  ),
  refused(
    'PLAIN values fewer than the page holds (read from the next page before)',
    withM(
      P.column({
        name: 'm',
        type: P.TYPE.DOUBLE,
        pages: [P.page({ body: P.plainDoubles([0.5, 0.5]), numValues: 3 })],
        numValues: 3
      })
    ),
    'c.parquet (row group 1, column "m", page 1)',
    /holds 16 bytes for 3 values of 8 bytes/
  ),
  refused(
    'a dictionary index past the dictionary (undefined, so missing, before)',
    withM(dictionaryM([0.5], Buffer.concat([Buffer.from([1]), P.rleRun(3, 1)]))),
    'c.parquet (row group 1, column "m", page 2)',
    /has dictionary indices value 1, more than 0/
  ),
  refused(
    'a run of 2^28 dictionary indices',
    withM(dictionaryM([0.5], Buffer.concat([Buffer.from([1]), P.rleRun(2 ** 28, 0)]))),
    'c.parquet (row group 1, column "m", page 2)',
    /has a run of 268435456 dictionary indices with only 3 left/
  ),
  refused(
    'a v2 page of 0-bit dictionary indices in one bit-packed run of 2^30 (a 2^30-step loop before)',
    withM(dictionaryM([0.5], Buffer.concat([Buffer.from([0]), Buffer.from([0x81, 0x80, 0x80, 0x80, 0x01])]), true)),
    'c.parquet (row group 1, column "m", page 2)',
    /has a bit-packed run of 1073741824 dictionary indices with only 3 left/
  ),
  refused(
    'a 1-bit bit-packed run padded past the values whose bytes are not in the page',
    withM(dictionaryM([0.5, 0.75], Buffer.concat([Buffer.from([1]), Buffer.from([0x41, 0x02])]))),
    'c.parquet (row group 1, column "m", page 2)',
    /has a bit-packed run of 32 bytes with 1 left/
  ),
  refused(
    'a v2 page whose null count disagrees with its levels (values shifted before)',
    withM(
      P.column({
        name: 'm',
        type: P.TYPE.DOUBLE,
        optional: true,
        pages: [
          P.page({
            type: P.PAGE.DATA_PAGE_V2,
            body: Buffer.concat([P.rleRun(3, 1), P.plainDoubles([0.5, 0.5, 0.5])]),
            numValues: 3,
            v2: { nulls: 1, defBytes: 2 }
          })
        ],
        numValues: 3
      })
    ),
    'c.parquet (row group 1, column "m", page 1)',
    /says 1 nulls, its definition levels say 0/
  ),
  refused(
    'an encoding that allocates what it declares (DELTA_BYTE_ARRAY) is not read',
    P.parquetFile({
      groups: [
        {
          rows: 3,
          columns: [
            P.column({
              name: 'query_id',
              type: P.TYPE.BYTE_ARRAY,
              pages: [
                P.page({
                  body: Buffer.from([0x80, 0x01, 0x04, 0x03, 0x00]),
                  numValues: 3,
                  encoding: P.ENCODING.DELTA_BYTE_ARRAY
                })
              ],
              numValues: 3
            }),
            P.doubleColumn('m', [0.5, 0.5, 0.5])
          ]
        }
      ]
    }),
    'c.parquet (row group 1, column "query_id")',
    /is written in the DELTA_BYTE_ARRAY encoding, which is not read/
  ),
  refused(
    'a query id that is not UTF-8',
    P.parquetFile({
      groups: [
        {
          rows: 3,
          columns: [
            P.column({
              name: 'query_id',
              type: P.TYPE.BYTE_ARRAY,
              pages: [
                P.page({
                  body: Buffer.concat([P.plainStrings(['q1', 'q2']), Buffer.from([2, 0, 0, 0, 0xc3, 0x28])]),
                  numValues: 3
                })
              ],
              numValues: 3
            }),
            P.doubleColumn('m', [0.5, 0.5, 0.5])
          ]
        }
      ]
    }),
    'c.parquet (row group 1)',
    /holds text that is not valid UTF-8/
  ),
  {
    name: 'a list column named as the metric is refused as not one value per row',
    files: {
      'rules.yml': ZERO,
      'b.parquet': P.honestTable(3),
      'c.parquet': P.parquetFile({
        groups: [
          {
            rows: 3,
            columns: [
              P.idColumn(3),
              P.column({ name: 'element', type: P.TYPE.DOUBLE, pages: [Buffer.from('xx')], numValues: 3 })
            ]
          }
        ],
        patch: (meta) => {
          meta.schema = [
            P.struct([
              [4, P.bin('schema')],
              [5, P.i32(2)]
            ]),
            P.leaf({ name: 'query_id', type: P.TYPE.BYTE_ARRAY }),
            P.struct([
              [3, P.i32(P.REPETITION.OPTIONAL)],
              [4, P.bin('m')],
              [5, P.i32(1)]
            ]),
            P.struct([
              [1, P.i32(P.TYPE.DOUBLE)],
              [3, P.i32(P.REPETITION.REPEATED)],
              [4, P.bin('element')]
            ])
          ]
          meta.chunks[0][1][2][1] = P.list(P.LIST_OF.bin, [P.bin('m'), P.bin('element')])
        }
      })
    },
    args,
    code: 2,
    where: 'c.parquet',
    message: /column "m" is a list, struct or repeated column, not one value per row/
  },
  // --- honest files built the same way are read exactly (the builder tells the truth when asked to)
  {
    name: 'an honest table from the same builder is read',
    files: { 'rules.yml': ZERO, 'b.parquet': P.honestTable(3), 'c.parquet': P.honestTable(3) },
    args,
    code: 0
  },
  {
    name: 'honest v1 and v2 pages, dictionary and optional, are read',
    files: {
      'rules.yml': ZERO,
      'b.parquet': withM(dictionaryM([0.25, 0.5], Buffer.concat([Buffer.from([1]), P.rleRun(3, 1)]))),
      'c.parquet': withM(
        P.column({
          name: 'm',
          type: P.TYPE.DOUBLE,
          optional: true,
          pages: [
            P.page({
              type: P.PAGE.DATA_PAGE_V2,
              body: Buffer.concat([P.rleRun(3, 1), P.plainDoubles([0.5, 0.5, 0.5])]),
              numValues: 3,
              v2: { nulls: 0, defBytes: 2 }
            })
          ],
          numValues: 3
        })
      )
    },
    args,
    code: 0,
    check: (r) => expect(r.report?.comparisons[0].candidate).toBe(0.5)
  }
]

describe('hostile Parquet: refused with exit 2, the file, row group, column and page, in well under 2 s', () => {
  for (const c of CASES) {
    it(c.name, async () => {
      const start = Date.now()
      await runCase(c)
      expect(Date.now() - start).toBeLessThan(2000)
    })
  }
})

describe('honest Parquet is read exactly through the checks', () => {
  it('a bit-packed run padded past the page’s values, as DuckDB writes its last run (256 indices for 3 values), is read', async () => {
    // Bit width 1, one bit-packed run of 32 groups (header (32 << 1) | 1 = 0x41) and its 32 bytes: indices 0, 1, 0.
    const indices = Buffer.concat([Buffer.from([1, 0x41, 0b010]), Buffer.alloc(31)])
    const f = writeFiles({ 'padded.parquet': withM(dictionaryM([0.5, 0.75], indices)) })
    const side = rowsOf(
      await readRows(f['padded.parquet'], { metricFields: new Set(['m']), keepAttributes: new Set() })
    )
    expect(side.map((r) => r.values.get('m'))).toEqual([0.5, 0.75, 0.5])
  })

  it('200 row groups of 20 columns are read, every group (1,000 such groups: a 1.36 MB footer of 464,130 values)', async () => {
    const groups = 200
    const ids = Array.from({ length: groups * 2 }, (_, i) => `q${i}`)
    const columnData = [
      { name: 'query_id', type: 'STRING' as const, data: ids },
      ...Array.from({ length: 19 }, (_, c) => ({
        name: `m${c}`,
        type: 'DOUBLE' as const,
        data: ids.map((_, i) => ((i + c) % 97) / 97)
      }))
    ]
    const f = writeFiles({ 'many.parquet': Buffer.from(parquetWriteBuffer({ columnData, rowGroupSize: 2 })) })
    const side = rowsOf(await readRows(f['many.parquet'], { metricFields: new Set(['m3']), keepAttributes: new Set() }))
    expect(side).toHaveLength(groups * 2)
    expect(side[groups * 2 - 1].values.get('m3')).toBe(((groups * 2 - 1 + 3) % 97) / 97)
  })
})

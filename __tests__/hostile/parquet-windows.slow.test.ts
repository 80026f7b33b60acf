/**
 * An honest Parquet row group larger than one decoding window (slow: 150,000 rows are written and read): every row
 * read once, in order, through the page checks. The hostile cases are in parquet.test.ts.
 */
import { describe, expect, it } from '@jest/globals'
import { parquetWriteBuffer } from 'hyparquet-writer'
import { readRows } from '../../src/readers/read.js'
import { rowsOf } from '../../src/model/rows.js'
import { writeFiles } from '../helpers.js'

describe('honest Parquet is read exactly through the checks', () => {
  it('a row group of 150,000 rows read in two windows (8 columns: 131,072 rows each), pages, nulls, a dictionary: every row once', async () => {
    const n = 150_000
    const ids = Array.from({ length: n }, (_, i) => `q${i}`)
    const m = ids.map((_, i) => (i % 7 === 0 ? null : (i % 100) / 100))
    const seg = ids.map((_, i) => ['a', 'b', 'c'][i % 3])
    const extra = Array.from({ length: 5 }, (_, c) => ({
      name: `x${c}`,
      type: 'DOUBLE' as const,
      data: ids.map((_, i) => (i % (c + 2)) / 10)
    }))
    const file = Buffer.from(
      parquetWriteBuffer({
        columnData: [
          { name: 'query_id', type: 'STRING', data: ids },
          { name: 'm', type: 'DOUBLE', data: m },
          { name: 'seg', type: 'STRING', data: seg },
          ...extra
        ],
        rowGroupSize: n,
        pageSize: 8192
      })
    )
    const f = writeFiles({ 'big.parquet': file })
    const metrics = new Set(['m', ...extra.map((x) => x.name)])
    const side = rowsOf(await readRows(f['big.parquet'], { metricFields: metrics, keepAttributes: new Set(['seg']) }))
    expect(side).toHaveLength(n)
    for (const i of [0, 1, 6, 7, 65_535, 131_071, 131_072, 131_073, n - 1]) {
      expect(side[i].id).toBe(ids[i])
      expect(side[i].values.get('m') ?? null).toBe(m[i])
      expect(side[i].values.get('x3')).toBe(extra[3].data[i])
      expect(side[i].attrs.get('seg')).toBe(seg[i])
    }
  })
})

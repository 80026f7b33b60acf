/**
 * A Parquet row has no line: a refusal about it names the file and the query, never a `file:0` that reads as a
 * line (differential red-team, 2026-12-04: `missing metric values: "q3" (c.parquet:0, recall@10)`).
 */
import { describe, expect, it } from '@jest/globals'
import { parquetWriteBuffer } from 'hyparquet-writer'
import { cli, writeFiles } from '../helpers.js'

const RULES =
  'version: 1\nmetrics:\n  recall@10: { better: higher, range: [0, 1] }\nchecks:\n  - { name: c, metric: recall@10, non_inferior: { margin: 0.1 } }\n'

function table(values: Array<number | null>): Buffer {
  return Buffer.from(
    parquetWriteBuffer({
      columnData: [
        { name: 'query_id', type: 'STRING', data: values.map((_, i) => `q${i}`) },
        { name: 'recall@10', type: 'DOUBLE', data: values }
      ]
    })
  )
}

async function refusal(candidate: Array<number | null>): Promise<string> {
  const base = Array.from({ length: 40 }, (_, i) => (i % 7) / 10)
  const f = writeFiles({ 'r.yml': RULES, 'b.parquet': table(base), 'c.parquet': table(candidate) })
  const r = await cli(['gate', '--rules', f['r.yml'], '--baseline', f['b.parquet'], '--candidate', f['c.parquet']])
  expect(r.code).toBe(2)
  return r.stderr
}

describe('where a Parquet row stands in a refusal', () => {
  it('a missing value: the file and the query, no :0', async () => {
    const values: Array<number | null> = Array.from({ length: 40 }, (_, i) => (i % 5) / 10)
    values[3] = null
    const err = await refusal(values)
    expect(err).toMatch(/missing metric values: "q3" \([^()]*c\.parquet, recall@10\)/)
    expect(err).not.toMatch(/\.parquet:0/)
  })

  it('a value outside the range: the file and the query, no :0', async () => {
    const values = Array.from({ length: 40 }, (_, i) => (i % 5) / 10)
    values[7] = 2
    const err = await refusal(values)
    expect(err).toMatch(/c\.parquet.*recall@10 = 2 is outside its range \[0, 1\].*q7/)
    expect(err).not.toMatch(/\.parquet:0/)
  })
})

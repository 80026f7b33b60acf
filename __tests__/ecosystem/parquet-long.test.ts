/**
 * Per-query rows in long (tidy) form stored as Parquet (`qid, measure, value` + attribute columns, as
 * `df.melt(...).to_parquet(...)` gives them; fixtures written by __tests__/fixtures/parquet/make-fixtures.js): read
 * like long-form CSV, so the gate's reports are byte-identical to those of the same data as a wide Parquet table.
 * A measure repeated for a query and an attribute that varies within a query are refused with both row numbers.
 */
import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { describe, expect, it } from '@jest/globals'
import { parquetWriteBuffer } from 'hyparquet-writer'
import { readRows } from '../../src/readers/read.js'
import { cli, hasStackTrace, withoutInputFormats, writeFiles } from '../helpers.js'
import { rowsOf } from '../../src/model/rows.js'

const fx = join(process.cwd(), '__tests__', 'fixtures', 'parquet')
const rules = join(process.cwd(), 'examples', 'rules.yml')

function table(
  columns: Array<{ name: string; type: 'STRING' | 'DOUBLE'; data: Array<string | number | null> }>
): Buffer {
  return Buffer.from(parquetWriteBuffer({ columnData: columns }))
}

describe('long-form Parquet', () => {
  it('gates byte-identically to the same data as a wide Parquet table (Markdown and JSON), detected or named with --input-format long', async () => {
    const wide = writeFiles({
      b: readFileSync(join(fx, 'baseline.parquet')),
      c: readFileSync(join(fx, 'candidate.parquet'))
    })
    const long = writeFiles({
      b: readFileSync(join(fx, 'baseline-long.parquet')),
      c: readFileSync(join(fx, 'candidate-long.parquet'))
    })
    const home = process.cwd()
    const run = async (
      dir: string,
      format: string,
      extra: string[] = []
    ): Promise<{ code: number; stdout: string; stderr: string }> => {
      process.chdir(dir)
      try {
        return await cli([
          'gate',
          '--rules',
          rules,
          '--baseline',
          'b',
          '--candidate',
          'c',
          '--format',
          format,
          ...extra
        ])
      } finally {
        process.chdir(home)
      }
    }
    for (const format of ['markdown', 'json']) {
      const fromWide = await run(dirname(wide.b), format)
      const fromLong = await run(dirname(long.b), format)
      expect(fromLong.stderr).toBe('')
      expect([0, 1]).toContain(fromLong.code)
      expect(fromLong.code).toBe(fromWide.code)
      expect(fromLong.stdout.length).toBeGreaterThan(100)
      // the same report, except that the JSON one names the format each was read as
      expect(withoutInputFormats(fromLong.stdout)).toBe(withoutInputFormats(fromWide.stdout))
      const named = await run(dirname(long.b), format, ['--input-format', 'long'])
      expect(withoutInputFormats(named.stdout)).toBe(withoutInputFormats(fromWide.stdout))
      if (format === 'json') {
        const name = (r: { stdout: string }): string =>
          (JSON.parse(r.stdout) as { inputs: { formats: { baseline: { name: string; by: string } } } }).inputs.formats
            .baseline.name
        expect([name(fromWide), name(fromLong), name(named)]).toEqual(['parquet', 'parquet-long', 'parquet-long'])
      }
    }
  })

  it('pivots rows in order of first appearance, measures from row groups apart', async () => {
    const side = await readRows(join(fx, 'baseline-long.parquet'), {
      metricFields: new Set(['recall@10', 'hit@10']),
      keepAttributes: new Set(['segment'])
    })
    expect(rowsOf(side).length).toBe(400)
    expect([
      rowsOf(side)[0].id,
      rowsOf(side)[0].values.get('recall@10'),
      rowsOf(side)[0].values.get('hit@10'),
      rowsOf(side)[0].attrs.get('segment')
    ]).toEqual(['q0001', 0.7423, 1, 'established'])
  })

  it('refuses a measure repeated for a query and an attribute that varies within one, with both rows', async () => {
    const f = writeFiles({
      'rep.parquet': table([
        { name: 'qid', type: 'STRING', data: ['q1', 'q2', 'q1'] },
        { name: 'measure', type: 'STRING', data: ['ndcg', 'ndcg', 'ndcg'] },
        { name: 'value', type: 'DOUBLE', data: [0.5, 0.25, 0.75] }
      ]),
      'attr.parquet': table([
        { name: 'qid', type: 'STRING', data: ['q1', 'q1'] },
        { name: 'measure', type: 'STRING', data: ['ndcg', 'ap'] },
        { name: 'value', type: 'DOUBLE', data: [0.5, 0.25] },
        { name: 'segment', type: 'STRING', data: ['new', 'old'] }
      ])
    })
    await expect(readRows(f['rep.parquet'], { metricFields: new Set(['ndcg']) })).rejects.toThrow(
      /rep\.parquet:3: measure "ndcg" appears twice for query "q1" \(rows 1 and 3\)/
    )
    await expect(
      readRows(f['attr.parquet'], { metricFields: new Set(['ndcg', 'ap']), keepAttributes: new Set(['segment']) })
    ).rejects.toThrow(/attr\.parquet:2: attribute "segment" of query "q1" is "new" on row 1 and "old" on row 2/)
    const r = await cli(['gate', '--rules', rules, '--baseline', f['rep.parquet'], '--candidate', f['rep.parquet']])
    expect(r.code).toBe(2)
    expect(hasStackTrace(r.stderr)).toBe(false)
  })

  it('--input-format long on a wide table is refused, naming the columns it has', async () => {
    await expect(
      readRows(join(fx, 'baseline.parquet'), { metricFields: new Set(['recall@10']), format: 'long' })
    ).rejects.toThrow(
      /baseline\.parquet: is not long form: it needs a query id \(query_id or qid\), a measure .*found "query_id", "recall@10"/
    )
  })
})

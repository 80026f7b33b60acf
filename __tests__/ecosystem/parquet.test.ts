/**
 * Parquet per-query rows (src/readers/parquet.ts): the fixtures (__tests__/fixtures/parquet, written by
 * make-fixtures.js from examples/*.jsonl with hyparquet-writer, not by pandas: see its header) must gate
 * exactly like the same data as CSV and as JSON Lines, byte for byte; a truncated or corrupt file and a
 * repeated query id are refused with exit 2, the file name, and no stack trace.
 */
import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { describe, expect, it } from '@jest/globals'
import { parquetWriteBuffer } from 'hyparquet-writer'
import { readRows } from '../../src/readers/read.js'
import { computeRunRows, detectRunFormat, readQrels } from '../../src/metrics/index.js'
import { cli, hasStackTrace, withoutInputFormats, writeFiles } from '../helpers.js'
import { rowsOf } from '../../src/model/rows.js'

const fx = join(process.cwd(), '__tests__', 'fixtures', 'parquet')
const examples = join(process.cwd(), 'examples')
const rules = join(examples, 'rules.yml')

/** The example JSON Lines as CSV (no value holds a comma or a quote). */
function toCsv(file: string): string {
  const records = readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>)
  const header = Object.keys(records[0])
  return [header.join(','), ...records.map((r) => header.map((h) => String(r[h])).join(','))].join('\n') + '\n'
}

function parquet(
  columns: Array<{ name: string; type: 'STRING' | 'DOUBLE'; data: Array<string | number | null> }>
): Buffer {
  return Buffer.from(parquetWriteBuffer({ columnData: columns }))
}

describe('Parquet per-query rows', () => {
  it('gates byte-identically to the same data as CSV and as JSON Lines (every report format)', async () => {
    // the report names the files: each copy is called b and c in its own folder and passed relative to it
    const csv = writeFiles({ b: toCsv(join(examples, 'baseline.jsonl')), c: toCsv(join(examples, 'candidate.jsonl')) })
    const pq = writeFiles({
      b: readFileSync(join(fx, 'baseline.parquet')),
      c: readFileSync(join(fx, 'candidate.parquet'))
    })
    const jl = writeFiles({
      b: readFileSync(join(examples, 'baseline.jsonl')),
      c: readFileSync(join(examples, 'candidate.jsonl'))
    })
    const home = process.cwd()
    const run = async (dir: string, format: string, extra: string[] = []) => {
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
      const fromParquet = await run(dirname(pq.b), format)
      const fromCsv = await run(dirname(csv.b), format, ['--input-format', 'csv'])
      const fromJsonl = await run(dirname(jl.b), format)
      expect(fromParquet.stderr).toBe(fromCsv.stderr)
      expect([0, 1]).toContain(fromParquet.code)
      expect(fromParquet.code).toBe(fromCsv.code)
      expect(fromParquet.stdout.length).toBeGreaterThan(100)
      // the same report, except that the JSON one names the format each was read as
      expect(withoutInputFormats(fromParquet.stdout)).toBe(withoutInputFormats(fromCsv.stdout))
      expect(withoutInputFormats(fromParquet.stdout)).toBe(withoutInputFormats(fromJsonl.stdout))
      if (format === 'json') {
        const named = (r: { stdout: string }): unknown =>
          (JSON.parse(r.stdout) as { inputs: { formats: { candidate: { name: string; by: string } } } }).inputs.formats
            .candidate
        expect([named(fromParquet), named(fromCsv), named(fromJsonl)]).toEqual([
          { kind: 'rows', name: 'parquet', by: 'content', why: 'it starts with PAR1, the Parquet magic' },
          { kind: 'rows', name: 'csv', by: 'explicit', why: 'named with --input-format csv' },
          { kind: 'rows', name: 'jsonl', by: 'content', why: 'its first line is a JSON object with "query_id"' }
        ])
      }
    }
  })

  it('reads every row group, INT64 metrics as numbers, and only the columns the rules use', async () => {
    const side = await readRows(join(fx, 'baseline.parquet'), {
      metricFields: new Set(['recall@10', 'hit@10']),
      keepAttributes: new Set(['segment'])
    })
    expect(rowsOf(side)).toHaveLength(400)
    expect(rowsOf(side)[399].id).toBe('q0400')
    expect(rowsOf(side)[0].values.get('hit@10')).toBe(1)
    expect(rowsOf(side)[0].values.has('mrr@10')).toBe(false)
    expect([...rowsOf(side)[0].attrs.keys()]).toEqual(['segment'])
    expect(side.numericFields).toEqual(new Set(['recall@10', 'hit@10', 'mrr@10', 'latency_ms']))
  })

  it('is detected by its PAR1 magic whatever the name, and named with --input-format parquet', async () => {
    const f = writeFiles({ 'rows.dat': readFileSync(join(fx, 'baseline.parquet')), 'rows.csv': 'query_id,m\nq1,1\n' })
    expect(rowsOf(await readRows(f['rows.dat'], { metricFields: new Set(['recall@10']) }))).toHaveLength(400)
    expect(
      rowsOf(await readRows(f['rows.dat'], { metricFields: new Set(['recall@10']), format: 'parquet' }))
    ).toHaveLength(400)
    await expect(readRows(f['rows.csv'], { metricFields: new Set(['m']), format: 'parquet' })).rejects.toThrow(
      /rows\.csv: does not start with PAR1/
    )
  })

  it('refuses a truncated or corrupt file with exit 2, the file name and no stack trace', async () => {
    const whole = readFileSync(join(fx, 'candidate.parquet'))
    const corrupt = Buffer.from(whole)
    corrupt.fill(0xff, 4, whole.length - 8)
    const f = writeFiles({
      'cut.parquet': whole.subarray(0, Math.floor(whole.length / 2)),
      'bad.parquet': corrupt,
      'tiny.parquet': 'PAR1'
    })
    for (const [name, message] of [
      ['cut.parquet', /cut\.parquet: starts like Parquet but does not end with the PAR1 footer/],
      ['bad.parquet', /bad\.parquet: (is not a readable Parquet file|has a Parquet footer)/],
      ['tiny.parquet', /tiny\.parquet: is 4 bytes long, too short/]
    ] as const) {
      const r = await cli([
        'gate',
        '--rules',
        rules,
        '--baseline',
        join(fx, 'baseline.parquet'),
        '--candidate',
        f[name]
      ])
      expect(r.code).toBe(2)
      expect(r.stderr).toMatch(message)
      expect(hasStackTrace(r.stderr)).toBe(false)
    }
  })

  it('refuses a corrupt page (footer intact) with the file name', async () => {
    const good = parquet([
      { name: 'query_id', type: 'STRING', data: ['q1', 'q2', 'q3'] },
      { name: 'm', type: 'DOUBLE', data: [0.5, 0.25, 1] }
    ])
    const bad = Buffer.from(good)
    bad.fill(0xff, 4, 40)
    const f = writeFiles({ 'page.parquet': bad })
    await expect(readRows(f['page.parquet'], { metricFields: new Set(['m']) })).rejects.toThrow(
      /page\.parquet \(row group 1, column "query_id", page 1\): has a page header that .*truncated or corrupt/
    )
  })

  it('refuses a repeated query id with both row numbers, a missing id column, a null id and a text metric', async () => {
    const f = writeFiles({
      'dup.parquet': parquet([
        { name: 'query_id', type: 'STRING', data: ['q1', 'q2', 'q1', 'q3'] },
        { name: 'm', type: 'DOUBLE', data: [0.5, 0.25, 1, 0] }
      ]),
      'noid.parquet': parquet([{ name: 'qid', type: 'STRING', data: ['q1'] }]),
      'nullid.parquet': parquet([{ name: 'query_id', type: 'STRING', data: ['q1', null] }]),
      'text.parquet': parquet([
        { name: 'query_id', type: 'STRING', data: ['q1'] },
        { name: 'm', type: 'STRING', data: ['high'] }
      ])
    })
    const dup = await cli([
      'gate',
      '--rules',
      rules,
      '--baseline',
      join(fx, 'baseline.parquet'),
      '--candidate',
      f['dup.parquet']
    ])
    expect(dup.code).toBe(2)
    expect(dup.stderr).toMatch(/dup\.parquet: duplicate query ids: "q1" \(row 1 and row 3\)/)
    expect(hasStackTrace(dup.stderr)).toBe(false)
    await expect(readRows(f['noid.parquet'], { metricFields: new Set() })).rejects.toThrow(
      /noid\.parquet: has no "query_id" column \(columns: "qid"\).*--id-field/
    )
    expect(rowsOf(await readRows(f['noid.parquet'], { metricFields: new Set(), idField: 'qid' }))[0].id).toBe('q1')
    await expect(readRows(f['nullid.parquet'], { metricFields: new Set() })).rejects.toThrow(
      /nullid\.parquet.*row 2.*"query_id" is null/
    )
    await expect(readRows(f['text.parquet'], { metricFields: new Set(['m']) })).rejects.toThrow(
      /text\.parquet.*"m" is a string \("high"\), not a number/
    )
  })

  it('reads a run table (q_id, doc_id, score, as ranx Run.to_dataframe names them) exactly as the TREC run', async () => {
    const trec = join(process.cwd(), '__tests__', 'fixtures', 'trec')
    const lines = readFileSync(join(trec, 'run.txt'), 'utf8')
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => l.trim().split(/\s+/))
    const table = parquetWriteBuffer({
      columnData: [
        { name: 'q_id', type: 'STRING', data: lines.map((f) => f[0]) },
        { name: 'doc_id', type: 'STRING', data: lines.map((f) => f[2]) },
        { name: 'score', type: 'DOUBLE', data: lines.map((f) => Number(f[4])) }
      ],
      rowGroupSize: 1000
    })
    const f = writeFiles({
      'run.parquet': Buffer.from(table),
      'bad.parquet': parquet([{ name: 'q_id', type: 'STRING', data: ['q1'] }])
    })
    expect(await detectRunFormat(f['run.parquet'])).toBe('parquet')
    const qrels = await readQrels(join(trec, 'qrels.txt'))
    const measures = ['AP', 'nDCG@10', 'P@5', 'RR', 'NumRet']
    const reference = await computeRunRows({ runFile: join(trec, 'run.txt'), qrels, measures, noRelevant: 'zero' })
    const fromParquet = await computeRunRows({ runFile: f['run.parquet'], qrels, measures, noRelevant: 'zero' })
    expect(rowsOf(reference.side).length).toBeGreaterThan(10)
    expect(rowsOf(fromParquet.side).map((r) => [r.id, [...r.values]])).toEqual(
      rowsOf(reference.side).map((r) => [r.id, [...r.values]])
    )
    await expect(computeRunRows({ runFile: f['bad.parquet'], qrels, measures, noRelevant: 'zero' })).rejects.toThrow(
      /bad\.parquet: has no "doc_id" column/
    )
  })
})

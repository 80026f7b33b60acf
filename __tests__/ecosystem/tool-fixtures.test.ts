/**
 * The importer fixtures as the tools write them (written by the tools themselves, scripts/tool-fixtures.py; the
 * versions in __tests__/fixtures/importers/VERSIONS.txt): line endings and layouts that a hand-written sample would get wrong.
 * pandas' to_csv ends lines with os.linesep (CRLF on Windows; pandas/io/formats/csvs.py), BEIR's write_to_tsv uses
 * csv.writer's default "\r\n" on every platform, print() redirected on Windows writes CRLF, and ranx's Run.save
 * writes two-space indented JSON (orjson OPT_INDENT_2).
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from '@jest/globals'
import { readRows } from '../../src/readers/read.js'
import { computeRunRows, formatFixed4, readQrels } from '../../src/metrics/index.js'
import type { SideRows } from '../../src/model/rows.js'
import { rowsOf } from '../../src/model/rows.js'

const fx = join(process.cwd(), '__tests__', 'fixtures', 'importers')
const trec = join(process.cwd(), '__tests__', 'fixtures', 'trec')

function shape(side: SideRows): unknown {
  return rowsOf(side).map((r) => [r.id, [...r.values.entries()], [...r.attrs.entries()]])
}

describe('fixtures written as the tools write them', () => {
  it('ranx Run.save / Qrels.save JSON is indented by two spaces, no trailing newline (orjson OPT_INDENT_2), and read', async () => {
    for (const file of ['ranx/run.json', 'ranx/qrels.json']) {
      const text = readFileSync(join(fx, file), 'utf8')
      expect(text.startsWith('{\n  "01": {\n    "')).toBe(true)
      expect(text.endsWith('\n  }\n}')).toBe(true)
    }
    expect(readFileSync(join(fx, 'ranx/run.json'), 'utf8')).toContain('"dé": 1.0')
    expect((await readQrels(join(fx, 'ranx/qrels.json'))).judgments).toBe(1270)
  })

  it('BEIR write_to_tsv ends lines with CRLF (csv.writer default) and gives the TREC judgments', async () => {
    const text = readFileSync(join(fx, 'beir/qrels/test.tsv'), 'utf8')
    expect(text.startsWith('query-id\tcorpus-id\tscore\r\n')).toBe(true)
    const q = await readQrels(join(fx, 'beir/qrels/test.tsv'))
    const ref = await readQrels(join(trec, 'qrels.txt'))
    expect(q.ids).toEqual(ref.ids)
    expect(q.judgments).toBe(ref.judgments)
  })

  it('a ragas CSV written by pandas on Windows (CRLF) reads exactly as the one written on Linux', async () => {
    const windows = readFileSync(join(fx, 'ragas/baseline-windows.csv'), 'utf8')
    expect(windows.split('\r\n').length).toBe(10)
    const metricFields = new Set(['context_precision', 'faithfulness'])
    const a = await readRows(join(fx, 'ragas/baseline.csv'), { metricFields, idField: 'user_input' })
    const b = await readRows(join(fx, 'ragas/baseline-windows.csv'), { metricFields, idField: 'user_input' })
    expect(rowsOf(b).length).toBe(8)
    expect(shape(b)).toEqual(shape(a))
  })

  it('ir_measures -q redirected on Windows (CRLF) reads exactly as on Linux', async () => {
    const metricFields = new Set(['AP', 'nDCG@10'])
    const a = await readRows(join(fx, 'ir_measures/run.tsv'), { metricFields })
    const b = await readRows(join(fx, 'ir_measures/run-windows.tsv'), { metricFields })
    expect(readFileSync(join(fx, 'ir_measures/run-windows.tsv'), 'utf8')).toContain('\tAP\t0.')
    expect(shape(b)).toEqual(shape(a))
    expect(rowsOf(b).length).toBeGreaterThan(10)
  })

  it('deepeval\'s .latest_test_run.json ({"testRunData": ...}, TestRunManager.save_test_run) reads as the results-folder file', async () => {
    const metricFields = new Set(['Contextual Precision', 'Faithfulness'])
    const a = await readRows(join(fx, 'deepeval/baseline.json'), { metricFields })
    const b = await readRows(join(fx, 'deepeval/latest_test_run.json'), { metricFields })
    expect(rowsOf(b).length).toBe(8)
    expect(shape(b)).toEqual(shape(a))
  })
})

describe('files only the tools wrote (scripts/tool-fixtures.py, the versions in VERSIONS.txt)', () => {
  const refusal = async (read: () => Promise<unknown>): Promise<string> => {
    try {
      await read()
    } catch (error) {
      return (error as Error).message
    }
    throw new Error('was read')
  }
  it('VERSIONS.txt names the pinned version of every tool that wrote a fixture', () => {
    const versions = readFileSync(join(fx, 'VERSIONS.txt'), 'utf8')
    const pins = readFileSync(join(process.cwd(), 'scripts', 'tool-fixtures.requirements.txt'), 'utf8')
      .split('\n')
      .filter((l) => /^[\w-]+==/.test(l))
    for (const pin of pins) expect(versions).toContain(pin)
    expect(versions).toMatch(/^beir==2\.2\.0$/m)
  })
  it('ranx Run.save("run.parquet") scores exactly as the TREC run it came from', async () => {
    const qrels = await readQrels(join(trec, 'qrels.txt'))
    const measures = ['AP', 'nDCG@10', 'P@5', 'R@100', 'RR']
    const of = async (runFile: string): Promise<unknown> =>
      shape((await computeRunRows({ runFile, qrels, measures, noRelevant: 'zero' })).side)
    expect(await of(join(fx, 'ranx/run.parquet'))).toEqual(await of(join(trec, 'run.txt')))
  })
  it('ranx Qrels.save("qrels.parquet"), a Report.save and run.scores are refused by name, with what to write', async () => {
    expect(await refusal(() => readQrels(join(fx, 'ranx/qrels.parquet')))).toMatch(
      /ranx Qrels\.save\("qrels\.parquet"\)/
    )
    const rows = (file: string) => () => readRows(join(fx, file), { metricFields: new Set(['ndcg@10']) })
    expect(await refusal(rows('ranx/report.json'))).toMatch(
      /ranx Report.*pandas\.DataFrame\(run\.scores\)\.to_dict\(orient="index"\), f\)/
    )
    expect(await refusal(rows('ranx/scores.json'))).toMatch(/metric-major/)
  })
  it('ranx per-query scores transposed (pandas to_json, 10 digits) read as rows; ir_measures iter_calc as long rows', async () => {
    const ranx = await readRows(join(fx, 'ranx/per-query.json'), { metricFields: new Set(['ndcg@10', 'map']) })
    expect(
      rowsOf(ranx)
        .find((r) => r.id === '01')
        ?.values.get('ndcg@10')
    ).toBe(0.6309297536)
    const long = await readRows(join(fx, 'ir_measures/long.csv'), { metricFields: new Set(['AP', 'nDCG@10']) })
    const tsv = await readRows(join(fx, 'ir_measures/run.tsv'), { metricFields: new Set(['AP', 'nDCG@10']) })
    const byId = new Map(rowsOf(tsv).map((r) => [r.id, r]))
    expect(rowsOf(long).length).toBe(rowsOf(tsv).length)
    for (const row of rowsOf(long))
      expect(formatFixed4(row.values.get('AP') as number)).toBe(
        (byId.get(row.id)?.values.get('AP') as number).toFixed(4)
      )
  })
  it('ragas evaluate() itself (ExactMatch, StringPresence: no model) written with to_csv reads as rows', async () => {
    const side = await readRows(join(fx, 'ragas/evaluate-string-metrics.csv'), {
      metricFields: new Set(['exact_match', 'string_present']),
      idField: 'user_input'
    })
    expect(rowsOf(side).map((r) => r.values.get('exact_match'))).toEqual([1, 0, 0, 1, 0, 0, 1, 0])
  })
  it('a ragas result to_parquet reads as its to_csv (the scores; its list column is skipped, not read as text)', async () => {
    const metricFields = new Set(['context_precision', 'faithfulness'])
    const csv = await readRows(join(fx, 'ragas/candidate.csv'), { metricFields, idField: 'user_input' })
    const parquet = await readRows(join(fx, 'ragas/candidate.parquet'), { metricFields, idField: 'user_input' })
    // The same ids and scores; the list column retrieved_contexts is a list in Parquet (skipped) and its repr in CSV.
    const scores = (side: SideRows): unknown => rowsOf(side).map((r) => [r.id, [...r.values.entries()]])
    expect(scores(parquet)).toEqual(scores(csv))
    expect(parquet.notes.join('\n')).toMatch(/retrieved_contexts/)
  })
})

/**
 * Issue 14: files evaluators really write that are not (or not yet) per-query rows. deepeval's
 * `.deepeval/.latest_test_run.json` (`{"testRunData": {...}}`, deepeval `test_run.py` `TestRunManager.save_test_run`),
 * pytest-parametrized positional names (`test_rag[test_case0]`), `index` fields; and aggregate-only shapes
 * (ranx `Report.save`, BEIR `util.save_results`, a metric-major `{metric: {qid: score}}` dump) refused by name.
 */
import { describe, expect, it } from '@jest/globals'
import { readRows } from '../../src/readers/read.js'
import { InputError } from '../../src/errors.js'
import { writeFiles } from '../helpers.js'
import { rowsOf } from '../../src/model/rows.js'

const metricFields = new Set(['Faithfulness', 'nDCG@10', 'ndcg@10'])

function testCase(name: string, score: number, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name,
    input: `question ${name}`,
    success: true,
    metricsData: [{ name: 'Faithfulness', threshold: 0.5, success: true, score, error: null }],
    runDuration: 1.2,
    order: 0,
    ...extra
  }
}

describe('deepeval', () => {
  it('reads .deepeval/.latest_test_run.json ({"testRunData": {...}}), compact or indented', async () => {
    const data = {
      testRunData: {
        testFile: 'test_rag.py',
        testCases: [testCase('faq-01', 0.5), testCase('faq-02', 0.75)],
        conversationalTestCases: []
      },
      link: null
    }
    const f = writeFiles({ 'compact.json': JSON.stringify(data), 'indented.json': JSON.stringify(data, null, 2) })
    for (const file of [f['compact.json'], f['indented.json']]) {
      const side = await readRows(file, { metricFields })
      expect(rowsOf(side).map((r) => [r.id, r.values.get('Faithfulness')])).toEqual([
        ['faq-01', 0.5],
        ['faq-02', 0.75]
      ])
    }
  })

  it('refuses pytest-parametrized positional names (test_rag[test_case0]) like test_case_<n>', async () => {
    const f = writeFiles({
      'p.json': JSON.stringify({
        testCases: [testCase('test_rag[test_case0]', 0.5), testCase('test_rag[test_case1]', 0.6)]
      })
    })
    await expect(readRows(f['p.json'], { metricFields })).rejects.toThrow(
      /p\.json \(testCases\[0\]\): has no query id: .*"test_rag\[test_case0\]".*position/
    )
    const side = await readRows(f['p.json'], { metricFields, idField: 'input' })
    expect(rowsOf(side).map((r) => r.id)).toEqual(['question test_rag[test_case0]', 'question test_rag[test_case1]'])
  })

  it('refuses rules that read deepeval\'s positional "index" as a metric', async () => {
    const f = writeFiles({
      'e.json': JSON.stringify({
        test_results: [testCase('faq-01', 0.5, { index: 0 }), testCase('faq-02', 0.6, { index: 1 })]
      })
    })
    await expect(readRows(f['e.json'], { metricFields: new Set(['Faithfulness', 'index']) })).rejects.toThrow(
      /e\.json \(test_results\[0\]\.index\): .*"index".*position/
    )
    const side = await readRows(f['e.json'], { metricFields: new Set(['Faithfulness']) })
    expect(rowsOf(side)[0].values.has('index')).toBe(false)
  })
})

async function refusal(file: string): Promise<string> {
  try {
    await readRows(file, { metricFields })
  } catch (error) {
    expect(error).toBeInstanceOf(InputError)
    return (error as Error).message
  }
  throw new Error(`${file} was read`)
}

describe('aggregate-only shapes are refused by name, with what to export instead', () => {
  it('ranx Report.save (indent=4 JSON with "metrics", "model_names")', async () => {
    const report = {
      metrics: ['ndcg@10'],
      model_names: ['bm25', 'dense'],
      stat_test: 'student',
      bm25: { scores: { 'ndcg@10': 0.4 }, comparisons: {}, win_tie_loss: {} }
    }
    const f = writeFiles({ 'report.json': JSON.stringify(report, null, 4), 'report1.json': JSON.stringify(report) })
    for (const file of [f['report.json'], f['report1.json']])
      expect(await refusal(file)).toMatch(
        /ranx Report.*aggregate.*per-query.*evaluate\(qrels, run, .*run\.scores.*orient="index"/
      )
  })

  it('BEIR save_results (aggregates only: {"ndcg": {"NDCG@10": ...}, "map": ..., ...})', async () => {
    const beir = {
      ndcg: { 'NDCG@1': 0.3, 'NDCG@10': 0.41 },
      map: { 'MAP@1': 0.2 },
      recall: { 'Recall@1': 0.2 },
      precision: { 'P@1': 0.3 }
    }
    const f = writeFiles({ 'beir.json': JSON.stringify(beir, null, 4) })
    expect(await refusal(f['beir.json'])).toMatch(/BEIR save_results.*aggregate.*per-query/)
  })

  it('a metric-major dump {metric: {qid: score}} (ranx run.scores) is refused, not read as queries named after metrics', async () => {
    const dump = { 'ndcg@10': { q1: 0.5, q2: 0.25 }, 'map@100': { q1: 0.4, q2: 0.2 } }
    const f = writeFiles({ 'mm.json': JSON.stringify(dump), 'mm4.json': JSON.stringify(dump, null, 4) })
    for (const file of [f['mm.json'], f['mm4.json']])
      expect(await refusal(file)).toMatch(/metric-major.*\{query_id: \{metric: value\}\}/)
  })

  it('still reads pytrec_eval per-query results {qid: {measure: value}}', async () => {
    const f = writeFiles({ 'pt.json': JSON.stringify({ q1: { 'ndcg@10': 0.5 }, q2: { 'ndcg@10': 0.25 } }) })
    const side = await readRows(f['pt.json'], { metricFields })
    expect(rowsOf(side).map((r) => [r.id, r.values.get('ndcg@10')])).toEqual([
      ['q1', 0.5],
      ['q2', 0.25]
    ])
  })
})

/**
 * Importers: each tool's file, written by that tool (__tests__/fixtures/importers, made by scripts/tool-fixtures.py
 * with each tool's own API from the TREC conformance fixtures; versions in VERSIONS.txt, provenance in its README), must give exactly the
 * numbers the built-in TREC readers give for the same data, and every refusal names the file and line.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from '@jest/globals'
import { readRows } from '../../src/readers/read.js'
import { computeRunRows, detectRunFormat, formatFixed4, readQrels, type Qrels } from '../../src/metrics/index.js'
import type { SideRows } from '../../src/model/rows.js'
import { sniffBraceRun } from '../../src/readers/probe.js'
import { writeFiles } from '../helpers.js'
import { rowsOf } from '../../src/model/rows.js'

const fx = join(process.cwd(), '__tests__', 'fixtures', 'importers')
const trec = join(process.cwd(), '__tests__', 'fixtures', 'trec')
const MEASURES = ['AP', 'nDCG@10', 'P@5', 'R@100', 'RR', 'Bpref', 'NumRet', 'Judged@10']

function qrelsShape(q: Qrels): Array<[string, Array<[string, number]>, number[]]> {
  return q.ids.map((id) => {
    const query = q.queries.get(id)!
    return [id, [...query.grades.entries()].sort((a, b) => (a[0] < b[0] ? -1 : 1)), [...query.gradesDesc]]
  })
}

function valuesOf(side: SideRows): Array<[string, Array<[string, number | null]>]> {
  return rowsOf(side).map((r) => [r.id, [...r.values.entries()].sort((a, b) => (a[0] < b[0] ? -1 : 1))])
}

/** trec_eval's per-query output (the committed -q file): measure -> query id -> value. */
function trecEvalValues(): Map<string, Map<string, number>> {
  const out = new Map<string, Map<string, number>>()
  for (const line of readFileSync(join(trec, 'expected.txt'), 'utf8').split('\n')) {
    if (!line) continue
    const [measure, qid, value] = line.split('\t').map((s) => s.trim())
    if (qid === 'all') continue
    if (!out.has(measure)) out.set(measure, new Map())
    out.get(measure)!.set(qid, Number(value))
  }
  return out
}

describe('judgments', () => {
  it('ranx JSON, pytrec_eval JSON and BEIR TSV give the same judgments as the TREC qrels', async () => {
    const reference = qrelsShape(await readQrels(join(trec, 'qrels.txt')))
    for (const file of ['ranx/qrels.json', 'pytrec_eval/qrels.json', 'beir/qrels/test.tsv']) {
      const q = await readQrels(join(fx, file))
      expect(qrelsShape(q)).toEqual(reference)
      expect(q.judgments).toBe(1270)
    }
  })

  it('refuses a fractional grade, NaN and a repeated query with the line', async () => {
    const f = writeFiles({
      'frac.json': '{"q1": {"d1": 1.5}}',
      'nan.json': '{"q1": {\n  "d1": NaN}}',
      'twice.json': '{"q1": {"d1": 1},\n "q1": {"d2": 0}}',
      'beir.tsv': 'query-id\tcorpus-id\tscore\nq1\td1\t1\nq1\td1\t0\n'
    })
    await expect(readQrels(f['frac.json'])).rejects.toThrow(/frac\.json:1: .*grade 1\.5 .*not a whole number/)
    await expect(readQrels(f['nan.json'])).rejects.toThrow(/nan\.json:2: .*is NaN/)
    await expect(readQrels(f['twice.json'])).rejects.toThrow(
      /twice\.json:2: query "q1" appears twice \(also on line 1\)/
    )
    await expect(readQrels(f['beir.tsv'])).rejects.toThrow(/beir\.tsv:3: .*judged twice .*also on line 2/)
  })
})

describe('runs', () => {
  it('detects ranx / pytrec_eval JSON runs apart from JSON Lines runs', async () => {
    expect(await detectRunFormat(join(fx, 'ranx/run.json'))).toBe('json')
    expect(await detectRunFormat(join(fx, 'pytrec_eval/run.json'))).toBe('json')
    expect(await detectRunFormat(join(trec, 'run.jsonl'))).toBe('jsonl')
    expect(sniffBraceRun('{\n  "q1": {\n    "d1": 2.5')).toBe('json')
    expect(sniffBraceRun('{"query_id": "q1", "doc_id": "d1", "score": 1}\n')).toBe('jsonl')
    expect(sniffBraceRun('{"results": [], "query_id": "q1"}')).toBe('jsonl')
  })

  it('ranx and pytrec_eval runs score exactly as the TREC run (every query, every measure)', async () => {
    const qrels = await readQrels(join(trec, 'qrels.txt'))
    const reference = await computeRunRows({
      runFile: join(trec, 'run.txt'),
      qrels,
      measures: MEASURES,
      noRelevant: 'zero'
    })
    for (const file of ['ranx/run.json', 'pytrec_eval/run.json']) {
      for (const judgments of [qrels, await readQrels(join(fx, file.replace('run.json', 'qrels.json')))]) {
        const got = await computeRunRows({
          runFile: join(fx, file),
          qrels: judgments,
          measures: MEASURES,
          noRelevant: 'zero'
        })
        expect(valuesOf(got.side)).toEqual(valuesOf(reference.side))
        expect(got.coverage.runFormat).toBe('json')
        expect(got.coverage.runLines).toBe(reference.coverage.runLines)
      }
    }
  })

  it("matches trec_eval's own per-query output on the ranx run (AP, nDCG@10, RR to 4 decimals)", async () => {
    const got = await computeRunRows({
      runFile: join(fx, 'ranx/run.json'),
      qrelsFile: join(fx, 'ranx/qrels.json'),
      measures: ['AP', 'nDCG@10', 'RR'],
      noRelevant: 'zero'
    })
    const expected = trecEvalValues()
    let compared = 0
    for (const row of rowsOf(got.side)) {
      for (const [ours, theirs] of [
        ['AP', 'map'],
        ['nDCG@10', 'ndcg_cut_10'],
        ['RR', 'recip_rank']
      ] as const) {
        const want = expected.get(theirs)!.get(row.id)
        if (want === undefined) continue
        expect((row.values.get(ours) as number).toFixed(4)).toBe(want.toFixed(4))
        compared++
      }
    }
    expect(compared).toBeGreaterThan(100)
  })

  it('refuses bad JSON runs with the line: NaN, null (orjson NaN), a quoted score, a repeated query, trailing text', async () => {
    const f = writeFiles({
      'nan.json': '{"q1": {"d1": NaN}}',
      'null.json': '{"q1":\n{"d1":null}}',
      'quoted.json': '{"q1": {"d1": "1.5"}}',
      'twice.json': '{"q1": {"d1": 1.0},\n"q2": {"d1": 1.0},\n"q1": {"d2": 2.0}}',
      'two.json': '{"q1": {"d1": 1.0}}\n{"q2": {"d1": 1.0}}',
      'qrels.txt': 'q1 0 d1 1\n'
    })
    const run = (name: string) => computeRunRows({ runFile: f[name], qrelsFile: f['qrels.txt'], measures: ['AP'] })
    await expect(run('nan.json')).rejects.toThrow(/nan\.json:1: .*score of "d1" in query "q1" is NaN/)
    await expect(run('null.json')).rejects.toThrow(/null\.json:2: .*is null.*orjson/)
    await expect(run('quoted.json')).rejects.toThrow(/quoted\.json:1: .*is a string, not a number/)
    await expect(run('twice.json')).rejects.toThrow(/twice\.json:3: query "q1" appears twice \(also on line 1\)/)
    await expect(run('two.json')).rejects.toThrow(/two\.json:2: text after the end of the JSON object/)
  })
})

describe('per-query measure files', () => {
  it('reads trec_eval -q output (the committed real output) into one row per query, the "all" lines counted', async () => {
    const side = await readRows(join(trec, 'expected.txt'), { metricFields: new Set(['map', 'ndcg_cut_10']) })
    const expected = trecEvalValues()
    expect(rowsOf(side).length).toBe(expected.get('map')!.size)
    for (const row of rowsOf(side)) {
      expect(row.values.get('map')).toBe(expected.get('map')!.get(row.id))
      expect(row.values.get('ndcg_cut_10')).toBe(expected.get('ndcg_cut_10')!.get(row.id))
    }
    expect(side.notes.join('\n')).toMatch(/15 summary lines \("all"\) ignored/)
  })

  it('reads ir_measures -q output (query, measure, value) and agrees with trec_eval', async () => {
    const side = await readRows(join(fx, 'ir_measures/run.tsv'), { metricFields: new Set(['AP', 'nDCG@10']) })
    const expected = trecEvalValues()
    expect(rowsOf(side).length).toBe(expected.get('map')!.size)
    for (const row of rowsOf(side)) expect(row.values.get('AP')).toBe(expected.get('map')!.get(row.id))
    expect(side.notes.join('\n')).toMatch(/5 summary lines \("all"\) ignored/)
    expect([...side.numericFields].sort()).toEqual(['AP', 'P@5', 'R@100', 'RR', 'nDCG@10'])
  })

  it('without "all" lines, tells the layout by the measure names, and refuses when it cannot', async () => {
    const f = writeFiles({
      'irm.tsv': 'q1\tnDCG@10\t0.5000\nq2\tnDCG@10\t0.2500\n',
      'te.txt': 'ndcg_cut_10           \tq1\t0.5000\nndcg_cut_10           \tq2\t0.2500\n',
      'odd.tsv': 'a\tb\t0.5\nc\td\t0.25\n',
      'dup.tsv': 'q1\tAP\t0.5\nq1\tAP\t0.25\n'
    })
    const irm = await readRows(f['irm.tsv'], { metricFields: new Set(['nDCG@10']) })
    expect(rowsOf(irm).map((r) => [r.id, r.values.get('nDCG@10')])).toEqual([
      ['q1', 0.5],
      ['q2', 0.25]
    ])
    const te = await readRows(f['te.txt'], { metricFields: new Set(['ndcg_cut_10']) })
    expect(rowsOf(te).map((r) => [r.id, r.values.get('ndcg_cut_10')])).toEqual([
      ['q1', 0.5],
      ['q2', 0.25]
    ])
    await expect(readRows(f['odd.tsv'], { metricFields: new Set() })).rejects.toThrow(
      /odd\.tsv: cannot tell which column .*--format ir_measures/
    )
    const named = await readRows(f['odd.tsv'], { metricFields: new Set(['b']), format: 'ir_measures' })
    expect(rowsOf(named).map((r) => r.id)).toEqual(['a', 'c'])
    await expect(readRows(f['dup.tsv'], { metricFields: new Set(['AP']) })).rejects.toThrow(
      /dup\.tsv:2: measure "AP" appears twice for query "q1" \(lines 1 and 2\)/
    )
  })

  it('reads pytrec_eval per-query results (json.dump of evaluate()) as rows, trec_eval’s values unrounded', async () => {
    const side = await readRows(join(fx, 'pytrec_eval/results.json'), { metricFields: new Set(['map', 'P_5']) })
    const expected = trecEvalValues()
    // pytrec_eval evaluates the run's judged queries: the judged query the run lacks ("absent", which trec_eval -c
    // scores 0) is not in its results; its values are the doubles trec_eval computes, printed there to 4 decimals.
    expect(
      rowsOf(side)
        .map((r) => r.id)
        .sort()
    ).toEqual([...expected.get('map')!.keys()].filter((q) => q !== 'absent').sort())
    for (const row of rowsOf(side)) {
      expect(row.values.get('P_5')).toBe(expected.get('P_5')!.get(row.id))
      expect(formatFixed4(row.values.get('map')!)).toBe(expected.get('map')!.get(row.id)!.toFixed(4))
    }
    expect(rowsOf(side).some((r) => String(r.values.get('map')).length > 6)).toBe(true)
    expect(rowsOf(side).find((r) => r.id === '01')).toBeDefined()
    expect(rowsOf(side).find((r) => r.id === '1')).toBeDefined()
  })
})

describe('ragas exports', () => {
  const metrics = new Set(['context_precision', 'faithfulness'])

  it('refuses a ragas CSV without a query id, naming --id-field', async () => {
    await expect(readRows(join(fx, 'ragas/baseline.csv'), { metricFields: metrics })).rejects.toThrow(
      /baseline\.csv:1: has no query id column .*--id-field user_input/
    )
  })

  it('reads a ragas CSV with --id-field user_input: NaN cells are missing values, list columns are text', async () => {
    const side = await readRows(join(fx, 'ragas/candidate.csv'), { metricFields: metrics, idField: 'user_input' })
    expect(rowsOf(side).length).toBe(8)
    const declined = rowsOf(side).find((r) => r.id === 'Why was my card declined?')!
    expect(declined.values.get('faithfulness')).toBeNull()
    expect(declined.values.get('context_precision')).toBe(0.59)
    expect(declined.attrs.get('retrieved_contexts')).toBe(
      "['Help article 5: why was my card declined?', 'FAQ/billing/5']"
    )
    expect(side.numericFields.has('context_recall')).toBe(true)
  })

  it('reads pandas to_csv with its index column (ignored, noted) and a query_id column', async () => {
    const side = await readRows(join(fx, 'ragas/baseline-with-index.csv'), { metricFields: metrics })
    expect(
      rowsOf(side)
        .map((r) => r.id)
        .slice(0, 2)
    ).toEqual(['faq-00', 'faq-01'])
    expect(side.notes.join('\n')).toMatch(/unnamed first column \(pandas' row index\) was ignored/)
  })

  it('reads to_json(orient="records") and lines=True alike, ids from the "id" column', async () => {
    const json = await readRows(join(fx, 'ragas/baseline.json'), { metricFields: metrics })
    const jsonl = await readRows(join(fx, 'ragas/candidate.jsonl'), { metricFields: metrics })
    expect(rowsOf(json).map((r) => r.id)).toEqual(['101', '102', '103', '104', '105', '106', '107', '108'])
    expect(rowsOf(jsonl).map((r) => r.id)).toEqual(rowsOf(json).map((r) => r.id))
    expect(rowsOf(json)[0].attrs.get('user_input')).toBe('How do I reset my password?')
    expect(rowsOf(jsonl)[5].values.get('faithfulness')).toBeNull()
    expect(json.notes.join('\n')).toMatch(/field "retrieved_contexts" skipped in 8 rows/)
  })

  it("refuses pandas' default to_json layout with the fix", async () => {
    await expect(readRows(join(fx, 'ragas/columns.json'), { metricFields: metrics })).rejects.toThrow(
      /orient="columns".*orient="records"/
    )
  })

  it('refuses repeated questions when the question is the id', async () => {
    const f = writeFiles({ 'dup.csv': 'user_input,faithfulness\nsame?,0.5\nother?,0.7\nsame?,0.6\n' })
    await expect(readRows(f['dup.csv'], { metricFields: metrics, idField: 'user_input' })).rejects.toThrow(
      /dup\.csv: duplicate query ids: "same\?" \(lines 2 and 4\)/
    )
  })
})

describe('deepeval results', () => {
  const metrics = new Set(['Contextual Precision', 'Faithfulness', 'Faithfulness.success'])

  it('reads the test-run file: one row per test case, score and .success per metric, metadata as fields', async () => {
    const side = await readRows(join(fx, 'deepeval/candidate.json'), { metricFields: metrics })
    expect(rowsOf(side).map((r) => r.id)).toEqual([
      'faq-00',
      'faq-01',
      'faq-02',
      'faq-03',
      'faq-04',
      'faq-05',
      'faq-06',
      'faq-07'
    ])
    const errored = rowsOf(side)[3]
    expect(errored.values.get('Faithfulness')).toBeNull()
    expect(errored.values.get('Faithfulness.success')).toBe(0)
    expect(rowsOf(side)[0].values.get('Contextual Precision')).toBe(0.63)
    expect(rowsOf(side)[0].attrs.get('topic')).toBe('account')
    expect(side.numericFields.has('runDuration')).toBe(true)
    expect(side.numericFields.has('order')).toBe(false)
  })

  it("refuses deepeval's positional names (test_case_<n>) without a query id, and accepts --id-field input", async () => {
    await expect(readRows(join(fx, 'deepeval/positional.json'), { metricFields: metrics })).rejects.toThrow(
      /positional\.json \(testCases\[0\]\): has no query id: .*"test_case_0".*additional_metadata/
    )
    const side = await readRows(join(fx, 'deepeval/positional.json'), { metricFields: metrics, idField: 'input' })
    expect(rowsOf(side)[0].id).toBe('How do I reset my password?')
  })

  it('reads an EvaluationResult dumped with snake_case fields', async () => {
    const side = await readRows(join(fx, 'deepeval/evaluation-result.json'), {
      metricFields: new Set(['Answer Relevancy'])
    })
    expect(rowsOf(side).map((r) => [r.id, r.values.get('Answer Relevancy')])).toEqual([
      ['faq-00', 0.9],
      ['faq-01', 0.8],
      ['faq-02', 0.7]
    ])
  })
})

describe('built-in formats are untouched', () => {
  it('reads a JSON Lines row whose first line is longer than the detection head (64 KiB) with the built-in reader', async () => {
    const long = 'x'.repeat(70000)
    const f = writeFiles({
      'long.jsonl': `{"query_id": "q1", "note": "${long}", "m": 0.25}\n{"query_id": "q2", "m": 0.5}\n`,
      'bad.jsonl': `{"query_id": "q1", "m": 0.25\n`
    })
    const side = await readRows(f['long.jsonl'], { metricFields: new Set(['m']) })
    expect(rowsOf(side).map((r) => [r.id, r.values.get('m')])).toEqual([
      ['q1', 0.25],
      ['q2', 0.5]
    ])
    await expect(readRows(f['bad.jsonl'], { metricFields: new Set(['m']) })).rejects.toThrow(
      /bad\.jsonl:1: is not valid JSON/
    )
  })

  it('still reads JSON Lines and CSV rows with query_id through the built-in reader', async () => {
    const f = writeFiles({ 'a.jsonl': '{"query_id": "q1", "m": 0.5}\n', 'b.csv': 'query_id,m\nq1,0.5\n' })
    for (const file of [f['a.jsonl'], f['b.csv']]) {
      const side = await readRows(file, { metricFields: new Set(['m']) })
      expect(rowsOf(side).map((r) => [r.id, r.values.get('m')])).toEqual([['q1', 0.5]])
    }
  })
})

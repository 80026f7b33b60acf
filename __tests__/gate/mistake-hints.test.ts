/**
 * The common first-use mistakes get a refusal that names the likely cause and what to do, not only the
 * symptom: a slice named differently from the rows' field, a metric used as a slice, a CSV under another
 * name, and a run gated without judgments. All are refusals (exit 2, file or rules key, no stack trace).
 */
import { describe, expect, it } from '@jest/globals'
import { cli, hasStackTrace, jsonl, writeFiles } from '../helpers.js'
import { nearName } from '../../src/align/attribute-hint.js'
import { parquetWriteBuffer } from 'hyparquet-writer'

const rows = (n = 40) =>
  Array.from({ length: n }, (_, i) => ({
    query_id: `q${i}`,
    'recall@10': (i % 7) / 10,
    lang: i % 2 ? 'en' : 'de',
    user_segment: i % 3 ? 'new' : 'old'
  }))
const check = 'checks:\n  - name: recall holds\n    metric: recall@10\n    non_inferior: { margin: 0.1 }\n'
const rulesWith = (extra: string) =>
  `version: 1\nmetrics:\n  recall@10: { better: higher, range: [0, 1] }\n${extra}\n${check}`

async function gate(rules: string, files: Record<string, string>, b: string, c: string, extra: string[] = []) {
  const f = writeFiles({ 'rules.yml': rules, ...files })
  const r = await cli(['gate', '--rules', f['rules.yml'], '--baseline', f[b], '--candidate', f[c], ...extra])
  expect(r.code).toBe(2)
  expect(r.stdout).toBe('')
  expect(hasStackTrace(r.stderr)).toBe(false)
  return r.stderr
}

describe('an attribute the rows spell differently', () => {
  it('language vs lang: a prefix is a near miss', async () => {
    const err = await gate(
      rulesWith('slices: [language]'),
      { 'b.jsonl': jsonl(rows()), 'c.jsonl': jsonl(rows()) },
      'b.jsonl',
      'c.jsonl'
    )
    expect(err).toContain('no row has the attribute "language" (did you mean "lang"?)')
    expect(err).toContain('(slices[0])')
    expect(err).toMatch(/label fields in the rows: lang, user_segment/)
  })

  it('segment vs user_segment (containment), and Lang vs lang (case)', () => {
    expect(nearName('segment', ['lang', 'user_segment'])).toBe('user_segment')
    expect(nearName('Lang', ['lang', 'language_code'])).toBe('lang')
    expect(nearName('xy', ['xyz_field'])).toBeUndefined()
  })

  it('for per_slice and statistics.cluster too', async () => {
    const err = await gate(
      rulesWith('statistics: { cluster: language }'),
      { 'b.jsonl': jsonl(rows()), 'c.jsonl': jsonl(rows()) },
      'b.jsonl',
      'c.jsonl'
    )
    expect(err).toContain('(statistics.cluster): no row has the attribute "language" (did you mean "lang"?)')
  })
})

describe('an attribute that runs do not carry', () => {
  it('runs plus judgments sliced by an attribute: says runs carry none and names the queries file key', async () => {
    const run = Array.from({ length: 40 }, (_, i) => `q${i} Q0 d${i} 1 2.5 run\n`).join('')
    const qrels = Array.from({ length: 40 }, (_, i) => `q${i} 0 d${i} 1\n`).join('')
    const rules =
      'version: 1\njudgments: { qrels: QRELS }\nmetrics:\n  nDCG@10: { better: higher }\nslices: [family]\nchecks:\n  - name: x\n    metric: nDCG@10\n    non_inferior: { margin: 0.1 }\n'
    const q = writeFiles({ 'qrels.txt': qrels })
    const err = await gate(
      rules.replace('QRELS', JSON.stringify(q['qrels.txt'])),
      { 'b.txt': run, 'c.txt': run },
      'b.txt',
      'c.txt'
    )
    expect(err).toContain('no row has the attribute "family"')
    expect(err).toContain('label fields in the rows: none')
    expect(err).toContain(
      'a TREC, ranx or Parquet run carries no query attributes (a JSON Lines run only the fields of its per-query records): name a queries file (rules key queries.file) that gives each query its attributes'
    )
  })

  it('per-query rows without the attribute: add it to the rows or name a queries file', async () => {
    const err = await gate(
      rulesWith('slices: [family]'),
      { 'b.jsonl': jsonl(rows()), 'c.jsonl': jsonl(rows()) },
      'b.jsonl',
      'c.jsonl'
    )
    expect(err).toContain('no row has the attribute "family"')
    expect(err).toContain(
      'add the field to the rows, or name a queries file (rules key queries.file) that gives each query its attributes'
    )
  })
})

describe('a metric used as a slice', () => {
  it('says it is a metric, not a label, instead of "query has no value"', async () => {
    const err = await gate(
      rulesWith('slices: [recall@10]'),
      { 'b.jsonl': jsonl(rows()), 'c.jsonl': jsonl(rows()) },
      'b.jsonl',
      'c.jsonl'
    )
    expect(err).toContain(
      'rules.yml (slices[0]): "recall@10" is a metric (a number per query), not a label to group queries by'
    )
    expect(err).toMatch(/add a label field to the rows/)
    expect(err).not.toMatch(/has no value/)
  })
})

describe('a CSV whose name does not end in .csv', () => {
  const csv = 'query_id,recall@10\n' + Array.from({ length: 40 }, (_, i) => `q${i},0.5`).join('\n') + '\n'
  it('suggests --input-format csv', async () => {
    const err = await gate(rulesWith(''), { 'b.txt': csv, 'c.txt': csv }, 'b.txt', 'c.txt')
    expect(err).toMatch(/b\.txt:1: /)
    expect(err).toMatch(/looks like CSV: name the file with a \.csv extension or pass --input-format csv/)
  })

  it('and with --input-format csv the same files gate', async () => {
    const f = writeFiles({ 'rules.yml': rulesWith(''), 'b.txt': csv, 'c.txt': csv })
    const r = await cli([
      'gate',
      '--rules',
      f['rules.yml'],
      '--baseline',
      f['b.txt'],
      '--candidate',
      f['c.txt'],
      '--input-format',
      'csv'
    ])
    expect(r.stderr).toBe('')
    expect(r.code).toBe(0)
  })
})

describe('a run gated without judgments', () => {
  const ndcg =
    'version: 1\nmetrics:\n  nDCG@10: { better: higher }\nchecks:\n  - name: x\n    metric: nDCG@10\n    non_inferior: { margin: 0.1 }\n'
  /** What every run-given-as-rows refusal says to do. */
  const NAME_JUDGMENTS =
    'name the judgments (rules key judgments.qrels, e.g. judgments: { qrels: qrels.txt }) or pass --qrels'

  it('a TREC run: says it looks like a run and names judgments.qrels / --qrels, not "not valid JSON"', async () => {
    const run = 'q1 Q0 d1 1 2.5 run\nq1 Q0 d2 2 2.0 run\n'
    const err = await gate(ndcg, { 'run.txt': run, 'run2.txt': run }, 'run.txt', 'run2.txt')
    expect(err).toMatch(/run\.txt:1: this looks like a TREC run \(query Q0 doc rank score tag\), not per-query rows\. /)
    expect(err).toContain(NAME_JUDGMENTS)
    expect(err).not.toMatch(/not valid JSON/)
  })

  it('a JSON Lines run (one line per document): the run, not a list of duplicate ids', async () => {
    const run = '{"query_id":"q1","doc_id":"d1","score":2}\n{"query_id":"q1","doc_id":"d2","score":1}\n'
    const err = await gate(ndcg, { 'b.jsonl': run, 'c.jsonl': run }, 'b.jsonl', 'c.jsonl')
    expect(err).toMatch(
      /b\.jsonl: this looks like a run \(one line per retrieved document, field "doc_id"; query "q1" on lines 1 and 2\), not per-query rows\. /
    )
    expect(err).toContain(NAME_JUDGMENTS)
    expect(err).not.toMatch(/duplicate query ids/)
  })

  it('a ranx run JSON (Run.save, indented by two spaces): the run, not the document ids as numeric fields', async () => {
    // 60 queries x 100 documents with ids of 20 characters: the old refusal listed every id as a "field with numbers".
    const docs = (q: number) =>
      Array.from(
        { length: 100 },
        (_, k) => `    "doc-${String(q).padStart(3, '0')}-${String(k).padStart(3, '0')}-abcdefgh": ${100 - k}.5`
      ).join(',\n')
    const run = `{\n${Array.from({ length: 60 }, (_, q) => `  "q${q}": {\n${docs(q)}\n  }`).join(',\n')}\n}`
    const err = await gate(ndcg, { 'b.json': run, 'c.json': run }, 'b.json', 'c.json')
    expect(err).toMatch(
      /b\.json: this looks like a ranx \/ pytrec_eval run \(\{query: \{document: score\}\}: 6000 different keys under 60 queries, at most 100 in one\), not per-query results\. /
    )
    expect(err).toContain(NAME_JUDGMENTS)
    expect(err.length).toBeLessThan(800)
  })

  it('a run in Parquet (ranx Run.save("run.parquet"): q_id, doc_id, score): the run, not --id-field', async () => {
    const table = parquetWriteBuffer({
      columnData: [
        { name: 'q_id', type: 'STRING', data: ['q1', 'q1', 'q2'] },
        { name: 'doc_id', type: 'STRING', data: ['d1', 'd2', 'd1'] },
        { name: 'score', type: 'DOUBLE', data: [2.5, 2.0, 1.0] }
      ]
    })
    const f = writeFiles({ 'rules.yml': ndcg, 'b.parquet': Buffer.from(table), 'c.parquet': Buffer.from(table) })
    const r = await cli([
      'gate',
      '--rules',
      f['rules.yml'],
      '--baseline',
      f['b.parquet'],
      '--candidate',
      f['c.parquet']
    ])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain(
      'this looks like a run (a Parquet table with columns q_id, doc_id, score), not per-query rows'
    )
    expect(r.stderr).toContain(NAME_JUDGMENTS)
    expect(r.stderr).not.toMatch(/--id-field/)
  })

  it('a metric the rows lack lists at most 20 of their numeric fields', async () => {
    const wide = Array.from({ length: 40 }, (_, i) => ({
      query_id: `q${i}`,
      ...Object.fromEntries(Array.from({ length: 200 }, (_, k) => [`field_${k}`, k]))
    }))
    const err = await gate(ndcg, { 'b.jsonl': jsonl(wide), 'c.jsonl': jsonl(wide) }, 'b.jsonl', 'c.jsonl')
    expect(err).toMatch(/no row has the metric "nDCG@10"/)
    expect(err).toMatch(
      /fields with numbers in this file \(200\): field_0, field_1, field_10, .*, field_115 and 180 more\. /
    )
  })

  it('TREC judgments given as a side', async () => {
    const qrels = 'q1 0 d1 1\nq1 0 d2 0\n'
    const err = await gate(ndcg, { 'q.txt': qrels, 'q2.txt': qrels }, 'q.txt', 'q2.txt')
    expect(err).toMatch(
      /q\.txt:1: this looks like judgments \(TREC qrels: query iteration doc grade\), not per-query rows\. pass it as --qrels \/ judgments\.qrels/
    )
  })
})

describe('an undeclared measurement used as a group', () => {
  it('per_slice on a number that differs between the sides: declare it a metric, or correct a label', async () => {
    const base = rows().map((r, i) => ({ ...r, answer_relevancy: (i % 5) / 10 }))
    const cand = rows().map((r, i) => ({ ...r, answer_relevancy: (i % 4) / 10 }))
    const err = await gate(
      rulesWith('').replace(check, '') +
        'checks:\n  - name: per relevancy\n    metric: recall@10\n    per_slice: answer_relevancy\n    non_inferior: { margin: 0.1 }\n',
      { 'b.jsonl': jsonl(base), 'c.jsonl': jsonl(cand) },
      'b.jsonl',
      'c.jsonl'
    )
    expect(err).toMatch(/attribute "answer_relevancy" differs between the sides/)
    expect(err).toMatch(/"answer_relevancy" holds numbers: if it is a measurement .* declare it under metrics/)
  })
})

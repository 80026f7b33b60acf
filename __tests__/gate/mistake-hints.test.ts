/**
 * The common first-use mistakes get a refusal that names the likely cause and what to do, not only the
 * symptom: a slice named differently from the rows' field, a metric used as a slice, a CSV under another
 * name, and a run gated without judgments. All are refusals (exit 2, file or rules key, no stack trace).
 */
import { describe, expect, it } from '@jest/globals'
import { cli, hasStackTrace, jsonl, writeFiles } from '../helpers.js'
import { nearName } from '../../src/align/attribute-hint.js'

const rows = (n = 40) => Array.from({ length: n }, (_, i) => ({ query_id: `q${i}`, 'recall@10': (i % 7) / 10, lang: i % 2 ? 'en' : 'de', user_segment: i % 3 ? 'new' : 'old' }))
const check = 'checks:\n  - name: recall holds\n    metric: recall@10\n    non_inferior: { margin: 0.1 }\n'
const rulesWith = (extra: string) => `version: 1\nmetrics:\n  recall@10: { better: higher, range: [0, 1] }\n${extra}\n${check}`

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
    const err = await gate(rulesWith('slices: [language]'), { 'b.jsonl': jsonl(rows()), 'c.jsonl': jsonl(rows()) }, 'b.jsonl', 'c.jsonl')
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
    const err = await gate(rulesWith('statistics: { cluster: language }'), { 'b.jsonl': jsonl(rows()), 'c.jsonl': jsonl(rows()) }, 'b.jsonl', 'c.jsonl')
    expect(err).toContain('(statistics.cluster): no row has the attribute "language" (did you mean "lang"?)')
  })
})

describe('a metric used as a slice', () => {
  it('says it is a metric, not a label, instead of "query has no value"', async () => {
    const err = await gate(rulesWith('slices: [recall@10]'), { 'b.jsonl': jsonl(rows()), 'c.jsonl': jsonl(rows()) }, 'b.jsonl', 'c.jsonl')
    expect(err).toContain('rules.yml (slices[0]): "recall@10" is a metric (a number per query), not a label to group queries by')
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
    const r = await cli(['gate', '--rules', f['rules.yml'], '--baseline', f['b.txt'], '--candidate', f['c.txt'], '--input-format', 'csv'])
    expect(r.stderr).toBe('')
    expect(r.code).toBe(0)
  })
})

describe('a run gated without judgments', () => {
  const ndcg = 'version: 1\nmetrics:\n  nDCG@10: { better: higher }\nchecks:\n  - name: x\n    metric: nDCG@10\n    non_inferior: { margin: 0.1 }\n'
  it('a TREC run: says it looks like a run and names judgments: / --qrels', async () => {
    const run = 'q1 Q0 d1 1 2.5 run\nq1 Q0 d2 2 2.0 run\n'
    const err = await gate(ndcg, { 'run.txt': run, 'run2.txt': run }, 'run.txt', 'run2.txt')
    expect(err).toMatch(/run\.txt:1: .*looks like a TREC run/)
    expect(err).toMatch(/judgments: \{ qrels: qrels\.txt \}\) or pass --qrels/)
  })

  it('a JSON Lines run (one line per document)', async () => {
    const run = '{"query_id":"q1","doc_id":"d1","score":2}\n{"query_id":"q1","doc_id":"d2","score":1}\n'
    const err = await gate(ndcg, { 'b.jsonl': run, 'c.jsonl': run }, 'b.jsonl', 'c.jsonl')
    expect(err).toMatch(/duplicate query ids/)
    expect(err).toMatch(/looks like a run \(one line per retrieved document, field "doc_id"\).*--qrels/)
  })

  it('a ranx / pytrec_eval run read as per-query results', async () => {
    const run = '{"q1": {"d1": 2.5, "d2": 2.0}, "q2": {"d1": 1.0}}'
    const err = await gate(ndcg, { 'b.json': run, 'c.json': run }, 'b.json', 'c.json')
    expect(err).toMatch(/no row has the metric "nDCG@10"/)
    expect(err).toMatch(/"nDCG@10" is a ranking measure: if these files are runs.*--qrels/)
  })

  it('TREC judgments given as a side', async () => {
    const qrels = 'q1 0 d1 1\nq1 0 d2 0\n'
    const err = await gate(ndcg, { 'q.txt': qrels, 'q2.txt': qrels }, 'q.txt', 'q2.txt')
    expect(err).toMatch(/looks like TREC judgments.*--qrels/)
  })
})

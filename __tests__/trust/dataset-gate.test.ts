import { describe, expect, it } from '@jest/globals'
import { readFileSync } from 'node:fs'
import { datasetJudgments } from '../../src/readers/dataset/judgments.js'
import { readDataset } from '../../src/readers/dataset/read.js'
import { computeRunRows } from '../../src/metrics/index.js'
import { cli, jsonl, writeFiles } from '../helpers.js'
import { rowsOf } from '../../src/model/rows.js'

/*
 * __tests__/fixtures/trust/dataset/: 8 questions. Holdout, answerable, undisputed (gated): h1 h2 (account),
 * h3 h4 (billing). u1 u2 unanswerable; x1 disputed; d1 dev. Runs return 3 documents per question.
 *   h1 grades c01=3 c02=1 c03=0; baseline [c01 c03 c02], candidate [c01 c02 c17]
 *      nDCG@3 baseline (3 + 1/log2(4)) / (3 + 1/log2(3)) = 3.5 / 3.630930 = 0.963940; candidate 1
 *   h2 c05=2: both [c05 ...]: 1.      h3 gold c06 c07: baseline [c06 c07 c13] 1; candidate [c18 c19 c20] 0
 *   h4 gold c08: baseline [c08 ...] 1; candidate [c14 c15 c16] 0
 * Candidate: zero hits for both billing questions (100% of billing, 50% overall); baseline none.
 * Unanswerable: baseline abstains on u1, answers u2 with a document; candidate abstains on both.
 */
const D = '__tests__/fixtures/trust/dataset'

async function gate(rules = `${D}/rules.yml`) {
  const f = writeFiles({ 'r.json': '' })
  const r = await cli([
    'gate',
    '--rules',
    rules,
    '--baseline',
    `${D}/baseline.jsonl`,
    '--candidate',
    `${D}/candidate.jsonl`,
    '--json',
    f['r.json'],
    '--format',
    'markdown'
  ])
  return { ...r, json: JSON.parse(readFileSync(f['r.json'], 'utf8')) }
}

describe('metrics from the evaluation-set contract', () => {
  it('gates the holdout split only; disputed questions excluded and counted; unanswerable reported apart', async () => {
    const r = await gate()
    const ndcg = r.json.comparisons.find(
      (c: { metric: string; slice: object }) => c.metric === 'nDCG@3' && Object.keys(c.slice).length === 0
    )
    expect(ndcg.n).toBe(4)
    expect(ndcg.baseline).toBeCloseTo((0.96394 + 3) / 4, 5)
    expect(ndcg.candidate).toBe(0.5)
    const d = r.json.trust.dataset
    expect(d).toEqual({
      file: `${D}/dataset.jsonl`,
      split: 'holdout',
      gated: 4,
      disputed_excluded: ['x1'],
      other_split: 1,
      unanswerable: {
        ids: ['u1', 'u2'],
        baseline: { abstained: 1, empty: 0, answered: 1, absent: 0 },
        candidate: { abstained: 2, empty: 0, answered: 0, absent: 0 }
      }
    })
    expect(r.json.coverage.notes).toContain(
      'dataset: 1 disputed questions kept in the file but excluded from the gated metrics: x1'
    )
    expect(r.stdout).toContain(
      'Unanswerable questions, baseline: 1 abstained, 0 returned nothing, 1 returned documents (should have abstained), 0 absent from the run.'
    )
  })

  it('the split the rules name decides which questions are gated', async () => {
    const rules = readFileSync(`${D}/rules.yml`, 'utf8')
      .replace('split: holdout', 'split: dev')
      .replace(/max_zero_hit_share.*\n/, '')
    const r = await gate(writeFiles({ 'rules.yml': rules })['rules.yml'])
    expect(r.json.coverage.paired).toBe(1) // d1 only
    expect(r.json.trust.dataset.other_split).toBe(7)
  })

  it('max_zero_hit_share names every slice where the candidate finds nothing relevant', async () => {
    const r = await gate()
    expect(r.code).toBe(1)
    expect(r.json.decided_by).toBe('max_zero_hit_share')
    expect(r.json.trust.guards[0].reason).toBe(
      'queries with no relevant document in the top 3: all queries: 50.0% of 4 queries (baseline 0.0%) above the limit of 25.0%; category=billing: 100.0% of 2 queries (baseline 0.0%) above the limit of 25.0%'
    )
    const billing = r.json.trust.zero_hits.slices.find(
      (s: { slice: Record<string, string> }) => s.slice.category === 'billing'
    )
    expect(billing.baseline).toBe(0)
    expect(billing.candidate).toBe(1)
    // quantiles p0/p10/p25/p50/p75/p90/p100 of nDCG@3 over billing: the candidate's are all 0
    expect(billing.distributions[0]).toEqual({
      metric: 'nDCG@3',
      baseline: [1, 1, 1, 1, 1, 1, 1],
      candidate: [0, 0, 0, 0, 0, 0, 0]
    })
    const all = r.json.trust.zero_hits.slices[0]
    expect(all.slice).toEqual({})
    // baseline values sorted [0.963940, 1, 1, 1]: p10 = 0.963940 + 0.3 * 0.036060 (type 7, as numpy.percentile)
    expect(all.distributions[0].baseline[1]).toBeCloseTo(0.96394 + 0.3 * (1 - 0.96394), 5)
  })

  it('is not publishable: unjudged documents in the pool and a disputed question excluded', async () => {
    const r = await gate()
    expect(r.json.publishable.value).toBe(false)
    expect(r.json.publishable.reasons).toEqual([
      '10 of the 17 pooled top-10 documents (both systems) have no graded judgment, in 4 queries',
      '1 disputed question was excluded from the gated metrics'
    ])
    expect(r.stdout).toContain('**Publishable: no**: 10 of the 17 pooled top-10 documents')
  })
})

describe('FactRecall@k', () => {
  it('is the share of key facts with a supporting chunk in the top k', async () => {
    // facts: f1 supported by c1 or c2, f2 by c3, f3 by c4. Top 3 = [c2, c9, c3]: f1 and f2 found -> 2/3.
    // R@3 over the gold {c1, c2, c3, c4}: 2/4. With the top 1 = [c2]: FactRecall@1 = 1/3.
    const f = writeFiles({
      'd.jsonl': jsonl([
        {
          id: 'q',
          question: '?',
          answerable: true,
          gold_chunk_ids: ['c1', 'c2', 'c3', 'c4'],
          key_facts: [
            { id: 'f1', chunk_ids: ['c1', 'c2'] },
            { id: 'f2', chunk_ids: ['c3'] },
            { id: 'f3', chunk_ids: ['c4'] }
          ],
          split: 'holdout'
        }
      ]),
      'run.jsonl': jsonl([
        {
          query_id: 'q',
          results: [
            { doc_id: 'c2', score: 3 },
            { doc_id: 'c9', score: 2 },
            { doc_id: 'c3', score: 1 }
          ]
        }
      ])
    })
    const dataset = await readDataset(f['d.jsonl'])
    const { qrels } = datasetJudgments(dataset, 'holdout')
    const r = await computeRunRows({
      runFile: f['run.jsonl'],
      qrels,
      measures: ['FactRecall@3', 'FactRecall@1', 'R@3']
    })
    const v = rowsOf(r.side)[0].values
    expect(v.get('FactRecall@3')).toBeCloseTo(2 / 3, 15)
    expect(v.get('FactRecall@1')).toBeCloseTo(1 / 3, 15)
    expect(v.get('R@3')).toBe(0.5)
  })

  it('without key facts (TREC qrels) each relevant document is its own fact: FactRecall@k = R@k', async () => {
    const r = await cli([
      'metrics',
      '--qrels',
      '__tests__/fixtures/trec/qrels.txt',
      '--run',
      '__tests__/fixtures/trec/run.txt',
      '-m',
      'FactRecall@10',
      '-m',
      'R@10',
      '--per-query',
      '-c'
    ])
    expect(r.code).toBe(0)
    const values = (name: string) =>
      r.stdout
        .split('\n')
        .filter((l) => l.startsWith(`${name}\t`))
        .map((l) => l.split('\t').slice(1).join('\t'))
    expect(values('FactRecall@10').length).toBeGreaterThan(10)
    expect(values('FactRecall@10')).toEqual(values('R@10'))
  })
})

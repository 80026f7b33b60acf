import { describe, expect, it } from '@jest/globals'
import { readFileSync } from 'node:fs'
import { cli, writeFiles } from '../helpers.js'

/*
 * Pooling bias, hand-checkable (__tests__/fixtures/trust/pooling/), in the spirit of the published synthetic
 * example (true precision 0.985 measured as 0.182, 81% of relevant results never judged). Three identical
 * queries. The judgments (qrels.txt) were made from the baseline's pool: d01, d02 relevant, d03..d10 not.
 *   baseline  top 10: d03 d01 d04 d02 d05 d06 d07 d08 d09 d10       (all judged)
 *   candidate top 10: n01..n08 d01 d02                              (n01..n08 never judged)
 * After judging (qrels-complete.txt) every n is relevant: the candidate's true P@10 is 1.0, measured 0.2;
 * 8 of its 10 relevant results (80%) were never judged.
 * nDCG@10 (linear gain), ideal from the 2 judged relevant: IDCG = 1 + 1/log2(3) = 1.630930
 *   baseline  relevant at ranks 2, 4:  (1/log2(3) + 1/log2(5)) / IDCG = 1.061606 / 1.630930 = 0.650921
 *   candidate relevant at ranks 9, 10: (1/log2(10) + 1/log2(11)) / IDCG = 0.590090 / 1.630930 = 0.361810
 *   candidate condensed (n's removed: d01, d02 at ranks 1, 2): 1.630930 / IDCG = 1
 * So the full delta is -0.289111 (the candidate looks worse) and the judged-only delta +0.349079.
 */
const P = '__tests__/fixtures/trust/pooling'

async function gate(args: string[] = [], rules = `${P}/rules.yml`) {
  const f = writeFiles({ 'r.json': '', 'tj.jsonl': '' })
  const r = await cli([
    'gate',
    '--rules',
    rules,
    '--baseline',
    `${P}/baseline.jsonl`,
    '--candidate',
    `${P}/candidate.jsonl`,
    '--json',
    f['r.json'],
    '--to-judge',
    f['tj.jsonl'],
    '--format',
    'markdown',
    ...args
  ])
  return { ...r, json: JSON.parse(readFileSync(f['r.json'], 'utf8')), toJudge: readFileSync(f['tj.jsonl'], 'utf8') }
}

describe('pooling bias', () => {
  it("measures each side's judged share of the top k, per query and on average", async () => {
    const r = await gate()
    const p = r.json.trust.pooling
    expect(p.depth).toBe(10)
    expect(p.baseline).toEqual({
      mean_judged: 1,
      mean_unjudged: 0,
      queries: 3,
      empty_rankings: 0,
      retrieved_docs: 30,
      unjudged_docs: 0
    })
    expect(p.candidate.mean_judged).toBeCloseTo(0.2, 15)
    expect(p.candidate.unjudged_docs).toBe(24)
    expect(p.judged_per_query).toEqual([
      { query_id: 'q1', baseline: 1, candidate: 0.2 },
      { query_id: 'q2', baseline: 1, candidate: 0.2 },
      { query_id: 'q3', baseline: 1, candidate: 0.2 }
    ])
    // pool = d01..d10 + n01..n08 = 18 per query, 8 unjudged
    expect(p.pool).toEqual({ documents: 54, unjudged: 24, queries_with_unjudged: 3 })
  })

  it('max_unjudged (outcome inconclusive, counted as fail by on_inconclusive) decides the verdict and says why', async () => {
    const r = await gate()
    expect(r.code).toBe(1)
    expect(r.json.decided_by).toBe('pooling.max_unjudged')
    expect(r.json.trust.guards).toEqual([
      {
        rule: 'pooling.max_unjudged',
        status: 'inconclusive',
        counts_as: 'fail',
        reason:
          "the candidate's top 10 is 80.0% unjudged on average, the baseline's 0.0%, above the limit of 50.0%: the judgments do not cover what the candidate returns, so its scores are biased low; judge the pooled documents that have no grade and rerun"
      }
    ])
    expect(r.stdout).toContain('## ❌ retrieval-gate: fail, decided by trust rule “pooling.max\\_unjudged”')
  })

  it('an increase over the baseline can be capped instead, and outcome: fail fails outright', async () => {
    const rules = readFileSync(`${P}/rules.yml`, 'utf8').replace(
      'max_unjudged: { share: 0.5, outcome: inconclusive }',
      'max_unjudged: { increase: 0.3, outcome: fail }'
    )
    const r = await gate([], writeFiles({ 'rules.yml': rules })['rules.yml'])
    expect(r.json.trust.guards[0].status).toBe('fail')
    expect(r.json.trust.guards[0].reason).toContain("above the baseline's 0.0% + 30.0% allowed")
    const lenient = readFileSync(`${P}/rules.yml`, 'utf8').replace(
      'max_unjudged: { share: 0.5, outcome: inconclusive }',
      'max_unjudged: { share: 0.8 }'
    )
    const ok = await gate([], writeFiles({ 'rules.yml': lenient })['rules.yml'])
    expect(ok.json.trust.guards[0].status).toBe('pass') // 80% is not above 80%
  })

  it("writes the pooled unjudged documents per query, with each side's rank, ready for annotation", async () => {
    const r = await gate()
    const lines = r.toJudge
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l))
    expect(lines.map((l) => l.query_id)).toEqual(['q1', 'q2', 'q3'])
    expect(lines[0]).toEqual({
      query_id: 'q1',
      depth: 10,
      documents: ['n01', 'n02', 'n03', 'n04', 'n05', 'n06', 'n07', 'n08'].map((d, i) => ({
        doc_id: d,
        baseline_rank: null,
        candidate_rank: i + 1
      }))
    })
  })

  it('reports judged-only (condensed) metrics as a second opinion, and flags the reversal', async () => {
    const r = await gate()
    const ndcg = r.json.trust.pooling.condensed.find((c: { metric: string }) => c.metric === 'nDCG@10')
    // Reference: trec_eval 10.0 on the fixture converted to TREC runs (rank order = the JSON order), comment
    // lines dropped from qrels.txt: `trec_eval -c -m ndcg_cut.10 qrels run` -> baseline 0.6509, candidate
    // 0.3618; with `-J` (judged only) -> baseline 0.6509, candidate 1.0000.
    expect(ndcg.full.baseline).toBeCloseTo(0.650921, 6)
    expect(ndcg.full.candidate).toBeCloseTo(0.36181, 5)
    expect(ndcg.condensed.baseline).toBeCloseTo(0.650921, 6)
    expect(ndcg.condensed.candidate).toBeCloseTo(1, 12)
    expect(ndcg.direction_differs).toBe(true)
    const p10 = r.json.trust.pooling.condensed.find((c: { metric: string }) => c.metric === 'P@10')
    // measured 0.2 (summed over 3 queries then divided: 0.6/3 in binary is 0.2 + 4e-17); the truth is 1.0 (below)
    expect(p10.full.baseline).toBeCloseTo(0.2, 15)
    expect(p10.full.candidate).toBeCloseTo(0.2, 15)
    expect(p10.full.delta).toBe(0)
    expect(r.stdout).toContain(
      '| `nDCG@10` | 3 | 0.6509 | 0.3618 | -28.91 pts | 0.6509 | 1.0000 | +34.91 pts | ⚠️ reverses |'
    )
  })

  it('is not publishable while the pooled top k has unjudged documents; after judging them it is', async () => {
    const r = await gate()
    expect(r.json.publishable.value).toBe(false)
    expect(r.json.publishable.reasons).toEqual([
      '24 of the 54 pooled top-10 documents (both systems) have no graded judgment, in 3 queries'
    ])
    const judged = await gate(['--qrels', `${P}/qrels-complete.txt`])
    expect(judged.code).toBe(0)
    // Nothing wrong any more, but without manifests comparability was not checked: not established, not "yes".
    expect(judged.json.publishable).toEqual({
      value: false,
      reasons: [],
      unchecked: ['snapshot comparability (no manifests given)']
    })
    expect(judged.toJudge).toBe('')
    const p10 = judged.json.trust.pooling.condensed.find((c: { metric: string }) => c.metric === 'P@10')
    expect(p10.full.candidate).toBe(1) // the candidate's true precision
  })

  it('same inputs in another row order give the same bytes', async () => {
    const reversed = readFileSync(`${P}/candidate.jsonl`, 'utf8').trim().split('\n').reverse().join('\n') + '\n'
    const f = writeFiles({ 'cand.jsonl': reversed, 'a.json': '', 'b.json': '' })
    await cli([
      'gate',
      '--rules',
      `${P}/rules.yml`,
      '--baseline',
      `${P}/baseline.jsonl`,
      '--candidate',
      `${P}/candidate.jsonl`,
      '--json',
      f['a.json']
    ])
    await cli([
      'gate',
      '--rules',
      `${P}/rules.yml`,
      '--baseline',
      `${P}/baseline.jsonl`,
      '--candidate',
      f['cand.jsonl'],
      '--json',
      f['b.json']
    ])
    const a = JSON.parse(readFileSync(f['a.json'], 'utf8'))
    const b = JSON.parse(readFileSync(f['b.json'], 'utf8'))
    a.inputs = b.inputs = null
    expect(JSON.stringify(b.trust)).toBe(JSON.stringify(a.trust))
  })
})

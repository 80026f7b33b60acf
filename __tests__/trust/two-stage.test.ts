import { describe, expect, it } from '@jest/globals'
import { readFileSync } from 'node:fs'
import { dcg, ndcgAt, poolCeiling, poolCoverage } from '../../src/trust/two-stage.js'
import type { JudgedQuery } from '../../src/model/qrels.js'
import { cli, writeFiles } from '../helpers.js'

/*
 * The five-document example, exponential gain (2^g - 1): grades c=3, d=2, b=1; a, e not relevant.
 * Ideal DCG@3 from ALL judgments: 7/log2(2) + 3/log2(3) + 1/log2(4) = 7 + 1.892789 + 0.5 = 9.392789
 * Pool of 3 [a, b, e]: the best order puts b first: 1/9.392789 = 0.106465 (ranker [b, a, e] reaches it).
 * Pool of 5: ranker [b, c, d]: (1 + 7/log2(3) + 3/log2(4)) / 9.392789 = 6.916504 / 9.392789 = 0.736364;
 *   ceiling [c, d, b] = 1.
 * An ideal computed from the pool [a, b, e] alone (grades [1, 0, 0]) would call the ranker perfect: 1.000.
 * Checked with python3: math.log2, same formulas.
 */
const judged: JudgedQuery = {
  id: 'q',
  line: 1,
  grades: new Map([
    ['a', 0],
    ['b', 1],
    ['c', 3],
    ['d', 2],
    ['e', 0]
  ]),
  gradesDesc: Int32Array.from([3, 2, 1, 0, 0])
}

describe('two-stage diagnostics', () => {
  it('pool of 3: ranker and pool ceiling both 0.106', () => {
    expect(dcg([3, 2, 1], 3, 'exp')).toBeCloseTo(9.392789, 6)
    expect(ndcgAt(judged, ['b', 'a', 'e'], 3, 'exp')).toBeCloseTo(0.106465, 6)
    expect(poolCeiling(judged, ['a', 'b', 'e'], 3, 'exp')).toBeCloseTo(0.106465, 6)
    expect(poolCoverage(judged, ['a', 'b', 'e'])).toBeCloseTo(1 / 3, 15)
  })

  it('pool of 5: ranker [b, c, d] 0.736 against a ceiling of 1.000', () => {
    expect(ndcgAt(judged, ['b', 'c', 'd'], 3, 'exp')).toBeCloseTo(0.736364, 6)
    expect(poolCeiling(judged, ['a', 'b', 'c', 'd', 'e'], 3, 'exp')).toBe(1)
    expect(poolCoverage(judged, ['a', 'b', 'c', 'd', 'e'])).toBe(1)
  })

  it('an ideal from the pool alone would wrongly report 1.000; ours does not', () => {
    const naive = dcg([1, 0, 0], 3, 'exp')
    expect(dcg([1, 0, 0], 3, 'exp') / naive).toBe(1)
    expect(poolCeiling(judged, ['a', 'b', 'e'], 3, 'exp')).toBeLessThan(0.11)
  })

  it('in the gate: runs with "candidates" get pool recall, ranker nDCG and ceiling per side', async () => {
    const T = '__tests__/fixtures/trust/two-stage'
    const f = writeFiles({ 'r.json': '' })
    const r = await cli([
      'gate',
      '--rules',
      `${T}/rules.yml`,
      '--baseline',
      `${T}/run.jsonl`,
      '--candidate',
      `${T}/run.jsonl`,
      '--json',
      f['r.json'],
      '--format',
      'markdown'
    ])
    expect(r.code).toBe(0)
    const t = JSON.parse(readFileSync(f['r.json'], 'utf8')).trust.two_stage
    expect(t.k).toBe(3)
    expect(t.gain).toBe('exp')
    // means over the two queries: coverage (1/3 + 1)/2, ranker (0.106465 + 0.736364)/2, ceiling (0.106465 + 1)/2
    expect(t.candidate.queries).toBe(2)
    expect(t.candidate.meanPoolSize).toBe(4)
    expect(t.candidate.coverage).toBeCloseTo(2 / 3, 11) // read from the JSON report: 12 significant digits (docs/report.md)
    expect(t.candidate.ranker).toBeCloseTo(0.421414, 6)
    expect(t.candidate.ceiling).toBeCloseTo(0.553232, 6)
    expect(t.candidate.rankedOutsidePool).toBe(0)
    // the ranker's nDCG here equals the gate's own nDCG(gain=exp)@3 (trec_eval-style), so the two agree
    expect(JSON.parse(readFileSync(f['r.json'], 'utf8')).comparisons[0].candidate).toBeCloseTo(0.421414, 6)
    expect(r.stdout).toContain('| candidate | 2 | 4.0 | 0.6667 | 0.4214 | 0.5532 | 0.1318 | 0.4468 |')
  })
})

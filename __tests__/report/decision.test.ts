import { describe, expect, it } from '@jest/globals'
import type { TrustGuardReason, WordedGuard } from '../../src/trust/trust.js'
import { loadRules } from '../../src/config/rules.js'
import { decideVerdict } from '../../src/decide/decided-by.js'
import { describeCheck, describePolicies } from '../../src/decide/describe.js'
import type { GateResult } from '../../src/decide/result.js'
import { COMPARABILITY_WORDS, POOLING_WORDS, ZERO_HITS_WORDS } from '../../src/capabilities/trust/words.js'
import { toMarkdown } from '../../src/report/markdown.js'
import { toText } from '../../src/report/text.js'
import { failProtectedSliceScenario, passScenario } from './scenarios.js'
import { toJsonReport } from '../helpers.js'

/**
 * Issue 15 item 3: the verdict and what decided it are decided once, in src/decide/, and every report reads
 * `decision.decidedBy`; trust guards give reason codes that their capability words (src/capabilities/trust/words.ts).
 */

const unjudgedReason = {
  code: 'unjudged_above',
  depth: 10,
  baseline: 0.05,
  candidate: 0.4,
  breach: { kind: 'share', share: 0.2 }
} as const
const unjudged: WordedGuard = {
  rule: 'pooling.max_unjudged',
  status: 'fail',
  reason: unjudgedReason,
  words: POOLING_WORDS.unjudged_above(unjudgedReason)
}
const zeroHitsReason: Extract<TrustGuardReason, { code: 'zero_hits_above' }> = {
  code: 'zero_hits_above',
  depth: 10,
  breaches: [
    {
      slice: [['segment', 'new']],
      n: 40,
      baseline: 0.1,
      candidate: 0.3,
      breach: { kind: 'increase', baseline: 0.1, increase: 0.1 }
    }
  ]
}
const zeroHitsInconclusive: WordedGuard = {
  rule: 'max_zero_hit_share',
  status: 'inconclusive',
  reason: zeroHitsReason,
  words: ZERO_HITS_WORDS.zero_hits_above(zeroHitsReason)
}

describe('one decision', () => {
  it('a failing check decides, with its first failing unit', () => {
    const r = failProtectedSliceScenario()
    const by = r.decision.decidedBy
    expect(by?.kind).toBe('check')
    if (by?.kind !== 'check') throw new Error('unreachable')
    expect(by.check.rule.name).toBe('new users are protected')
    expect(by.unit.status).toBe('fail')
    expect(by.unit.reason).toBe('shown_worse')
  })

  it('a trust guard that counts as fail decides before any check, and a pass has no decider', () => {
    const r = failProtectedSliceScenario()
    const d = decideVerdict(r.rules, [zeroHitsInconclusive, unjudged], r.decision.checks)
    expect(d.verdict).toBe('fail')
    // on_inconclusive defaults to fail, so the inconclusive zero-hit guard counts as fail and comes first.
    expect(d.decidedBy).toMatchObject({
      kind: 'trust',
      rule: 'max_zero_hit_share',
      reason: { code: 'zero_hits_above' }
    })
    expect(d.guards.map((g) => g.counts)).toEqual(['fail', 'fail'])
    const lenient = loadRules(
      `version: 1
metrics: { recall@10: { better: higher } }
on_inconclusive: pass
checks: [{ name: c, metric: recall@10, non_inferior: { margin: 0.01 } }]
`,
      'rules.yml'
    )
    const d2 = decideVerdict(lenient, [zeroHitsInconclusive, unjudged], [])
    expect(d2.guards.map((g) => g.counts)).toEqual(['pass', 'fail'])
    expect(d2.decidedBy).toMatchObject({ kind: 'trust', rule: 'pooling.max_unjudged' })
    expect(decideVerdict(lenient, [zeroHitsInconclusive], [])).toMatchObject({ verdict: 'pass', decidedBy: null })
    expect(passScenario().decision.decidedBy).toBeNull()
  })

  it('every report names what decision.decidedBy names, without re-deriving it', () => {
    const r = failProtectedSliceScenario()
    // A decision whose decider is a trust guard, with no trust section at all: the reports can only learn the
    // decider from the decision.
    const decided = decideVerdict(r.rules, [unjudged], r.decision.checks)
    const result: GateResult = { ...r, decision: { ...r.decision, ...decided } }
    const sentence = unjudged.words
    expect(JSON.parse(toJsonReport(result)).decided_by).toBe('pooling.max_unjudged')
    const md = toMarkdown(result)
    expect(md.split('\n')[0]).toBe('## ❌ retrieval-gate: fail, decided by trust rule “pooling.max\\_unjudged”')
    expect(md).toContain(`**${sentence}**`)
    const text = toText(result, { color: false })
    expect(text.split('\n').slice(0, 2)).toEqual([
      'FAIL  retrieval-gate, decided by trust rule "pooling.max_unjudged"',
      `  ${sentence}`
    ])
    // And the check-decided original: number and name from the decision's check.
    expect(toMarkdown(r).split('\n')[0]).toBe(
      '## ❌ retrieval-gate: fail, decided by check 2 “new users are protected”'
    )
    expect(JSON.parse(toJsonReport(r)).decided_by).toBe('new users are protected')
  })
})

describe('guard reasons in words', () => {
  it('words each reason code as the reports always have', () => {
    expect(unjudged.words).toBe(
      "the candidate's top 10 is 40.0% unjudged on average, the baseline's 5.0%, above the limit of 20.0%: the judgments do not cover what the candidate returns, so its scores are biased low; judge the pooled documents that have no grade and rerun"
    )
    expect(
      POOLING_WORDS.unjudged_within({
        code: 'unjudged_within',
        depth: 5,
        baseline: 0.1,
        candidate: 0.15,
        cap: { share: 0.2, increase: 0.1, outcome: 'fail' }
      })
    ).toBe(
      "the candidate's top 5 is 15.0% unjudged on average, the baseline's 10.0%; within 20.0% and the baseline + 10.0%"
    )
    expect(zeroHitsInconclusive.words).toBe(
      "queries with no relevant document in the top 10: segment=new: 30.0% of 40 queries (baseline 10.0%) above the baseline's 10.0% + 10.0% allowed"
    )
    expect(COMPARABILITY_WORDS.comparable({ code: 'comparable', mustMatch: ['corpus', 'judge.model'] })).toBe(
      'corpus, judge.model match'
    )
    expect(
      COMPARABILITY_WORDS.not_comparable({
        code: 'not_comparable',
        mismatches: [
          {
            path: 'chunker.size',
            values: [
              ['baseline', '512'],
              ['candidate', null]
            ]
          }
        ]
      })
    ).toBe('not comparable: chunker.size: baseline 512, candidate (absent)')
  })
})

describe('what decide demands of a check, as data', () => {
  const rules = (extra: string, checks: string) =>
    loadRules(
      `version: 1
metrics: { recall@10: { better: higher, range: [0, 1] }, hit@10: { better: higher, binary: true } }
statistics: { confidence: 0.95, resamples: 1000, seed: 1, multiplicity: holm }
queries: { min_per_slice: 25 }
${extra}checks:
${checks}`,
      'rules.yml'
    )
  const THREE = `  - { name: a, metric: recall@10, non_inferior: { margin: 0.01 } }
  - { name: b, metric: recall@10, superior: { margin: 0.01 } }
  - { name: c, metric: hit@10, superior: { test: mcnemar, alpha: 0.05 } }
  - { name: d, metric: recall@10, max_regressions: { count: 3 } }
`
  it('says which reasons pass, fail or are inconclusive, and how each inconclusive one counts', () => {
    const r = rules('on_inconclusive: pass\non_too_few: fail\n', THREE)
    const [a, b, c, d] = r.checks.map((k) => describeCheck(k, r))
    expect(a.inconclusive).toEqual([
      { reason: 'interval_crosses_margin', policy: 'on_inconclusive', counts: 'pass' },
      { reason: 'too_few_queries', policy: 'on_too_few', counts: 'fail' },
      // An interval that cannot support a pass (too few queries or clusters for it, no spread) counts like too few.
      { reason: 'interval_unreliable', policy: 'on_too_few', counts: 'fail' }
    ])
    // on_inconclusive: pass does not make an unshown gain count as a pass.
    expect(b.inconclusive[0]).toEqual({ reason: 'not_shown_better', policy: 'superior_must_be_shown', counts: 'fail' })
    expect(b.fail).toEqual(['shown_worse', 'shown_not_better', 'no_queries', 'non_finite'])
    expect(c.test).toBe('superior_mcnemar')
    expect(d).toMatchObject({
      test: 'max_regressions',
      statistical: false,
      inconclusive: [],
      minQueries: null,
      confidence: 0.95
    })
    // Three statistical units under holm: every interval at 1 - 0.05/3.
    expect(a.confidence).toBeCloseTo(1 - 0.05 / 3, 12)
    expect(a.minQueries).toBe(25)
    expect(describePolicies(r)).toEqual({ on_inconclusive: 'pass', on_too_few: 'fail', superior_must_be_shown: 'fail' })
  })

  it('leaves the confidence to the data when a per_slice check makes the family size unknown', () => {
    const r = rules('', `  - { name: a, metric: recall@10, per_slice: segment, non_inferior: { margin: 0.01 } }\n`)
    expect(describeCheck(r.checks[0], r)).toMatchObject({ perSlice: 'segment', confidence: null })
  })
})

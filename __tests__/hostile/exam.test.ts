/**
 * The exam is the base side's, the answers are the candidate's (docs/trust.md, "Where the exam comes from"):
 * hostile candidates that try to change which queries count or which slice a query is in, and rules that
 * could never fail, through the in-process CLI. Every case here passed (or blamed the wrong file) before the
 * baseline's queries and attributes were made the exam.
 */
import { afterAll, describe, expect, it } from '@jest/globals'
import { readFileSync } from 'node:fs'
import { expectNoPollution, paired, RULES, rowsJsonl, runCase, type CliResult, type HostileCase } from './harness.js'

type Row = Record<string, unknown>
const jsonl = (rows: Row[]) => rows.map((r) => JSON.stringify(r)).join('\n') + '\n'
const ok = rowsJsonl()
const notes = (r: CliResult) => (r.report?.coverage?.notes as string[]).join('\n')
const swap = (from: string, to: string) => {
  if (!RULES.includes(from)) throw new Error(`test setup: "${from}" is not in the rules`)
  return RULES.replace(from, to)
}

/*
 * The issue's scenario: 60 established users (m 0.80 -> 0.81) and 40 new users (m 0.60 -> 0.45: a 15-point
 * regression). Hand calculation over the exam's 100 queries: mean difference (60 * 0.01 - 40 * 0.15) / 100 =
 * -0.054, below the -0.02 margin; new users -0.15. The candidate adds 400 invented new-user queries with a
 * perfect 1.0: scored as gains (baseline filled 0) they made the overall mean (0.6 - 6 + 400) / 500 = +0.789
 * and new users (400 - 6) / 440 = +0.895, and diluted the regressions to 40 / 500 = 8% (< 20%): a pass.
 */
const SEGMENT_RULES = `version: 1
metrics:
  m: { better: higher, range: [0, 1] }
slices: [segment]
queries: { missing: zero, min_per_slice: 10 }
statistics: { resamples: 500, seed: 3 }
checks:
  - name: overall holds
    metric: m
    non_inferior: { margin: 0.02 }
  - name: new users are protected
    metric: m
    where: { segment: new }
    non_inferior: { margin: 0.02 }
  - name: few regressions
    metric: m
    max_regressions: { share: 0.2 }
`
const users = (side: 'b' | 'c', label: (i: number, segment: string) => string | undefined = (_i, s) => s): Row[] => {
  const rows: Row[] = []
  for (let i = 0; i < 100; i++) {
    const segment = i < 60 ? 'established' : 'new'
    const m = segment === 'established' ? (side === 'b' ? 0.8 : 0.81) : side === 'b' ? 0.6 : 0.45
    const value = label(i, segment)
    rows.push(value === undefined ? { query_id: `u${i}`, m } : { query_id: `u${i}`, m, segment: value })
  }
  return rows
}
const invented = Array.from({ length: 400 }, (_, i) => ({ query_id: `fake${i}`, m: 1, segment: 'new' }))
const failedChecks =
  (...names: string[]) =>
  (r: CliResult) => {
    const failing = (r.report?.checks as Array<{ rule: string; counts_as: string }>)
      .filter((c) => c.counts_as === 'fail')
      .map((c) => c.rule)
    expect(failing).toEqual(names)
  }

/* Two attributes whose values each exist but never together: segment new only in billing, code only in established. */
const COMBO = jsonl([
  { query_id: 'q1', m: 0.5, segment: 'new', category: 'billing' },
  { query_id: 'q2', m: 0.5, segment: 'established', category: 'code' },
  { query_id: 'q3', m: 0.5, segment: 'established', category: 'billing' }
])

/* Runs: a TREC baseline without attributes, a JSON Lines candidate run that names its own segment. */
const QRELS = 'q1 0 d1 1\nq1 0 d2 0\nq2 0 d3 1\nq2 0 d4 2\n'
const TREC = 'q1 Q0 d1 1 2.0 t\nq1 Q0 d2 2 1.0 t\nq2 Q0 d3 1 1.5 t\nq2 Q0 d4 2 1.25 t\n'
const JRUN_SEGMENT =
  '{"query_id":"q1","segment":"established","results":[{"doc_id":"d2","score":2},{"doc_id":"d1","score":1}]}\n{"query_id":"q2","segment":"established","results":[{"doc_id":"d3","score":1.5},{"doc_id":"d4","score":1.25}]}\n'
const RUN_RULES = `version: 1
metrics:
  P@1: { better: higher, range: [0, 1] }
slices: [segment]
queries: { min_per_slice: 1 }
statistics: { resamples: 200, seed: 3 }
checks:
  - name: precision holds
    metric: P@1
    non_inferior: { margin: 0.5 }
`
const runArgs = [
  'gate',
  '--rules',
  '{rules.yml}',
  '--baseline',
  '{b.txt}',
  '--candidate',
  '{c.jsonl}',
  '--qrels',
  '{qrels.txt}',
  '--json',
  '{report.json}'
]

/* The evaluation set of __tests__/fixtures/trust/dataset: h1 is category "account" there. */
const D = '__tests__/fixtures/trust/dataset'
const relabelled = readFileSync(`${D}/candidate.jsonl`, 'utf8').replace(
  '{"query_id": "h1", ',
  '{"query_id": "h1", "category": "billing", '
)

export const EXAM_CASES: HostileCase[] = [
  // --- which queries count: the baseline's
  {
    name: 'the issue: 400 invented candidate-only perfect rows no longer turn a 15-point regression of new users into a pass',
    files: { 'rules.yml': SEGMENT_RULES, 'b.jsonl': jsonl(users('b')), 'c.jsonl': jsonl([...users('c'), ...invented]) },
    code: 1,
    check: (r) => {
      paired(100)(r)
      failedChecks('overall holds', 'new users are protected', 'few regressions')(r)
      expect(r.report?.coverage?.candidate_only_ignored).toBe(400)
      // the first 20 invented ids are listed, all 400 counted (src/report/listed.ts)
      expect(r.report?.coverage?.only_in_candidate).toHaveLength(20)
      expect(r.report?.coverage?.only_in_candidate_count).toBe(400)
      expect(notes(r)).toContain('400 candidate-only queries ignored: not part of the exam')
      // max_regressions.share counts over the exam's 100 queries: 40 of 100 = 40% > 20% (limit floor(0.2 * 100) = 20).
      const few = (r.report?.checks as Array<{ rule: string; units: Array<Record<string, unknown>> }>).find(
        (c) => c.rule === 'few regressions'
      )
      expect(JSON.stringify(few?.units[0])).toMatch(/"n":100,/)
    }
  },
  {
    name: 'the same regression without the invented rows fails the same checks',
    files: { 'rules.yml': SEGMENT_RULES, 'b.jsonl': jsonl(users('b')), 'c.jsonl': jsonl(users('c')) },
    code: 1,
    check: (r) => {
      paired(100)(r)
      expect(r.report?.coverage?.candidate_only_ignored).toBe(0)
    }
  },
  {
    name: 'missing: error refuses candidate-only queries with their lines and does not recommend missing: zero',
    files: { 'rules.yml': RULES, 'b.jsonl': ok, 'c.jsonl': ok + JSON.stringify({ query_id: 'q9', m: 1 }) + '\n' },
    code: 2,
    where: 'c.jsonl:4',
    message: /1 in the candidate only: "q9" \(c\.jsonl:4\).*evaluate the candidate on the exam's queries/,
    check: (r) => expect(r.stderr).not.toMatch(/missing: zero/)
  },
  {
    name: 'missing: error and queries on both sides only: the hint splits what each side needs',
    files: {
      'rules.yml': RULES,
      'b.jsonl': ok + JSON.stringify({ query_id: 'q8', m: 0.5 }) + '\n',
      'c.jsonl': ok + JSON.stringify({ query_id: 'q9', m: 1 }) + '\n'
    },
    code: 2,
    where: 'b.jsonl:4',
    message:
      /evaluate the candidate on the exam's queries.*queries\.missing: zero in the rules to score the queries the candidate dropped/
  },
  {
    name: 'missing: zero still fills a query the candidate dropped, and ignores one it invented',
    files: {
      // on_inconclusive: fail (not the harness's pass): the filled 0 makes the interval straddle the margin.
      'rules.yml': RULES.replace(
        'queries: { min_per_slice: 1 }',
        'queries: { min_per_slice: 1, missing: zero }'
      ).replace('on_inconclusive: pass\n', ''),
      'b.jsonl': rowsJsonl(4),
      'c.jsonl': rowsJsonl(3) + JSON.stringify({ query_id: 'q9', m: 1 }) + '\n'
    },
    code: 1,
    check: (r) => {
      paired(4)(r)
      expect(r.report?.coverage?.only_in_baseline).toEqual(['q4'])
      expect(r.report?.coverage?.filled).toEqual([{ metric: 'm', baseline: 0, candidate: 1 }])
      expect(r.report?.coverage?.candidate_only_ignored).toBe(1)
      expect(notes(r)).toContain('1 candidate-only query ignored: not part of the exam')
    }
  },

  // --- which slice a query is in: the baseline's
  {
    name: 'a baseline without the attribute is refused even when the candidate names it',
    files: { 'rules.yml': SEGMENT_RULES, 'b.jsonl': jsonl(users('b', () => undefined)), 'c.jsonl': jsonl(users('c')) },
    code: 2,
    where: 'b.jsonl',
    message: /the baseline has no attribute "segment" \(only the candidate names it/
  },
  {
    name: 'the candidate relabels the regressed new users whose baseline row lacks the attribute: refused at the baseline line',
    files: {
      'rules.yml': SEGMENT_RULES,
      'b.jsonl': jsonl(users('b', (i, s) => (i >= 60 ? undefined : s))),
      'c.jsonl': jsonl(users('c', (i, s) => (i >= 60 ? 'established' : s)))
    },
    code: 2,
    where: 'b.jsonl:61',
    message:
      /no value for the attribute "segment".*the candidate gives "established", but slice attributes come from the baseline/
  },
  {
    name: 'a candidate value that differs from the baseline is refused at the candidate line',
    files: {
      'rules.yml': SEGMENT_RULES,
      'b.jsonl': jsonl(users('b')),
      'c.jsonl': jsonl(users('c', (i, s) => (i === 70 ? 'established' : s)))
    },
    code: 2,
    where: 'c.jsonl:71',
    message: /attribute "segment" differs between the sides/
  },
  {
    name: 'a candidate that gives no attributes is accepted, and the report does not claim it checked them',
    files: { 'rules.yml': SEGMENT_RULES, 'b.jsonl': jsonl(users('b')), 'c.jsonl': jsonl(users('c', () => undefined)) },
    code: 1,
    check: (r) => {
      expect(r.report?.coverage?.attributes).toEqual({
        from: 'baseline',
        names: ['segment'],
        candidate_values_compared: 0
      })
      expect(r.stdout).toContain(
        '| Query attributes | ✅ from the exam | segment taken from the baseline; the candidate gives none, so nothing was compared |'
      )
    }
  },
  {
    name: 'a candidate that gives some attributes: the report says how many were checked, not "every"',
    files: {
      'rules.yml': SEGMENT_RULES,
      'b.jsonl': jsonl(users('b')),
      'c.jsonl': jsonl(users('c', (i, s) => (i % 2 === 0 ? s : undefined)))
    },
    code: 1,
    check: (r) => {
      expect(r.report?.coverage?.attributes?.candidate_values_compared).toBe(50)
      expect(r.stdout).toContain(
        'segment taken from the baseline; the candidate gives 50 of the 100 values, all equal (checked)'
      )
      expect(r.stdout).not.toContain('every paired query has the same slice attributes')
    }
  },
  {
    name: 'rules without attributes: the report does not claim attributes were checked',
    files: { 'rules.yml': RULES, 'b.jsonl': ok, 'c.jsonl': ok },
    code: 0,
    check: (r) => expect(r.stdout).toContain('| Query attributes | — not used | the rules use no slice attributes |')
  },
  {
    name: 'runs: a TREC baseline without attributes and a JSON Lines candidate naming its own segment is refused',
    files: { 'rules.yml': RUN_RULES, 'qrels.txt': QRELS, 'b.txt': TREC, 'c.jsonl': JRUN_SEGMENT },
    args: runArgs,
    code: 2,
    where: 'b.txt',
    message: /the baseline has no attribute "segment" \(only the candidate names it/
  },
  {
    name: 'runs: a judged query absent from the labelled baseline run takes no label from the candidate',
    files: {
      'rules.yml': RUN_RULES,
      'qrels.txt': QRELS,
      'b.jsonl': '{"query_id":"q1","segment":"established","results":[{"doc_id":"d1","score":2}]}\n',
      'c.jsonl': JRUN_SEGMENT
    },
    args: [
      'gate',
      '--rules',
      '{rules.yml}',
      '--baseline',
      '{b.jsonl}',
      '--candidate',
      '{c.jsonl}',
      '--qrels',
      '{qrels.txt}',
      '--json',
      '{report.json}'
    ],
    code: 2,
    where: 'b.jsonl: query has no value for the attribute "segment"',
    message: /\(query "q2"\).*this query is absent from the baseline run/
  },
  {
    name: 'runs: a candidate run that relabels a question of the evaluation set is refused',
    files: { 'c.jsonl': relabelled },
    args: [
      'gate',
      '--rules',
      `${D}/rules.yml`,
      '--baseline',
      `${D}/baseline.jsonl`,
      '--candidate',
      '{c.jsonl}',
      '--json',
      '{report.json}'
    ],
    code: 2,
    where: 'c.jsonl:1',
    message: /the run says category = "billing", but the evaluation set .*dataset\.jsonl says "account"/
  },

  {
    name: 'runs: the evaluation set gives the attributes, and the report does not call them checked on the candidate',
    files: { 'c.jsonl': readFileSync(`${D}/candidate.jsonl`, 'utf8') },
    args: [
      'gate',
      '--rules',
      `${D}/rules.yml`,
      '--baseline',
      `${D}/baseline.jsonl`,
      '--candidate',
      '{c.jsonl}',
      '--json',
      '{report.json}'
    ],
    code: 1,
    check: (r) =>
      expect(r.report?.coverage?.attributes).toEqual({
        from: 'baseline',
        names: ['category'],
        candidate_values_compared: 0
      })
  },

  // --- a missing value is blamed on the file that lacks it
  {
    name: 'a missing candidate value is reported against the candidate file',
    files: {
      'rules.yml': RULES,
      'b.jsonl': ok,
      'c.jsonl': rowsJsonl(3).replace('{"query_id":"q2","m":0.5}', '{"query_id":"q2","m":null}')
    },
    code: 2,
    where: 'c.jsonl: missing metric values: "q2" (c.jsonl:2, m)'
  },
  {
    name: 'a missing baseline value is reported against the baseline file',
    files: {
      'rules.yml': RULES,
      'b.jsonl': rowsJsonl(3).replace('{"query_id":"q3","m":0.5}', '{"query_id":"q3","m":null}'),
      'c.jsonl': ok
    },
    code: 2,
    where: 'b.jsonl: missing metric values: "q3" (b.jsonl:3, m)'
  },

  // --- rules that could never fail
  {
    name: 'a where combination no query satisfies is refused like an absent value',
    files: {
      'rules.yml': swap(
        '  - name: m holds\n    metric: m\n    non_inferior: { margin: 0.1 }',
        '  - name: new code\n    metric: m\n    where: { segment: new, category: code }\n    max_regressions: { count: 0 }'
      ),
      'b.jsonl': COMBO,
      'c.jsonl': COMBO
    },
    code: 2,
    where: 'rules.yml:9 (checks[0].where)',
    message: /no query has category = "code" and segment = "new" together/
  },
  {
    name: 'a max_regressions count as large as the queries of the check is refused',
    files: {
      'rules.yml': swap('non_inferior: { margin: 0.1 }', 'max_regressions: { count: 3 }'),
      'b.jsonl': ok,
      'c.jsonl': ok
    },
    code: 2,
    where: 'checks[0].max_regressions.count',
    message: /count 3 allows every one of the 3 queries of the check to regress/
  },
  {
    name: 'a per_slice max_regressions count as large as the largest slice is refused',
    files: {
      'rules.yml': swap(
        '  - name: m holds\n    metric: m\n    non_inferior: { margin: 0.1 }',
        '  - name: per segment\n    metric: m\n    per_slice: segment\n    max_regressions: { count: 2 }'
      ),
      'b.jsonl': COMBO,
      'c.jsonl': COMBO
    },
    code: 2,
    where: 'checks[0].max_regressions.count',
    message: /count 2 allows every query of every segment to regress \(the largest has 2 queries\)/
  },
  {
    name: 'a per_slice max_regressions count below the largest slice is accepted',
    files: {
      'rules.yml': swap(
        '  - name: m holds\n    metric: m\n    non_inferior: { margin: 0.1 }',
        '  - name: per segment\n    metric: m\n    per_slice: segment\n    max_regressions: { count: 1 }'
      ),
      'b.jsonl': COMBO,
      'c.jsonl': COMBO
    },
    code: 0
  },
  {
    name: 'relative margin "100%" on a 0..1 metric',
    files: { 'rules.yml': swap('margin: 0.1', 'margin: "100%"'), 'b.jsonl': ok, 'c.jsonl': ok },
    code: 2,
    where: 'rules.yml:11 (checks[0].non_inferior.margin)',
    message: /margin 100% allows m to fall to 0.*could never fail/
  },
  {
    name: 'absolute margin equal to the range width',
    files: { 'rules.yml': swap('margin: 0.1', 'margin: 1'), 'b.jsonl': ok, 'c.jsonl': ok },
    code: 2,
    where: 'checks[0].non_inferior.margin',
    message: /or equal to it, so the check could never fail/
  },
  {
    name: 'absolute margin equal to the range of a binary metric',
    files: {
      'rules.yml': swap('  m: { better: higher, range: [0, 1] }', '  m: { better: higher, binary: true }').replace(
        'margin: 0.1',
        'margin: 1'
      ),
      'b.jsonl': ok,
      'c.jsonl': ok
    },
    code: 2,
    where: 'checks[0].non_inferior.margin',
    message: /whole range of m \[0, 1\] or equal to it/
  },
  {
    name: 'a measure computed from runs has the range [0, 1] without declaring it',
    files: {
      'rules.yml': RUN_RULES.replace(
        'metrics:\n  P@1: { better: higher, range: [0, 1] }',
        'judgments: { qrels: qrels.txt }\nmetrics:\n  P@1: { better: higher }'
      ).replace('margin: 0.5', 'margin: 1')
    },
    code: 2,
    where: 'checks[0].non_inferior.margin',
    message: /whole range of P@1 \[0, 1\]/
  },
  {
    name: 'a regression threshold at the range width',
    files: {
      'rules.yml': swap('non_inferior: { margin: 0.1 }', 'max_regressions: { count: 1, threshold: 1 }'),
      'b.jsonl': ok,
      'c.jsonl': ok
    },
    code: 2,
    where: 'checks[0].max_regressions.threshold',
    message: /no query can get worse by more than that/
  },
  {
    name: 'a max_regressions share of 1',
    files: {
      'rules.yml': swap('non_inferior: { margin: 0.1 }', 'max_regressions: { share: 1 }'),
      'b.jsonl': ok,
      'c.jsonl': ok
    },
    code: 2,
    where: 'checks[0].max_regressions.share',
    message: /share 1 allows every query to regress/
  },
  {
    name: 'a superior margin as wide as the range could never pass',
    files: {
      'rules.yml': swap('non_inferior: { margin: 0.1 }', 'superior: { margin: 1 }'),
      'b.jsonl': ok,
      'c.jsonl': ok
    },
    code: 2,
    where: 'checks[0].superior.margin',
    message: /could never pass/
  },
  {
    name: 'a relative margin of 100% on a better-lower metric stays allowed (the candidate may double)',
    files: {
      'rules.yml': swap('m: { better: higher, range: [0, 1] }', 'm: { better: lower }').replace(
        'margin: 0.1',
        'margin: "100%"'
      ),
      'b.jsonl': ok,
      'c.jsonl': ok
    },
    code: 0
  }
]

describe('hostile candidates and vacuous rules: the exam is the base side', () => {
  it.each(EXAM_CASES.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    await runCase(c)
  })

  afterAll(() => {
    expectNoPollution()
  })
})

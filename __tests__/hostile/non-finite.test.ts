/**
 * No NaN ever decides. Every statistic a rule compares is injected as NaN, +Infinity and -Infinity (by
 * wrapping a real stats engine), for every kind of check, in both directions, and with on_inconclusive:
 * pass and too few queries (which must not turn a non-finite statistic into an inconclusive pass): the
 * unit always fails with reason `non_finite`. End to end, finite inputs whose differences overflow
 * (±1.7e308) fail the gate the same way.
 */
import { describe, expect, it } from '@jest/globals'
import { pairRows } from '../../src/align/pair.js'
import { loadRules } from '../../src/config/rules.js'
import { decide } from '../../src/decide/evaluate.js'
import { sideFromRows, type SideRows } from '../../src/model/rows.js'
import { createStats, type Comparison, type StatsEngine } from '../../src/stats/compare.js'
import { jsonl } from '../helpers.js'
import { runCase } from './harness.js'

/** 80 queries, 40 per slice of seg: enough for the default interval of a metric that is not binary (40). */
const N = 80

function side(source: string, value: (i: number) => number, extra: (i: number) => number = () => 0): SideRows {
  return sideFromRows(
    source,
    Array.from({ length: N }, (_, i) => ({
      id: `q${i}`,
      line: i + 1,
      values: new Map([
        ['m', value(i)],
        ['hit', extra(i)]
      ]),
      attrs: new Map([['seg', i % 2 ? 'a' : 'b']])
    }))
  )
}

const CHECKS: Record<string, string> = {
  non_inferior: 'non_inferior: { margin: 0.05 }',
  non_inferior_relative: 'non_inferior: { margin: "20%" }',
  superior_bootstrap: 'superior: { margin: 0 }',
  superior_mcnemar: 'superior: { test: mcnemar }',
  max_regressions: 'max_regressions: { count: 5 }',
  max_regressions_share: 'max_regressions: { share: 0.5, threshold: 0.01 }'
}

function rulesFor(
  check: string,
  better: 'higher' | 'lower',
  onInconclusive: 'pass' | 'fail',
  minPerSlice: number,
  perSlice = false
) {
  const metric = check === 'superior_mcnemar' ? 'hit' : 'm'
  return loadRules(
    `version: 1
metrics:
  m: { better: ${better} }
  hit: { better: ${better}, binary: true }
statistics: { resamples: 200, seed: 1 }
queries: { min_per_slice: ${minPerSlice} }
on_inconclusive: ${onInconclusive}
checks:
  - name: c
    metric: ${metric}
${perSlice ? '    per_slice: seg\n' : ''}    ${CHECKS[check]}
`,
    'rules.yml'
  )
}

type Poison = (c: Comparison) => Comparison
const POISONS: Array<[string, Poison]> = []
for (const bad of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]) {
  POISONS.push([`baseline=${bad}`, (c) => ({ ...c, baseline: bad })])
  POISONS.push([`candidate=${bad}`, (c) => ({ ...c, candidate: bad })])
  POISONS.push([`delta=${bad}`, (c) => ({ ...c, delta: bad })])
  POISONS.push([`ci[0]=${bad}`, (c) => ({ ...c, ci: [bad, c.ci[1]] })])
  POISONS.push([`ci[1]=${bad}`, (c) => ({ ...c, ci: [c.ci[0], bad] })])
  POISONS.push([`pValue=${bad}`, (c) => ({ ...c, pValue: c.pValue === null ? null : bad })])
}

/** A real engine whose comparisons (and, for max_regressions, one per-query difference) are poisoned. */
function poisoned(engine: StatsEngine, poison: Poison, badDifference: number | null): StatsEngine {
  return {
    members: (f) => engine.members(f),
    differences: (metric) => {
      const d = Float64Array.from(engine.differences(metric))
      if (badDifference !== null) d[3] = badDifference
      return d
    },
    compare: (metric, filters, confidence) => poison(engine.compare(metric, filters, confidence)),
    level: (metric, filters, confidence) => engine.level(metric, filters, confidence)
  }
}

describe('a non-finite statistic always fails the check, with the reason', () => {
  // Baseline 0.4, candidate 0.6 give or take 0.01 (the differences vary, so the interval has width): every check
  // would pass on the real numbers.
  const wobble = (i: number): number => ((i % 3) - 1) / 100
  const base = side(
    'b',
    () => 0.4,
    (i) => (i < 20 ? 0 : 1)
  )
  const cand = side(
    'c',
    (i) => 0.6 + wobble(i),
    () => 1
  )
  const baseLow = side(
    'b',
    (i) => 0.6 + wobble(i),
    () => 1
  )
  const candLow = side(
    'c',
    () => 0.4,
    (i) => (i < 20 ? 0 : 1)
  )

  for (const check of Object.keys(CHECKS)) {
    for (const better of ['higher', 'lower'] as const) {
      for (const [onInconclusive, minPerSlice] of [
        ['fail', 1],
        ['pass', 1],
        ['pass', 1000]
      ] as const) {
        for (const perSlice of [false, true]) {
          it(`${check}, better ${better}, on_inconclusive ${onInconclusive}, min_per_slice ${minPerSlice}${perSlice ? ', per_slice' : ''}`, () => {
            const rules = rulesFor(check, better, onInconclusive, minPerSlice, perSlice)
            const table = better === 'higher' ? pairRows(rules, base, cand) : pairRows(rules, baseLow, candLow)
            const engine = createStats(table, rules)
            const clean = decide(rules, table, engine)
            // The real numbers pass (or are inconclusive-but-pass): the poison alone must turn it into a fail. A
            // superior check with too few queries is not shown better, which fails whatever on_too_few says
            // (src/decide/counts.ts): there its clean verdict is the fail, and every poison must keep it one.
            const unshown = check.startsWith('superior') && minPerSlice > 1
            expect(clean.verdict).toBe(unshown ? 'fail' : 'pass')
            const regressions = check.startsWith('max_regressions')
            const poisons: Array<[string, Poison, number | null]> = regressions
              ? [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY].map((x) => [
                  `difference=${x}`,
                  (c: Comparison) => c,
                  x
                ])
              : POISONS.filter(([name]) => check === 'superior_mcnemar' || !name.startsWith('pValue')).map(([n, p]) => [
                  n,
                  p,
                  null
                ])
            for (const [name, poison, badDifference] of poisons) {
              const d = decide(rules, table, poisoned(engine, poison, badDifference))
              const units = d.checks[0].units
              const failed = units.filter((u) => u.status === 'fail')
              try {
                expect(d.verdict).toBe('fail')
                expect(failed.length).toBeGreaterThan(0)
                for (const u of failed) expect(u.reason).toBe('non_finite')
              } catch (error) {
                throw new Error(`${name}: ${(error as Error).message}`, { cause: error })
              }
            }
          })
        }
      }
    }
  }
})

describe('relative margins with a baseline mean of 0', () => {
  it('"20%" of 0 is 0: the candidate may not be worse at all (and a flat 0 = 0 is no evidence either way)', () => {
    const rules = rulesFor('non_inferior_relative', 'lower', 'fail', 1)
    const zero = side('b', () => 0)
    const table = pairRows(
      rules,
      zero,
      side('c', () => 0)
    )
    const d = decide(rules, table, createStats(table, rules))
    // Every difference 0 on a metric without a declared range: the interval has no width, so it cannot support a pass.
    expect(d.checks[0].units[0]).toMatchObject({ status: 'inconclusive', reason: 'interval_unreliable', margin: 0 })
    expect(d.checks[0].units[0].comparison.unreliable).toBe('no_spread')
    const worse = pairRows(
      rules,
      zero,
      side('c', (i) => (i % 4 === 0 ? 1 : 0))
    )
    const w = decide(rules, worse, createStats(worse, rules))
    expect(w.checks[0].units[0].margin).toBe(0)
    expect(w.checks[0].status).not.toBe('pass')
  })
})

describe('end to end: finite values whose differences overflow', () => {
  const rules = (demand: string) => `version: 1
metrics:
  m: { better: higher }
queries: { min_per_slice: 1 }
statistics: { resamples: 200 }
on_inconclusive: pass
checks:
  - name: c
    metric: m
    ${demand}
`
  const b = jsonl(Array.from({ length: 10 }, (_, i) => ({ query_id: `q${i}`, m: 1.7e308 })))
  const c = jsonl(Array.from({ length: 10 }, (_, i) => ({ query_id: `q${i}`, m: i === 0 ? -1.7e308 : 1.7e308 })))
  for (const demand of [
    'non_inferior: { margin: 1 }',
    'non_inferior: { margin: "20%" }',
    'superior: { margin: 0 }',
    'max_regressions: { count: 5 }'
  ]) {
    it(`${demand}: exit 1, reason non_finite in the report`, async () => {
      await runCase({
        name: demand,
        files: { 'rules.yml': rules(demand), 'b.jsonl': b, 'c.jsonl': c },
        code: 1,
        check: (r) => {
          expect(r.report?.verdict).toBe('fail')
          expect(r.report?.checks[0].units[0].reason).toBe('non_finite')
          expect(r.stdout).toMatch(/not a finite number|non-finite|non_finite|not finite/i)
        }
      })
    })
  }
})

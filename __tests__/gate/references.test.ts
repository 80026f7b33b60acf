import { describe, expect, it } from '@jest/globals'
import { gateSides } from '../helpers.js'
import { loadRules } from '../../src/config/rules.js'
import { sideFromRows, type QueryRow, type SideRows } from '../../src/model/rows.js'

function side(
  source: string,
  rows: Array<{ id: string; values: Record<string, number>; attrs?: Record<string, string> }>
): SideRows {
  const out: QueryRow[] = rows.map((r, i) => ({
    id: r.id,
    line: i + 1,
    values: new Map(Object.entries(r.values)),
    attrs: new Map(Object.entries(r.attrs ?? {}))
  }))
  const numeric = new Set(rows.flatMap((r) => Object.keys(r.values)))
  const attrs = new Set(rows.flatMap((r) => Object.keys(r.attrs ?? {})))
  return sideFromRows(source, out, { numericFields: numeric, attributeFields: attrs, notes: [] })
}

describe('the eight-query example', () => {
  // From the issue: old = [0.6,0.6,0.5,0.5,0.4,0.4,0.3,0.3], new = [0.4,0.5,0.5,0.5,0.5,0.5,0.5,0.6].
  // Hand calculation: differences = [-0.2,-0.1,0,0,0.1,0.1,0.2,0.3], sum 0.4, mean +0.05.
  const old = [0.6, 0.6, 0.5, 0.5, 0.4, 0.4, 0.3, 0.3]
  const neu = [0.4, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.6]
  const rules = loadRules(
    `version: 1
metrics: { score: { better: higher } }
queries: { min_per_slice: 5 }
checks:
  - name: better
    metric: score
    superior: {}
`,
    'rules.yml'
  )
  const result = gateSides(
    rules,
    side(
      'old',
      old.map((v, i) => ({ id: `q${i}`, values: { score: v } }))
    ),
    side(
      'new',
      neu.map((v, i) => ({ id: `q${i}`, values: { score: v } }))
    )
  )
  const c = result.decision.checks[0].units[0].comparison

  it('has mean difference +0.05', () => {
    expect(c.delta).toBeCloseTo(0.05, 12)
    expect(c.candidate - c.baseline).toBeCloseTo(0.05, 12)
  })

  it('has a 95% interval that contains 0, so superiority is not shown', () => {
    expect(c.ci[0]).toBeLessThan(0)
    expect(c.ci[1]).toBeGreaterThan(0)
    expect(result.decision.checks[0].status).toBe('inconclusive')
    expect(result.decision.verdict).toBe('fail')
  })

  it('counts 4 wins, 2 losses and 2 ties', () => {
    expect([c.wins, c.losses, c.ties]).toEqual([4, 2, 2])
  })
})

describe('a 90% / 10% mixture', () => {
  // From the issue (and the background essay): established users 80% -> 85% hit rate, new users 40% -> 30%,
  // 900 and 100 queries. Hand calculation: overall 0.9*0.80 + 0.1*0.40 = 0.76 -> 0.9*0.85 + 0.1*0.30 = 0.795.
  const base: Parameters<typeof side>[1] = []
  const cand: Parameters<typeof side>[1] = []
  for (let i = 0; i < 900; i++) {
    const attrs = { segment: 'established' }
    base.push({ id: `e${i}`, values: { hit: i < 720 ? 1 : 0 }, attrs })
    // 765 hits: the first 720 keep theirs, 45 more are gained.
    cand.push({ id: `e${i}`, values: { hit: i < 765 ? 1 : 0 }, attrs })
  }
  for (let i = 0; i < 100; i++) {
    const attrs = { segment: 'new' }
    base.push({ id: `n${i}`, values: { hit: i < 40 ? 1 : 0 }, attrs })
    cand.push({ id: `n${i}`, values: { hit: i < 30 ? 1 : 0 }, attrs })
  }
  const rules = loadRules(
    `version: 1
metrics: { hit: { better: higher, binary: true } }
slices: [segment]
statistics: { seed: 7, resamples: 2000 }
checks:
  - name: overall does not drop
    metric: hit
    non_inferior: { margin: 0.01 }
  - name: new users are protected
    metric: hit
    where: { segment: new }
    non_inferior: { margin: 0.02 }
`,
    'rules.yml'
  )
  const result = gateSides(rules, side('b', base), side('c', cand))

  it('rises 3.5 points overall', () => {
    const overall = result.decision.checks[0].units[0].comparison
    expect(overall.baseline).toBeCloseTo(0.76, 12)
    expect(overall.candidate).toBeCloseTo(0.795, 12)
    expect(overall.delta).toBeCloseTo(0.035, 12)
    expect(result.decision.checks[0].status).toBe('pass')
  })

  it('fails the protected new-user check and the verdict', () => {
    const newUsers = result.decision.checks[1].units[0].comparison
    expect(newUsers.n).toBe(100)
    expect(newUsers.delta).toBeCloseTo(-0.1, 12)
    expect(result.decision.checks[1].status).toBe('fail')
    expect(result.decision.verdict).toBe('fail')
    const by = result.decision.decidedBy
    expect(by?.kind === 'check' ? by.check.rule.name : by?.kind).toBe('new users are protected')
  })

  it('reports McNemar on the gained / lost counts', () => {
    const newUsers = result.decision.checks[1].units[0].comparison
    expect([newUsers.gained, newUsers.lost]).toEqual([0, 10])
    // 2 * 2^-10 (hand calculation, as McNemar(0, 10)).
    expect(newUsers.pValue).toBe(2 / 2 ** 10)
  })
})

describe('direction', () => {
  it('flips every comparison for better: lower metrics', () => {
    const rules = loadRules(
      `version: 1
metrics: { latency: { better: lower, unit: ms } }
queries: { min_per_slice: 2 }
checks:
  - { name: latency, metric: latency, non_inferior: { margin: 20% } }
`,
      'r.yml'
    )
    // The candidate is k ms slower, give or take 1 ms (i mod 3 - 1): the differences vary, so the interval has width.
    const rows = (k: number) =>
      Array.from({ length: 40 }, (_, i) => ({
        id: `q${i}`,
        values: { latency: 100 + (i % 5) + (k === 0 ? 0 : k + (i % 3) - 1) }
      }))
    // +10 ms on a 102 ms mean is +9.8%, inside a 20% margin (20.4 ms): passes.
    expect(gateSides(rules, side('b', rows(0)), side('c', rows(10))).decision.verdict).toBe('pass')
    // +30 ms is beyond 20.4 ms: shown worse.
    const worse = gateSides(rules, side('b', rows(0)), side('c', rows(30)))
    expect(worse.decision.checks[0].units[0].reason).toBe('shown_worse')
    expect(worse.decision.checks[0].units[0].comparison.losses).toBe(40)
  })

  it('an exact shift of every query (no spread) is no evidence for a pass: inconclusive, not pass', () => {
    const rules = loadRules(
      `version: 1
metrics: { latency: { better: lower, unit: ms } }
queries: { min_per_slice: 2 }
checks:
  - { name: latency, metric: latency, non_inferior: { margin: 20% } }
`,
      'r.yml'
    )
    const rows = (k: number) =>
      Array.from({ length: 40 }, (_, i) => ({ id: `q${i}`, values: { latency: 100 + (i % 5) + k } }))
    const unit = gateSides(rules, side('b', rows(0)), side('c', rows(10))).decision.checks[0].units[0]
    expect([unit.status, unit.reason, unit.comparison.unreliable]).toEqual([
      'inconclusive',
      'interval_unreliable',
      'no_spread'
    ])
    // Shown worse by an exact shift still fails: failing on thin evidence is never a false pass.
    expect(gateSides(rules, side('b', rows(0)), side('c', rows(30))).decision.checks[0].units[0].reason).toBe(
      'shown_worse'
    )
  })
})

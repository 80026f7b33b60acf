/**
 * The issue-4 statistics through the whole pure pipeline (rules text -> runGate -> reports): target weights
 * (the reference check of the issue), clusters, multiplicity, power, refusals, determinism.
 */
import { gateSides, toJsonReport } from '../helpers.js'
import { describe, expect, it } from '@jest/globals'
import { loadRules } from '../../src/config/rules.js'
import { InputError } from '../../src/errors.js'
import { toMarkdown } from '../../src/report/markdown.js'
import { sideOf } from './helpers.js'

type Row = { id: string; values: Record<string, number>; attrs?: Record<string, string> }

/**
 * The reference population: 900 established users (hit 80% -> 85%) and 100 new users
 * (40% -> 30%). Hand calculation: observed mix 0.9 * 0.80 + 0.1 * 0.40 = 0.76 -> 0.9 * 0.85 + 0.1 * 0.30 =
 * 0.795 (+3.5 points); target 50/50: 0.5 * 0.80 + 0.5 * 0.40 = 0.60 -> 0.5 * 0.85 + 0.5 * 0.30 = 0.575 (-2.5 points).
 */
function reference(): { baseline: Row[]; candidate: Row[] } {
  const baseline: Row[] = []
  const candidate: Row[] = []
  for (let i = 0; i < 1000; i++) {
    const established = i < 900
    const j = established ? i : i - 900
    const id = `q${String(i).padStart(4, '0')}`
    const attrs = { segment: established ? 'established' : 'new', user: `u${Math.floor(i / 4)}` }
    baseline.push({ id, values: { hit: (established ? j < 720 : j < 40) ? 1 : 0, latency: 100 + (i % 10) }, attrs })
    candidate.push({ id, values: { hit: (established ? j < 765 : j < 30) ? 1 : 0, latency: 112 + (i % 10) }, attrs })
  }
  return { baseline, candidate }
}

const RULES = (statistics: string, extraChecks = ''): string => `version: 1
metrics:
  hit: { better: higher, binary: true }
  latency: { better: lower, unit: ms }
statistics: { resamples: 2000, seed: 3${statistics} }
checks:
  - name: hit holds
    metric: hit
    non_inferior: { margin: 0.01 }
  - name: latency within 20%
    metric: latency
    non_inferior: { margin: 20% }
${extraChecks}`

function gate(statistics: string, rows = reference(), extraChecks = ''): ReturnType<typeof gateSides> {
  const rules = loadRules(RULES(statistics, extraChecks), 'rules.yml')
  return gateSides(rules, sideOf('baseline.jsonl', rows.baseline), sideOf('candidate.jsonl', rows.candidate))
}

function refusal(f: () => unknown): InputError {
  try {
    f()
  } catch (error) {
    expect(error).toBeInstanceOf(InputError)
    return error as InputError
  }
  throw new Error('expected an InputError')
}

describe("target-population weights (the issue's reference check)", () => {
  const weighted = gate(', weights: { by: segment, target: { established: 0.5, new: 0.5 } }')
  const hit = weighted.comparisons.find((c) => c.metric === 'hit' && c.slice.length === 0)!
  it('target mix: 60% -> 57.5% (-2.5 points)', () => {
    expect(hit.baseline).toBeCloseTo(0.6, 12)
    expect(hit.candidate).toBeCloseTo(0.575, 12)
    expect(hit.delta).toBeCloseTo(-0.025, 12)
    expect(hit.ci[0]).toBeLessThan(-0.01) // a drop beyond the margin cannot be ruled out at the target mix ...
  })
  it('observed mix: 76% -> 79.5% (+3.5 points), shown beside it', () => {
    expect(hit.mix).not.toBeNull()
    expect(hit.mix!.observed.baseline).toBeCloseTo(0.76, 12)
    expect(hit.mix!.observed.candidate).toBeCloseTo(0.795, 12)
    expect(hit.mix!.observed.delta).toBeCloseTo(0.035, 12)
    expect(hit.mix!.strata).toEqual([
      { value: 'established', queries: 900, observed: 0.9, target: 0.5 },
      { value: 'new', queries: 100, observed: 0.1, target: 0.5 }
    ])
  })
  it('and the check is judged at the target mix', () => {
    expect(weighted.decision.checks[0].status).toBe('inconclusive')
    const plain = gate('')
    expect(plain.decision.checks[0].status).toBe('pass') // ... while the observed mix passes
  })
  it('the JSON report carries both mixes and the Markdown a line', () => {
    const json = JSON.parse(toJsonReport(weighted))
    expect(json.rules.statistics.weights).toEqual({ by: 'segment', target: { established: 0.5, new: 0.5 } })
    const c = json.comparisons.find((x: { metric: string }) => x.metric === 'hit')
    expect(c.mix.observed_mix.delta).toBeCloseTo(0.035, 12)
    expect(c.mix.strata[1]).toEqual({ value: 'new', queries: 100, observed_share: 0.1, target_share: 0.5 })
    const md = toMarkdown(weighted)
    expect(md).toContain(
      'Target mix by segment (established 50%, new 50%; observed 90%, 10%): hit 0.600 → 0.575 (-2.5 points) with the target mix, 0.760 → 0.795 (+3.5 points) with the observed mix.'
    )
  })
  it("a slice holding one stratum is that stratum's plain mean", () => {
    const rows = reference()
    const r = gate(
      ', weights: { by: segment, target: { established: 0.5, new: 0.5 } }',
      rows,
      `  - name: new users
    metric: hit
    where: { segment: new }
    non_inferior: { margin: 0.2 }
`
    )
    const unit = r.decision.checks[2].units[0]
    expect(unit.comparison.baseline).toBeCloseTo(0.4, 12)
    expect(unit.comparison.delta).toBeCloseTo(-0.1, 12)
    expect(unit.comparison.notes.join(' ')).toMatch(/renormalised/)
  })
  it('a slice whose only stratum has target weight 0 fails non_finite and says why (0/0, not "renormalised")', () => {
    const rows = reference()
    const r = gate(
      ', weights: { by: segment, target: { established: 1, new: 0 } }',
      rows,
      `  - name: new users
    metric: hit
    where: { segment: new }
    non_inferior: { margin: 0.2 }
`
    )
    const unit = r.decision.checks[2].units[0]
    expect(unit.status).toBe('fail')
    expect(unit.reason).toBe('non_finite')
    const notes = unit.comparison.notes.join(' ')
    expect(notes).toMatch(/every query here has a target weight of 0 for segment \(new\)/)
    expect(notes).not.toMatch(/renormalised/)
  })
  it('refuses targets that do not sum to 1, name absent values, or leave values out', () => {
    const sum = refusal(() => gate(', weights: { by: segment, target: { established: 0.5, new: 0.4 } }'))
    expect(sum.where.key).toBe('statistics.weights.target')
    expect(sum.where.line).toBe(5)
    expect(sum.message).toMatch(/sum to 0.9/)
    const absent = refusal(() =>
      gate(', weights: { by: segment, target: { established: 0.5, new: 0.25, trial: 0.25 } }')
    )
    expect(absent.where.key).toBe('statistics.weights.target.trial')
    expect(absent.message).toMatch(/no query has segment = "trial"/)
    const left = refusal(() => gate(', weights: { by: segment, target: { established: 1 } }'))
    expect(left.message).toMatch(/"new" occurs in the data but has no target weight/)
  })
  it('refuses a McNemar check under weights or clusters', () => {
    const mc = `  - name: hit improves
    metric: hit
    superior: { test: mcnemar }
`
    const e = refusal(() => gate(', cluster: user', reference(), mc))
    expect(e.where.key).toBe('checks[2].superior.test')
    expect(e.message).toMatch(/cannot apply statistics.cluster/)
  })
})

describe('clusters', () => {
  it('resample users: same estimate, wider interval when users repeat themselves', () => {
    // Every user's 4 queries are copies: 1000 rows carry the evidence of 250.
    const rows = reference()
    for (let i = 0; i < 1000; i++) {
      const user = Math.floor(i / 4)
      rows.baseline[i].values.latency = 100 + (user % 10)
      rows.candidate[i].values.latency = 100 + (user % 10) + (user % 2 === 0 ? 10 : 14)
    }
    const plain = gate('', rows).comparisons.find((c) => c.metric === 'latency' && c.slice.length === 0)!
    const clustered = gate(', cluster: user', rows).comparisons.find(
      (c) => c.metric === 'latency' && c.slice.length === 0
    )!
    expect(clustered.delta).toBe(plain.delta)
    expect(clustered.clusters).toBe(250)
    const width = (c: typeof plain): number => c.ci[1] - c.ci[0]
    // Duplicated 4 times, the row bootstrap's interval is about half (1/sqrt(4)) of the honest one.
    expect(width(clustered) / width(plain)).toBeGreaterThan(1.7)
    expect(width(clustered) / width(plain)).toBeLessThan(2.3)
    expect(clustered.se / plain.se).toBeCloseTo(2, 1)
  })
  it('refuses clusters that straddle strata (they could not be resampled within them)', () => {
    const rows = reference()
    rows.baseline[900].attrs!.user = 'u0'
    rows.candidate[900].attrs!.user = 'u0'
    const e = refusal(() =>
      gate(', cluster: user, weights: { by: segment, target: { established: 0.5, new: 0.5 } }', rows)
    )
    expect(e.where).toEqual({ file: 'rules.yml', key: 'statistics.cluster' })
    expect(e.message).toMatch(/user = "u0" has queries in segment = "established" and segment = "new"/)
  })
})

describe('multiplicity, power, randomization and t in the decision and reports', () => {
  it('Bonferroni widens every gated interval to 1 - alpha/m and adjusts p', () => {
    const r = gate(', multiplicity: bonferroni')
    expect(r.decision.family).toEqual({ method: 'bonferroni', size: 2, confidence: 0.975 })
    const unit = r.decision.checks[0].units[0]
    expect(unit.comparison.confidence).toBe(0.975)
    expect(unit.pTest).toBe('randomization')
    expect(unit.pAdjusted).toBe(Math.min(1, 2 * (unit.pValue as number)))
    const none = gate('').decision.checks[0].units[0]
    expect(unit.comparison.ci[0]).toBeLessThan(none.comparison.ci[0])
    // Exploratory comparisons keep the nominal confidence.
    expect(r.comparisons[0].confidence).toBe(0.95)
  })
  it('every statistical unit reports its minimum detectable effect (t, n - 1 df); an inconclusive one the queries to settle it if nothing truly changed', () => {
    const r = gate(
      '',
      reference(),
      `  - name: hit of new users
    metric: hit
    where: { segment: new }
    non_inferior: { margin: 0.06 }
`
    )
    const unit = r.decision.checks[2].units[0]
    expect(unit.status).toBe('inconclusive')
    expect(unit.comparison.interval).toBe('score')
    // se of the new users' hit difference: 10 of 100 differences are -1, the rest 0: sd = sqrt(0.1 * 0.9 * 100 / 99),
    // se = sd / 10 = 0.030151; MDE = (t.ppf(0.975, 99) + t.ppf(0.8, 99)) * se = 2.8294839834580783 * 0.030151
    // = 0.08531215203136919 (scipy).
    expect(unit.power!.mde).toBeCloseTo(0.08531215203136919, 9)
    // The interval excludes 0: the data show a drop (-10 points), so no "more queries" are offered (issue 34 item 10:
    // they would read as advice to add queries to a regression). Were no change plausible, the plan would be no true
    // change, distance = the margin (python counting n' up from 100 until (t.ppf(0.975, n'-1) + t.ppf(0.8, n'-1)) *
    // se * sqrt(100/n') <= 0.06 -> 101 more; __tests__/gate/interval-choice.test.ts has such a unit).
    expect(unit.comparison.ci[1]).toBeLessThan(0)
    expect(unit.power!.moreQueries).toBeNull()
    const md = toMarkdown(r)
    expect(md).toMatch(/cannot rule out a drop of [0-9.]+ points/)
    expect(md).not.toContain('more independent queries would give this check')
    expect(md).not.toContain('if the true change is the one observed')
  })
  it('comparisons carry the randomization p, the t cross-check and the effect', () => {
    const json = JSON.parse(toJsonReport(gate('')))
    const lat = json.comparisons.find((c: { metric: string }) => c.metric === 'latency')
    expect(lat.delta).toBeCloseTo(12, 12)
    expect(lat.relative_delta).toBeCloseTo(12 / 104.5, 12)
    expect(lat.randomization.exact).toBe(false)
    expect(lat.randomization.p_value).toBeCloseTo(1 / 2001, 12) // every flip is smaller than the observed sum
    expect(lat.t_test).toBeNull() // every difference is exactly 12: no spread, no t statistic (said as null, not NaN)
    const hit = json.comparisons.find((c: { metric: string }) => c.metric === 'hit')
    expect(hit.t_test.df).toBe(999)
    expect(hit.t_test.ci[0]).toBeLessThan(hit.delta)
    expect(json.checks[0].units[0].power.power).toBe(0.8)
  })
  it('the same rows in another order give the same bytes', () => {
    const rows = reference()
    const shuffled = {
      baseline: [...rows.baseline].reverse(),
      candidate: [...rows.candidate].sort((a, b) => (a.id < b.id ? 1 : -1))
    }
    const s = ', interval: bca, cluster: user, multiplicity: holm'
    expect(toJsonReport(gate(s, shuffled))).toBe(toJsonReport(gate(s, rows)))
  })
})

/**
 * What a ranx or promptfoo user reaches for (issue 26, item 8): an absolute floor or ceiling on the candidate's mean
 * (`at_least`, `at_most`), judged on its t interval, and a superior check that gates on the paired t-test or the
 * randomization test (`superior: { test: t | randomization }`). Reference values from scipy 1.10.1 (Debian's
 * python3-scipy), computed on the same 40 values this file builds (the formulas are repeated in each command):
 *   cand = [round(0.2 + 0.6*((i*17)%40)/39, 4) for i in range(40)]
 *   base = [min(1, max(0, round(cand[i] - 0.03 + 0.04*((i*13)%7)/6, 4))) for i in range(40)]
 *   scipy.stats.t.interval(0.95, 39, loc=mean(cand), scale=scipy.stats.sem(cand)) -> (0.4424812376243401, 0.5575187623756599), mean 0.5
 *   scipy.stats.ttest_rel(cand, base) -> statistic 4.4129536961842435, pvalue 7.819123267189756e-05 (delta +0.0095)
 *   noisy = [min(1, max(0, round(cand[i] + (0.05 if i%2 else -0.05) + 0.001*((i*7)%5), 4))) for i in range(40)]
 *   scipy.stats.ttest_rel(cand, noisy) -> pvalue 0.8041298809635679 (delta -0.002)
 */
import { describe, expect, it } from '@jest/globals'
import { loadRules } from '../../src/config/rules.js'
import { InputError } from '../../src/errors.js'
import { sideFromRows, type QueryRow } from '../../src/model/rows.js'
import { toMarkdown } from '../../src/report/markdown.js'
import { explainCommand } from '../../src/commands/explain.js'
import { cli, gateSides, jsonl, writeFiles, toJsonReport } from '../helpers.js'

const N = 40
const round4 = (x: number): number => Math.round(x * 1e4) / 1e4
const CAND = Array.from({ length: N }, (_, i) => round4(0.2 + (0.6 * ((i * 17) % 40)) / 39))
const BASE = CAND.map((c, i) => Math.min(1, Math.max(0, round4(c - 0.03 + (0.04 * ((i * 13) % 7)) / 6))))
const NOISY = CAND.map((c, i) => Math.min(1, Math.max(0, round4(c + (i % 2 ? 0.05 : -0.05) + 0.001 * ((i * 7) % 5)))))

function side(file: string, values: number[]) {
  const rows: QueryRow[] = values.map((v, i) => ({
    id: `q${String(i).padStart(2, '0')}`,
    line: i + 1,
    values: new Map([['m', v]]),
    attrs: new Map()
  }))
  return sideFromRows(file, rows)
}

function rules(check: string, metric = 'm: { better: higher, range: [0, 1] }') {
  return loadRules(
    `version: 1\nmetrics:\n  ${metric}\nstatistics: { resamples: 2000, seed: 3 }\nchecks:\n  - name: c\n    metric: m\n    ${check}\n`,
    'rules.yml'
  )
}

function unitOf(check: string, base = BASE, cand = CAND, metric?: string) {
  const result = gateSides(rules(check, metric), side('b.jsonl', base), side('c.jsonl', cand))
  return { result, unit: result.decision.checks[0].units[0] }
}

function refusal(text: string): InputError {
  try {
    rules(text.split('\n')[0], text.split('\n')[1])
  } catch (error) {
    if (error instanceof InputError) return error
    throw error
  }
  throw new Error('expected a refusal')
}

describe('at_least / at_most: an absolute level on the candidate mean', () => {
  it('judges the skew-corrected t interval of the candidate mean (no skew here: scipy t.interval), pass / fail / inconclusive', () => {
    const pass = unitOf('at_least: 0.44')
    expect(pass.unit.level?.mean).toBeCloseTo(0.5, 12)
    // The project's t quantile (src/stats/special.ts) agrees with scipy's to about 2e-10 here.
    expect(pass.unit.level?.ci?.[0]).toBeCloseTo(0.4424812376243401, 8)
    expect(pass.unit.level?.ci?.[1]).toBeCloseTo(0.5575187623756599, 8)
    expect(pass.unit.level?.method).toBe('skew-t')
    expect(pass.unit.level?.df).toBe(39)
    expect([pass.unit.status, pass.unit.reason]).toEqual(['pass', 'holds'])
    const fail = unitOf('at_least: { value: 0.56 }')
    expect([fail.unit.status, fail.unit.reason]).toEqual(['fail', 'beyond_level'])
    const between = unitOf('at_least: 0.5')
    expect([between.unit.status, between.unit.reason]).toEqual(['inconclusive', 'interval_crosses_level'])
    expect(between.result.decision.verdict).toBe('fail') // on_inconclusive defaults to fail
  })

  it('at_most on a better-lower metric mirrors it; every value equal is no evidence for a pass, and fails beyond the level', () => {
    const lower = (value: number, values = CAND) =>
      gateSides(
        loadRules(
          `version: 1\nmetrics:\n  m: { better: lower, unit: ms }\nstatistics: { resamples: 2000 }\nchecks:\n  - name: c\n    metric: m\n    at_most: ${value}\n`,
          'r.yml'
        ),
        side('b.jsonl', BASE),
        side('c.jsonl', values)
      ).decision.checks[0].units[0]
    expect(lower(0.56).status).toBe('pass') // high end 0.5575 <= 0.56
    expect(lower(0.44).status).toBe('fail') // low end 0.4425 > 0.44
    expect(lower(0.5).reason).toBe('interval_crosses_level')
    const flat = lower(
      0.7,
      CAND.map(() => 0.5)
    )
    expect([flat.status, flat.reason, flat.level?.unreliable]).toEqual([
      'inconclusive',
      'interval_unreliable',
      'no_spread'
    ])
    // Issue 32 item 3: a constant candidate far beyond the level is the fail it is, not "no spread".
    const beyond = lower(
      0.3,
      CAND.map(() => 0.5)
    )
    expect([beyond.status, beyond.reason]).toEqual(['fail', 'beyond_level'])
  })

  it('a level check is not in the multiplicity family and has no p-value', () => {
    const { unit, result } = unitOf('at_least: 0.44')
    expect(result.decision.family.size).toBe(0)
    expect([unit.pValue, unit.pTest]).toEqual([null, null])
  })

  it('refuses a level on the wrong side of the metric, or one the metric can never cross', () => {
    expect(refusal('at_most: 0.3').message).toMatch(
      /\(checks\[0\]\.at_most\): m is better higher, so at_most would bound it on the wrong side.*write at_least: 0\.3/
    )
    expect(refusal('at_least: 5\nm: { better: lower }').message).toMatch(
      /m is better lower, so at_least would bound it on the wrong side.*write at_most: 5/
    )
    expect(refusal('at_least: 0').message).toMatch(
      /at_least 0 is outside what m can take beyond its range \[0, 1\], so the check could never fail/
    )
    expect(refusal('at_least: 1.5').message).toMatch(/so the check could never pass/)
    expect(refusal('at_least: 0.3\n').message).not.toBe('')
  })

  it('says so in the report, the JSON and explain', async () => {
    const { result } = unitOf('at_least: 0.56')
    const md = toMarkdown(result)
    expect(md).toContain(
      '**m has a candidate mean of 0.5000 (95% skew-corrected t interval 0.4425 to 0.5575, 40 queries); the rules need at least 0.5600.**'
    )
    expect(md).toContain(
      '| ❌ fail | 1. c | m | all queries | 40 | mean\u00a00.5000 | [0.4425,\u00a00.5575] | low ≥\u00a00.5600 |'
    )
    const json = JSON.parse(toJsonReport(result)) as {
      checks: Array<{ kind: string; units: Array<{ level: unknown; reason: string }> }>
    }
    expect(json.checks[0].kind).toBe('at_least')
    expect(json.checks[0].units[0].reason).toBe('beyond_level')
    const level = json.checks[0].units[0].level as { mean: number; ci: [number, number]; method: string; df: number }
    expect([level.mean, level.method, level.df]).toEqual([0.5, 'skew-t', 39])
    expect(level.ci[0]).toBeCloseTo(0.4424812376243401, 8)
    const f = writeFiles({
      'r.yml':
        'version: 1\nmetrics:\n  m: { better: higher, range: [0, 1] }\nchecks:\n  - name: floor\n    metric: m\n    at_least: 0.35\n'
    })
    let text = ''
    await explainCommand(f['r.yml'], (t) => (text += t))
    expect(text).toContain(
      "Passes if the lower 95% bound of the candidate's mean m (a skew-corrected t interval, never narrower than Student's t nor than the range allows unseen queries to change) is at least 0.35."
    )
  })
})

/** Without a range: on [0, 1], 40 queries could not show a gain of a point whatever the test (the range's bound). */
const UNBOUNDED = 'm: { better: higher }'

describe('superior: { test: t | randomization }', () => {
  it('t: the paired t-test p (scipy ttest_rel) with the change the better way', () => {
    const { unit } = unitOf('superior: { test: t }', BASE, CAND, UNBOUNDED)
    expect(unit.comparison.tTest?.pValue).toBeCloseTo(7.819123267189756e-5, 9)
    expect([unit.pTest, unit.status, unit.reason]).toEqual(['t', 'pass', 'holds'])
    expect(unit.pValue).toBe(unit.comparison.tTest?.pValue)
    // The other way round: shown worse.
    const worse = unitOf('superior: { test: t }', CAND, BASE, UNBOUNDED).unit
    expect([worse.status, worse.reason]).toEqual(['fail', 'shown_worse'])
    // No shown difference (scipy p 0.804): not shown better, which a superior check always counts as a fail.
    const none = unitOf('superior: { test: t }', NOISY, CAND, UNBOUNDED).unit
    expect(none.comparison.tTest?.pValue).toBeCloseTo(0.8041298809635679, 9)
    expect([none.status, none.reason]).toEqual(['inconclusive', 'not_shown_better'])
  })

  it("randomization: the sign-flip test p, in the family as the unit's test", () => {
    const { unit, result } = unitOf('superior: { test: randomization, alpha: 0.01 }', BASE, CAND, UNBOUNDED)
    expect(unit.pTest).toBe('randomization')
    expect(unit.pValue).toBe(unit.comparison.randomization.pValue)
    expect(unit.pValue as number).toBeLessThan(0.01)
    expect(unit.status).toBe('pass')
    const none = unitOf('superior: { test: randomization }', NOISY, CAND, UNBOUNDED).unit
    expect(none.reason).toBe('not_shown_better')
    expect(JSON.parse(toJsonReport(result)).checks[0].units[0].p_test).toBe('randomization')
  })

  it('the t and randomization tests take no margin (they test "no difference")', () => {
    expect(refusal('superior: { test: t, margin: 0.01 }').message).toMatch(
      /the paired t-test tests "no difference"; it takes no margin/
    )
    expect(refusal('superior: { test: randomization, margin: 0.01 }').message).toMatch(
      /the randomization test tests "no difference"; it takes no margin/
    )
  })

  it('the bootstrap takes no alpha (it decides on the interval at statistics.confidence)', () => {
    // Accepted before: alpha 0.001 was read by nothing, and the unit passed on its 95% interval.
    for (const rule of ['superior: { alpha: 0.001 }', 'superior: { test: bootstrap, alpha: 0.001 }']) {
      const e = refusal(rule)
      expect(e.message).toMatch(
        /test: bootstrap decides on the interval at statistics.confidence \(95%\) and reads no alpha/
      )
      expect(e.where.key).toMatch(/superior\.alpha$/)
    }
    expect(unitOf('superior: { test: t, alpha: 0.001 }', BASE, CAND, UNBOUNDED).unit.pTest).toBe('t')
  })

  it("the report shows the rules' alpha as written, never rounded to 0.000", () => {
    // Printed with three decimals before: alpha 0.0001 read "p < 0.000".
    const md = toMarkdown(unitOf('superior: { test: t, alpha: 0.0001 }', NOISY, CAND).result)
    expect(md).toMatch(/the rules need the mean to rise with p < 0\.0001[;.]/)
    expect(md).toContain('| t p <\u00a00.0001 (0.8041) |')
    expect(md).not.toContain('0.000 ')
    expect(toMarkdown(unitOf('superior: { test: t, alpha: 0.0125 }', NOISY, CAND).result)).toMatch(
      /with p < 0\.0125[;.]/
    )
  })

  it('the report names the test and its p', () => {
    const md = toMarkdown(unitOf('superior: { test: t }', NOISY, CAND).result)
    expect(md).toMatch(/paired t-test p = 0\.8041; the rules need the mean to rise with p < 0\.050/)
    expect(md).toContain('| t p <\u00a00.050 (0.8041) |')
  })
})

describe('with seed replicates', () => {
  it('refuses the t and randomization tests and a level check: they would ignore the noise between seeds', async () => {
    const rows = (values: number[]) => jsonl(values.map((v, i) => ({ query_id: `q${i}`, m: v })))
    for (const [check, key] of [
      ['superior: { test: t }', 'superior.test'],
      ['superior: { test: randomization }', 'superior.test'],
      ['at_least: 0.3', 'at_least']
    ]) {
      const f = writeFiles({
        'r.yml': `version: 1\nmetrics:\n  m: { better: higher, range: [0, 1] }\nstatistics: { seeds: 2 }\nchecks:\n  - name: c\n    metric: m\n    ${check}\n`,
        'b1.jsonl': rows(BASE),
        // Two different seeds per side (the same file twice would be one seed, refused before the rules are).
        'b2.jsonl': rows(BASE.map((v) => v + 0.01)),
        'c1.jsonl': rows(CAND),
        'c2.jsonl': rows(CAND.map((v) => v + 0.01))
      })
      const r = await cli([
        'gate',
        '--rules',
        f['r.yml'],
        '--baseline',
        f['b1.jsonl'],
        '--baseline',
        f['b2.jsonl'],
        '--candidate',
        f['c1.jsonl'],
        '--candidate',
        f['c2.jsonl']
      ])
      expect(r.code).toBe(2)
      expect(r.stderr).toContain(`(checks[0].${key})`)
      expect(r.stderr).toContain('which treats the seed-averaged values as fixed')
    }
  })
})

/**
 * Issue 32's findings, each as a case that passed (or was undecided) before the one decision core and is decided
 * by its rules now (docs/statistics.md, "The reliability rule"). Reference values: Debian's /usr/bin/python3 with
 * scipy 1.10.1, the command beside each.
 */
import { describe, expect, it } from '@jest/globals'
import { readFileSync } from 'node:fs'
import { loadRules } from '../../src/config/rules.js'
import type { PriorLooks } from '../../src/decide/holdout.js'
import { runGate } from '../../src/gate.js'
import { sideFromRows, type QueryRow, type SideRows } from '../../src/model/rows.js'
import type { SeedSides } from '../../src/align/seeds.js'
import { cli, gateSides, loadFiles, refusal } from '../helpers.js'

function side(source: string, values: number[], attrs: Array<Record<string, string>> = []): SideRows {
  const rows: QueryRow[] = values.map((v, i) => ({
    id: `q${String(i).padStart(4, '0')}`,
    line: i + 1,
    values: new Map([['m', v]]),
    attrs: new Map(Object.entries(attrs[i] ?? {}))
  }))
  return sideFromRows(source, rows)
}

const rulesOf = (metric: string, check: string, statistics = ''): ReturnType<typeof loadRules> =>
  loadRules(
    `version: 1\nmetrics:\n  m: ${metric}\nstatistics: { seed: 1${statistics} }\nqueries: { min_per_slice: 10 }\nchecks:\n  - { name: c, metric: m, ${check} }\n`,
    'rules.yml'
  )

describe('item 1: a deciding end is never narrower than Student’s t', () => {
  // 400 queries: 70% unchanged, 30% small gains (a long tail of gains: positive skew 2.12). python:
  //   d = np.tile([0.0]*70 + [0.002*(i+1)**1.6 for i in range(30)], 4)
  //   t lower end m - t.ppf(0.975, 399)*sem = 0.044292410341342306; Hall's lower end 0.04508747897824708
  const d = Array.from({ length: 400 }, (_, i) => (i % 100 < 70 ? 0 : 0.002 * ((i % 100) - 69) ** 1.6))
  it("Hall's correction shortens the lower end on a gain's long tail; the gate keeps t's, so a margin between does not pass", () => {
    const rules = rulesOf('{ better: higher }', 'superior: { margin: 0.0447 }')
    const r = gateSides(
      rules,
      side(
        'b',
        d.map(() => 0.5)
      ),
      side(
        'c',
        d.map((x) => 0.5 + x)
      )
    )
    const unit = r.decision.checks[0].units[0]
    expect(unit.comparison.ci[0]).toBeCloseTo(0.044292410341342306, 9)
    expect([unit.status, unit.reason]).toEqual(['inconclusive', 'not_shown_better'])
  })
})

describe('item 2: sizes are effective, not counted', () => {
  it('20 clusters of which one holds most queries count as about 1.2; the range allows unseen clusters a large share', () => {
    // One user with 181 queries and 19 with one each: Kish's effective number 200^2 / (181^2 + 19) = 1.22.
    const users = Array.from({ length: 200 }, (_, i) => ({ user: i < 181 ? 'big' : `u${i}` }))
    const base = Array.from({ length: 200 }, (_, i) => 0.4 + (i % 7) / 100)
    const cand = base.map((x, i) => x + (i % 3) / 1000)
    const rules = rulesOf('{ better: higher, range: [0, 1] }', 'non_inferior: { margin: 0.1 }', ', cluster: user')
    const unit = gateSides(rules, side('b', base, users), side('c', cand, users)).decision.checks[0].units[0]
    expect(unit.comparison.effective).toBeCloseTo(40000 / (181 * 181 + 19), 12)
    expect(unit.status).not.toBe('pass')
  })
})

describe('item 3: every route follows the rule', () => {
  it('superior by the t-test needs the interval too: 30 queries cannot show a 3-point gain on [0, 1]', () => {
    // 30 queries each +0.03 give or take 0.01: the paired t-test's p is ~1e-12, but 30 queries cannot rule out that
    // 11.6% of unseen ones lose the whole range (python: 1 - 0.025 ** (1 / 30) = 0.11570...).
    const base = Array.from({ length: 30 }, (_, i) => 0.3 + (i % 10) / 20)
    const cand = base.map((x, i) => x + 0.03 + ((i % 3) - 1) / 100)
    const rules = rulesOf('{ better: higher, range: [0, 1] }', 'superior: { test: t, alpha: 0.05 }')
    const unit = gateSides(rules, side('b', base), side('c', cand)).decision.checks[0].units[0]
    expect(unit.comparison.tTest?.pValue as number).toBeLessThan(1e-6)
    expect([unit.status, unit.reason]).toEqual(['inconclusive', 'interval_unreliable'])
  })
  it('a binary level: 98 hits of 100 do not show at_least 0.95 (Clopper–Pearson 0.9296)', () => {
    const cand = Array.from({ length: 100 }, (_, i) => (i < 98 ? 1 : 0))
    const rules = rulesOf('{ better: higher, binary: true }', 'at_least: 0.95')
    const unit = gateSides(rules, side('b', cand), side('c', cand)).decision.checks[0].units[0]
    // python: scipy.stats.beta.ppf(0.025, 98, 3) = 0.9296160675289299
    expect(unit.level?.ci[0]).toBeCloseTo(0.9296160675289299, 12)
    expect(unit.level?.method).toBe('exact')
    expect(unit.status).toBe('inconclusive')
  })
})

describe('item 4: the answer cannot choose the law', () => {
  const values = Array.from({ length: 60 }, (_, i) => 0.3 + (i % 11) / 30)
  const rules = rulesOf('{ better: higher, range: [0, 1] }', 'non_inferior: { margin: 0.1 }')
  it('a second candidate file is refused unless the rules declare seeds', async () => {
    const seeds: SeedSides = {
      baseline: [side('b', values)],
      candidate: [
        side('c1', values),
        side(
          'c2',
          values.map((x) => x + 1e-9)
        )
      ]
    }
    const e = await refusal(() => gateSides(rules, side('b', values), side('c1', values), { seeds }))
    expect(e.where).toMatchObject({ key: 'statistics.seeds' })
    expect(e.message).toContain('2 candidate files were given, but the rules declare no seed replicates')
  })
  it('a copy nudged by 1e-9 is the same seed', async () => {
    const declared = rulesOf(
      '{ better: higher, range: [0, 1] }',
      'non_inferior: { margin: 0.1 }',
      ', seeds: { baseline: 1, candidate: 2 }'
    )
    const seeds: SeedSides = {
      baseline: [side('b', values)],
      candidate: [
        side('c1', values),
        side(
          'c2',
          values.map((x) => x + 1e-9)
        )
      ]
    }
    const e = await refusal(() => gateSides(declared, side('b', values), side('c1', values), { seeds }))
    expect(e.message).toMatch(/agrees with c1 for every query and metric/)
  })
  it('a difference nudged by 1e-9 on one query is judged as the unchanged run it is, not a zero-width pass', () => {
    const base = Array.from({ length: 400 }, (_, i) => 0.2 + (i % 9) / 20)
    const cand = base.map((x, i) => (i === 7 ? x + 1e-9 : x))
    const tight = rulesOf('{ better: higher, range: [0, 1] }', 'non_inferior: { margin: 0.005 }')
    const unit = gateSides(tight, side('b', base), side('c', cand)).decision.checks[0].units[0]
    // python: 1 - 0.025 ** (1 / 400) = 0.009179804583665296: unseen queries could hide a drop of 0.9 points.
    expect(unit.comparison.ci[0]).toBeCloseTo(-0.009179804583665296, 8)
    expect(unit.status).toBe('inconclusive')
  })
})

describe('item 5: one unit, one way to count it', () => {
  const D = '__tests__/fixtures/trust/dataset'
  it('a holdout cap on a unit with too few queries keeps the reason that counts worse (on_too_few: fail)', async () => {
    const text = readFileSync(`${D}/rules.yml`, 'utf8')
      .replace(/max_zero_hit_share.*\n/, '')
      .replace('split: holdout }', 'split: holdout, holdout_looks: { max_per_pr: 1, release: v1.4 } }')
    const rules = loadRules(
      `${text}on_too_few: fail\non_inconclusive: pass\n`.replace(
        /queries: \{[^}]*\}/,
        'queries: { min_per_slice: 30 }'
      ),
      'rules.yml'
    )
    const loaded = await loadFiles(rules, { baseline: `${D}/baseline.jsonl`, candidate: `${D}/candidate.jsonl` })
    const prior: PriorLooks = { thisPr: 5 }
    const result = runGate({ ...loaded, evidence: new Map([...loaded.evidence, ['holdout', prior]]) })
    const unit = result.decision.checks[0].units[0]
    expect([unit.status, unit.reason]).toEqual(['inconclusive', 'too_few_queries'])
    expect(result.decision.verdict).toBe('fail')
  })
})

describe('item 7: a measure the gate computes has its known range', () => {
  it('an unchanged run on 200 queries passes nDCG@10 non-inferiority without the rules repeating range: [0, 1]', async () => {
    const rules =
      'version: 1\njudgments: { qrels: examples/runs/qrels.txt }\nmetrics:\n  nDCG@10: { better: higher }\nchecks:\n  - { name: holds, metric: nDCG@10, non_inferior: { margin: 0.05 } }\n'
    const { writeFiles } = await import('../helpers.js')
    const f = writeFiles({ 'r.yml': rules })
    const r = await cli([
      'gate',
      '--rules',
      f['r.yml'],
      '--baseline',
      'examples/trec/baseline.run',
      '--candidate',
      'examples/trec/baseline.run',
      '--format',
      'json'
    ])
    expect(r.stderr).toBe('')
    const report = JSON.parse(r.stdout) as {
      verdict: string
      checks: Array<{ units: Array<{ comparison: { interval_widened: string } }> }>
    }
    expect(report.verdict).toBe('pass')
    expect(report.checks[0].units[0].comparison.interval_widened).toBe('range')
  })
})

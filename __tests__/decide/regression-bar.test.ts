/**
 * A max_regressions threshold counts drops of MORE than it, as written (red-team finding, 2026-12-02): 0.8 → 0.75
 * and 0.3 → 0.25 are both drops of exactly 0.05, but in binary the first is 0.050000000000000044 and the second
 * 0.04999999999999999, so the first counted against `threshold: 0.05` and the second did not. Python:
 *   0.75 - 0.8 -> -0.050000000000000044;  0.25 - 0.3 -> -0.04999999999999999
 */
import { describe, expect, it } from '@jest/globals'
import { loadRules } from '../../src/config/rules.js'
import { regressionBar } from '../../src/stats/engine-queries.js'
import { gateSides, metricSide } from '../helpers.js'

const side = (file: string, values: number[]) => metricSide(file, 'r', values)

const base = [...Array<number>(20).fill(0.8), ...Array<number>(20).fill(0.3)]
const rules = (threshold: number, count: number) =>
  loadRules(
    `version: 1\nmetrics:\n  r: { better: higher, range: [0, 1] }\nchecks:\n  - { name: c, metric: r, max_regressions: { count: ${count}, threshold: ${threshold} } }\n`,
    'rules.yml'
  )

describe('max_regressions: "worse by more than the threshold", as written', () => {
  it('a drop of exactly the threshold never counts, whichever way binary rounds it', () => {
    const cand = [...Array<number>(20).fill(0.75), ...Array<number>(20).fill(0.25)]
    const unit = gateSides(rules(0.05, 19), side('b.jsonl', base), side('c.jsonl', cand)).decision.checks[0].units[0]
    expect([unit.status, unit.regressions]).toEqual(['pass', 0])
  })

  it('a drop past the threshold counts, and threshold 0 counts any drop', () => {
    const cand = [...Array<number>(20).fill(0.7499), ...Array<number>(20).fill(0.3)]
    const unit = gateSides(rules(0.05, 19), side('b.jsonl', base), side('c.jsonl', cand)).decision.checks[0].units[0]
    expect([unit.status, unit.regressions]).toEqual(['fail', 20])
    expect(regressionBar(0)).toBe(0)
    const tiny = [...Array<number>(20).fill(0.8 - 1e-15), ...Array<number>(20).fill(0.3)]
    expect(
      gateSides(rules(0, 19), side('b.jsonl', base), side('c.jsonl', tiny)).decision.checks[0].units[0].regressions
    ).toBe(20)
  })
})

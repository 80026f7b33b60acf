/**
 * A metric on a scale near 1e80 (or 1e300) is decided as on a scale of 1, or fails as non_finite: never a point
 * interval that reads as "no spread" (red-team finding, 2026-12-02: at 1e80 the squares of the strata's variances
 * overflowed, Welch's degrees of freedom came out Infinity / Infinity = NaN, Student's interval collapsed to the
 * estimate and a bounded metric's non-inferiority check passed where the same data at scale 1 is inconclusive).
 */
import { describe, expect, it } from '@jest/globals'
import { loadRules } from '../../src/config/rules.js'
import { gateSides, metricSide } from '../helpers.js'

const N = 400

/** A fixed stream in [0, 1) (Park–Miller), so the data is the same on every run. */
function stream(seed: number): () => number {
  let x = seed
  return () => (x = (x * 48271) % 2147483647) / 2147483647
}

function sides(scale: number): { base: number[]; cand: number[] } {
  const u = stream(7)
  const base: number[] = []
  const cand: number[] = []
  for (let i = 0; i < N; i++) {
    const b = 0.5 + u()
    const noise = (u() + u() + u() - 1.5) * 0.9
    base.push(b * scale)
    cand.push(Math.min(2, Math.max(0, b - 0.03 + noise)) * scale)
  }
  return { base, cand }
}

const side = (file: string, values: number[]) => metricSide(file, 'm', values)

function unitAt(scale: number, metric: string, check: string) {
  const rules = loadRules(
    `version: 1\nmetrics:\n  m: ${metric}\nchecks:\n  - name: c\n    metric: m\n    ${check}\n`,
    'rules.yml'
  )
  const { base, cand } = sides(scale)
  return gateSides(rules, side('b.jsonl', base), side('c.jsonl', cand)).decision.checks[0].units[0]
}

describe('values near the largest doubles', () => {
  it('a bounded metric at 1e80 is decided as at 1, with finite degrees of freedom', () => {
    const at = (scale: number) =>
      unitAt(scale, `{ better: higher, range: [0, ${2 * scale}] }`, 'non_inferior: { margin: "5%" }')
    const one = at(1)
    const big = at(1e80)
    expect([one.status, one.reason]).toEqual(['inconclusive', 'interval_crosses_margin'])
    expect([big.status, big.reason]).toEqual([one.status, one.reason])
    const df = (u: typeof one) => u.comparison.df
    expect(Number.isFinite(df(big))).toBe(true)
    expect(df(big) / df(one)).toBeCloseTo(1, 9)
    expect(big.comparison.ci[0] / 1e80).toBeCloseTo(one.comparison.ci[0], 9)
  })

  it('where the squares themselves overflow (1e300), the check fails as non_finite, not as "no spread"', () => {
    const u = unitAt(1e300, '{ better: lower }', 'superior: {}')
    expect([u.status, u.reason]).toEqual(['fail', 'non_finite'])
  })
})

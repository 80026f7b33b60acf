/**
 * A reduced run of the Poisson bootstrap's calibration (the full one: npm run calibrate:poisson, table in
 * docs/scale.md). Deterministic (seeded); bounds wide enough for 150 simulations (Monte Carlo standard error of a
 * coverage near 0.95: 0.018) and tight enough to catch a broken law: weights that ignored clusters, or a resample
 * that divided by the number of units instead of the sum of weights, cover far less.
 */
import { describe, expect, it } from '@jest/globals'
import { runPoissonCell } from '../../bench/calibration/poisson.js'

describe('Poisson calibration (reduced)', () => {
  it('independent and clustered queries: coverage near 0.95, false passes near 0.025, like the multinomial rows', () => {
    for (const cell of [
      { kind: 'continuous' as const, queries: 200, clusterSize: 1 },
      { kind: 'binary' as const, queries: 500, clusterSize: 1 },
      { kind: 'continuous' as const, queries: 400, clusterSize: 10 }
    ]) {
      const results = runPoissonCell(cell, 150, 300)
      expect(results.map((r) => r.method)).toEqual(['poisson percentile', 'poisson bca', 'multinomial percentile'])
      for (const r of results) {
        expect(r.coverage).toBeGreaterThanOrEqual(0.88)
        expect(r.coverage).toBeLessThanOrEqual(0.99)
        expect(r.falsePass).toBeLessThanOrEqual(0.06)
      }
    }
  })
  it('is deterministic: the same cell gives the same table', () => {
    const cell = { kind: 'continuous' as const, queries: 100, clusterSize: 1 }
    expect(runPoissonCell(cell, 20, 200)).toEqual(runPoissonCell(cell, 20, 200))
  })
})

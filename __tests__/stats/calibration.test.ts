/**
 * A reduced run of the calibration study (the full one: npm run calibrate, table in docs/statistics.md).
 * Deterministic (seeded), so the bounds below are not flaky; they are wide enough for 150 simulations
 * (Monte Carlo standard error of a coverage near 0.95: 0.018) and tight enough to catch a broken method:
 * an interval that ignores clusters covers about 55% here.
 */
import { describe, expect, it } from '@jest/globals'
import { MARGIN, runCell, simulate } from '../../src/stats/calibration.js'

describe('calibration (reduced)', () => {
  it('simulated differences have the stated true mean (-margin)', () => {
    // 20 evaluations of 5,000 queries in clusters of 10: the mean of 100,000 differences is within 0.01 of
    // -0.02, about 4 standard errors (binary: sd 0.56, design effect 1.9 -> se 0.0024; continuous: se 0.0015).
    for (const kind of ['binary', 'continuous'] as const) {
      let s = 0
      let n = 0
      for (let i = 0; i < 20; i++)
        for (const x of simulate({ kind, queries: 5000, clusterSize: 10 }, 'check', i).d) {
          s += x
          n++
        }
      expect(Math.abs(s / n + MARGIN)).toBeLessThan(0.01)
    }
  })
  it('independent queries: coverage near 0.95 and false passes near 0.025', () => {
    for (const r of runCell({ kind: 'continuous', queries: 200, clusterSize: 1 }, 150, 300)) {
      expect(r.coverage).toBeGreaterThanOrEqual(0.9)
      expect(r.coverage).toBeLessThanOrEqual(0.99)
      expect(r.falsePass).toBeLessThanOrEqual(0.06)
    }
  })
  it('clustered queries: the cluster bootstrap holds, the row bootstrap fails', () => {
    const results = runCell({ kind: 'continuous', queries: 400, clusterSize: 10 }, 150, 300)
    const by = new Map(results.map((r) => [r.method, r]))
    expect(by.get('percentile')!.coverage).toBeGreaterThanOrEqual(0.88)
    expect(by.get('percentile')!.falsePass).toBeLessThanOrEqual(0.06)
    expect(by.get('t')!.coverage).toBeGreaterThanOrEqual(0.88)
    const row = by.get('row percentile (ignores clusters)')!
    expect(row.coverage).toBeLessThan(0.8)
    expect(row.falsePass).toBeGreaterThan(0.1)
  })
})

/**
 * A reduced run of the seed-replicates calibration study (the full table: `npm run calibrate -- --seeds`,
 * docs/statistics.md). It guards the direction of the result, not its decimals: when training noise dominates,
 * the query-only interval over seed-averaged rows misses the truth far more often than the two-level one.
 */
import { describe, expect, it } from '@jest/globals'
import { runSeedCell, simulateSeeds } from '../../src/stats/seed-calibration.js'

describe('seed replicates calibration (reduced)', () => {
  it('with dominant training noise the two-level interval covers far more often than the query-only one', () => {
    const r = runSeedCell({ seeds: 5, queries: 60, querySd: 0.1, seedSd: 0.03, noiseSd: 0.05 }, 80, 300)
    // Full study, 5 seeds, 100 queries: two-level 0.916, query-only 0.672. With 80 simulations the Monte Carlo
    // standard error is about 0.03 to 0.05, so the bounds below are several standard errors wide.
    expect(r.twoLevel).toBeGreaterThan(0.8)
    expect(r.queryOnly).toBeLessThan(0.8)
    expect(r.twoLevel - r.queryOnly).toBeGreaterThan(0.1)
  })

  it('simulations are deterministic and have the shape asked for', () => {
    const cell = { seeds: 3, queries: 10, querySd: 0.1, seedSd: 0.01, noiseSd: 0.05 }
    const a = simulateSeeds(cell, 's', 4)
    expect(a.base).toHaveLength(3)
    expect(a.cand[2]).toHaveLength(10)
    expect(Array.from(simulateSeeds(cell, 's', 4).cand[1])).toEqual(Array.from(a.cand[1]))
  })
})

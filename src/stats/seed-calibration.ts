import { percentileInterval } from './bca.js'
import { blockState, normalDraws, xoshiro128ss } from './rng.js'
import { seedBootstrap, seedMean, type SeedColumns } from './seed-bootstrap.js'

/**
 * The calibration study of seed replicates (npm run calibrate prints it; a reduced run in
 * __tests__/stats/seed-calibration.test.ts): simulated evaluations with a known true difference, scored by
 * several independently trained seeds per side, to measure how often the two-level interval (seeds, then
 * queries) covers the truth, next to the query-only interval over the seed-averaged rows (what one file per
 * side would claim).
 *
 * The model, per side, seed s and query q:  score = a_q + [candidate: Δ + b_q] + g_s + e_sq, with a_q the
 * query's difficulty (shared by both sides: it cancels in the pairing), b_q ~ N(0, querySd) how the change
 * helps or hurts query q, g_s ~ N(0, seedSd) the seed's training luck (a fresh draw per seed and side) and
 * e_sq ~ N(0, noiseSd) the seed-by-query wobble. The estimand is Δ = 0: the expected difference over the seed
 * distribution and the query population.
 */
export interface SeedCell {
  seeds: number
  queries: number
  querySd: number
  seedSd: number
  noiseSd: number
}

export interface SeedCellResult {
  cell: SeedCell
  /** Share of simulations whose two-level interval contains the true difference. */
  twoLevel: number
  /** Share whose query-only interval (over the seed-averaged rows) contains it. */
  queryOnly: number
  simulations: number
}

/** One simulated evaluation: the seed columns of both sides (true difference 0). */
export function simulateSeeds(cell: SeedCell, seed: string, index: number): SeedColumns {
  const next = xoshiro128ss(blockState(seed, `seeds/${cell.seeds}/${cell.queries}/${cell.querySd}/${cell.seedSd}/${cell.noiseSd}`, index))
  const normal = normalDraws(next)
  const n = cell.queries
  const a = Float64Array.from({ length: n }, () => normal() * 0.2)
  const b = Float64Array.from({ length: n }, () => normal() * cell.querySd)
  const side = (change: Float64Array | null): Float64Array[] =>
    Array.from({ length: cell.seeds }, () => {
      const g = normal() * cell.seedSd
      return Float64Array.from({ length: n }, (_, q) => a[q] + (change === null ? 0 : change[q]) + g + normal() * cell.noiseSd)
    })
  return { base: side(null), cand: side(b) }
}

/** Coverage of both intervals at `confidence` over `simulations` simulated evaluations of one cell. */
export function runSeedCell(cell: SeedCell, simulations: number, resamples: number, confidence = 0.95): SeedCellResult {
  let twoLevel = 0
  let queryOnly = 0
  for (let i = 0; i < simulations; i++) {
    const columns = simulateSeeds(cell, 'calibration', i)
    const [lo, hi] = percentileInterval(seedBootstrap(columns, resamples, '1', `two-level/${i}`), confidence)
    if (lo <= 0 && 0 <= hi) twoLevel++
    const averaged = (rows: Float64Array[]): Float64Array => Float64Array.from({ length: cell.queries }, (_, q) => seedMean(rows, q))
    const [qlo, qhi] = percentileInterval(seedBootstrap({ base: [averaged(columns.base)], cand: [averaged(columns.cand)] }, resamples, '1', `query-only/${i}`), confidence)
    if (qlo <= 0 && 0 <= qhi) queryOnly++
  }
  return { cell, twoLevel: twoLevel / simulations, queryOnly: queryOnly / simulations, simulations }
}

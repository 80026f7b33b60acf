import type { StatisticsRules } from '../../src/config/types.js'
import { bcaInterval, percentileInterval } from '../../src/stats/bca.js'
import { acceleration, momentsOfDesign } from '../../src/stats/moments.js'
import { sortedResamples } from './methods.js'
import { MARGIN, simulate, type Cell } from './poisson-cells.js'
import { buildDesign, estimate, type Design } from '../../src/stats/design.js'
import { poissonJob } from '../../src/stats/poisson.js'
import { keysOf, seedKeys } from '../../src/stats/poisson-weights.js'
import { SYNC_RUNNER } from '../../src/stats/threads.js'

/**
 * The calibration rows of the Poisson bootstrap (`statistics.method: poisson`, and `auto` from 50,000 units): the
 * simulated evaluations of bench/calibration/poisson-cells.ts (true difference at the margin, so a pass is a false pass),
 * each resampled both ways on the same data, so the Poisson rows can be read against the multinomial rows of
 * `npm run calibrate`. Kept in a file of its own (npm run calibrate:poisson, scripts/calibrate-poisson.js).
 */
export type PoissonMethod = 'poisson percentile' | 'poisson bca' | 'multinomial percentile'

export interface PoissonCellResult {
  cell: Cell
  method: PoissonMethod
  coverage: number
  falsePass: number
  simulations: number
}

/** The Poisson resamples of column 0 of a design whose units are named `ids`, sorted ascending. */
export function poissonDistribution(
  design: Design,
  ids: readonly string[],
  resamples: number,
  seed: string
): Float64Array {
  const out = new Float64Array(resamples)
  SYNC_RUNNER.run([
    poissonJob({ design, columns: [0], keys: keysOf(ids), seed: seedKeys(seed).weights, resamples, out })
  ])
  return out.sort()
}

/** Runs a cell: `simulations` evaluations, `resamples` resamples each, every method on the same data. */
export function runPoissonCell(
  cell: Cell,
  simulations: number,
  resamples: number,
  seed = 'calibration',
  confidence = 0.95
): PoissonCellResult[] {
  const methods: PoissonMethod[] = ['poisson percentile', 'poisson bca', 'multinomial percentile']
  const covered = new Map<PoissonMethod, number>(methods.map((m) => [m, 0]))
  const passed = new Map<PoissonMethod, number>(methods.map((m) => [m, 0]))
  const members = Int32Array.from({ length: cell.queries }, (_, i) => i)
  const clustered = cell.clusterSize > 1
  const statistics: StatisticsRules = {
    confidence,
    resamples,
    seed,
    interval: 'percentile',
    permutations: resamples,
    cluster: clustered ? 'cluster' : undefined,
    clusterWeighting: 'query',
    weights: undefined,
    multiplicity: 'none'
  }
  for (let s = 0; s < simulations; s++) {
    const { d, clusters } = simulate(cell, seed, s)
    const table = { attrs: new Map([['cluster', clusters]]) } as unknown as Parameters<typeof buildDesign>[0]
    const design = buildDesign(table, members, [d], { statistics })
    // Units in design order: the clusters sorted by name, or the queries in order (their ids differ by simulation).
    const ids = clustered
      ? [...new Set(clusters)].sort()
      : Array.from({ length: cell.queries }, (_, i) => `sim${s}/q${i}`)
    const poisson = poissonDistribution(design, ids, resamples, `${seed}/${s}`)
    const intervals = new Map<PoissonMethod, [number, number]>([
      ['poisson percentile', percentileInterval(poisson, confidence)],
      [
        'poisson bca',
        bcaInterval(poisson, estimate(design, 0), acceleration(momentsOfDesign(design, 0)), confidence).ci
      ],
      [
        'multinomial percentile',
        percentileInterval(sortedResamples(design, { resamples, seed, stream: `sim${s}` }), confidence)
      ]
    ])
    for (const m of methods) {
      const [lo, hi] = intervals.get(m) as [number, number]
      if (lo <= -MARGIN && -MARGIN <= hi) covered.set(m, (covered.get(m) as number) + 1)
      if (lo >= -MARGIN) passed.set(m, (passed.get(m) as number) + 1)
    }
  }
  return methods.map((method) => ({
    cell,
    method,
    coverage: (covered.get(method) as number) / simulations,
    falsePass: (passed.get(method) as number) / simulations,
    simulations
  }))
}

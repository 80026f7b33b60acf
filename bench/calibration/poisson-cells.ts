import { blockState, xoshiro128ss } from '../../src/stats/rng.js'

/**
 * The simulated evaluations the Poisson bootstrap's rows are measured on (npm run calibrate:poisson,
 * bench/calibration/poisson.ts): the first calibration study's cells, binary (hit@k, 16% lost / 14% gained) and
 * right-skewed continuous differences, independent or in clusters, with the true mean difference −MARGIN, so a
 * pass of the non-inferiority check at the margin is a false pass (target 2.5% at 95% two-sided).
 */
export interface Cell {
  /** binary: per-query differences in {−1, 0, 1} (hit@k); continuous: right-skewed differences (recall-like). */
  kind: 'binary' | 'continuous'
  queries: number
  /** Queries per cluster (1 = independent queries). Clustered data share a cluster effect (intra-class correlation 0.5). */
  clusterSize: number
}

/** The margin of the simulated non-inferiority check; the true difference is −MARGIN. */
export const MARGIN = 0.02

/** Standard normal draws (Box–Muller) from a stream of 32-bit integers. */
function normalDraws(next: () => number): () => number {
  const uniform = (): number => (next() + 0.5) / 4294967296
  return () => Math.sqrt(-2 * Math.log(uniform())) * Math.cos(2 * Math.PI * uniform())
}

/** One simulated evaluation: per-query differences (candidate − baseline) and cluster labels. */
export function simulate(cell: Cell, seed: string, index: number): { d: Float64Array; clusters: string[] } {
  const next = xoshiro128ss(blockState(seed, `${cell.kind}/${cell.queries}/${cell.clusterSize}`, index))
  const uniform = (): number => (next() + 0.5) / 4294967296
  const normal = normalDraws(next)
  const n = cell.queries
  const d = new Float64Array(n)
  const clusters: string[] = []
  let shift = 0
  for (let i = 0; i < n; i++) {
    const g = Math.floor(i / cell.clusterSize)
    if (i % cell.clusterSize === 0) shift = cell.clusterSize > 1 ? normal() : 0
    clusters.push(`c${g}`)
    if (cell.kind === 'binary') {
      // P(lost) = 0.16 + a, P(gained) = 0.14 − a with a cluster effect a symmetric about 0 (clipped to
      // ±0.12): the mean of gained − lost is −0.02 − 2·E[a] = −MARGIN exactly; intra-class correlation ≈ 0.1.
      const a = 0.1 * Math.min(1.2, Math.max(-1.2, shift))
      const lost = 0.15 + MARGIN / 2 + a
      const gained = 0.15 - MARGIN / 2 - a
      const u = uniform()
      d[i] = u < lost ? -1 : u < lost + gained ? 1 : 0
    } else {
      // Exponential(1) − 1 is mean 0, skewness 2; scaled 0.2. Clusters: equal variance split (ICC 0.5).
      const e = -Math.log(uniform()) - 1
      d[i] = -MARGIN + 0.2 * (cell.clusterSize > 1 ? Math.SQRT1_2 * (e + shift) : e)
    }
  }
  return { d, clusters }
}

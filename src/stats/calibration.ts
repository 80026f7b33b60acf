import type { StatisticsRules } from '../config/types.js'
import { acceleration, bcaInterval, percentileInterval } from './bca.js'
import { bootstrapDistribution } from './bootstrap.js'
import { buildDesign, estimate } from './design.js'
import { tInterval } from './linear.js'
import { blockState, normalDraws, xoshiro128ss } from './rng.js'

/**
 * The calibration study (npm run calibrate; a reduced run in __tests__/stats/calibration.test.ts):
 * simulated evaluations whose true mean difference is known, to measure how often each interval method
 * covers it and how often a non-inferiority check whose true difference sits exactly at the margin passes
 * (a false pass). The true difference is −margin, so "pass" = the lower end of the interval ≥ −margin =
 * the interval misses the truth on its lower side: at 95% two-sided the target rate is 2.5%.
 */
export interface Cell {
  /** binary: per-query differences in {−1, 0, 1} (hit@k); continuous: right-skewed differences (recall-like). */
  kind: 'binary' | 'continuous'
  queries: number
  /** Queries per cluster (1 = independent queries). Clustered data share a cluster effect (intra-class correlation 0.5). */
  clusterSize: number
}

export type Method = 'percentile' | 'bca' | 't' | 'row percentile (ignores clusters)'

export interface CellResult {
  cell: Cell
  method: Method
  /** Share of simulations whose interval contains the true difference. */
  coverage: number
  /** Share of simulations where the non-inferiority check at the margin passed. */
  falsePass: number
  simulations: number
}

/** The margin of the simulated non-inferiority check; the true difference is −MARGIN. */
export const MARGIN = 0.02

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

/** Runs a cell: `simulations` evaluations, `resamples` bootstrap resamples each, every method on the same data. */
export function runCell(cell: Cell, simulations: number, resamples: number, seed = 'calibration', confidence = 0.95): CellResult[] {
  const clustered = cell.clusterSize > 1
  const truthValue = -MARGIN
  const methods: Method[] = clustered ? ['percentile', 'bca', 't', 'row percentile (ignores clusters)'] : ['percentile', 'bca', 't']
  const covered = new Map<Method, number>(methods.map((m) => [m, 0]))
  const passed = new Map<Method, number>(methods.map((m) => [m, 0]))
  const members = Int32Array.from({ length: cell.queries }, (_, i) => i)
  const base: StatisticsRules = {
    confidence,
    resamples,
    seed,
    interval: 'percentile',
    permutations: resamples,
    cluster: undefined,
    clusterWeighting: 'query',
    weights: undefined,
    multiplicity: 'none'
  }
  for (let s = 0; s < simulations; s++) {
    const { d, clusters } = simulate(cell, seed, s)
    const table = { attrs: new Map([['cluster', clusters]]) } as unknown as Parameters<typeof buildDesign>[0]
    const design = buildDesign(table, members, [d], clustered ? { ...base, cluster: 'cluster' } : base)
    const sorted = bootstrapDistribution(design, resamples, seed, `sim${s}`)[0]
    const intervals = new Map<Method, [number, number]>()
    intervals.set('percentile', percentileInterval(sorted, confidence))
    intervals.set('bca', bcaInterval(sorted, estimate(design, 0), acceleration(design, 0), confidence).ci)
    const t = tInterval(design, 0, confidence)
    intervals.set('t', t ? t.ci : [estimate(design, 0), estimate(design, 0)])
    if (clustered) {
      const row = buildDesign(table, members, [d], base)
      intervals.set('row percentile (ignores clusters)', percentileInterval(bootstrapDistribution(row, resamples, seed, `sim${s}`)[0], confidence))
    }
    for (const m of methods) {
      const [lo, hi] = intervals.get(m) as [number, number]
      if (lo <= truthValue && truthValue <= hi) covered.set(m, (covered.get(m) as number) + 1)
      // The rules' margin is MARGIN and the truth sits at −MARGIN: passing is a false pass.
      if (lo >= truthValue) passed.set(m, (passed.get(m) as number) + 1)
    }
  }
  return methods.map((method) => ({ cell, method, coverage: (covered.get(method) as number) / simulations, falsePass: (passed.get(method) as number) / simulations, simulations }))
}

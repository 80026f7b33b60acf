import type { MetricRule, StatisticsRules } from '../../src/config/types.js'
import { compareFrom } from '../../src/stats/comparison.js'
import type { Design } from '../../src/stats/design.js'
import { momentsOfDesign } from '../../src/stats/moments.js'
import type { Unreliable } from '../../src/stats/reliability.js'

/**
 * The gate's interval of a simulated design's differences (column 0), through the decision core itself
 * (src/stats/comparison.ts compareFrom, statistics.interval auto): what the study's designs of differences alone
 * measure. The sides' levels are not simulated (the differences are), so the baseline is taken as 0.
 */
export function gateInterval(
  design: Design,
  spec: { binary: boolean; range: [number, number] | undefined; gained?: number; lost?: number; confidence?: number }
): { ci: [number, number]; unreliable: Unreliable | null } {
  const metric: MetricRule = {
    name: 'm',
    better: 'higher',
    binary: spec.binary,
    range: spec.range,
    unit: '',
    fill: 0,
    ...(spec.range === undefined ? {} : { bounds: spec.range })
  }
  const statistics: StatisticsRules = {
    confidence: spec.confidence ?? 0.95,
    resamples: 1000,
    seed: 'calibration',
    interval: 'auto',
    permutations: 1000,
    cluster: design.clusters === null ? undefined : 'cluster',
    clusterWeighting: 'query',
    weights: undefined,
    multiplicity: 'none'
  }
  const difference = momentsOfDesign(design, 0)
  const zero = difference.map((s) => ({ ...s, sum: 0, m2: 0, m3: 0 }))
  const n = design.strata.reduce((a, s) => a + s.queries, 0)
  const c = compareFrom(
    { metric, slice: [], confidence: statistics.confidence, statistics },
    { n, clusters: design.clusters, strata: design.strata, notes: [] },
    {
      difference,
      baseline: zero,
      candidate: difference,
      counts: { wins: 0, losses: 0, gained: spec.gained ?? 0, lost: spec.lost ?? 0 },
      resampled: null,
      randomization: { pValue: 1, permutations: 0, exact: true }
    }
  )
  return { ci: c.ci, unreliable: c.unreliable }
}

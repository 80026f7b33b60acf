import type { Interval } from './bca.js'
import type { Design } from './design.js'
import type { DesignShape } from './interval-choice.js'
import { pairedScoreInterval } from './score-interval.js'
import { skewTFromMoments, skewTInterval, type StratumMoments } from './skew-t.js'
import { tiedBound } from './tied-bound.js'

/** Where a closed-form interval reads the spread: the design's units, or a warehouse's per-stratum moments. */
export type Spread = { design: Design; column: number } | { shape: DesignShape; moments: readonly StratumMoments[] }

/** What a closed-form interval of one column needs (src/stats/interval-choice.ts chose `method`). */
export type ClosedFormInput = Spread & {
  method: 'score' | 'skew-t'
  /** The design's estimate of the column (the mean difference). */
  estimate: number
  /** Binary metrics: queries newly right / newly wrong, of `n`. */
  gained: number
  lost: number
  n: number
  /** The metric's declared range, if any: it bounds equal differences (src/stats/tied-bound.ts). */
  range: readonly [number, number] | undefined
  /** True under target weights (strata): equal differences are then not bounded. */
  weighted: boolean
  confidence: number
}

/**
 * The interval statistics.interval auto gives one comparison, and its degrees of freedom when a t quantile made it
 * (null otherwise): Tango's score interval, Hall's skew-corrected t, or, when every difference is the same and the
 * metric has a range, the rule-of-three bound. One function for the engine (src/stats/compare.ts), the aggregates'
 * engine (src/stats/aggregate-engine.ts) and the calibration study (bench/calibration), so the study measures
 * exactly what the gate computes, from rows or from a warehouse.
 */
export function closedFormInterval(input: ClosedFormInput): { interval: Interval; df: number | null } {
  const { method, estimate, confidence } = input
  if (method === 'score')
    return {
      interval: { ci: pairedScoreInterval(input.gained, input.lost, input.n, confidence), method, note: null },
      df: null
    }
  const shape: DesignShape = 'design' in input ? input.design : input.shape
  const t =
    'design' in input
      ? skewTInterval(input.design, input.column, confidence)
      : skewTFromMoments(estimate, input.moments, confidence)
  if (t) return { interval: { ci: t.ci, method, note: null }, df: t.df }
  if (input.range !== undefined && !input.weighted && shape.units >= 2 && Number.isFinite(estimate)) {
    const ci = tiedBound(estimate, shape.units, input.range[1] - input.range[0], confidence)
    const unit = shape.clusters === null ? 'query' : 'cluster'
    return {
      interval: {
        ci,
        method: 'tied-bound',
        note: `every ${unit} has the same difference: the interval bounds what unseen ones could change, within the metric's range`
      },
      df: null
    }
  }
  // No spread and no range to bound it, or no degree of freedom: the estimate alone, which unreliableInterval refuses as evidence.
  return { interval: { ci: [estimate, estimate], method, note: null }, df: null }
}

import type { Interval } from './bca.js'
import type { Design } from './design.js'
import { pairedScoreInterval } from './score-interval.js'
import { skewTInterval } from './skew-t.js'
import { tiedBound } from './tied-bound.js'

/** What a closed-form interval of one column needs (src/stats/interval-choice.ts chose `method`). */
export interface ClosedFormInput {
  method: 'score' | 'skew-t'
  design: Design
  column: number
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
 * metric has a range, the rule-of-three bound. One function for the engine (src/stats/compare.ts) and the
 * calibration study (bench/calibration), so the study measures exactly what the gate computes.
 */
export function closedFormInterval(input: ClosedFormInput): { interval: Interval; df: number | null } {
  const { method, design, estimate, confidence } = input
  if (method === 'score') return { interval: { ci: pairedScoreInterval(input.gained, input.lost, input.n, confidence), method, note: null }, df: null }
  const t = skewTInterval(design, input.column, confidence)
  if (t) return { interval: { ci: t.ci, method, note: null }, df: t.df }
  if (input.range !== undefined && !input.weighted && design.units >= 2 && Number.isFinite(estimate)) {
    const ci = tiedBound(estimate, design.units, input.range[1] - input.range[0], confidence)
    const unit = design.clusters === null ? 'query' : 'cluster'
    return { interval: { ci, method: 'tied-bound', note: `every ${unit} has the same difference: the interval bounds what unseen ones could change, within the metric's range` }, df: null }
  }
  // No spread and no range to bound it, or no degree of freedom: the estimate alone, which unreliableInterval refuses as evidence.
  return { interval: { ci: [estimate, estimate], method, note: null }, df: null }
}

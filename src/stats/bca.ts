import { sortedResamples, type Resamples } from '../util/order-statistics.js'
import { quantileOfRanks } from '../util/quantile.js'
import { normalCdf, normalQuantile } from './special.js'
import type { IntervalMethod } from './interval.js'

/** An interval with, when it is not what was asked for, the reason in plain words. */
export interface Interval {
  ci: [number, number]
  method: IntervalMethod
  note: string | null
}

/** Resamples as given to the intervals: sorted ascending (Float64Array.prototype.sort), or a view that finds ranks itself. */
type Given = Float64Array | Resamples

const view = (given: Given): Resamples => (given instanceof Float64Array ? sortedResamples(given) : given)

const quantileOf = (resamples: Resamples, p: number): number => quantileOfRanks(resamples.size, resamples.at, p)

/** Percentile interval: the alpha/2 and 1 − alpha/2 quantiles (type 7, as numpy) of the resamples. */
export function percentileInterval(given: Given, confidence: number): [number, number] {
  const resamples = view(given)
  const alpha = 1 - confidence
  return [quantileOf(resamples, alpha / 2), quantileOf(resamples, 1 - alpha / 2)]
}

/**
 * Bias-corrected and accelerated bootstrap interval (Efron 1987), following scipy.stats.bootstrap exactly
 * given the same resamples: z0 = Φ⁻¹((#{θ* < θ̂} + #{θ* ≤ θ̂}) / 2B), ends at the quantiles
 * Φ(z0 + (z0 + z)/(1 − a(z0 + z))) for z = Φ⁻¹(alpha/2) and Φ⁻¹(1 − alpha/2).
 *
 * Where BCa is undefined it does not return NaN: every difference equal (no acceleration; the interval is
 * that single value), the estimate outside the resampled values (z0 infinite), or a correction that leaves
 * [0, 1] — then it returns the percentile interval with a note saying why. This is the usual fate of hit@k
 * comparisons where nearly every difference is 0.
 */
export function bcaInterval(given: Given, theta: number, accel: number, confidence: number): Interval {
  const resamples = view(given)
  const fallback = (note: string): Interval => ({
    ci: percentileInterval(resamples, confidence),
    method: 'percentile',
    note
  })
  const B = resamples.size
  if (B === 0 || !Number.isFinite(theta)) return fallback('no resamples')
  const first = resamples.at(0)
  const last = resamples.at(B - 1)
  if (first === last) {
    return {
      ci: [first, last],
      method: 'percentile',
      note: 'every resample gives the same value (the differences do not vary), so BCa is undefined: the interval is that single value'
    }
  }
  if (!Number.isFinite(accel))
    return fallback(
      'BCa acceleration is undefined (a stratum or cluster set without spread): percentile interval shown'
    )
  const share = (resamples.rank(theta, true) + resamples.rank(theta, false)) / (2 * B)
  const z0 = normalQuantile(share)
  if (!Number.isFinite(z0))
    return fallback(
      'the estimate lies outside every resample, so the BCa bias correction is infinite: percentile interval shown'
    )
  const alpha = 1 - confidence
  const za = normalQuantile(alpha / 2)
  const ends: number[] = []
  for (const z of [za, -za]) {
    const num = z0 + z
    const q = 1 - accel * num
    if (!(q > 0)) return fallback('the BCa correction is out of range (extreme skew): percentile interval shown')
    ends.push(normalCdf(z0 + num / q))
  }
  const [p1, p2] = ends
  const note =
    p1 * (B - 1) < 1 || p2 * (B - 1) > B - 2
      ? 'the BCa interval reaches the most extreme resamples; more resamples would make its ends more precise'
      : null
  return { ci: [quantileOf(resamples, p1), quantileOf(resamples, p2)], method: 'bca', note }
}

/**
 * Order statistics by selection (src/util/order-statistics.ts) against the sorted resamples they replace: the same value
 * at every rank, the same ranks, the same intervals, to the bit, whatever order the ranks are asked in and
 * whatever the values (ties, zeros of both signs, infinities, NaN).
 */
import { describe, expect, it } from '@jest/globals'
import { bcaInterval, percentileInterval } from '../../src/stats/bca.js'
import { selectableResamples, sortedResamples } from '../../src/util/order-statistics.js'
import { quantileOfRanks, quantileSorted } from '../../src/util/quantile.js'
import { mulberry32 } from './helpers.js'

const bits = (x: number): string => (Object.is(x, -0) ? '-0' : String(x))

/** Resample-like columns: continuous, a few dozen tied values (a binary metric over 7 queries), constant, with -0 (sorted first), with infinities, with NaN (sorted first). */
function columns(n: number, r: () => number): Record<string, Float64Array> {
  return {
    continuous: Float64Array.from({ length: n }, () => r() - 0.4),
    ties: Float64Array.from({ length: n }, () => Math.floor(r() * 15 - 7) / 7),
    constant: new Float64Array(n).fill(0.25),
    'signed zeros': Float64Array.from({ length: n }, () => (r() < 0.3 ? -0 : r() < 0.5 ? 0 : r() - 0.5)),
    infinities: Float64Array.from({ length: n }, () => (r() < 0.02 ? Infinity : r() < 0.02 ? -Infinity : r())),
    'nan and infinities': Float64Array.from({ length: n }, () =>
      r() < 0.01 ? Number.NaN : r() < 0.01 ? Infinity : r() < 0.01 ? -Infinity : r()
    )
  }
}

describe('selection gives the sorted values', () => {
  const r = mulberry32(7)
  for (const n of [1, 2, 5, 601, 10_000]) {
    for (const [name, column] of Object.entries(columns(n, r))) {
      it(`${name}, ${n} values: every rank asked in a random order, and the ranks of points`, () => {
        const sorted = column.slice().sort()
        const view = selectableResamples(column.slice())
        const ranks = Array.from({ length: Math.min(n, 300) }, () => Math.floor(r() * n))
        ranks.push(0, n - 1, Math.floor((n - 1) * 0.025), Math.floor((n - 1) * 0.025) + 1)
        for (const k of ranks) expect(bits(view.at(k))).toBe(bits(sorted[k]))
        const reference = sortedResamples(sorted)
        for (const x of [0, 0.25, -0.1, 0.3, sorted[Math.floor(n / 2)]].filter(Number.isFinite)) {
          for (const strict of [true, false]) expect(view.rank(x, strict)).toBe(reference.rank(x, strict))
        }
      })
    }
  }
  it('the first rank asked in a tail (one partition around two sampled thresholds), then the others', () => {
    const rr = mulberry32(13)
    for (const n of [1025, 1500, 10_000]) {
      for (const column of Object.values(columns(n, rr))) {
        for (const p of [0, 0.001, 0.025, 0.1, 0.9, 0.975, 1]) {
          const sorted = column.slice().sort()
          const view = selectableResamples(column.slice())
          const k = Math.floor((n - 1) * p)
          for (const j of [k, n - 1 - k, Math.min(n - 1, k + 1), 0, n - 1, Math.floor(n / 2), Math.floor(rr() * n)])
            expect(bits(view.at(j))).toBe(bits(sorted[j]))
        }
      }
    }
  })
  it('intervals (percentile and BCa, several confidences on one view) equal those of the sorted resamples', () => {
    const rr = mulberry32(11)
    for (const column of Object.values(columns(10_000, rr))) {
      const sorted = column.slice().sort()
      const view = selectableResamples(column.slice())
      for (const confidence of [0.95, 0.99, 0.8, 0.999, 0.95]) {
        expect(percentileInterval(view, confidence).map(bits)).toEqual(percentileInterval(sorted, confidence).map(bits))
        for (const [theta, accel] of [
          [0.1, 0.05],
          [0.25, -0.02],
          [-0.05, Number.NaN]
        ]) {
          const a = bcaInterval(view, theta, accel, confidence)
          const b = bcaInterval(sorted, theta, accel, confidence)
          expect({ ...a, ci: a.ci.map(bits) }).toEqual({ ...b, ci: b.ci.map(bits) })
        }
      }
    }
  })
  it('the type 7 quantile by rank is the quantile of the sorted values', () => {
    const sorted = Float64Array.from([-1, 0, 0.5, 2, 2, 7])
    for (const p of [0, 0.025, 0.3, 0.5, 0.975, 1, -1, Number.NaN])
      expect(bits(quantileOfRanks(sorted.length, (k) => sorted[k], p))).toBe(bits(quantileSorted(sorted, p)))
  })
})

describe('selection is bounded whatever the order of the values', () => {
  // The zero-hit table selects quantiles of metric values in query order, which the candidate controls: after
  // a budget of steps per value the view sorts instead, so no order makes it quadratic, and the values are the same.
  const QUANTILES = [0, 0.1, 0.25, 0.5, 0.75, 0.9, 1]
  const n = 200_000
  const r = mulberry32(11)
  const orders: Record<string, Float64Array> = {
    ascending: Float64Array.from({ length: n }, (_, i) => i / n),
    descending: Float64Array.from({ length: n }, (_, i) => 1 - i / n),
    'organ pipe': Float64Array.from({ length: n }, (_, i) => Math.min(i, n - 1 - i)),
    sawtooth: Float64Array.from({ length: n }, (_, i) => i % 1000),
    'two values': Float64Array.from({ length: n }, (_, i) => (i % 2 === 0 ? 0.25 : 0.75)),
    random: Float64Array.from({ length: n }, () => r())
  }
  for (const [name, values] of Object.entries(orders)) {
    const sorted = Float64Array.from(values).sort()
    const want = QUANTILES.map((p) => quantileSorted(sorted, p))
    for (const stepsPerValue of [32, 1, 0]) {
      it(`${name}, ${stepsPerValue} steps per value${stepsPerValue < 32 ? ' (runs out, sorts)' : ''}: the quantiles a sort gives`, () => {
        const array = Float64Array.from(values)
        const view = selectableResamples(array, stepsPerValue)
        expect(QUANTILES.map((p) => quantileOfRanks(view.size, view.at, p)).map(bits)).toEqual(want.map(bits))
        // Without steps to spend the view fell back to sorting the array (the path an adversarial order takes).
        if (stepsPerValue === 0) expect(array.every((v, i) => i === 0 || array[i - 1] <= v)).toBe(true)
      })
    }
  }
})

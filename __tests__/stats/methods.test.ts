/**
 * Interval and test methods against reference values. Provenance: __tests__/stats/reference.py (scipy
 * 1.17.1, numpy 2.4.6) printed every number below; hand calculations are written out where used.
 */
import { describe, expect, it } from '@jest/globals'
import { bcaInterval, percentileInterval } from '../../src/stats/bca.js'
import { acceleration as fromMoments, momentsOfDesign, summarise } from '../../src/stats/moments.js'
import type { Design } from '../../src/stats/design.js'
import { tTest } from '../../src/stats/interval.js'

/** BCa's acceleration of a design's column, from its moments (src/stats/moments.ts). */
const acceleration = (design: Design, c: number): number => fromMoments(momentsOfDesign(design, c))
/** A design column's summary from its moments, and the paired t cross-check a comparison reports from it. */
const summaryOf = (design: Design, c: number) => summarise(momentsOfDesign(design, c))
const tInterval = (design: Design, c: number, confidence: number) => tTest(summaryOf(design, c), confidence)
import { estimate } from '../../src/stats/design.js'
import { adjustPValues, familyConfidence } from '../../src/stats/multiplicity.js'
import { minimumDetectable, queriesToSettle } from '../../src/stats/power.js'
import { bootstrapDistribution, designOf, signFlipTest } from './helpers.js'

const close = (actual: number, expected: number, tol: number): void => {
  expect(Math.abs(actual - expected)).toBeLessThanOrEqual(tol)
}

const BASE = [
  0.61, 0.42, 0.88, 0.35, 0.5, 0.73, 0.2, 0.66, 0.91, 0.47, 0.38, 0.55, 0.7, 0.29, 0.83, 0.64, 0.52, 0.44, 0.79, 0.31,
  0.58, 0.69, 0.4, 0.75, 0.62
]
const CAND = [
  0.65, 0.4, 0.9, 0.41, 0.52, 0.7, 0.28, 0.69, 0.93, 0.5, 0.36, 0.61, 0.74, 0.3, 0.8, 0.7, 0.55, 0.47, 0.81, 0.37, 0.57,
  0.75, 0.46, 0.78, 0.6
]
const DIFF = CAND.map((c, i) => c - BASE[i])

describe('paired t interval (cross-check)', () => {
  it('equals scipy.stats.ttest_rel(cand, base) and scipy.stats.t.interval(conf, 24, loc=mean, scale=sem)', () => {
    const design = designOf([DIFF])
    const t95 = tInterval(design, 0, 0.95)
    const t99 = tInterval(design, 0, 0.99)
    expect(t95).not.toBeNull()
    close(t95!.pValue, 0.0006229696480926616, 1e-15) // ttest_rel(...).pvalue
    expect(t95!.df).toBe(24)
    close(estimate(design, 0) / t95!.se, 3.9336604086431155, 1e-12) // ttest_rel(...).statistic
    close(t95!.ci[0], 0.011978156131945633, 1e-14)
    close(t95!.ci[1], 0.038421843868054376, 1e-14)
    close(t99!.ci[0], 0.007282114824795263, 1e-14)
    close(t99!.ci[1], 0.04311788517520475, 1e-14)
  })
  it('is null, not NaN, when every difference is equal', () => {
    expect(tInterval(designOf([[0, 0, 0, 0]]), 0, 0.95)).toBeNull()
  })
})

describe('BCa interval', () => {
  // scipy's own _bca_interval fed the SAME bootstrap distribution (theta* = sums / 15), so the comparison is exact.
  const X = [0.0, 0.0, 0.0, 1.0, 0.0, 2.0, 0.0, 0.0, 5.0, 1.0, 0.0, 0.0, 3.0, 0.0, 1.0]
  const SUMS = [
    14, 14, 9, 6, 21, 22, 20, 1, 8, 16, 11, 12, 11, 9, 11, 12, 13, 11, 16, 14, 21, 7, 4, 12, 17, 22, 11, 10, 14, 10, 7,
    16, 8, 8, 9, 21, 15, 11, 28, 10, 25, 23, 19, 16, 13, 12, 18, 21, 7, 10, 12, 9, 11, 13, 11, 17, 10, 11, 18, 9, 13,
    25, 9, 11, 20, 13, 10, 16, 16, 18, 16, 17, 16, 13, 16, 6, 12, 17, 10, 11, 19, 24, 10, 9, 11, 20, 11, 14, 14, 7, 10,
    2, 4, 27, 12, 6, 15, 5, 9, 16, 16, 8, 15, 13, 13, 14, 19, 10, 6, 9, 14, 14, 9, 23, 6, 17, 11, 12, 10, 18, 17, 9, 9,
    15, 19, 13, 17, 3, 15, 10, 9, 12, 12, 21, 14, 9, 5, 13, 16, 13, 16, 11, 16, 19, 5, 13, 9, 13, 15, 15, 3, 10, 21, 6,
    15, 5, 15, 11, 20, 16, 8, 2, 8, 27, 10, 10, 14, 9, 3, 10, 18, 14, 17, 16, 10, 9, 10, 3, 7, 11, 16, 9, 8, 22, 8, 21,
    12, 7, 19, 13, 12, 10, 12, 6, 12, 17, 14, 15, 10, 5, 14, 8, 20, 11, 8, 18, 17, 6, 14, 4, 6, 18, 21, 21, 9, 15, 8,
    15, 13, 21, 9, 9, 11, 13, 9, 13, 13, 7, 19, 17, 17, 14, 4, 11, 12, 12, 14, 10, 11, 11, 16, 5, 20, 14, 24, 5, 14, 4,
    9, 13, 18, 13, 6, 19, 19, 20, 10, 18, 13, 5, 7, 13, 16, 13, 9, 14, 14, 19, 13, 18, 12, 7, 11, 20, 3, 21, 10, 11, 12,
    10, 10, 23, 11, 6, 9, 7, 4, 12, 15, 9, 8, 19, 10, 20, 16, 10, 15, 7, 14, 7, 9, 22, 11, 9, 14, 7, 9, 16, 14, 15, 14,
    12, 3, 17, 14, 8, 20, 8, 8, 14, 21, 8, 12, 9, 14, 14, 29, 6, 11, 23, 9, 7, 7, 8, 14, 14, 17, 17, 22, 15, 32, 11, 10,
    8, 10, 13, 8, 9, 16, 17, 8, 11, 18, 16, 7, 9, 11, 16, 16, 20, 10, 12, 16, 7, 18, 8, 8, 10, 18, 17, 10, 12, 10, 14,
    17, 17, 18, 15, 13, 9, 10, 16, 12, 18, 16, 3, 7, 11, 11, 26, 14, 19, 11, 15, 11, 12, 16, 18, 18, 9
  ]
  it('acceleration equals scipy (jackknife over the queries)', () => {
    close(acceleration(designOf([X]), 0), 0.07805314283806142, 1e-15)
  })
  it('ends equal scipy given the same resamples', () => {
    const sorted = Float64Array.from(SUMS.map((s) => s / 15)).sort()
    const design = designOf([X])
    const r = bcaInterval(sorted, estimate(design, 0), acceleration(design, 0), 0.95)
    expect(r.method).toBe('bca')
    close(r.ci[0], 0.4, 1e-12) // quantile at alpha_1 = 0.06522855760178299
    close(r.ci[1], 1.8651069327904453, 1e-12) // quantile at alpha_2 = 0.9949288320597912
  })
  it('is close to scipy.stats.bootstrap(method="BCa", n_resamples=20000) end to end', () => {
    // Both sides draw their own 20,000 resamples, so the ends differ by Monte Carlo error only: about 0.004 for
    // this sample (interval width 0.29); the tolerance is 0.015 (5% of the width).
    const Y = [
      -0.0925, 0.2252, -0.2315, 0.0951, -0.5935, 2.5836, -0.7902, 2.0092, -0.2247, -0.4995, -0.2589, -0.4879, 0.0998,
      0.2737, 1.0843, -0.5779, 2.3447, -0.0641, -0.4516, 0.0836, -0.7249, -0.74, 0.4236, -0.0271, 1.396, -0.3248,
      -0.2787, 0.3808, -0.2735, -0.7778, -0.5067, 0.2143, -0.1653, 0.5966, -0.7917, 0.1038, -0.5497, -0.4444, 2.2749,
      0.6044, 2.9954, 0.9481, 1.443, -0.6551, -0.4974, -0.5612, 0.3482, 0.4233, -0.6728, -0.4161, 0.2679, -0.7313,
      -0.7018, 0.0714, 1.074, 1.8964, -0.0939, 0.5061, -0.0365, 0.1371, -0.6552, 1.695, 0.0843, 0.0752, -0.7736, 0.285,
      0.2619, 0.2642, -0.2312, 0.5636, 0.7737, -0.15, -0.4489, 0.8999, -0.1274, -0.0492, -0.6886, -0.5549, 1.2475,
      -0.0721, -0.7752, 0.5267, -0.3084, 2.1519, 0.0426, 0.1766, -0.366, -0.7806, 4.5836, -0.3307, 1.2697, -0.6528,
      1.9417, -0.7856, 0.0584, -0.7082, -0.6141, 0.7914, 1.8496, -0.1216, 0.6547, 0.2827, -0.3232, 1.4309, 1.0384,
      -0.4586, -0.075, 0.3484, 0.3478, -0.7174, 4.4891, -0.7956, 0.6051, 0.484, -0.5154, -0.1211, -0.4275, -0.7837,
      0.0072, 0.3994, 0.3487, 3.6597, -0.6315, -0.6093, -0.2159, -0.5872, -0.2476, 1.9929, 0.5422, -0.2016, -0.052,
      5.0495, -0.2535, 0.3308, 1.0812, 0.4478, 0.4116, 0.8511, -0.5506, -0.1944, 0.57, -0.1227, 1.4094, -0.6895,
      -0.2524, -0.4544, 0.2763, -0.3213, 2.8112, 0.099, 1.878, 0.893, 0.3522, 0.414, -0.207, -0.4761, -0.5373, -0.6862,
      1.5118, -0.1656, -0.4977, 0.5225, -0.2524, 0.1206, 1.6621, -0.5718, 0.0823, -0.7009, -0.3893, -0.1694, -0.5262,
      -0.7882, -0.4577, 0.9492, 0.4915, -0.2488, -0.5903, 1.4034, 0.5599, 3.1322, -0.3309, 1.3759, -0.7467, -0.7574,
      -0.7727, -0.7462, -0.3561, -0.7391, 0.7495, -0.768, -0.3026, -0.5886, 0.0409, -0.7718, -0.2495, 2.0886, 0.3206,
      -0.4292, 0.7995, -0.0955
    ]
    const design = designOf([Y])
    const sorted = bootstrapDistribution(design, { resamples: 20000, seed: '1', stream: 'all' })[0]
    const r = bcaInterval(sorted, estimate(design, 0), acceleration(design, 0), 0.95)
    expect(r.method).toBe('bca')
    close(r.ci[0], 0.09984959016600975, 0.015)
    close(r.ci[1], 0.386533480944362, 0.015)
    // And BCa moves the interval to the right of the percentile one for a right-skewed mean (a > 0).
    const p = percentileInterval(sorted, 0.95)
    expect(r.ci[0]).toBeGreaterThan(p[0])
  })
  it('says so instead of returning NaN when every difference is 0 (hit@k without change)', () => {
    const design = designOf([new Array(200).fill(0)])
    const sorted = bootstrapDistribution(design, { resamples: 1000, seed: '1', stream: 'all' })[0]
    const r = bcaInterval(sorted, 0, acceleration(design, 0), 0.95)
    expect(r.ci).toEqual([0, 0])
    expect(r.method).toBe('percentile')
    expect(r.note).toMatch(/BCa is undefined/)
  })
  it('stays finite when nearly every difference is 0', () => {
    const d = new Array(300).fill(0)
    d[5] = 1
    d[77] = -1
    d[150] = 1
    const design = designOf([d])
    const sorted = bootstrapDistribution(design, { resamples: 2000, seed: '1', stream: 'all' })[0]
    const r = bcaInterval(sorted, estimate(design, 0), acceleration(design, 0), 0.95)
    expect(r.ci.every(Number.isFinite)).toBe(true)
    expect(r.ci[0]).toBeLessThanOrEqual(r.ci[1])
  })
  it('falls back with a note when the estimate lies outside every resample', () => {
    const sorted = Float64Array.from([1, 2, 3, 4])
    const r = bcaInterval(sorted, 10, 0.1, 0.95)
    expect(r.method).toBe('percentile')
    expect(r.note).toMatch(/outside every resample/)
    expect(r.ci.every(Number.isFinite)).toBe(true)
  })
})

describe('paired randomization (sign-flip) test', () => {
  // Exact p: numpy enumeration of all 2^n sign patterns (itertools.product), in reference.py.
  it('enumerates every sign pattern when there are few, matching the exact p', () => {
    const r12 = signFlipTest(designOf([[0.3, -0.1, 0.25, 0.05, 0.4, -0.2, 0.15, 0.1, 0.0, 0.35, -0.05, 0.2]]), {
      permutations: 10000,
      seed: '1',
      stream: 's'
    })
    expect(r12.exact).toBe(true)
    expect(r12.permutations).toBe(4096)
    expect(r12.pValues[0]).toBe(0.0595703125)
    const r16 = signFlipTest(designOf([[1, 0, 0, 1, -1, 1, 0, 1, 1, 0, -1, 1, 0, 1, 1, 0]]), {
      permutations: 70000,
      seed: '1',
      stream: 's'
    })
    expect(r16.exact).toBe(true)
    expect(r16.pValues[0]).toBe(0.109375)
  })
  const F20 = [
    0.762, -0.617, 0.275, -0.02, 0.014, 0.085, -0.456, 0.08, -0.11, 1.147, 0.218, 0.044, 0.066, -0.05, -0.167, 0.033,
    0.295, 0.078, 0.437, 0.09
  ]
  it('enumerates 2^20 patterns exactly when permutations allow', () => {
    expect(signFlipTest(designOf([F20]), { permutations: 2 ** 20, seed: '1', stream: 's' }).pValues[0]).toBe(
      0.21798133850097656
    )
  })
  it('samples patterns otherwise, within Monte Carlo error of the exact p, reproducibly', () => {
    const r = signFlipTest(designOf([F20, F20.map((x) => -x)]), { permutations: 20000, seed: '1', stream: 's' })
    expect(r.exact).toBe(false)
    // 4 standard errors of a proportion at p = 0.218 over 20,000 draws: 4 * sqrt(0.218 * 0.782 / 20000) = 0.0117.
    close(r.pValues[0], 0.21798133850097656, 0.0117)
    // |T| is symmetric: a column of negated differences gets the same p from the same signs.
    expect(r.pValues[1]).toBe(r.pValues[0])
    expect(signFlipTest(designOf([F20]), { permutations: 20000, seed: '1', stream: 's' }).pValues[0]).toBe(r.pValues[0])
  })
  it('flips clusters whole', () => {
    // Two clusters of 10 identical queries each: only 4 sign patterns, so p is exact in quarters.
    const d = [...new Array(10).fill(0.5), ...new Array(10).fill(0.2)]
    const users = [...new Array(10).fill('a'), ...new Array(10).fill('b')]
    const r = signFlipTest(designOf([d], { user: users }, { cluster: 'user' }), {
      permutations: 1000,
      seed: '1',
      stream: 's'
    })
    expect(r.exact).toBe(true)
    expect(r.permutations).toBe(4)
    expect(r.pValues[0]).toBe(0.5) // |±5 ± 2| >= 7 only for ++ and --
  })
})

describe('multiplicity', () => {
  // Hand calculation, m = 5: sorted p 0.005, 0.01, 0.03, 0.04, 0.2 times 5, 4, 3, 2, 1 = 0.025, 0.04, 0.09,
  // 0.08 -> 0.09 (running max), 0.2. Bonferroni: 5p capped at 1.
  const P = [0.01, 0.04, 0.03, 0.005, 0.2]
  it('Holm step-down', () => {
    const h = adjustPValues(P, 'holm')
    ;[0.04, 0.09, 0.09, 0.025, 0.2].forEach((e, i) => close(h[i], e, 1e-15))
  })
  it('Holm with a p-value that is not a number: it stays NaN and does not poison the others', () => {
    // Hand calculation with m = 3: sorted finite p 0.01, 0.04 -> 3*0.01 = 0.03, max(0.03, 2*0.04) = 0.08; NaN last.
    const h = adjustPValues([0.04, Number.NaN, 0.01], 'holm')
    close(h[0], 0.08, 1e-15)
    expect(h[1]).toBeNaN()
    close(h[2], 0.03, 1e-15)
  })
  it('Bonferroni', () => {
    const b = adjustPValues(P, 'bonferroni')
    ;[0.05, 0.2, 0.15, 0.025, 1].forEach((e, i) => close(b[i], e, 1e-15))
    expect(adjustPValues(P, 'none')).toEqual(P)
  })
  it('interval confidence 1 - alpha/m for both adjustments', () => {
    close(familyConfidence(0.95, 4, 'holm'), 0.9875, 1e-15)
    close(familyConfidence(0.95, 4, 'bonferroni'), 0.9875, 1e-15)
    expect(familyConfidence(0.95, 4, 'none')).toBe(0.95)
    expect(familyConfidence(0.95, 1, 'holm')).toBe(0.95)
  })
})

describe('power', () => {
  it('minimum detectable effect = (t_0.975 + t_0.8) * se with the design df (z only in the limit)', () => {
    // scipy.stats.t.ppf(0.975, 29) + scipy.stats.t.ppf(0.8, 29) = 2.045229642132703 + 0.8541919839474874, times 0.01
    close(minimumDetectable(0.01, 0.95, 29), 0.028994216260801908, 1e-10)
    // df = Infinity: (1.959963984540054 + 0.8416212335729143) * 0.01 = 0.028015852181129683 (scipy.special.ndtri values)
    // eslint-disable-next-line no-loss-of-precision -- the reference is written as Python printed it
    close(minimumDetectable(0.01, 0.95, Infinity), 0.028015852181129683, 1e-15)
    expect(minimumDetectable(0.01, 0.95, 0)).toBeNaN()
    // No spread (every difference equal): nothing to say what the sample could detect, never "about 0.0 points".
    expect(minimumDetectable(0, 0.95, 49)).toBeNaN()
  })
  it('queries to settle: the smallest n with (t_0.975 + t_0.8)(df(n)) * se * sqrt(n0 / n) <= distance, df growing with the units', () => {
    // Reference: python, scipy.stats.t.ppf, counting n' up from n0 until the inequality holds (df(n') = df0 + units * (n'/n0 - 1)):
    // n0 = 400, se 0.01, distance 0.014 -> 1204 more; n0 = 30, se 0.02, distance 0.03 -> 77; 20 clusters of 10 (n0 200) -> 518.
    expect(queriesToSettle({ n: 400, se: 0.01, df: 399, units: 400, distance: 0.014, confidence: 0.95 })).toBe(1204)
    expect(queriesToSettle({ n: 30, se: 0.02, df: 29, units: 30, distance: 0.03, confidence: 0.95 })).toBe(77)
    expect(queriesToSettle({ n: 200, se: 0.02, df: 19, units: 20, distance: 0.03, confidence: 0.95 })).toBe(518)
    expect(queriesToSettle({ n: 400, se: 0.01, df: 399, units: 400, distance: 0, confidence: 0.95 })).toBeNull()
    expect(queriesToSettle({ n: 400, se: 0.01, df: 399, units: 400, distance: 1, confidence: 0.95 })).toBe(0)
  })
  it('the standard error is sd / sqrt(n) for plain queries and cluster-robust for clusters', () => {
    const design = designOf([DIFF])
    const m = DIFF.reduce((a, b) => a + b, 0) / DIFF.length
    const sd = Math.sqrt(DIFF.reduce((a, b) => a + (b - m) ** 2, 0) / (DIFF.length - 1))
    close(summaryOf(design, 0).se, sd / 5, 1e-15)
    // 4 clusters of 5 identical queries: the cluster-robust se is that of the 4 cluster means (n = 4).
    const vals = [0.1, 0.3, -0.2, 0.4]
    const d = vals.flatMap((v) => new Array(5).fill(v))
    const users = vals.flatMap((_, i) => new Array(5).fill(`u${i}`))
    const mm = vals.reduce((a, b) => a + b, 0) / 4
    const sd4 = Math.sqrt(vals.reduce((a, b) => a + (b - mm) ** 2, 0) / 3)
    close(summaryOf(designOf([d], { user: users }, { cluster: 'user' }), 0).se, sd4 / 2, 1e-15)
  })
})

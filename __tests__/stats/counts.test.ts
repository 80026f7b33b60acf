/**
 * Resampling by counts (src/stats/bootstrap.ts, the multinomial kernel of src/stats/kernels.ts): the binomial
 * sampler follows the exact binomial law, a column with few distinct values is drawn by counts with the law
 * of the bootstrap (mean and variance of the resampled mean as computed by hand below), and a design with one
 * unit per stratum costs one value per column however many resamples are asked for.
 */
import { describe, expect, it } from '@jest/globals'
import { bootstrapPlan, COUNTS_PER_GROUP } from '../../src/stats/bootstrap.js'
import { statsKernels } from '../../src/stats/kernels.js'
import { estimate, type Design } from '../../src/stats/design.js'
import { blockState } from '../../src/stats/rng.js'
import { createRunner, SYNC_RUNNER } from '../../src/stats/threads.js'
import { bootstrapDistribution, designOf } from './helpers.js'

/** log(m!): exact sum below 20, else Stirling's series m log m − m + ½ log 2πm + 1/12m − 1/360m³ + 1/1260m⁵ (error below 1e-12). */
function logFactorial(m: number): number {
  if (m < 20) {
    let s = 0
    for (let i = 2; i <= m; i++) s += Math.log(i)
    return s
  }
  return m * Math.log(m) - m + 0.5 * Math.log(2 * Math.PI * m) + 1 / (12 * m) - 1 / (360 * m ** 3) + 1 / (1260 * m ** 5)
}

/** log C(n, k) p^k q^(n−k): the binomial law, by hand. */
function logPmf(n: number, p: number, k: number): number {
  return logFactorial(n) - logFactorial(k) - logFactorial(n - k) + k * Math.log(p) + (n - k) * Math.log1p(-p)
}

describe('binomial sampler', () => {
  const kernels = statsKernels()
  // Inversion (n·p < 10), BTRD (n·p >= 10), and p > 0.5 by symmetry; the last two are the sizes of a million-query column.
  const cases: Array<[number, number]> = [
    [5, 0.3],
    [40, 0.2],
    [100, 0.3],
    [1000, 0.5],
    [3000, 0.9],
    [1_000_000, 0.001],
    [1_000_000, 0.7]
  ]
  for (const [n, p] of cases) {
    it(`binomial(${n}, ${p}): mean, variance and a chi-square test against the exact law`, () => {
      const draws = 50_000
      const x = kernels.binomials(blockState('7', `binomial ${n} ${p}`, 0), n, p, draws)
      let mean = 0
      for (const v of x) mean += v
      mean /= draws
      let m2 = 0
      for (const v of x) m2 += (v - mean) ** 2
      const variance = m2 / (draws - 1)
      const mu = n * p
      const sigma2 = n * p * (1 - p)
      // 5 standard errors: the seed is fixed, so this is deterministic; a biased sampler misses by far more.
      expect(Math.abs(mean - mu)).toBeLessThan(5 * Math.sqrt(sigma2 / draws))
      expect(Math.abs(variance / sigma2 - 1)).toBeLessThan(5 * Math.sqrt(2 / draws))
      expect(x.every((v) => Number.isInteger(v) && v >= 0 && v <= n)).toBe(true)
      // Chi-square over the values whose expected count is at least 5 (the rest pooled as one cell).
      const counts = new Map<number, number>()
      for (const v of x) counts.set(v, (counts.get(v) ?? 0) + 1)
      const lo = Math.max(0, Math.floor(mu - 8 * Math.sqrt(sigma2)) - 2)
      const hi = Math.min(n, Math.ceil(mu + 8 * Math.sqrt(sigma2)) + 2)
      let chi2 = 0
      let df = 0
      let restExpected = draws
      let restObserved = draws
      for (let k = lo; k <= hi; k++) {
        const e = draws * Math.exp(logPmf(n, p, k))
        if (e < 5) continue
        const o = counts.get(k) ?? 0
        chi2 += (o - e) ** 2 / e
        df++
        restExpected -= e
        restObserved -= o
      }
      if (restExpected >= 5) {
        chi2 += (restObserved - restExpected) ** 2 / restExpected
        df++
      }
      df -= 1
      // Upper 0.1% point of chi-square(df) by Wilson-Hilferty: df (1 − 2/(9df) + 3.09 sqrt(2/(9df)))^3.
      const limit = df * (1 - 2 / (9 * df) + 3.09 * Math.sqrt(2 / (9 * df))) ** 3
      expect(chi2).toBeLessThan(limit)
    })
  }
})

describe('bootstrap by counts', () => {
  // 1,000 paired binary differences: 150 of +1, 100 of −1, 750 of 0.
  const binary = Array.from({ length: 1000 }, (_, i) => (i < 150 ? 1 : i < 250 ? -1 : 0))
  const continuous = Array.from({ length: 1000 }, (_, i) => Math.sin(i * 12.9898) * 0.3)

  it('draws a few-valued column by counts and a many-valued one by index, in one plan', () => {
    const design = designOf([binary, continuous])
    const kinds = bootstrapPlan(design, { resamples: 2000, seed: '1', stream: 'all' }).jobs.map((j) => j.kind)
    expect(kinds.sort()).toEqual(['bootstrap', 'multinomial'])
    expect(3 * COUNTS_PER_GROUP).toBeLessThanOrEqual(1000)
  })

  it('has the bootstrap law: mean and variance of the resampled mean as computed by hand', () => {
    // By hand: mean = (150 − 100) / 1000 = 0.05; plug-in variance of one draw = E[d²] − mean² = 0.25 − 0.0025
    // = 0.2475; the mean of 1,000 draws has variance 0.2475 / 1000 = 2.475e-4.
    const resamples = 20_000
    const [sorted] = bootstrapDistribution(designOf([binary]), { resamples, seed: '3', stream: 'all' })
    let mean = 0
    for (const v of sorted) mean += v
    mean /= resamples
    let m2 = 0
    for (const v of sorted) m2 += (v - mean) ** 2
    const variance = m2 / (resamples - 1)
    expect(Math.abs(mean - 0.05)).toBeLessThan(5 * Math.sqrt(2.475e-4 / resamples))
    expect(Math.abs(variance / 2.475e-4 - 1)).toBeLessThan(5 * Math.sqrt(2 / resamples))
    // Every resample is a mean of 1,000 values in {−1, 0, 1}: a multiple of 1/1000.
    expect(sorted.every((v) => Math.abs(v * 1000 - Math.round(v * 1000)) < 1e-9)).toBe(true)
  })

  it('keeps strata and query-weighted clusters: drawn by counts, the same bits on worker threads, centred on the estimate', () => {
    // 2,000 queries in 1,000 users of two, two segments: per stratum at most 5 distinct (sum, 2) groups, so by counts.
    const d = Array.from({ length: 2000 }, (_, i) => (i % 7 === 0 ? 1 : i % 11 === 0 ? -1 : 0))
    const seg = d.map((_, i) => (i % 4 < 2 ? 'new' : 'old'))
    const user = d.map((_, i) => `u${i >> 1}`)
    const design = designOf(
      [d],
      { seg, user },
      {
        cluster: 'user',
        weights: {
          by: 'seg',
          target: [
            ['new', 0.3],
            ['old', 0.7]
          ]
        }
      }
    )
    expect(design.counts).not.toBeNull()
    expect(bootstrapPlan(design, { resamples: 3000, seed: '3', stream: 'all' }).jobs.map((j) => j.kind)).toEqual([
      'multinomial'
    ])
    const [sorted] = bootstrapDistribution(design, { resamples: 3000, seed: '3', stream: 'all' })
    const threaded = bootstrapDistribution(
      design,
      { resamples: 3000, seed: '3', stream: 'all' },
      createRunner(2, { minWork: 0 })
    )[0]
    expect(Array.from(threaded)).toEqual(Array.from(sorted))
    let mean = 0
    for (const v of sorted) mean += v
    mean /= sorted.length
    // The bootstrap mean of a weighted ratio is within a few standard errors of the estimate (spread: the resamples' own).
    const sd = Math.sqrt(sorted.reduce((a, v) => a + (v - mean) ** 2, 0) / (sorted.length - 1))
    expect(Math.abs(mean - estimate(design, 0))).toBeLessThan(5 * (sd / Math.sqrt(sorted.length)) + 0.1 * sd)
  })

  it('one unit per stratum: no drawing, one value per column, whatever the resamples', () => {
    const design = designOf([[0.25], [-1]])
    const plan = bootstrapPlan(design, { resamples: 100_000_000, seed: '1', stream: 'all' })
    expect(plan.jobs).toEqual([])
    const sorted = plan.finish()
    expect(sorted.map((s) => Array.from(s))).toEqual([[0.25], [-1]])
  })
})

describe('values a few ulps apart are drawn as one', () => {
  it('64 doubles within 64 ulps of 0.3 (as subtraction on a decimal grid makes them) go by counts, each resample within 2^-46·0.3 of 0.3', () => {
    // Before the merge these were 64 distinct values (64 · 32 > 1000 units): drawn by index.
    const column = Array.from({ length: 1000 }, (_, i) => 0.3 + (i % 64) * 2 ** -54)
    expect(new Set(column).size).toBe(64)
    const design = designOf([column])
    expect(bootstrapPlan(design, { resamples: 100, seed: '3', stream: 'all' }).jobs.map((j) => j.kind)).toEqual([
      'multinomial'
    ])
    const [sorted] = bootstrapDistribution(design, { resamples: 100, seed: '3', stream: 'all' })
    for (const v of sorted) expect(Math.abs(v - 0.3)).toBeLessThanOrEqual(0.3 * 2 ** -46)
  })
})

describe('by counts, the resamples are a function of the histogram of each column', () => {
  // docs/scale.md ("ship the histogram, not the rows"): a column drawn by counts is grouped from its sorted
  // values, so which query holds which value cannot change a single resample. A warehouse can therefore send
  // (value, count) per stratum instead of its rows and get the same intervals to the bit.
  const n = 3000
  const grid = Array.from({ length: n }, (_, i) => [-1, 0, 0, 0, 1, 0.25, -0.5][i % 7])
  /** Resamples in draw order (not sorted: a sort could hide a difference of order). */
  const drawn = (design: Design): Float64Array => {
    const plan = bootstrapPlan(design, { resamples: 500, seed: '5', stream: 'all' })
    SYNC_RUNNER.run(plan.jobs)
    return Float64Array.from(plan.finish()[0])
  }
  const shuffled = (xs: number[], seed: number): number[] => {
    const out = [...xs]
    let s = seed
    for (let i = out.length - 1; i > 0; i--) {
      s = (Math.imul(s, 1103515245) + 12345) >>> 0
      const j = s % (i + 1)
      ;[out[i], out[j]] = [out[j], out[i]]
    }
    return out
  }

  it('the same values in another order give the same resamples, bit for bit', () => {
    const design = designOf([grid])
    expect(bootstrapPlan(design, { resamples: 500, seed: '5', stream: 'all' }).jobs.map((j) => j.kind)).toEqual([
      'multinomial'
    ])
    const a = drawn(design)
    const b = drawn(designOf([shuffled(grid, 9)]))
    expect(Buffer.from(b.buffer).equals(Buffer.from(a.buffer))).toBe(true)
  })

  it('a column drawn by index does depend on the order (the property is the counts path’s, not every column’s)', () => {
    const continuous = Array.from({ length: n }, (_, i) => Math.sin(i) / 3)
    const design = designOf([continuous])
    expect(bootstrapPlan(design, { resamples: 500, seed: '5', stream: 'all' }).jobs.map((j) => j.kind)).toEqual([
      'bootstrap'
    ])
    const a = drawn(design)
    const b = drawn(designOf([shuffled(continuous, 9)]))
    expect(Buffer.from(b.buffer).equals(Buffer.from(a.buffer))).toBe(false)
  })
})

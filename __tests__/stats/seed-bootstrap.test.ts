/**
 * The two-level (seeds, then queries) bootstrap of seed replicates against a hand calculation on a tiny case,
 * and against an exact enumeration of every equally likely resample.
 */
import { describe, expect, it } from '@jest/globals'
import { seedInterval } from '../../src/capabilities/seeds/interval.js'
import { seedBootstrap, seedSpread, type SeedColumns } from '../../src/stats/seed-bootstrap.js'

const f = (xs: number[]): Float64Array => Float64Array.from(xs)

/**
 * 2 seeds x 3 queries per side:
 *   baseline seed 1 = [0, 1, 1], seed 2 = [1, 1, 0]   -> per-query seed means [1/2, 1, 1/2]
 *   candidate seed 1 = [1, 1, 1], seed 2 = [0, 1, 1]  -> per-query seed means [1/2, 1, 1]
 */
const TINY: SeedColumns = { base: [f([0, 1, 1]), f([1, 1, 0])], cand: [f([1, 1, 1]), f([0, 1, 1])] }

/*
 * Hand calculation of the bootstrap distribution's mean and variance, written out here and checked by the exact
 * enumeration below (and in Python with fractions.Fraction over itertools.product of the 4 x 4 x 27 = 432 cases).
 *
 * A resample draws each side's 2 seeds with replacement: (1,1), (1,2), (2,1), (2,2), each 1/4, giving the side's
 * per-query vector "seed 1", "the average", "the average", "seed 2". For each of the 4 x 4 = 16 pairs let
 * y = candidate vector - baseline vector over the 3 queries, m = mean(y) and v = population variance of y.
 * The queries are then drawn with replacement (27 equally likely triples): the resampled statistic has mean m
 * and variance v / 3 given the seeds. So
 *   E[T]   = mean over the 16 pairs of m
 *   Var[T] = mean of v / 3  +  variance of m over the 16 pairs   (law of total variance).
 * Candidate seed draw (1,1) gives m = 1/3 with every baseline draw (4 pairs), (2,2) gives m = 0 (4 pairs), a
 * mixed draw gives m = 1/6 (8 pairs): E[T] = (4/3 + 8/6) / 16 = 1/6, which is the point estimate
 * (per-query difference [0, 0, 1/2], mean 1/6). E[m^2] = (4/9 + 8/36) / 16 = 1/24, so Var(m) = 1/24 - 1/36 = 1/72.
 * The 16 values of v, in eighteenths (baseline draw by row, candidate draw by column: (1,1) (1,2) (2,1) (2,2)):
 *   (1,1): 4 1 1 0     (1,2): 1 1 1 3     (2,1): 1 1 1 3     (2,2): 4 7 7 12      sum 48/18 = 8/3
 * e.g. baseline (2,2) = [1,1,0], candidate (1,1) = [1,1,1]: y = [0,0,1], v = 2/9 = 4/18.
 * Mean of v = (8/3)/16 = 1/6, mean of v/3 = 1/18 = 4/72. Var[T] = 4/72 + 1/72 = 5/72 = 0.069444...
 */
const HAND_MEAN = 1 / 6
const HAND_VARIANCE = 5 / 72

/** Every equally likely two-level resample of a tiny case: seeds per side, then shared queries. */
function enumerate(c: SeedColumns): number[] {
  const n = c.base[0].length
  const tuples = (size: number, k: number): number[][] =>
    k === 0 ? [[]] : tuples(size, k - 1).flatMap((t) => Array.from({ length: size }, (_, i) => [...t, i]))
  const out: number[] = []
  for (const sb of tuples(c.base.length, c.base.length)) {
    for (const sc of tuples(c.cand.length, c.cand.length)) {
      const y = Array.from(
        { length: n },
        (_, q) =>
          sc.reduce((a, s) => a + c.cand[s][q], 0) / sc.length - sb.reduce((a, s) => a + c.base[s][q], 0) / sb.length
      )
      for (const qs of tuples(n, n)) out.push(qs.reduce((a, q) => a + y[q], 0) / n)
    }
  }
  return out
}

const meanOf = (xs: ArrayLike<number>): number => Array.from(xs).reduce((a, b) => a + b, 0) / xs.length
const varianceOf = (xs: ArrayLike<number>): number => {
  const m = meanOf(xs)
  return Array.from(xs).reduce((a, b) => a + (b - m) ** 2, 0) / xs.length
}

describe('the two-level bootstrap on 2 seeds x 3 queries', () => {
  it('the statistic is the difference of seed-averaged means, however it is summed', () => {
    // Per query then over queries: [0, 0, 1/2] -> 1/6. Per seed then over seeds: candidate seed means 1 and 2/3,
    // baseline 2/3 and 2/3: (1 + 2/3)/2 - 2/3 = 1/6. The two definitions agree.
    const estimate = seedInterval(TINY, 0.95)?.estimate
    expect(estimate).toBeCloseTo(1 / 6, 15)
    const seedMeans = (rows: Float64Array[]) => meanOf(rows.map((r) => meanOf(r)))
    expect(seedMeans(TINY.cand) - seedMeans(TINY.base)).toBeCloseTo(estimate as number, 15)
  })

  it('the exact enumeration of all 432 resamples matches the hand calculation', () => {
    const all = enumerate(TINY)
    expect(all).toHaveLength(432)
    expect(meanOf(all)).toBeCloseTo(HAND_MEAN, 12)
    expect(varianceOf(all)).toBeCloseTo(HAND_VARIANCE, 12)
  })

  it("the seeded bootstrap's distribution has the hand-calculated mean and variance", () => {
    const dist = seedBootstrap(TINY, 40000, '1', 'tiny')
    // Monte Carlo: the mean's standard error is sqrt(5/72 / 40000) = 0.0013; the variance's is about 0.0006.
    expect(Math.abs(meanOf(dist) - HAND_MEAN)).toBeLessThan(0.005)
    expect(Math.abs(varianceOf(dist) - HAND_VARIANCE)).toBeLessThan(0.003)
    // Every resampled value is one the enumeration can produce (multiples of 1/12 between -1/3 and 2/3).
    const possible = new Set(enumerate(TINY).map((x) => Math.round(x * 12)))
    expect(Array.from(dist).filter((x) => !possible.has(Math.round(x * 12)))).toEqual([])
  })

  it('a query-only bootstrap (one seed per side) is narrower than the two-level one here', () => {
    // With the seeds averaged first, only the queries vary: y = [0, 0, 1/2], variance (1/18)/3 = 1/54 < 5/72.
    const averaged: SeedColumns = { base: [f([0.5, 1, 0.5])], cand: [f([0.5, 1, 1])] }
    expect(varianceOf(enumerate(averaged))).toBeCloseTo(1 / 54, 12)
    expect(varianceOf(seedBootstrap(averaged, 20000, '1', 'tiny'))).toBeLessThan(HAND_VARIANCE / 2)
  })

  it('is deterministic (same seed, same bytes), sorted, and depends on the seed', () => {
    const a = seedBootstrap(TINY, 2000, '7', 's')
    expect(Array.from(a)).toEqual(Array.from(seedBootstrap(TINY, 2000, '7', 's')))
    for (let i = 1; i < a.length; i++) expect(a[i]).toBeGreaterThanOrEqual(a[i - 1])
    expect(Array.from(seedBootstrap(TINY, 2000, '8', 's'))).not.toEqual(Array.from(a))
  })

  it('an empty query set gives NaN, never a number that could pass', () => {
    const dist = seedBootstrap({ base: [f([]), f([])], cand: [f([])] }, 100, '1', 'e')
    expect(Number.isNaN(dist[0])).toBe(true)
    expect(seedInterval({ base: [f([]), f([])], cand: [f([])] }, 0.95)).toBeNull()
  })
})

describe('the spread between seeds', () => {
  it('seed means, their sample SD and range', () => {
    // Seed means 0.5, 0.6, 0.7: SD = sqrt(((-0.1)^2 + 0 + 0.1^2) / 2) = 0.1 (numpy.std(ddof=1)).
    const s = seedSpread([f([0.4, 0.6]), f([0.6, 0.6]), f([0.7, 0.7])])
    expect(s.means.map((m) => Number(m.toFixed(12)))).toEqual([0.5, 0.6, 0.7])
    expect(s.sd).toBeCloseTo(0.1, 12)
    expect([s.min, s.max]).toEqual([0.5, 0.7])
    expect(seedSpread([f([1, 2])]).sd).toBeNull()
  })
})

/**
 * Special functions against scipy 1.17.1. Provenance of every number: the Python expression beside it
 * (run in python3 with `from scipy import special, stats`).
 */
import { describe, expect, it } from '@jest/globals'
import { normalCdf, normalQuantile, tQuantile, tTwoSided } from '../../src/stats/special.js'

const close = (actual: number, expected: number, rel: number): void => {
  expect(Math.abs(actual - expected)).toBeLessThanOrEqual(rel * Math.abs(expected))
}

describe('normal distribution', () => {
  it('matches scipy.special.ndtri', () => {
    close(normalQuantile(0.975), 1.959963984540054, 1e-15) // special.ndtri(0.975)
    close(normalQuantile(0.8), 0.8416212335729143, 1e-15) // special.ndtri(0.8)
    close(normalQuantile(0.001), -3.090232306167813, 1e-15) // special.ndtri(0.001)
    close(normalQuantile(1e-10), -6.361340902404056, 1e-14) // special.ndtri(1e-10)
    expect(normalQuantile(0.5)).toBe(0)
    expect(normalQuantile(0)).toBe(-Infinity)
    expect(Number.isNaN(normalQuantile(1.5))).toBe(true)
  })
  it('matches scipy.special.ndtr', () => {
    close(normalCdf(-1.96), 0.024997895148220435, 1e-13) // special.ndtr(-1.96)
    close(normalCdf(1.2), 0.8849303297782918, 1e-14) // special.ndtr(1.2)
    close(normalCdf(-8), 6.22096057427174e-16, 1e-12) // special.ndtr(-8)
    expect(normalCdf(0)).toBe(0.5)
  })
})

describe('Student t distribution', () => {
  it('quantiles match scipy.stats.t.ppf', () => {
    close(tQuantile(0.975, 24), 2.0638985616280245, 1e-12) // stats.t.ppf(0.975, 24)
    close(tQuantile(0.975, 1), 12.706204736174694, 1e-12) // stats.t.ppf(0.975, 1)
    close(tQuantile(0.995, 2), 9.924843200918287, 1e-12) // stats.t.ppf(0.995, 2)
    close(tQuantile(0.975, 6999), 1.9603029864766415, 1e-12) // stats.t.ppf(0.975, 6999)
    close(tQuantile(0.025, 24), -2.0638985616280245, 1e-12) // symmetric
  })
  it('two-sided tails match 2 * scipy.stats.t.sf', () => {
    close(tTwoSided(2, 5), 0.10193947882985835, 1e-12) // 2*stats.t.sf(2, 5)
    close(tTwoSided(5, 6999), 5.872449697401686e-7, 1e-12) // 2*stats.t.sf(5, 6999)
    close(tTwoSided(0.1, 30), 0.9210096117902712, 1e-12) // 2*stats.t.sf(0.1, 30)
  })
})

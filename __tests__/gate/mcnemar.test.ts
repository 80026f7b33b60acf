import { describe, expect, it } from '@jest/globals'
import { mcnemarExact } from '../../src/stats/mcnemar.js'

describe('exact McNemar test', () => {
  it('matches the exact binomial sum for 60 gained / 40 lost', () => {
    // Reference: 2 * sum_{j<=40} C(100, j) / 2^100 = 0.0568879336409808
    // (python: min(1, 2*sum(comb(100,j) for j in range(41))/2**100) -> 0.05688793364098079;
    //  scipy.stats.binomtest(40, 100, 0.5).pvalue -> 0.05688793364098089).
    expect(Math.abs(mcnemarExact(60, 40) - 0.0568879336409808)).toBeLessThan(1e-12)
    expect(mcnemarExact(40, 60)).toBe(mcnemarExact(60, 40))
  })

  it('gives exactly 2/2^20 for 20 gained and none lost', () => {
    // Hand calculation: P(X <= 0) = 2^-20 for X ~ Binomial(20, 1/2), doubled.
    expect(mcnemarExact(20, 0)).toBe(2 / 2 ** 20)
  })

  it('is 1 without discordant pairs and capped at 1', () => {
    expect(mcnemarExact(0, 0)).toBe(1)
    expect(mcnemarExact(5, 5)).toBe(1)
  })

  it('stays accurate beyond 1000 discordant pairs (log-space branch)', () => {
    // scipy.stats.binomtest(500, 1100, 0.5).pvalue -> 0.0028195449914364284
    expect(mcnemarExact(600, 500)).toBeCloseTo(0.0028195449914364284, 12)
  })

  it('refuses counts that are not non-negative integers', () => {
    expect(mcnemarExact(-1, 3)).toBeNaN()
    expect(mcnemarExact(1.5, 3)).toBeNaN()
  })
})

/**
 * The fast resampling kernels against a deliberately naive implementation of the same plan (same streams,
 * same draws, one column at a time): any difference in the unrolled, padded, grouped or stratified kernels
 * shows up as a bit difference. Plus the properties the report relies on (determinism, blocks).
 */
import { describe, expect, it } from '@jest/globals'
import { estimate, type Design } from '../../src/stats/design.js'
import { BLOCK, blockState, xoshiro128ss } from '../../src/stats/rng.js'
import { bootstrapDistribution, designOf } from './helpers.js'

/** The plan written plainly: per block its own stream; per resample, per stratum, draw size units. */
function naive(design: Design, resamples: number, seed: string, stream: string): Float64Array[] {
  const { k, values, counts } = design
  const out = Array.from({ length: k }, () => new Float64Array(resamples))
  for (let c = 0; c < k; c++) {
    for (let b0 = 0, block = 0; b0 < resamples; b0 += BLOCK, block++) {
      const next = xoshiro128ss(blockState(seed, stream, block))
      for (let b = b0; b < Math.min(resamples, b0 + BLOCK); b++) {
        let est = 0
        for (const s of design.strata) {
          let acc = 0
          let drawn = 0
          for (let j = 0; j < s.size; j++) {
            const u = s.start + Math.floor((next() * s.size) / 2 ** 32)
            acc += values[u * k + c]
            drawn += counts ? counts[u] : 0
          }
          est += (s.weight * acc) / (counts ? drawn : s.size)
        }
        out[c][b] = est
      }
    }
    out[c].sort()
  }
  return out
}

const column = <T>(n: number, f: (i: number) => T): T[] => Array.from({ length: n }, (_, i) => f(i))

describe('xoshiro128**', () => {
  it('reproduces the reference C implementation (state 1, 2, 3, 4)', () => {
    // gcc of Blackman & Vigna's xoshiro128starstar.c with s = {1, 2, 3, 4}: 11520 0 5927040 70819200 2031721883 1637235492
    const next = xoshiro128ss(Uint32Array.from([1, 2, 3, 4]))
    expect([next(), next(), next(), next(), next(), next()]).toEqual([
      11520, 0, 5927040, 70819200, 2031721883, 1637235492
    ])
  })
})

describe('bootstrap kernels equal the naive plan bit for bit', () => {
  for (const k of [1, 2, 3, 5, 9]) {
    it(`${k} column(s)`, () => {
      const cols = Array.from({ length: k }, (_, c) =>
        column(157, (i) => Math.sin(i * (c + 1)) * 0.3 + (i % 7 === c ? 1 : 0))
      )
      const design = designOf(cols)
      const fast = bootstrapDistribution(design, { resamples: 2300, seed: '42', stream: 'all' })
      const slow = naive(design, 2300, '42', 'all')
      for (let c = 0; c < k; c++) expect(Array.from(fast[c])).toEqual(Array.from(slow[c]))
    })
  }
  it('strata with target weights', () => {
    const seg = column(120, (i) => (i % 3 === 0 ? 'new' : 'old'))
    const design = designOf(
      [column(120, (i) => (i % 5) / 5), column(120, (i) => Math.cos(i))],
      { seg },
      {
        weights: {
          by: 'seg',
          target: [
            ['new', 0.5],
            ['old', 0.5]
          ] as Array<[string, number]>
        }
      }
    )
    expect(design.strata.map((s) => [s.value, s.size, s.weight])).toEqual([
      ['new', 40, 0.5],
      ['old', 80, 0.5]
    ])
    const fast = bootstrapDistribution(design, { resamples: 1500, seed: '1', stream: 'x' })
    const slow = naive(design, 1500, '1', 'x')
    expect(Array.from(fast[1])).toEqual(Array.from(slow[1]))
  })
  it('clusters, query-weighted (ratio of drawn sums to drawn queries)', () => {
    const user = column(90, (i) => `u${Math.floor((i * i) / 97) % 13}`)
    const design = designOf([column(90, (i) => (i % 4) - 1.5)], { user }, { cluster: 'user' })
    expect(design.clusters).toBe(13)
    expect(design.counts).not.toBeNull()
    const fast = bootstrapDistribution(design, { resamples: 1200, seed: '1', stream: 'c' })
    expect(Array.from(fast[0])).toEqual(Array.from(naive(design, 1200, '1', 'c')[0]))
  })
  it('clusters, cluster-weighted (mean of cluster means)', () => {
    const user = column(60, (i) => `u${i % 7}`)
    const d = column(60, (i) => (i * i) / 3600)
    const design = designOf([d], { user }, { cluster: 'user', clusterWeighting: 'cluster' })
    expect(design.counts).toBeNull()
    // The estimate is the plain mean of the 7 cluster means (cluster r holds i = r, r + 7, ...).
    const means = column(7, (r) => {
      const ids = column(60, (i) => i).filter((i) => i % 7 === r)
      return ids.reduce((a, i) => a + (i * i) / 3600, 0) / ids.length
    })
    expect(Math.abs(estimate(design, 0) - means.reduce((a, b) => a + b, 0) / 7)).toBeLessThan(1e-15)
    // ... which differs from the query-weighted mean (clusters have 9 or 8 queries).
    expect(Math.abs(estimate(design, 0) - d.reduce((a, b) => a + b, 0) / 60)).toBeGreaterThan(1e-4)
    expect(Array.from(bootstrapDistribution(design, { resamples: 1000, seed: '1', stream: 'c' })[0])).toEqual(
      Array.from(naive(design, 1000, '1', 'c')[0])
    )
  })
})

describe('plan properties', () => {
  const design = designOf([column(300, (i) => Math.sin(i))])
  it('same seed and stream, same bytes; another seed or stream, other resamples', () => {
    const a = bootstrapDistribution(design, { resamples: 3000, seed: '7', stream: 'all' })[0]
    expect(Array.from(bootstrapDistribution(design, { resamples: 3000, seed: '7', stream: 'all' })[0])).toEqual(
      Array.from(a)
    )
    expect(Array.from(bootstrapDistribution(design, { resamples: 3000, seed: '8', stream: 'all' })[0])).not.toEqual(
      Array.from(a)
    )
    expect(
      Array.from(bootstrapDistribution(design, { resamples: 3000, seed: '7', stream: 'segment=new' })[0])
    ).not.toEqual(Array.from(a))
  })
  it('raising resamples keeps the earlier blocks (blocks have their own streams)', () => {
    const two = naive(design, 2 * BLOCK, '7', 'all')
    const one = naive(design, BLOCK, '7', 'all')
    const firstBlock = new Set(Array.from(one[0]))
    expect(Array.from(two[0]).filter((x) => firstBlock.has(x)).length).toBeGreaterThanOrEqual(BLOCK)
  })
  it('an empty subset gives NaN resamples, never a silent 0', () => {
    const empty = designOf([[1]])
    const none = { ...empty, units: 0, strata: [] }
    expect(Number.isNaN(bootstrapDistribution(none, { resamples: 100, seed: '1', stream: 'x' })[0][0])).toBe(true)
  })
})

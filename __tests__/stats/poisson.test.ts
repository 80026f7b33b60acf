/**
 * The Poisson bootstrap and the hashed sign-flip test (src/stats/poisson.ts, src/stats/poisson-weights.ts): the
 * weights and signs are the documented pure functions (reference values from an independent Python
 * implementation), the kernels compute exactly the sums those functions define, the same bits on any number of
 * threads and for any block of resamples, and the sums split over shards of the units add up to the whole.
 */
import { describe, expect, it } from '@jest/globals'
import { statsKernels, type PoissonJob } from '../../src/stats/kernels.js'
import { hashFlipJob, poissonJob, POISSON_BLOCK } from '../../src/stats/poisson.js'
import { keysOf, POISSON_THRESHOLDS, seedKeys } from '../../src/stats/poisson-weights.js'
import { md5Head } from '../../src/util/md5.js'
import { poissonWeight, unitHash, unitSign, unitWeight } from './hash-reference.js'
import { createRunner, SYNC_RUNNER } from '../../src/stats/threads.js'
import { designOf, mulberry32 } from './helpers.js'
import type { Design } from '../../src/stats/design.js'

const bits = (a: Float64Array): number[] =>
  Array.from(new Uint32Array(a.buffer.slice(a.byteOffset, a.byteOffset + a.byteLength)))

/*
 * Reference values: Python 3.11 (Debian), hashlib and integers, an implementation written from the docs alone:
 *   key(s) = int.from_bytes(md5(s.encode()).digest()[0:4], 'big'), int.from_bytes(...[4:8], 'big')
 *   h(k1, k2, s, j): x = ((k1 ^ s) + j * 0x9E3779B9) & M; x ^= x >> 16; x = (x * 0x85EBCA6B) & M; x ^= x >> 13;
 *                    x = ((x ^ k2) * 0xC2B2AE35) & M; x ^= x >> 16
 *   w(u) = sum(1 for t in T if u >= t)
 * scipy 1.10: [round(65536 * scipy.stats.poisson.cdf(k, 1)) for k in range(8)] = POISSON_THRESHOLDS.
 */
describe('weights and signs are the documented functions', () => {
  it('thresholds are Poisson(1) at 16 bits; the weights have mean 1', () => {
    expect(POISSON_THRESHOLDS).toEqual([24109, 48219, 60273, 64292, 65296, 65497, 65531, 65535])
    let sum = 0
    let squares = 0
    for (let u = 0; u < 65536; u++) {
      const w = poissonWeight(u)
      sum += w
      squares += w * w
    }
    expect(sum).toBe(65536)
    expect(squares / 65536 - 1).toBeCloseTo(0.99997, 5)
  })
  it('keys are md5 of the id (UTF-8), as SQL engines compute them', () => {
    const u32 = ([a, b]: [number, number]): number[] => [a >>> 0, b >>> 0]
    expect(u32(md5Head('q0000001'))).toEqual([3971436074, 2119601647])
    expect(u32(md5Head('query-é'))).toEqual([3714167615, 286579825])
    expect(u32(md5Head(''))).toEqual([3558706393, 2399187460])
    const seeds = seedKeys('1')
    expect([seeds.weights >>> 0, seeds.signs >>> 0]).toEqual([6763712, 371648534])
  })
  it('hashes, weights and signs of one unit', () => {
    const [k1, k2] = md5Head('q0000001')
    const { weights, signs } = seedKeys('1')
    expect([0, 1, 2, 3].map((j) => unitHash(k1, k2, weights, j))).toEqual([
      2528512095, 3592054507, 1555599901, 1919532164
    ])
    expect(Array.from({ length: 16 }, (_, b) => unitWeight(k1, k2, weights, b))).toEqual([
      0, 1, 1, 2, 1, 0, 2, 1, 4, 0, 0, 0, 1, 4, 0, 0
    ])
    expect(Array.from({ length: 40 }, (_, p) => unitSign(k1, k2, signs, p))).toEqual([
      1, 1, 1, 1, 1, -1, -1, 1, 1, -1, 1, 1, 1, -1, -1, 1, -1, 1, -1, -1, -1, 1, 1, 1, 1, -1, -1, -1, -1, 1, -1, 1, -1,
      -1, -1, 1, -1, -1, 1, -1
    ])
  })
  it('weights look like independent Poisson(1) draws across units and resamples', () => {
    const { keys1, keys2 } = keysOf(Array.from({ length: 2000 }, (_, i) => `q${i}`))
    const { weights } = seedKeys('7')
    const B = 200
    const w = new Float64Array(2000 * B)
    for (let u = 0; u < 2000; u++) for (let b = 0; b < B; b++) w[u * B + b] = unitWeight(keys1[u], keys2[u], weights, b)
    const mean = w.reduce((a, x) => a + x, 0) / w.length
    const variance = w.reduce((a, x) => a + (x - mean) ** 2, 0) / w.length
    // 4·10^5 draws: standard error of the mean 0.0016, of the variance about 0.0035.
    expect(Math.abs(mean - 1)).toBeLessThan(0.008)
    expect(Math.abs(variance - 1)).toBeLessThan(0.02)
    // Lag-1 correlation across resamples (the two halves of one hash, and consecutive words) and across units.
    const corr = (pairs: Array<[number, number]>): number => {
      let s = 0
      for (const [a, b] of pairs) s += (w[a] - 1) * (w[b] - 1)
      return s / pairs.length / variance
    }
    const acrossResamples: Array<[number, number]> = []
    const acrossUnits: Array<[number, number]> = []
    for (let u = 0; u < 1999; u++) {
      for (let b = 0; b < B - 1; b++) acrossResamples.push([u * B + b, u * B + b + 1])
      for (let b = 0; b < B; b++) acrossUnits.push([u * B + b, (u + 1) * B + b])
    }
    expect(Math.abs(corr(acrossResamples))).toBeLessThan(0.01)
    expect(Math.abs(corr(acrossUnits))).toBeLessThan(0.01)
  })
})

/** Resample b of column c by the definition: per stratum Σ w·v over units in order (in chunks of 512), Σ w·n. */
function referencePoisson(
  design: Design,
  c: number,
  seed: number,
  b: number,
  keys: { keys1: Int32Array; keys2: Int32Array }
): number {
  let e = 0
  for (const s of design.strata) {
    let sum = 0
    let weight = 0
    for (let c0 = s.start; c0 < s.start + s.size; c0 += 512) {
      let part = 0
      let partWeight = 0
      for (let u = c0; u < Math.min(s.start + s.size, c0 + 512); u++) {
        const w = unitWeight(keys.keys1[u], keys.keys2[u], seed, b)
        part += w * design.values[u * design.k + c]
        partWeight += design.counts ? w * design.counts[u] : w
      }
      sum += part
      weight += partWeight
    }
    let mean = 0
    for (let u = s.start; u < s.start + s.size; u++) mean += design.values[u * design.k + c]
    mean /= design.counts ? s.queries : s.size
    e += weight > 0 ? (s.weight * sum) / weight : s.weight * mean
  }
  return e
}

describe('the Poisson kernel computes the defined resamples', () => {
  const r = mulberry32(3)
  const n = 1300
  const cols = Array.from({ length: 8 }, () => Array.from({ length: n }, () => r() - 0.4))
  const seg: string[] = Array.from({ length: n }, (_, i) => (i % 7 === 0 ? 'a' : i % 3 === 0 ? 'b' : 'c'))
  // A stratum of one query: its weights are all 0 in about 37 % of the resamples.
  seg[5] = 'lonely'
  const user = Array.from({ length: n }, (_, i) => `u${(i * 31) % 211}`)
  const weights = {
    by: 'seg',
    target: [
      ['a', 0.3],
      ['b', 0.3],
      ['c', 0.3],
      ['lonely', 0.1]
    ] as Array<[string, number]>
  }
  const designs: Record<string, Design> = {
    plain: designOf(cols),
    strata: designOf(cols, { seg }, { weights }),
    clusters: designOf(cols.slice(0, 3), { user }, { cluster: 'user' })
  }
  const seed = seedKeys('9').weights
  for (const [name, design] of Object.entries(designs)) {
    it(`${name}: every resample equals its definition, bit for bit`, () => {
      const keys = keysOf(Array.from({ length: design.units }, (_, u) => `unit-${u}`))
      const columns = Array.from({ length: design.k }, (_, c) => c)
      const resamples = 1001
      const out = new Float64Array(columns.length * resamples)
      const job = poissonJob({ design, columns, keys, seed, resamples, out })
      SYNC_RUNNER.run([job])
      for (const c of columns)
        for (const b of [0, 1, 2, 499, 500, 501, 999, 1000])
          expect(out[c * resamples + b]).toBe(referencePoisson(design, c, seed, b, keys))
      expect(out.every(Number.isFinite)).toBe(true)
    })
  }
  it("the WebAssembly kernel gives the JavaScript kernel's bits", () => {
    const simd = statsKernels()
    const plain = statsKernels(false)
    expect(simd.simd).toBe(true)
    expect(plain.simd).toBe(false)
    for (const design of [designs.plain, designs.strata]) {
      for (const columns of [[0], [0, 1, 2], [0, 1, 2, 3, 4, 5], [1, 2, 3, 4, 5, 6, 7]]) {
        const keys = keysOf(Array.from({ length: design.units }, (_, u) => `k${u}`))
        const a = poissonJob({
          design,
          columns,
          keys,
          seed,
          resamples: 777,
          out: new Float64Array(columns.length * 777)
        })
        const b = poissonJob({
          design,
          columns,
          keys,
          seed,
          resamples: 777,
          out: new Float64Array(columns.length * 777)
        })
        for (let u = 0; u < a.units; u++) simd.runUnit(a, u)
        for (let u = 0; u < b.units; u++) plain.runUnit(b, u)
        expect(bits(a.out)).toEqual(bits(b.out))
      }
    }
  })
  it('the same bits on two threads as on one, whatever the work split', () => {
    const design = designs.strata
    const keys = keysOf(Array.from({ length: design.units }, (_, u) => `id${u}`))
    const columns = [0, 1, 2, 3, 4, 5, 6, 7]
    const one = new Float64Array(8 * 3000)
    SYNC_RUNNER.run([poissonJob({ design, columns, keys, seed, resamples: 3000, out: one })])
    const two = new Float64Array(8 * 3000)
    const runner = createRunner(2, { minWork: 1, callerWorks: false })
    runner.run([poissonJob({ design, columns, keys, seed, resamples: 3000, out: two })])
    expect(runner.unitsOnWorkers).toBeGreaterThan(0)
    expect(bits(two)).toEqual(bits(one))
    // Blocks of another size: each resample is still computed alone, so the same bits.
    const job = poissonJob({ design, columns, keys, seed, resamples: 3000, out: new Float64Array(8 * 3000) })
    const other: PoissonJob = { ...job, block: 128, blocks: Math.ceil(3000 / 128), units: 2 * Math.ceil(3000 / 128) }
    SYNC_RUNNER.run([other])
    expect(bits(other.out)).toEqual(bits(one))
    expect(POISSON_BLOCK % 2).toBe(0)
  })
})

describe('the hashed sign-flip kernel', () => {
  it('counts the patterns the defined signs give, for any number of units', () => {
    const kernels = statsKernels()
    const r = mulberry32(5)
    for (const n of [1, 31, 32, 33, 100]) {
      const k = 2
      const y = Float64Array.from({ length: n * k }, () => r() - 0.45)
      const ids = Array.from({ length: n }, (_, u) => `q${u}`)
      const keys = keysOf(ids)
      const signs = seedKeys('2').signs
      const observed = new Float64Array(k)
      const tol = new Float64Array(k)
      for (let c = 0; c < k; c++) {
        let s = 0
        for (let u = 0; u < n; u++) s += y[u * k + c]
        observed[c] = Math.abs(s) * 0.3
      }
      const permutations = 2100
      const job = hashFlipJob({ y, k, units: n, columns: [0, 1], observed, tol, keys, seed: signs, permutations })
      for (let u = 0; u < job.units; u++) kernels.runUnit(job, u)
      for (let c = 0; c < k; c++) {
        let expected = 0
        for (let p = 0; p < permutations; p++) {
          let t = 0
          for (let u = 0; u < n; u++) t += unitSign(keys.keys1[u], keys.keys2[u], signs, p) * y[u * k + c]
          if (Math.abs(t) >= observed[c]) expected++
        }
        let got = 0
        for (let b = 0; b < job.units; b++) got += job.out[b * k + c]
        expect(got).toBe(expected)
      }
    }
  })
})

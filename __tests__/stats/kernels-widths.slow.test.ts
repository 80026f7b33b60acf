/**
 * Every generated bootstrap kernel (column-group widths 1..8, reached by 1..9 columns; 17 columns use two
 * full groups and a third) against a plain reference written here, bit for bit, resample by resample (the
 * kernels' unsorted output, before the plan sorts it), for each design the kernels see: queries one by one,
 * strata with target weights, clusters query-weighted (the `counts` path: ratio of drawn sums to drawn
 * queries), clusters cluster-weighted (means, no counts), and clusters within weighted strata.
 *
 * The reference follows the kernels' summation order exactly, so equal bits are expected, not luck: per
 * resample, strata in order; within a stratum, `size` draws from the block's xoshiro128** stream, each
 * column's drawn values added in draw order from 0; the stratum adds weight · sum / denominator (its size,
 * or the sum of the drawn units' query counts in draw order). It differs from the kernels in everything
 * else: one column at a time, a closure generator, the index by floor(r · size / 2^32). The data are
 * seeded and span six orders of magnitude, so any change of order in a sum changes the bits.
 */
import { describe, expect, it } from '@jest/globals'
import { bootstrapPlan } from '../../src/stats/bootstrap.js'
import type { Design } from '../../src/stats/design.js'
import { statsKernels, type BootstrapJob } from '../../src/stats/kernels.js'
import { BLOCK, blockState, xoshiro128ss } from '../../src/stats/rng.js'
import { designOf, mulberry32 } from './helpers.js'

/** Unsorted: out[c * resamples + b], as the kernels write it. */
function reference(design: Design, resamples: number, seed: string, stream: string): Float64Array {
  const { k, values, counts } = design
  const out = new Float64Array(k * resamples)
  for (let c = 0; c < k; c++) {
    for (let b0 = 0, block = 0; b0 < resamples; b0 += BLOCK, block++) {
      const next = xoshiro128ss(blockState(seed, stream, block))
      for (let b = b0; b < Math.min(resamples, b0 + BLOCK); b++) {
        let est = 0
        for (const s of design.strata) {
          let sum = 0
          let drawn = 0
          for (let j = 0; j < s.size; j++) {
            const u = s.start + Math.floor((next() * s.size) / 2 ** 32)
            sum += values[u * k + c]
            if (counts) drawn += counts[u]
          }
          est += (s.weight * sum) / (counts ? drawn : s.size)
        }
        out[c * resamples + b] = est
      }
    }
  }
  return out
}

/** The kernels' output for the design, unsorted (the plan's jobs run on this thread; finish() is not called). */
function kernelsOutput(design: Design, resamples: number, seed: string, stream: string): Float64Array {
  const plan = bootstrapPlan(design, { resamples, seed, stream })
  const kernels = statsKernels()
  const job = plan.jobs[0] as BootstrapJob
  for (let u = 0; u < job.units; u++) kernels.runUnit(job, u)
  return job.out
}

const N = 47
/** Two blocks, the second short: the block streams and the bounds of a short block are exercised too. */
const RESAMPLES = BLOCK + 237
const r = mulberry32(20261201)
const allColumns = Array.from({ length: 17 }, (_, c) =>
  Array.from({ length: N }, () => (c % 4 === 0 ? (r() < 0.5 ? 1 : 0) : (r() - 0.4) * 10 ** Math.floor(r() * 6 - 3)))
)
const seg = Array.from({ length: N }, () => (r() < 0.3 ? 'new' : 'old'))
// Clusters of unequal sizes (1 to about 12 queries), each inside one segment (cluster ids carry the segment).
const user = Array.from({ length: N }, (_, i) => `${seg[i]}-u${Math.floor(r() * r() * 14)}`)
const target = {
  by: 'seg',
  target: [
    ['new', 0.6],
    ['old', 0.4]
  ] as Array<[string, number]>
}

const designs: Record<string, (cols: number[][]) => Design> = {
  'queries one by one': (cols) => designOf(cols),
  'strata with target weights': (cols) => designOf(cols, { seg }, { weights: target }),
  'clusters, query-weighted (counts)': (cols) => designOf(cols, { user }, { cluster: 'user' }),
  'clusters, cluster-weighted (means)': (cols) =>
    designOf(cols, { user }, { cluster: 'user', clusterWeighting: 'cluster' }),
  'clusters within weighted strata (counts)': (cols) =>
    designOf(cols, { seg, user }, { cluster: 'user', weights: target })
}

describe('every bootstrap kernel width equals the reference bit for bit', () => {
  for (const [name, make] of Object.entries(designs)) {
    for (const k of [1, 2, 3, 4, 5, 6, 7, 8, 9, 17]) {
      it(`${name}, ${k} column${k === 1 ? '' : 's'}`, () => {
        const design = make(allColumns.slice(0, k))
        const fast = kernelsOutput(design, RESAMPLES, '42', name)
        const slow = reference(design, RESAMPLES, '42', name)
        expect(fast.length).toBe(k * RESAMPLES)
        let differing = 0
        let firstDiffering = -1
        for (let i = 0; i < fast.length; i++) {
          if (!Object.is(fast[i], slow[i])) {
            differing++
            if (firstDiffering < 0) firstDiffering = i
          }
        }
        const at =
          firstDiffering < 0
            ? null
            : {
                column: Math.floor(firstDiffering / RESAMPLES),
                resample: firstDiffering % RESAMPLES,
                kernel: fast[firstDiffering],
                reference: slow[firstDiffering]
              }
        expect({ differing, at }).toEqual({ differing: 0, at: null })
      })
    }
  }

  it('the designs are what the names say (so each kernel path is really taken)', () => {
    const d = Object.fromEntries(Object.entries(designs).map(([name, make]) => [name, make(allColumns.slice(0, 1))]))
    expect(d['queries one by one']).toMatchObject({ units: N, clusters: null, counts: null })
    expect(d['queries one by one'].strata).toHaveLength(1)
    expect(d['strata with target weights'].strata.map((s) => s.weight)).toEqual([0.6, 0.4])
    expect(d['clusters, query-weighted (counts)'].counts).not.toBeNull()
    expect(d['clusters, query-weighted (counts)'].clusters).toBeLessThan(N / 2)
    expect(d['clusters, cluster-weighted (means)'].counts).toBeNull()
    expect(d['clusters, cluster-weighted (means)'].clusters).toBeLessThan(N / 2)
    expect(d['clusters within weighted strata (counts)'].counts).not.toBeNull()
    expect(d['clusters within weighted strata (counts)'].strata).toHaveLength(2)
    // Unequal cluster sizes: the ratio estimator's denominator really varies between resamples.
    expect(new Set(d['clusters, query-weighted (counts)'].counts).size).toBeGreaterThan(2)
  })
})

/**
 * The prototype of docs/scale.md, "ship the histogram, not the rows" (src/stats/histogram-bootstrap.ts): the
 * table split into shards in any way, each shard's per-stratum histograms of a column merged in any order, give
 * the very resamples the gate draws from the rows (bootstrapPlan), bit for bit, for every column drawn by
 * counts; a column drawn by index is refused, never approximated.
 */
import { describe, expect, it } from '@jest/globals'
import { bootstrapPlan } from '../../src/stats/bootstrap.js'
import type { Design } from '../../src/stats/design.js'
import {
  histogramOf,
  histogramPlan,
  mergeHistograms,
  type HistogramColumn
} from '../../src/stats/histogram-bootstrap.js'
import { SYNC_RUNNER } from '../../src/stats/threads.js'
import { designOf, mulberry32 } from './helpers.js'

const n = 5000
const r = mulberry32(42)
const grid = (x: number): number => Math.round(x * 10) / 10
// Per query: a binary difference, and a difference of two metrics on a 0.1 grid (subtraction leaves ulp noise: 0.3 - 0.1 = 0.19999999999999998).
const queries = Array.from({ length: n }, () => {
  const skill = r()
  return {
    binary: (r() < skill + 0.02 ? 1 : 0) - (r() < skill ? 1 : 0),
    graded: grid(Math.min(1, skill + r() * 0.2)) - grid(Math.max(0, skill - r() * 0.2)),
    seg: r() < 0.5 ? 'new' : r() < 0.6 ? 'old' : 'returning'
  }
})
const columns = [queries.map((q) => q.binary), queries.map((q) => q.graded)]
const seg = queries.map((q) => q.seg)

/** Resamples in draw order (finish() of a plan run on this thread). */
function run(plan: { jobs: Parameters<typeof SYNC_RUNNER.run>[0]; finish: () => Float64Array[] }): Float64Array[] {
  SYNC_RUNNER.run(plan.jobs)
  return plan.finish().map((c) => Float64Array.from(c))
}

/** The design's queries split into `shards` at random; per column and stratum, the shards' histograms merged in a shuffled order. */
function fromShards(
  design: Design,
  values: number[][],
  strata: string[] | null,
  shards: number,
  seed: number
): HistogramColumn[] {
  const pick = mulberry32(seed)
  const shardOf = Int32Array.from({ length: n }, () => Math.floor(pick() * shards))
  const order = Array.from({ length: shards }, (_, i) => i).sort(() => pick() - 0.5)
  return values.map((column, index) => ({
    index,
    strata: design.strata.map((s) =>
      mergeHistograms(
        order.map((shard) =>
          histogramOf(column.filter((_, i) => shardOf[i] === shard && (strata === null || strata[i] === s.value)))
        )
      )
    )
  }))
}

const bits = (a: Float64Array): Buffer => Buffer.from(a.buffer, a.byteOffset, a.byteLength)

describe('a bootstrap from merged shard histograms', () => {
  for (const [label, over, strata] of [
    ['no strata', {}, null],
    [
      'target-weight strata',
      {
        weights: {
          by: 'seg',
          target: [
            ['new', 0.5],
            ['old', 0.2],
            ['returning', 0.3]
          ] as Array<[string, number]>
        }
      },
      seg
    ]
  ] as const) {
    for (const shards of [1, 3, 17]) {
      it(`${label}, ${shards} shards: the resamples of every column drawn by counts, bit for bit`, () => {
        const design = designOf(columns, { seg }, over)
        const plan = bootstrapPlan(design, { resamples: 2000, seed: '1', stream: 'all' })
        expect(plan.jobs.map((j) => j.kind)).toEqual(['multinomial'])
        const rows = run(plan)
        const merged = run(
          histogramPlan(
            fromShards(design, columns, strata, shards, shards),
            design.strata.map((s) => s.weight),
            { resamples: 2000, seed: '1', stream: 'all' }
          )
        )
        expect(merged.map(bits)).toEqual(rows.map(bits))
      })
    }
  }

  it('the merge does not depend on the order of the shards', () => {
    const a = histogramOf([0.1, 0.2, 0.2, -0, 0])
    const b = histogramOf([0.3, 0.2, 0, 0.1])
    const ab = mergeHistograms([a, b])
    expect(mergeHistograms([b, a])).toEqual(ab)
    expect(Array.from(ab.values).map((v) => (Object.is(v, -0) ? '-0' : String(v)))).toEqual([
      '-0',
      '0',
      '0.1',
      '0.2',
      '0.3'
    ])
    expect(Array.from(ab.counts)).toEqual([1, 2, 2, 3, 1])
  })

  it('refuses a column the rows path draws by index (too many distinct values for a histogram to help)', () => {
    const continuous = Array.from({ length: n }, (_, i) => Math.sin(i) / 3)
    const design = designOf([continuous])
    expect(bootstrapPlan(design, { resamples: 100, seed: '1', stream: 'all' }).jobs.map((j) => j.kind)).toEqual([
      'bootstrap'
    ])
    expect(() =>
      histogramPlan(fromShards(design, [continuous], null, 2, 1), [1], { resamples: 100, seed: '1', stream: 'all' })
    ).toThrow(/drawn by index/)
  })
})

/**
 * docs/scale.md, "ship the histogram, not the rows": the table split into shards in any way, each shard's
 * per-stratum histograms of a column merged in any order, give through the gate's groups of histograms
 * (histogramGroups, src/stats/bootstrap.ts) and its multinomial job the very resamples the gate draws from the rows
 * (bootstrapPlan), bit for bit, for every column drawn by counts; a column drawn by index is refused, never
 * approximated. The shards' histograms and their merge are modelled here as a warehouse computes them.
 */
import { describe, expect, it } from '@jest/globals'
import {
  bootstrapPlan,
  COUNTS_PER_GROUP,
  histogramGroups,
  multinomialJob,
  type ResampleDraw
} from '../../src/stats/bootstrap.js'
import type { Design } from '../../src/stats/design.js'
import { SYNC_RUNNER, type KernelPlan } from '../../src/stats/threads.js'
import { designOf, mulberry32 } from './helpers.js'

/** One stratum's histogram of a column: its distinct values, ascending, and how many queries hold each. */
interface StratumHistogram {
  values: Float64Array
  counts: Float64Array
}

/** The histogram of one shard's values of a column in one stratum (what its GROUP BY returns), ascending. */
function histogramOf(values: ArrayLike<number>): StratumHistogram {
  const sorted = Float64Array.from(values).sort()
  const out: number[] = []
  const counts: number[] = []
  for (const v of sorted) {
    if (out.length > 0 && Object.is(out[out.length - 1], v)) counts[counts.length - 1]++
    else {
      out.push(v)
      counts.push(1)
    }
  }
  return { values: Float64Array.from(out), counts: Float64Array.from(counts) }
}

/**
 * The shards' histograms of one column and stratum as one: counts of the same value (the same double, -0 and 0
 * apart) are added. Integer sums, so the result is the same in whatever order the shards come.
 */
function mergeHistograms(parts: readonly StratumHistogram[]): StratumHistogram {
  const all: Array<[number, number]> = parts.flatMap((p) =>
    Array.from(p.values, (v, i): [number, number] => [v, p.counts[i]])
  )
  all.sort((x, y) => sortOrder(x[0], y[0]))
  const values: number[] = []
  const counts: number[] = []
  for (const [v, n] of all) {
    if (values.length > 0 && Object.is(values[values.length - 1], v)) counts[counts.length - 1] += n
    else {
      values.push(v)
      counts.push(n)
    }
  }
  return { values: Float64Array.from(values), counts: Float64Array.from(counts) }
}

/** The order of Float64Array.prototype.sort: ascending, -0 before 0, NaN last. */
function sortOrder(x: number, y: number): number {
  if (x < y) return -1
  if (x > y) return 1
  if (x === y) return Object.is(x, -0) === Object.is(y, -0) ? 0 : Object.is(x, -0) ? -1 : 1
  return Number.isNaN(x) === Number.isNaN(y) ? 0 : Number.isNaN(x) ? 1 : -1
}

/** One column of the design as histograms: per stratum (in the design's stratum order), and the column's index among the design's columns (it names its streams). */
interface HistogramColumn {
  index: number
  strata: readonly StratumHistogram[]
}

/**
 * The resamples of the given columns from their histograms, as {@link bootstrapPlan} draws them from the rows
 * under the same draw (resamples, seed, and the subset's key as stream). `weights` are the strata's weights in the
 * estimate (1 for a design without strata). Throws for a column with too many distinct values to be drawn by
 * counts: the rows path draws it by index, which needs the rows (docs/scale.md: the Poisson design).
 */
function histogramPlan(
  columns: readonly HistogramColumn[],
  weights: readonly number[],
  draw: ResampleDraw
): KernelPlan<Float64Array[]> {
  const { resamples, seed, stream } = draw
  const sizeOf = (h: StratumHistogram): number => h.counts.reduce((n, c) => n + c, 0)
  const sizes = weights.map((_, s) => (columns.length > 0 ? sizeOf(columns[0].strata[s]) : 0))
  for (const column of columns) {
    if (column.strata.length !== weights.length || column.strata.some((h, s) => sizeOf(h) !== sizes[s]))
      throw new Error(`column ${column.index} does not hold the same queries per stratum as column ${columns[0].index}`)
  }
  const units = sizes.reduce((n, size) => n + size, 0)
  // The rows path does not draw these (bootstrapPlan: NaN for no query, one value for one query per stratum).
  if (units <= weights.length) throw new Error(`${units} queries in ${weights.length} strata: nothing to resample`)
  const grouped = columns.map((column) => {
    const g = histogramGroups(column.strata)
    if (g.values.length * COUNTS_PER_GROUP > units) {
      throw new Error(
        `column ${column.index} has ${g.values.length} distinct values for ${units} queries: it is drawn by index, from the rows, not from a histogram`
      )
    }
    return g
  })
  const out = new Float64Array(columns.length * resamples)
  const strata = sizes.map((size, s) => ({ size, weight: weights[s] }))
  const job = multinomialJob({
    grouped,
    columns: columns.map((c) => c.index),
    strata,
    ratio: false,
    resamples,
    seed,
    stream,
    out
  })
  return { jobs: [job], finish: () => columns.map((_, i) => out.subarray(i * resamples, (i + 1) * resamples)) }
}

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

import {
  COUNTS_PER_GROUP,
  GroupsBuilder,
  MERGE_QUANTUM,
  multinomialJob,
  type Groups,
  type ResampleDraw
} from './bootstrap.js'
import type { KernelPlan } from './threads.js'

/**
 * A prototype of docs/scale.md, "ship the histogram, not the rows": the bootstrap of a column drawn by counts
 * computed from per-stratum histograms of its per-query differences, which a warehouse can compute where the
 * rows live (`SELECT stratum, cand - base AS d, COUNT(*) ... GROUP BY stratum, d`) and merge exactly across
 * shards (the counts are integers). The resamples are the ones {@link bootstrapPlan} draws from the rows, to
 * the bit: the same groups (built from the values in ascending order by the same {@link GroupsBuilder}), the
 * same streams, the same kernel. Covers designs of single queries (no clusters), with or without target-weight
 * strata. `gate --aggregates` draws the few-valued metrics of a warehouse's aggregates through
 * {@link histogramGroups} (src/stats/aggregate-engine.ts).
 */

/** One stratum's histogram of a column: its distinct values, ascending, and how many queries hold each. */
export interface StratumHistogram {
  values: Float64Array
  counts: Float64Array
}

/** The histogram of one shard's values of a column in one stratum (what its GROUP BY returns), ascending. */
export function histogramOf(values: ArrayLike<number>): StratumHistogram {
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
export function mergeHistograms(parts: readonly StratumHistogram[]): StratumHistogram {
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

/**
 * The groups a column's per-stratum histograms make (its values merged within {@link MERGE_QUANTUM} of the largest
 * |value|): the groups bootstrapPlan builds from the same values as rows. Used by {@link histogramPlan} and by the
 * engine over a warehouse's aggregates (src/stats/aggregate-engine.ts).
 */
export function histogramGroups(strata: readonly StratumHistogram[]): Groups {
  let max = 0
  for (const h of strata) for (const v of h.values) if (Math.abs(v) > max && Math.abs(v) !== Infinity) max = Math.abs(v)
  const groups = new GroupsBuilder(max * MERGE_QUANTUM)
  for (const h of strata) {
    groups.stratum()
    h.values.forEach((v, i) => groups.add(v, 1, h.counts[i]))
  }
  return groups.finish()
}

/** One column of the design as histograms: per stratum (in the design's stratum order), and the column's index among the design's columns (it names its streams). */
export interface HistogramColumn {
  index: number
  strata: readonly StratumHistogram[]
}

/**
 * The resamples of the given columns from their histograms, as {@link bootstrapPlan} draws them from the rows
 * under the same draw (resamples, seed, and the subset's key as stream). `weights` are the strata's weights in the
 * estimate (1 for a design without strata). Throws for a column with too many distinct values to be drawn by
 * counts: the rows path draws it by index, which needs the rows (docs/scale.md: the Poisson design).
 */
export function histogramPlan(
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

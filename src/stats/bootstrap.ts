import { columnsOf, type Design } from './design.js'
import type { BootstrapJob, KernelJob, MultinomialJob } from './kernels.js'
import { BLOCK, blockStates, countsStates } from './rng.js'
import type { KernelPlan } from './threads.js'

/**
 * How many resamples to draw and the random streams they come from: the run's seed and the subset's key (the
 * stream), from which every block's own stream is derived. The same draw of the same design gives the same bytes.
 */
export interface ResampleDraw {
  resamples: number
  seed: string
  stream: string
}

/** A {@link ResampleDraw} of {@link bootstrapPlan}, with where its resamples go and who draws the columns by index. */
export interface BootstrapPlanOptions extends ResampleDraw {
  /** At least columns x resamples long: receives the resamples instead of a new array (see {@link bootstrapPlan}). */
  scratch?: Float64Array
  /** Another way to draw the columns drawn by index (the Poisson bootstrap); by default the multinomial kernel. */
  draw?: IndexDraw
}

/**
 * A column resampled by counts when its distinct (value, queries) groups, over all strata, are at most
 * its units / this: a binomial draw (BTRD) costs as much as some tens of indexed draws (measured: 100–230 ns
 * against 1.5–3 ns a column on the shared 2-core machine, docs/scale.md). Binary metrics have at most three distinct
 * differences, so from about a hundred queries on they are resampled by counts.
 */
export const COUNTS_PER_GROUP = 32

/**
 * The bootstrap distribution of every column's estimate under one shared resampling plan, as kernel jobs (none
 * for an empty design) and the step that reads the result once they have run: lets a caller run several plans'
 * jobs as one batch of units. Per resample, units are drawn with replacement within each stratum (queries, or
 * whole clusters) and every column is accumulated in the same pass over a row-major typed array, one local
 * accumulator per column. The result is per column the resamples in the order drawn, not sorted: a caller that
 * reads a few order statistics selects them (src/util/order-statistics.ts) instead of paying for a sort.
 *
 * Speed: the generator (xoshiro128**) is inlined, indices come from one uint32 by multiply-shift
 * (floor(r·size / 2^32); its bias is below size / 2^32, about 2e-6 for 7,000 queries), and nothing is
 * allocated per resample (src/stats/kernels.ts). Resamples are made in blocks of {@link BLOCK}, each with its
 * own stream derived from (seed, stream, block), so the bytes do not depend on scheduling: the runner
 * (src/stats/threads.ts) may spread the blocks over threads and the result is the same.
 *
 * Two ways to draw, chosen per column from the data alone (so the bytes depend on the data and the seed
 * only), with the same law: drawing `size` units with replacement per stratum (an index per draw), or, for
 * a column with few distinct values, drawing how many times each distinct value is drawn — one multinomial
 * per stratum, as conditional binomials ({@link COUNTS_PER_GROUP}). A design with one unit per stratum has
 * a single possible resample: no drawing at all, one value per column.
 *
 * `options.scratch` (at least columns x resamples long), when given, receives the resamples instead of a new array:
 * a caller drawing thousands of subsets one after the other reuses one buffer rather than leaving the
 * garbage collector 400 KB per subset (5 metrics x 10,000). The columns returned are then views of it,
 * valid until it is written again.
 */
export function bootstrapPlan(design: Design, options: BootstrapPlanOptions): KernelPlan<Float64Array[]> {
  const { resamples, seed, stream, scratch, draw } = options
  const { k } = design
  if (design.units === 0) return done(Array.from({ length: k }, () => new Float64Array(resamples).fill(Number.NaN)))
  if (design.units === design.strata.length) return done(constantResamples(design))
  const byCounts: number[] = []
  const byIndex: number[] = []
  const grouped: Groups[] = []
  for (let c = 0; c < k; c++) {
    const g = groupsOf(design, c, Math.floor(design.units / COUNTS_PER_GROUP))
    if (draw ? draw.byCounts(g, c) : g.values.length * COUNTS_PER_GROUP <= design.units) {
      byCounts.push(c)
      grouped.push(g)
    } else byIndex.push(c)
  }
  const blocks = Math.ceil(resamples / BLOCK)
  const jobs: KernelJob[] = []
  const outOf = (from: number, length: number): Float64Array =>
    scratch ? scratch.subarray(from, from + length) : new Float64Array(length)
  const indexOut = byIndex.length > 0 ? outOf(0, byIndex.length * resamples) : null
  if (indexOut && draw) jobs.push(draw.job(byIndex, indexOut))
  else if (indexOut) {
    const ki = byIndex.length
    // Columns in groups of at most 8, each by the kernel of its exact width; every group replays the same block streams.
    const vs: Float64Array[] = []
    for (let g = 0; g < ki; g += 8) vs.push(columnsOf(design, byIndex.slice(g, Math.min(ki, g + 8))))
    const job: BootstrapJob = {
      kind: 'bootstrap',
      units: vs.length * blocks,
      work: resamples * design.units * ki,
      blocks,
      block: BLOCK,
      resamples,
      k: ki,
      vs,
      counts: design.counts,
      starts: Int32Array.from(design.strata, (s) => s.start),
      sizes: Int32Array.from(design.strata, (s) => s.size),
      weights: Float64Array.from(design.strata, (s) => s.weight),
      states: blockStates(seed, stream, blocks),
      out: indexOut
    }
    jobs.push(job)
  }
  const countsOut = byCounts.length > 0 ? outOf(byIndex.length * resamples, byCounts.length * resamples) : null
  if (countsOut)
    jobs.push(
      multinomialJob({
        grouped,
        columns: byCounts,
        strata: design.strata,
        ratio: design.counts !== null,
        resamples,
        seed,
        stream,
        out: countsOut
      })
    )
  return {
    jobs,
    finish() {
      const columns: Float64Array[] = new Array<Float64Array>(k)
      byIndex.forEach((c, i) => (columns[c] = (indexOut as Float64Array).subarray(i * resamples, (i + 1) * resamples)))
      byCounts.forEach(
        (c, i) => (columns[c] = (countsOut as Float64Array).subarray(i * resamples, (i + 1) * resamples))
      )
      return columns
    }
  }
}

const done = (columns: Float64Array[]): KernelPlan<Float64Array[]> => ({ jobs: [], finish: () => columns })

/**
 * Another way to draw the columns {@link bootstrapPlan} would draw by index (the Poisson bootstrap,
 * src/stats/resampling.ts): which columns are drawn by counts, from their groups, and the job of the others.
 */
export interface IndexDraw {
  byCounts(groups: Groups, column: number): boolean
  /** The job writing these columns' resamples into `out` (columns.length x resamples, column after column). */
  job(columns: number[], out: Float64Array): KernelJob
}

/** What a multinomial job is made of: the columns drawn by counts, with their groups, and the design's strata. */
export interface CountsInput {
  grouped: readonly Groups[]
  /** Each grouped column's index among the design's columns: it names the column's random streams. */
  columns: readonly number[]
  strata: ReadonlyArray<{ size: number; weight: number }>
  /** Query-weighted clusters: the denominator is the drawn queries. */
  ratio: boolean
  resamples: number
  seed: string
  stream: string
  /** columns.length x resamples, receives the resamples column after column. */
  out: Float64Array
}

/**
 * The multinomial job of the columns drawn by counts. One place builds it, for a design
 * ({@link bootstrapPlan}) and for histograms ({@link histogramGroups}, src/stats/sums-draws.ts), so both draw the same
 * resamples from the same groups.
 */
export function multinomialJob(input: CountsInput): MultinomialJob {
  const { grouped, columns, strata, resamples, seed, stream } = input
  const blocks = Math.ceil(resamples / BLOCK)
  const states = countsStates(seed, stream, columns, blocks)
  return {
    kind: 'multinomial',
    units: columns.length * blocks,
    work: resamples * grouped.reduce((n, g) => n + g.values.length, 0) * COUNTS_PER_GROUP,
    blocks,
    block: BLOCK,
    resamples,
    k: columns.length,
    values: grouped.map((g) => g.values),
    multiplicity: grouped.map((g) => g.multiplicity),
    queries: grouped.map((g) => g.queries),
    offsets: grouped.map((g) => g.offsets),
    sizes: Int32Array.from(strata, (s) => s.size),
    weights: Float64Array.from(strata, (s) => s.weight),
    ratio: input.ratio,
    states,
    out: input.out
  }
}

/**
 * One unit per stratum: every resample draws each stratum's one unit, so every resample is the estimate.
 * One value per column stands for all of them (every quantile of B equal values is that value), computed
 * in the kernel's order of operations (so the bytes equal those the kernel would give), and memory stays
 * constant however many resamples are asked for — what makes thousands of one-query slices cheap.
 */
function constantResamples(design: Design): Float64Array[] {
  const { k, values, counts } = design
  const out: Float64Array[] = []
  for (let c = 0; c < k; c++) {
    let e = 0
    for (const s of design.strata) {
      const a = 0 + values[s.start * k + c]
      const denom = counts ? counts[s.start] : s.size
      e += (s.weight * a) / denom
    }
    out.push(Float64Array.of(e))
  }
  return out
}

/** A column's distinct (value, queries per unit) groups, stratum by stratum, in ascending order. */
export interface Groups {
  values: Float64Array
  multiplicity: Float64Array
  queries: Float64Array
  offsets: Int32Array
  /** Distinct values before merging (equal doubles, -0 and 0 too, are one), summed over strata. */
  distinct: number
}

/**
 * Builds a column's {@link Groups} from its values in ascending order, stratum by stratum: a value joins the
 * current group when it equals the group's first value, or lies within `quantum` of it (zeros and
 * non-finite values only when identical), with the same queries per unit. `units` copies of a value at once
 * (a histogram's count) join exactly as that many single units would.
 */
class GroupsBuilder {
  private readonly values: number[] = []
  private readonly mult: number[] = []
  private readonly queries: number[] = []
  private readonly offsets: number[] = []
  private distinct = 0
  private last = Number.NaN

  constructor(private readonly quantum: number) {}

  /** Starts the next stratum. */
  stratum(): void {
    this.offsets.push(this.values.length)
    this.last = Number.NaN
  }

  /** Adds `units` units holding value v (not below the last value added), each of `queries` queries; returns the groups so far. */
  add(v: number, queries: number, units = 1): number {
    if (v !== this.last) this.distinct++
    this.last = v
    const last = this.values.length - 1
    if (
      last >= this.offsets[this.offsets.length - 1] &&
      this.joins(this.values[last], v) &&
      this.queries[last] === queries
    )
      this.mult[last] += units
    else {
      this.values.push(v)
      this.mult.push(units)
      this.queries.push(queries)
    }
    return this.values.length
  }

  finish(): Groups {
    return {
      values: Float64Array.from(this.values),
      multiplicity: Float64Array.from(this.mult),
      queries: Float64Array.from(this.queries),
      offsets: Int32Array.from([...this.offsets, this.values.length]),
      distinct: this.distinct
    }
  }

  private joins(first: number, v: number): boolean {
    return Object.is(first, v) || (first !== 0 && v !== 0 && v - first <= this.quantum)
  }
}

/**
 * The column's groups, or (once there are more than `cap`) a partial list longer than `cap`: a column with more
 * groups than units / {@link COUNTS_PER_GROUP} is not drawn by counts, and building its 10^6 groups cost 100 MB
 * and 0.7 s at 10^6 queries.
 */
function groupsOf(design: Design, c: number, cap: number): Groups {
  const { k, values, counts } = design
  const quantum = mergeQuantum(design, c)
  const groups = new GroupsBuilder(quantum)
  if (manyBins(design, c, quantum, cap)) {
    // More than 2 · cap bins of width quantum: more than cap groups, whatever the order (a group spans at most two bins).
    groups.stratum()
    for (let i = 0; i <= cap; i++) groups.add(i, 1)
    return groups.finish()
  }
  const q = (u: number): number => (counts ? counts[u] : 1)
  for (const s of design.strata) {
    groups.stratum()
    if (!counts) {
      // One query per unit: the values alone, sorted as a typed array (numeric order, -0 before 0, NaN last).
      const sorted = new Float64Array(s.size)
      for (let i = 0; i < s.size; i++) sorted[i] = values[(s.start + i) * k + c]
      sorted.sort()
      for (const v of sorted) if (groups.add(v, 1) > cap) return groups.finish()
      continue
    }
    const order = Array.from({ length: s.size }, (_, i) => s.start + i)
    order.sort((a, b) => values[a * k + c] - values[b * k + c] || q(a) - q(b))
    for (const u of order) if (groups.add(values[u * k + c], q(u)) > cap) return groups.finish()
  }
  return groups.finish()
}

/**
 * True when the first 8 · cap units of the column already fall in more than 2 · cap bins of width `quantum`: then
 * the column has more than cap groups and is not drawn by counts, which is known without sorting its values (a
 * continuous column at 10^6 queries: 60,000 look-ups instead of a sort of 10^6 values). False says nothing.
 */
function manyBins(design: Design, c: number, quantum: number, cap: number): boolean {
  const { k, values } = design
  const limit = 2 * cap
  const look = Math.min(design.units, 8 * cap + 8)
  if (look <= limit) return false
  const bins = new Set<number>()
  for (let u = 0; u < look; u++) {
    const v = values[u * k + c]
    bins.add(quantum > 0 ? Math.floor(v / quantum) : v)
    if (bins.size > limit) return true
  }
  return false
}

/**
 * Values of a column closer than this (2^-46 of its largest finite |value|) are drawn as one value, the
 * smallest of them: differences of metrics on a decimal grid (0.1234 − 0.5678) come out of floating point as
 * several doubles a few ulps apart (32,000 distinct differences for 6,000 grid steps at 10^6 queries), which
 * would keep a column off the counts path. A resampled estimate moves by at most this quantum (about 1e-14 of
 * the column's range), far below the digits any report prints.
 */
const MERGE_QUANTUM = 2 ** -46

function mergeQuantum(design: Design, c: number): number {
  const { k, units, values } = design
  let max = 0
  for (let u = 0; u < units; u++) {
    const a = Math.abs(values[u * k + c])
    if (a > max && a !== Infinity) max = a
  }
  return max * MERGE_QUANTUM
}

/**
 * The groups a column's per-stratum histograms make (a warehouse's, src/stats/sums-draws.ts: its distinct values
 * ascending and how many queries hold each), merged within {@link MERGE_QUANTUM} of the largest |value|: the groups
 * {@link groupsOf} builds from the same values as rows, so the same resamples to the bit.
 */
export function histogramGroups(strata: ReadonlyArray<{ values: Float64Array; counts: Float64Array }>): Groups {
  let max = 0
  for (const h of strata) for (const v of h.values) if (Math.abs(v) > max && Math.abs(v) !== Infinity) max = Math.abs(v)
  const groups = new GroupsBuilder(max * MERGE_QUANTUM)
  for (const h of strata) {
    groups.stratum()
    h.values.forEach((v, i) => groups.add(v, 1, h.counts[i]))
  }
  return groups.finish()
}

import { denominator, type Design } from './design.js'
import type { FlipJob, HashFlipJob, KernelJob, SignCountJob } from './kernels.js'
import { BLOCK, blockStates, countsStates } from './rng.js'
import { workerArray, type KernelPlan } from './threads.js'

/** Local bindings: a global lookup of Math per call is slow in some hosts (Jest's vm context: 100x). */
const { abs } = Math

/** Result of the paired randomization (sign-flip) test of "no difference" for every column of a design. */
export interface Randomization {
  /** Two-sided p-value per column. */
  pValues: Float64Array
  /** Sign patterns used: all 2^units when `exact`, else the number of random flips. */
  permutations: number
  /** True when every sign pattern was enumerated (the p-value is then exact). */
  exact: boolean
}

/** Largest number of units enumerated exactly (2^20 patterns), whatever `permutations` says; from sums too (sums-draws.ts). */
export const EXACT_UNITS = 20

/**
 * How many random sign patterns to draw and the random streams they come from: the run's seed and the subset's key
 * (the stream), from which every block's own stream is derived.
 */
export interface PatternDraw {
  permutations: number
  seed: string
  stream: string
}

/** A {@link PatternDraw} of {@link signFlipPlan}, and another way to flip the columns it flips unit by unit. */
export interface SignFlipPlanOptions extends PatternDraw {
  flips?: FlipDraw
}

/** Each column's observed |T| = |Σ y| and its tolerance for ties, 1e-9 of Σ |y|. */
function observedStatistics(
  y: Float64Array,
  at: { k: number; units: number }
): { observed: Float64Array; tol: Float64Array } {
  const { k, units } = at
  const observed = new Float64Array(k)
  const tol = new Float64Array(k)
  for (let c = 0; c < k; c++) {
    let s = 0
    let a = 0
    for (let u = 0; u < units; u++) {
      s += y[u * k + c]
      a += abs(y[u * k + c])
    }
    observed[c] = abs(s)
    tol[c] = 1e-9 * a
  }
  return { observed, tol }
}

/** The exact test: every one of the 2^units sign patterns. */
function everyPattern(
  y: Float64Array,
  at: { k: number; units: number; observed: Float64Array; tol: Float64Array }
): Randomization {
  const { k, units, observed, tol } = at
  const hits = new Float64Array(k)
  const patterns = 2 ** units
  const t = new Float64Array(k)
  for (let mask = 0; mask < patterns; mask++) {
    t.fill(0)
    for (let u = 0; u < units; u++) {
      const sign = (mask >>> u) & 1 ? -1 : 1
      for (let c = 0; c < k; c++) t[c] += sign * y[u * k + c]
    }
    for (let c = 0; c < k; c++) if (abs(t[c]) >= observed[c] - tol[c]) hits[c]++
  }
  return { pValues: hits.map((h) => h / patterns), permutations: patterns, exact: true }
}

/**
 * Paired randomization test (Fisher's sign-flip test, the usual significance test in IR evaluation), as kernel
 * jobs (none when exact) and the step that reads the result once they have run: under
 * "no difference" every unit's difference is as likely to have the opposite sign, so the statistic
 * T = Σ_u ± y_u, with y_u the unit's contribution to the estimate (see {@link Design}), is compared with
 * its distribution under random signs. Clusters are flipped whole, strata keep their weights.
 *
 * Two-sided p = share of sign patterns with |T*| >= |T| (a tolerance of 1e-9 · Σ|y_u| absorbs rounding,
 * so mathematically equal sums tie). When 2^units <= permutations every pattern is enumerated and the
 * p-value is exact; otherwise p = (1 + hits) / (1 + permutations) over random patterns, which is never 0.
 *
 * Speed: one uint32 gives 32 signs; units are taken four at a time through a 16-entry table of the four
 * signed partial sums (one table per column, small enough to stay in cache), so a flip costs a quarter of
 * the additions. All columns share the signs. Patterns come in blocks of {@link BLOCK}, each with its own
 * stream (src/stats/kernels.ts), so a runner may spread the blocks over threads with the same result.
 */
export function signFlipPlan(design: Design, options: SignFlipPlanOptions): KernelPlan<Randomization> {
  const { permutations, seed, stream, flips } = options
  const { k, units } = design
  const contribution = contributions(design)
  const { y } = contribution
  const { observed, tol } = observedStatistics(y, { k, units })
  const hits = new Float64Array(k)
  const done = (r: Randomization): KernelPlan<Randomization> => ({ jobs: [], finish: () => r })
  if (units === 0) return done({ pValues: new Float64Array(k).fill(1), permutations: 0, exact: true })
  if (units <= EXACT_UNITS && 2 ** units <= Math.max(permutations, 1))
    return done(everyPattern(y, { k, units, observed, tol }))
  const groups = Math.ceil(units / 4)
  const blocks = Math.ceil(permutations / BLOCK)
  const byFlip: number[] = []
  const byCounts: number[] = []
  const grouped: AbsGroups[] = []
  for (let c = 0; c < k; c++) {
    const g = absGroupsOf(contribution, c, Math.floor(FLIP_COST * groups))
    if (g !== null && countsCost(g.multiplicity) <= FLIP_COST * groups && (flips?.byCounts(c) ?? true)) {
      byCounts.push(c)
      grouped.push(g)
    } else byFlip.push(c)
  }
  const jobs: KernelJob[] = []
  let flipJob: FlipJob | HashFlipJob | null = null
  if (byFlip.length > 0 && flips) {
    flipJob = flips.job({ y, k, units, columns: byFlip, observed, tol })
    jobs.push(flipJob)
  } else if (byFlip.length > 0) {
    const kf = byFlip.length
    const tables = new Float64Array(kf * groups * 16)
    byFlip.forEach((c, i) => nibbleTable(contribution, c, tables.subarray(i * groups * 16, (i + 1) * groups * 16)))
    flipJob = {
      kind: 'flip',
      units: blocks,
      work: permutations * groups * kf,
      block: BLOCK,
      permutations,
      k: kf,
      groups,
      tables,
      observed: Float64Array.from(byFlip, (c) => observed[c]),
      tol: Float64Array.from(byFlip, (c) => tol[c]),
      states: blockStates(seed, stream, blocks),
      out: new Float64Array(blocks * kf)
    }
    jobs.push(flipJob)
  }
  let countJob: SignCountJob | null = null
  if (byCounts.length > 0) {
    countJob = signCountJob({
      grouped,
      columns: byCounts,
      observed: Float64Array.from(byCounts, (c) => observed[c]),
      tol: Float64Array.from(byCounts, (c) => tol[c]),
      permutations,
      seed,
      stream
    })
    jobs.push(countJob)
  }
  return {
    jobs,
    finish() {
      // Hits are counts: their sum is exact in any order, but it is taken in block order anyway.
      if (flipJob) {
        const out = flipJob.out
        const kf = byFlip.length
        // The job's own blocks: a hashed flip job's are not the flip job's.
        for (let b = 0; b < flipJob.units; b++) byFlip.forEach((c, i) => (hits[c] += out[b * kf + i]))
      }
      if (countJob) {
        const out = countJob.out
        byCounts.forEach((c, i) => {
          for (let b = 0; b < blocks; b++) hits[c] += out[i * blocks + b]
        })
      }
      return { pValues: hits.map((h) => (h + 1) / (permutations + 1)), permutations, exact: false }
    }
  }
}

/**
 * The sign-count job of the columns flipped by counts (their |y| groups; observed |T| and tolerance per grouped
 * column): one place builds it, for a design and for a warehouse's histograms (src/stats/aggregate-engine.ts).
 */
export function signCountJob(input: {
  grouped: readonly AbsGroups[]
  columns: readonly number[]
  observed: Float64Array
  tol: Float64Array
  permutations: number
  seed: string
  stream: string
}): SignCountJob {
  const { grouped, columns, permutations } = input
  const blocks = Math.ceil(permutations / BLOCK)
  return {
    kind: 'signcount',
    units: blocks * columns.length,
    work: permutations * grouped.reduce((n, g) => n + countsCost(g.multiplicity), 0),
    blocks,
    block: BLOCK,
    permutations,
    k: columns.length,
    values: grouped.map((g) => g.values),
    multiplicity: grouped.map((g) => g.multiplicity),
    observed: input.observed,
    tol: input.tol,
    states: countsStates(input.seed, input.stream, columns, blocks),
    out: new Float64Array(blocks * columns.length)
  }
}

/**
 * Another way to flip the columns {@link signFlipPlan} would flip unit by unit (hashed signs,
 * src/stats/resampling.ts): whether a column it could draw by counts may be, and the job of the flipped ones
 * (out[block * columns + i], as the flip job's).
 */
export interface FlipDraw {
  byCounts(column: number): boolean
  job(input: FlipColumns): HashFlipJob
}

/** The columns a flip job flips: the contributions y (units x k, row-major), which columns, their observed |T| and tolerance. */
export interface FlipColumns {
  y: Float64Array
  k: number
  units: number
  columns: readonly number[]
  observed: Float64Array
  tol: Float64Array
}

/**
 * Cost of a flipped group of four units in the sign-flip kernel, in the units of {@link countsCost} (about
 * 1.5 ns a group against about 3 ns a random word counted, measured on the 2-core machine): a column is drawn
 * by counts when that costs less per pattern than flipping its units.
 */
export const FLIP_COST = 0.5

/** Cost per pattern of drawing a column by counts: a word of random bits per 32 units of a value (or one binomial, ~50 words, above 2048). */
export function countsCost(multiplicity: Float64Array): number {
  let cost = 0
  for (const m of multiplicity) cost += m > 2048 ? 50 : Math.ceil(m / 32) + 1
  return cost
}

/** A column's distinct nonzero |y| (ascending) and how many units hold each; null when some y is not finite (flipped one by one). */
export interface AbsGroups {
  values: Float64Array
  multiplicity: Float64Array
}

/**
 * Null too once there are more than `cap` distinct values: every distinct value costs at least one unit of
 * {@link countsCost}, so such a column is flipped, and listing 10^6 values cost 100 MB at 10^6 queries.
 */
function absGroupsOf(contribution: Contributions, c: number, cap: number): AbsGroups | null {
  const { y, k, units } = contribution
  // The first 8 · cap units already holding more than cap distinct |y|: no need to sort them all to know.
  const look = Math.min(units, 8 * cap + 8)
  if (look > cap) {
    const seen = new Set<number>()
    for (let u = 0; u < look; u++) {
      const v = abs(y[u * k + c])
      if (v !== 0) seen.add(v)
      if (seen.size > cap) return null
    }
  }
  const a = new Float64Array(units)
  for (let u = 0; u < units; u++) {
    const v = y[u * k + c]
    if (!Number.isFinite(v)) return null
    a[u] = abs(v)
  }
  a.sort()
  const values: number[] = []
  const mult: number[] = []
  for (let u = 0; u < units; u++) {
    const v = a[u]
    if (v === 0) continue
    if (values.length > 0 && values[values.length - 1] === v) mult[mult.length - 1]++
    else {
      if (values.length >= cap) return null
      values.push(v)
      mult.push(1)
    }
  }
  return { values: Float64Array.from(values), multiplicity: Float64Array.from(mult) }
}

/** The units' contributions to the estimates, row-major (units x k): y[u * k + c]. */
interface Contributions {
  y: Float64Array
  k: number
  units: number
}

/** y[u * k + c]: the unit's contribution to the estimate of column c, weight · value / stratum denominator. */
function contributions(design: Design): Contributions {
  const { k, units, values } = design
  const y = workerArray(values.length)
  for (const s of design.strata) {
    const f = s.weight / denominator(design, s)
    for (let u = s.start; u < s.start + s.size; u++) for (let c = 0; c < k; c++) y[u * k + c] = f * values[u * k + c]
  }
  return { y, k, units }
}

/**
 * table[g * 16 + mask] = Σ_{j < 4} (bit j of mask ? −1 : +1) · y[4g + j, c] for one column c and every group g of
 * four units (absent units count 0); `table` holds ceil(units / 4) x 16 sums.
 */
function nibbleTable(contribution: Contributions, c: number, table: Float64Array): void {
  const { y, k, units } = contribution
  const groups = Math.ceil(units / 4)
  for (let g = 0; g < groups; g++) {
    for (let mask = 0; mask < 16; mask++) {
      let s = 0
      for (let j = 0; j < 4; j++) {
        const u = g * 4 + j
        if (u < units) s += ((mask >>> j) & 1 ? -1 : 1) * y[u * k + c]
      }
      table[(g << 4) | mask] = s
    }
  }
}

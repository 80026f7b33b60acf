import { columnsOf, denominator, type Design } from './design.js'
import type { HashFlipJob, PoissonJob } from './kernels.js'
import type { FlipColumns } from './randomization.js'

/**
 * The kernel jobs of the Poisson bootstrap and of the hashed sign-flip test (docs/scale.md): every unit's weight in
 * a resample, and its sign in a pattern, is a pure function of (seed, the unit's id, the resample or pattern)
 * (src/stats/poisson-weights.ts). Two consequences. The work streams through the units in order (a chunk of them
 * stays in cache across a block of resamples) instead of gathering 10^10 values at random: at 10^6 queries the
 * by-index bootstrap is bound by memory latency, this one by arithmetic. And a shard of the units can be summed
 * anywhere (a warehouse, src/stats/warehouse-sql.ts): the gate adds the shards' sums.
 */

/** Resamples per block of a Poisson job (even: one hash gives a pair of resamples). */
export const POISSON_BLOCK = 500

/**
 * Sign patterns per block of a hashed flip job: a multiple of 32 (one hash gives a unit's signs in 32 patterns),
 * and large, since every block builds its own tables of every 32 units (about 1,000 operations per column).
 */
export const HASH_FLIP_BLOCK = 2048

/** Widest column group of the Poisson kernel (scripts/generate-kernels.js, MAX_POISSON_WIDTH). */
const POISSON_WIDTH = 6

/** The units' keys (two 32-bit halves of md5 of each unit's id), in the design's unit order. */
export interface UnitKeys {
  keys1: Int32Array
  keys2: Int32Array
}

/** What a Poisson job is made of: the columns of a design it draws, the units' keys and seed, and where it writes. */
export interface PoissonInput {
  design: Design
  /** The design's columns drawn (indices into its k). */
  columns: readonly number[]
  keys: UnitKeys
  /** The weights' seed (seedKeys(seed).weights, src/stats/poisson-weights.ts). */
  seed: number
  resamples: number
  /** columns.length x resamples, receives the resamples column after column. */
  out: Float64Array
}

/**
 * The Poisson job of the given columns of a design, into `out` (columns.length x resamples). A stratum whose
 * weights are all 0 in a resample (probability e^-units: a stratum of one unit, 37 % of the time) contributes its
 * observed estimate, which is what every multinomial resample of a one-unit stratum gives.
 */
export function poissonJob(input: PoissonInput): PoissonJob {
  const { design, columns, keys, seed, resamples, out } = input
  const { units } = design
  const width = columns.length
  const vs: Float64Array[] = []
  // Every column in one group: the design's own values, not a copy (40 MB at 10^6 queries and 5 metrics).
  for (let g = 0; g < width; g += POISSON_WIDTH) vs.push(columnsOf(design, columns.slice(g, g + POISSON_WIDTH)))
  const blocks = Math.ceil(resamples / POISSON_BLOCK)
  return {
    kind: 'poisson',
    units: vs.length * blocks,
    work: resamples * units * width,
    blocks,
    block: POISSON_BLOCK,
    resamples,
    k: width,
    vs,
    keys1: keys.keys1,
    keys2: keys.keys2,
    seed,
    counts: design.counts,
    starts: Int32Array.from(design.strata, (s) => s.start),
    sizes: Int32Array.from(design.strata, (s) => s.size),
    weights: Float64Array.from(design.strata, (s) => s.weight),
    means: stratumMeans(design, columns),
    out
  }
}

/**
 * Per column and stratum, the stratum's estimate Σ v / denominator (in unit order): what a stratum contributes to
 * a resample in which it drew no unit. means[c * strata + s].
 */
function stratumMeans(design: Design, columns: readonly number[]): Float64Array {
  const { k, values } = design
  const out = new Float64Array(columns.length * design.strata.length)
  columns.forEach((c, i) => {
    design.strata.forEach((s, si) => {
      let sum = 0
      for (let u = s.start; u < s.start + s.size; u++) sum += values[u * k + c]
      out[i * design.strata.length + si] = sum / denominator(design, s)
    })
  })
  return out
}

/** The hashed sign-flip job of the given columns: contributions y (units x k, row-major) as signFlipPlan computes them. */
export function hashFlipJob(input: FlipColumns & { keys: UnitKeys; seed: number; permutations: number }): HashFlipJob {
  const { y, k, units, columns, permutations } = input
  const width = columns.length
  const blocks = Math.ceil(permutations / HASH_FLIP_BLOCK)
  return {
    kind: 'hashflip',
    units: blocks,
    work: (permutations * units * width) / 4,
    block: HASH_FLIP_BLOCK,
    permutations,
    k: width,
    n: units,
    y: columnsOf({ values: y, k, units }, columns),
    keys1: input.keys.keys1,
    keys2: input.keys.keys2,
    seed: input.seed,
    observed: Float64Array.from(columns, (c) => input.observed[c]),
    tol: Float64Array.from(columns, (c) => input.tol[c]),
    out: new Float64Array(blocks * width)
  }
}

import type { PairedTable } from '../align/pair.js'
import type { StatisticsRules } from '../config/types.js'
import { bootstrapPlan, COUNTS_PER_GROUP, type Groups, type IndexDraw } from './bootstrap.js'
import type { Design } from './design.js'
import { hashFlipJob, poissonJob, type UnitKeys } from './poisson.js'
import { keysOf, seedKeys } from './poisson-weights.js'
import { md5Head } from '../util/md5.js'
import { signFlipPlan, type FlipDraw, type Randomization } from './randomization.js'
import { workerInts, type KernelPlan } from './threads.js'

/**
 * Which law draws the bootstrap's resamples (`statistics.method`), and the plans that draw them. The law is
 * a change of method, so it is fixed before any result, from the rules and the number of units of the whole
 * comparison (every query, or every cluster), and stated in the report:
 *
 * - `multinomial`: the units drawn with replacement, `size` per stratum (by index, or by counts for a column with
 *   few distinct values: the same law), as before this setting existed;
 * - `poisson`: every unit an independent Poisson(1) weight per resample, a pure function of (seed, unit id,
 *   resample) (src/stats/poisson-weights.ts), for every column; the sign-flip test's signs likewise;
 * - `auto` (the default): multinomial below {@link POISSON_FROM_UNITS} units; from there on, a column with few
 *   distinct values stays multinomial by counts (exact and fast) and the others are drawn with Poisson weights.
 *
 * Under a Poisson law a column is drawn by counts only when its distinct differences (per stratum) are at most a
 * quarter of the units, {@link HISTOGRAM_SHARE}: that is when the SQL of `retrieval-gate sql` sends the column's
 * histogram, so the gate makes the same choice from rows and from a warehouse's aggregates. The sign-flip test's
 * law never changes (every sign fair and independent): under a Poisson law only its random stream does.
 */
export type ResamplingLaw = 'multinomial' | 'poisson'

/**
 * Units from which `auto` draws by Poisson weights. Below it, the multinomial draws by index read values that
 * sit in cache and cost about as much as the weights' hashing (measured, docs/scale.md), and every report of
 * the project's goldens and benchmarks up to 20,000 queries keeps its bytes.
 */
export const POISSON_FROM_UNITS = 50_000

/** A column is drawn by counts under a Poisson law only when its distinct values are at most units / this. */
export const HISTOGRAM_SHARE = 4

/**
 * …and at most this many. The SQL sends a shard's histogram of a column when it has at most this many values: a
 * bound that does not depend on the shard's size, so that a column with few values overall has a histogram
 * from every shard (a per-shard share of its rows would not).
 */
export const HISTOGRAM_MAX_VALUES = 65536

/** The law of a run from the rules' method and the whole comparison's units. */
export function resamplingLaw(method: StatisticsRules['method'], units: number): ResamplingLaw {
  if (method === 'multinomial') return 'multinomial'
  if (method === 'poisson') return 'poisson'
  return units >= POISSON_FROM_UNITS ? 'poisson' : 'multinomial'
}

/** What a comparison's resamples were drawn by: the run's law, or counts (multinomial) for a column with few values. */
export type ColumnLaw = 'multinomial' | 'poisson'

/** Plans for a subset's bootstrap and sign-flip test under the run's law. */
export interface Resampling {
  readonly law: ResamplingLaw
  /** Units of the whole comparison the law was chosen from. */
  readonly units: number
  /** The bootstrap of a subset's design (members: its rows in the table), and per column the law it used. */
  bootstrap(
    design: Design,
    members: Int32Array,
    stream: string,
    scratch?: Float64Array
  ): { plan: KernelPlan<Float64Array[]>; laws: ColumnLaw[] }
  /** The sign-flip test of a subset's design. */
  flips(design: Design, members: Int32Array, stream: string): KernelPlan<Randomization>
}

/** The resampling of a run over this table (keys of the units are computed once, only under a Poisson law). */
export function createResampling(table: PairedTable, statistics: StatisticsRules): Resampling {
  const cluster = statistics.cluster === undefined ? undefined : (table.attrs.get(statistics.cluster) as string[])
  const units = cluster ? new Set(cluster).size : table.ids.length
  const law = resamplingLaw(statistics.method, units)
  const { resamples, permutations, seed } = statistics
  if (law === 'multinomial') {
    return {
      law,
      units,
      bootstrap: (design, _members, stream, scratch) => ({
        plan: bootstrapPlan(design, { resamples, seed, stream, scratch }),
        laws: new Array<ColumnLaw>(design.k).fill('multinomial')
      }),
      flips: (design, _members, stream) => signFlipPlan(design, { permutations, seed, stream })
    }
  }
  const keyed = seedKeys(seed)
  const unitKeys = unitKeysOf(table, cluster)
  const everyColumn = statistics.method === 'poisson'
  // A column's distinct values, known from its groups once the bootstrap built them (the sign-flip test asks again).
  const distinctOf = new WeakMap<Design, Map<number, number>>()
  const few = (design: Design, c: number): boolean => {
    const known = distinctOf.get(design)?.get(c)
    return known === undefined ? fewDistinct(design, c) : fewOf(known, design.units)
  }
  return {
    law,
    units,
    bootstrap(design, members, stream, scratch) {
      const laws = new Array<ColumnLaw>(design.k).fill('multinomial')
      let keys: UnitKeys | undefined
      const draw: IndexDraw = {
        byCounts: (groups: Groups, c: number) => {
          if (groups.values.length * COUNTS_PER_GROUP > design.units) return false
          let memo = distinctOf.get(design)
          if (!memo) distinctOf.set(design, (memo = new Map<number, number>()))
          memo.set(c, groups.distinct)
          return !everyColumn && fewOf(groups.distinct, design.units)
        },
        job(columns, out) {
          for (const c of columns) laws[c] = 'poisson'
          keys ??= unitKeys(design, members)
          return poissonJob({ design, columns, keys, seed: keyed.weights, resamples, out })
        }
      }
      return { plan: bootstrapPlan(design, { resamples, seed, stream, scratch, draw }), laws }
    },
    flips(design, members, stream) {
      const flips: FlipDraw = {
        byCounts: (c) => few(design, c),
        job: (input) => hashFlipJob({ ...input, keys: unitKeys(design, members), seed: keyed.signs, permutations })
      }
      return signFlipPlan(design, { permutations, seed, stream, flips })
    }
  }
}

/**
 * At most units / {@link HISTOGRAM_SHARE} and at most {@link HISTOGRAM_MAX_VALUES} distinct values: a column a Poisson
 * law draws by counts, from rows and from a warehouse's histograms (src/stats/sums-draws.ts) alike.
 */
export function fewOf(distinct: number, units: number): boolean {
  return distinct * HISTOGRAM_SHARE <= units && distinct <= HISTOGRAM_MAX_VALUES
}

/**
 * Column c's distinct values, stratum by stratum (equal doubles are one value, -0 and 0 too, as SQL's GROUP BY
 * counts them), are at most the units / {@link HISTOGRAM_SHARE} and at most {@link HISTOGRAM_MAX_VALUES}.
 */
function fewDistinct(design: Design, c: number): boolean {
  const { k, values } = design
  let distinct = 0
  for (const s of design.strata) {
    const sorted = new Float64Array(s.size)
    for (let i = 0; i < s.size; i++) sorted[i] = values[(s.start + i) * k + c]
    sorted.sort()
    for (let i = 0; i < s.size; i++) if (i === 0 || sorted[i] !== sorted[i - 1]) distinct++
    if (distinct * HISTOGRAM_SHARE > design.units || distinct > HISTOGRAM_MAX_VALUES) return false
  }
  return true
}

/**
 * The keys of a design's units: the md5 of each query id (computed once per table row) or of each cluster's
 * value (once per value), in the design's unit order.
 */
function unitKeysOf(
  table: PairedTable,
  cluster: string[] | undefined
): (design: Design, members: Int32Array) => UnitKeys {
  let rows: UnitKeys | undefined
  const byValue = new Map<string, [number, number]>()
  const rowKeys = (): UnitKeys => (rows ??= keysOf(table.ids, workerInts))
  return (design, members) => {
    const keys1 = workerInts(design.units)
    const keys2 = workerInts(design.units)
    if (cluster) {
      members.forEach((row, j) => {
        const value = cluster[row]
        let key = byValue.get(value)
        if (!key) byValue.set(value, (key = md5Head(value)))
        keys1[design.unitOfMember[j]] = key[0]
        keys2[design.unitOfMember[j]] = key[1]
      })
    } else {
      const all = rowKeys()
      members.forEach((row, j) => {
        keys1[design.unitOfMember[j]] = all.keys1[row]
        keys2[design.unitOfMember[j]] = all.keys2[row]
      })
    }
    return { keys1, keys2 }
  }
}

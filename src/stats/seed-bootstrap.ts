import { BLOCK, blockState, xoshiro128ss } from './rng.js'
import { maxOf, minOf } from '../util/extent.js'

/**
 * Seed replicates: the same exam scored for several independently trained seeds of each side. A bootstrap
 * over queries alone sees one draw of training noise per side and so claims more certainty than the data
 * hold; comparing training methods needs the spread between seeds in the interval too.
 *
 * One value per seed and query: `base[s][q]` (baseline seed s), `cand[s][q]` (candidate seed s), every row over
 * the same queries in the same order.
 */
export interface SeedColumns {
  base: Float64Array[]
  cand: Float64Array[]
}

/** Mean over the seeds of query q (summed in seed order: the averaged rows use the same order, to the bit). */
export function seedMean(rows: Float64Array[], q: number): number {
  let s = 0
  for (const row of rows) s += row[q]
  return s / rows.length
}

/**
 * The two-level bootstrap distribution of the difference of seed-averaged means, (1/n) Σ_q [ mean_s cand[s][q] −
 * mean_s base[s][q] ] (as every seed covers the same queries, also mean_s(seed mean of cand) − mean_s(seed mean of
 * base)), sorted ascending. Per resample: each side's seeds are drawn with replacement (as many as it has,
 * independently per side: the two trainings are independent), then the queries are drawn with replacement once,
 * shared by both sides and every seed (the pairing by query is kept). The statistic is recomputed on the drawn seeds and queries.
 *
 * Cost O(resamples · (seeds_b + seeds_c) · n): per resample each drawn query's seed-weighted difference is
 * summed. Blocks of {@link BLOCK} resamples each have their own stream from (seed, stream, block), as the
 * query bootstrap does, so raising `resamples` keeps the first ones. Indices come from one uint32 by
 * multiply-shift (floor(r · size / 2^32), by `| 0`: no global Math lookup in the loop).
 */
export function seedBootstrap(columns: SeedColumns, resamples: number, seed: string, stream: string): Float64Array {
  const out = new Float64Array(resamples)
  const sb = columns.base.length
  const sc = columns.cand.length
  const n = columns.base[0]?.length ?? 0
  if (n === 0 || sb === 0 || sc === 0) return out.fill(Number.NaN)
  const wb = new Float64Array(sb)
  const wc = new Float64Array(sc)
  // Per query: the drawn seeds' weighted difference; recomputed once per resample (seeds first, then queries).
  const y = new Float64Array(n)
  const TWO32 = 4294967296
  for (let start = 0, block = 0; start < resamples; start += BLOCK, block++) {
    const next = xoshiro128ss(blockState(seed, stream, block))
    const end = Math.min(resamples, start + BLOCK)
    for (let r = start; r < end; r++) {
      wb.fill(0)
      wc.fill(0)
      for (let k = 0; k < sb; k++) wb[((next() * sb) / TWO32) | 0] += 1 / sb
      for (let k = 0; k < sc; k++) wc[((next() * sc) / TWO32) | 0] += 1 / sc
      y.fill(0)
      for (let s = 0; s < sc; s++) if (wc[s] !== 0) addScaled(y, columns.cand[s], wc[s])
      for (let s = 0; s < sb; s++) if (wb[s] !== 0) addScaled(y, columns.base[s], -wb[s])
      let sum = 0
      for (let j = 0; j < n; j++) sum += y[((next() * n) / TWO32) | 0]
      out[r] = sum / n
    }
  }
  return out.sort()
}

function addScaled(y: Float64Array, row: Float64Array, w: number): void {
  for (let q = 0; q < y.length; q++) y[q] += w * row[q]
}

/** One side's seeds, summarised: each seed's mean over the queries, their standard deviation (n − 1) and range. */
export interface SeedSpread {
  means: number[]
  /** Sample standard deviation of the seed means; null with one seed (no spread can be measured). */
  sd: number | null
  min: number
  max: number
}

/** The spread between one side's seeds (the seed means over the same queries). */
export function seedSpread(rows: Float64Array[]): SeedSpread {
  const means = rows.map((row) => {
    let s = 0
    for (const v of row) s += v
    return row.length === 0 ? Number.NaN : s / row.length
  })
  const k = means.length
  const mean = means.reduce((a, b) => a + b, 0) / k
  const sd = k < 2 ? null : Math.sqrt(means.reduce((a, m) => a + (m - mean) ** 2, 0) / (k - 1))
  return { means, sd, min: minOf(means), max: maxOf(means) }
}

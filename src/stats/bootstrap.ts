import type { Rng } from './rng.js'

/**
 * Paired percentile bootstrap with one resampling plan shared by every column: for each resample the
 * members of the subset are drawn once (with replacement) and the means of all columns (one per metric's
 * per-query differences) are accumulated in the same pass. Returns, per column, the resampled means sorted
 * ascending, from which any quantile (and so any confidence level) can be read.
 *
 * Drawing is index-by-index from the seeded stream, so the result depends only on the seed, the subset's
 * members (in the table's fixed order) and the column values.
 */
export function bootstrapMeans(columns: Float64Array[], members: Int32Array, resamples: number, rng: Rng): Float64Array[] {
  const m = members.length
  const k = columns.length
  const out = columns.map(() => new Float64Array(resamples))
  if (m === 0) {
    for (const o of out) o.fill(Number.NaN)
    return out
  }
  const sums = new Float64Array(k)
  for (let b = 0; b < resamples; b++) {
    sums.fill(0)
    for (let j = 0; j < m; j++) {
      const i = members[(rng() * m) | 0]
      for (let c = 0; c < k; c++) sums[c] += columns[c][i]
    }
    for (let c = 0; c < k; c++) out[c][b] = sums[c] / m
  }
  for (const o of out) o.sort()
  return out
}

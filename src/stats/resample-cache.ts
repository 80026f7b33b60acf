import { bcaInterval, percentileInterval, type Interval } from './bca.js'
import { acceleration, type StratumMoments } from './moments.js'
import { selectableResamples, type Resamples } from '../util/order-statistics.js'

/**
 * Bytes of resamples kept for later confidences (16 MiB: the last 40 subsets at 5 metrics x 10,000
 * resamples). Beyond it the least recently used subset's resamples are dropped and, if a confidence not yet
 * computed is asked of it, drawn again: the same bytes, since a subset's stream is named by its key.
 */
export const RESAMPLE_CACHE_BYTES = 16 * 2 ** 20

/** The resamples of recent subsets, per column, least recently used first out (Map order is use order). */
export interface ResampleCache {
  get(key: string): Resamples[] | undefined
  set(key: string, columns: Resamples[]): void
}

/**
 * A cache of at most `budget` bytes of resamples (the newest entry is kept even when it alone is larger): what
 * keeps the memory of a gate with thousands of slice values from growing with resamples x slices.
 */
export function createResampleCache(budget: number): ResampleCache {
  const entries = new Map<string, { columns: Resamples[]; bytes: number }>()
  let total = 0
  return {
    get(key) {
      const e = entries.get(key)
      if (!e) return undefined
      entries.delete(key)
      entries.set(key, e)
      return e.columns
    },
    set(key, columns) {
      const old = entries.get(key)
      if (old) total -= old.bytes
      entries.delete(key)
      const bytes = columns.reduce((n, c) => n + 8 * c.size, 0)
      entries.set(key, { columns, bytes })
      total += bytes
      for (const [k, e] of entries) {
        if (total <= budget || k === key) break
        entries.delete(k)
        total -= e.bytes
      }
    }
  }
}

/** Every column's resamples as a view that selects ranks (the arrays are rearranged in place, never copied). */
export function resampleViews(columns: Float64Array[]): Resamples[] {
  return columns.map((column) => selectableResamples(column))
}

/**
 * Every column's bootstrap interval at one confidence, by the rules' method: all a comparison reads of the
 * resamples, so a subset keeps these few numbers per confidence instead of its resamples. The one place for rows
 * (subset-stats.ts) and a warehouse's sums (aggregate-engine.ts); BCa reads each column's estimate and moments.
 */
export function columnIntervals(
  resamples: ReadonlyArray<Float64Array | Resamples>,
  method: 'percentile' | 'bca',
  confidence: number,
  bca: { estimate(c: number): number; moments(c: number): readonly StratumMoments[] }
): Interval[] {
  return resamples.map((r, c) =>
    method === 'bca'
      ? bcaInterval(r, bca.estimate(c), acceleration(bca.moments(c)), confidence)
      : { ci: percentileInterval(r, confidence), method: 'percentile' as const, note: null }
  )
}

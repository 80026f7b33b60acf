import type { PairedTable } from '../align/pair.js'
import { quantileOfRanks } from '../util/quantile.js'
import { selectableResamples } from '../util/order-statistics.js'
import type { SideEvidence } from './evidence.js'

/**
 * Whole-class failures. A mean can hold steady while one kind of question stops working altogether (the
 * candidate finds nothing for every "billing" question and a little more for the rest). Per slice this
 * reports the share of queries with zero hits (no relevant document in the top k) and the distribution of
 * each gated metric (quantiles, not only the mean).
 */

/** The quantile levels reported (type 7, as numpy.percentile). */
export const QUANTILES = [0, 0.1, 0.25, 0.5, 0.75, 0.9, 1] as const

export interface SliceZeroHits {
  /** [] for all queries, or [[attribute, value]]. */
  slice: Array<[string, string]>
  n: number
  /** Share of the slice's queries with no relevant document in the top k (null without run evidence). */
  baseline: number | null
  candidate: number | null
  /** Per gated metric: quantiles of each side's values over the slice. */
  distributions: Array<{ metric: string; baseline: number[]; candidate: number[] }>
}

export interface ZeroHitResult {
  depth: number
  /** False when the sides are per-query rows (no rankings): zero-hit shares are null. */
  fromRuns: boolean
  slices: SliceZeroHits[]
}

/** True when the query has no document graded >= 1 in its top `depth` (or is absent from the run). */
function zeroHit(ev: SideEvidence, id: string, depth: number): boolean {
  const q = ev.queries.get(id)
  if (q === undefined) return true
  const limit = Math.min(depth, q.top.length)
  for (let i = 0; i < limit; i++) if (q.topGrades[i] >= 1) return false
  return true
}

/** What the zero-hit table is drawn over. */
export interface ZeroHitOptions {
  /** Attributes each of whose values gets a row of its own (after the row of all queries). */
  slices: readonly string[]
  /** The gated metrics whose distributions each row shows. */
  metrics: readonly string[]
  /** A query has zero hits when nothing graded >= 1 is in its top `depth`. */
  depth: number
}

/**
 * Zero-hit shares and metric distributions, overall and for every value of every `slices` attribute; the shares
 * need both runs' evidence (null with per-query rows: then only the distributions).
 */
export function analyseZeroHits(
  table: PairedTable,
  evidence: { baseline: SideEvidence; candidate: SideEvidence } | null,
  options: ZeroHitOptions
): ZeroHitResult {
  const { slices, metrics, depth } = options
  const groups: Array<{ slice: Array<[string, string]>; members: number[] }> = [
    { slice: [], members: table.ids.map((_, i) => i) }
  ]
  for (const attr of slices) {
    const column = table.attrs.get(attr)
    if (column === undefined) continue
    const byValue = new Map<string, number[]>()
    column.forEach((v, i) => {
      const list = byValue.get(v) ?? []
      list.push(i)
      byValue.set(v, list)
    })
    for (const value of [...byValue.keys()].sort())
      groups.push({ slice: [[attr, value]], members: byValue.get(value) as number[] })
  }
  const share = (ev: SideEvidence, members: number[]): number => {
    let zero = 0
    for (const i of members) if (zeroHit(ev, table.ids[i], depth)) zero++
    return members.length > 0 ? zero / members.length : 0
  }
  return {
    depth,
    fromRuns: evidence !== null,
    slices: groups.map(({ slice, members }) => ({
      slice,
      n: members.length,
      baseline: evidence ? share(evidence.baseline, members) : null,
      candidate: evidence ? share(evidence.candidate, members) : null,
      distributions: metrics
        .filter((m) => table.metrics.has(m))
        .map((metric) => {
          const col = table.metrics.get(metric) as { base: Float64Array; cand: Float64Array }
          return { metric, baseline: quantilesOf(col.base, members), candidate: quantilesOf(col.cand, members) }
        })
    }))
  }
}

function quantilesOf(values: Float64Array, members: number[]): number[] {
  // A plain loop: Float64Array.from with a mapping function is about twice as slow on every slice.
  const picked = new Float64Array(members.length)
  for (let k = 0; k < members.length; k++) picked[k] = values[members[k]]
  // Seven quantiles by selection, the values a sort would give (a sort of 10^6 values per metric and side was 0.7 s).
  const ranked = selectableResamples(picked)
  return QUANTILES.map((p) => quantileOfRanks(ranked.size, ranked.at, p))
}

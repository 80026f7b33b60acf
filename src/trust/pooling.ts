import type { PairedTable } from '../align/pair.js'
import type { ParsedMeasure } from '../config/measures.js'
import { NOT_JUDGED } from '../metrics/compute.js'
import { fromByteString } from '../util/order.js'
import type { SideEvidence } from './evidence.js'

/**
 * Pooling bias. Judgments made from the old system's results cover what the old system found; a new
 * system that finds other relevant documents meets unjudged ones, which every measure counts as not
 * relevant, so it can score lower while being better. This module measures how much of each side's top k
 * has no usable grade, lists the pooled unjudged documents to send for judging, and recomputes the gated
 * measures on condensed rankings (unjudged documents removed, as trec_eval -J; Sakai 2007) as a second
 * opinion.
 *
 * A document is unjudged when it has no judgment line or a negative grade (in the pool but not judged).
 */

/** One side's judged coverage of its top k. */
export interface SidePooling {
  /** Mean over queries with at least one retrieved document of the judged share of the top k. */
  meanJudged: number
  meanUnjudged: number
  /** Queries averaged over, and queries with nothing retrieved (left out of the mean, counted here). */
  queries: number
  emptyRankings: number
  retrievedDocs: number
  unjudgedDocs: number
}

/** One query of the to-judge file: the pooled top-k documents of both sides without a usable grade. */
export interface ToJudgeEntry {
  queryId: string
  documents: Array<{
    docId: string
    baselineRank: number | null
    candidateRank: number | null
    pooledUnjudged: boolean
  }>
}

/** A gated measure on full and on condensed rankings (mean over the paired queries). */
export interface CondensedComparison {
  metric: string
  n: number
  full: { baseline: number; candidate: number; delta: number }
  condensed: { baseline: number; candidate: number; delta: number }
  /** The two deltas point in opposite directions (one > 0, the other < 0). */
  directionDiffers: boolean
}

export interface PoolingResult {
  depth: number
  baseline: SidePooling
  candidate: SidePooling
  /** Judged share of the top k per query and side, in table order (null: nothing retrieved). */
  perQuery: Array<{ id: string; baseline: number | null; candidate: number | null }>
  /** The union of both top k per query. */
  pool: { documents: number; unjudged: number; queriesWithUnjudged: number }
  toJudge: ToJudgeEntry[]
  condensed: CondensedComparison[]
}

const usable = (grade: number): boolean => grade >= 0

/** Judged share of one query's top `depth`, or null when nothing was retrieved. */
function judgedShare(
  ev: SideEvidence,
  id: string,
  depth: number
): { share: number | null; retrieved: number; unjudged: number } {
  const q = ev.queries.get(id)
  if (q === undefined) return { share: null, retrieved: 0, unjudged: 0 }
  const limit = Math.min(depth, q.top.length)
  let unjudged = 0
  for (let i = 0; i < limit; i++) if (!usable(q.topGrades[i])) unjudged++
  return { share: limit === 0 ? null : (limit - unjudged) / limit, retrieved: limit, unjudged }
}

/** Both sides' run evidence, and the gated measures whose condensed values it holds (in evidence order). */
export interface PoolingEvidence {
  baseline: SideEvidence
  candidate: SideEvidence
  measures: readonly ParsedMeasure[]
}

/** Pooling analysis over the paired queries (table order: fixed summation order), on each side's top `depth`. */
export function analysePooling(table: PairedTable, runs: PoolingEvidence, depth: number): PoolingResult {
  const { baseline: base, candidate: cand, measures } = runs
  const perQuery: PoolingResult['perQuery'] = []
  const sums = { b: 0, c: 0 }
  const sides = { b: emptySide(), c: emptySide() }
  const toJudge: ToJudgeEntry[] = []
  let poolDocs = 0
  let poolUnjudged = 0
  for (const id of table.ids) {
    const b = judgedShare(base, id, depth)
    const c = judgedShare(cand, id, depth)
    perQuery.push({ id, baseline: b.share, candidate: c.share })
    for (const [key, r] of [
      ['b', b],
      ['c', c]
    ] as const) {
      const s = sides[key]
      s.retrievedDocs += r.retrieved
      s.unjudgedDocs += r.unjudged
      if (r.share === null) s.emptyRankings++
      else {
        s.queries++
        sums[key] += r.share
      }
    }
    const docs = new Map<string, { b: number | null; c: number | null; grade: number }>()
    for (const [key, ev] of [
      ['b', base],
      ['c', cand]
    ] as const) {
      const q = ev.queries.get(id)
      if (q === undefined) continue
      const limit = Math.min(depth, q.top.length)
      for (let i = 0; i < limit; i++) {
        const d = docs.get(q.top[i]) ?? { b: null, c: null, grade: q.topGrades[i] }
        d[key] = i + 1
        docs.set(q.top[i], d)
      }
    }
    poolDocs += docs.size
    const missing = [...docs].filter(([, d]) => !usable(d.grade))
    if (missing.length > 0) {
      poolUnjudged += missing.length
      missing.sort((x, y) => bestRank(x[1]) - bestRank(y[1]) || (x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : 0))
      toJudge.push({
        queryId: id,
        documents: missing.map(([doc, d]) => ({
          docId: fromByteString(doc),
          baselineRank: d.b,
          candidateRank: d.c,
          pooledUnjudged: d.grade !== NOT_JUDGED
        }))
      })
    }
  }
  const finish = (s: SidePooling, sum: number): SidePooling => {
    s.meanJudged = s.queries > 0 ? sum / s.queries : 0
    s.meanUnjudged = s.queries > 0 ? 1 - s.meanJudged : 0
    return s
  }
  return {
    depth,
    baseline: finish(sides.b, sums.b),
    candidate: finish(sides.c, sums.c),
    perQuery,
    pool: { documents: poolDocs, unjudged: poolUnjudged, queriesWithUnjudged: toJudge.length },
    toJudge,
    condensed: condensedComparisons(table, base, cand, measures)
  }
}

function emptySide(): SidePooling {
  return { meanJudged: 0, meanUnjudged: 0, queries: 0, emptyRankings: 0, retrievedDocs: 0, unjudgedDocs: 0 }
}

function bestRank(d: { b: number | null; c: number | null }): number {
  return Math.min(d.b ?? Infinity, d.c ?? Infinity)
}

function condensedComparisons(
  table: PairedTable,
  base: SideEvidence,
  cand: SideEvidence,
  measures: readonly ParsedMeasure[]
): CondensedComparison[] {
  const out: CondensedComparison[] = []
  measures.forEach((m, index) => {
    const column = table.metrics.get(m.name)
    if (column === undefined || m.kind === 'Judged' || m.kind === 'NumRet' || m.kind === 'NumRel') return
    const n = table.ids.length
    let fb = 0
    let fc = 0
    let cb = 0
    let cc = 0
    for (let i = 0; i < n; i++) {
      const id = table.ids[i]
      fb += column.base[i]
      fc += column.cand[i]
      // a judged query absent from the run has no evidence: its value (no documents) is the same condensed
      cb += base.queries.get(id)?.condensed[index] ?? column.base[i]
      cc += cand.queries.get(id)?.condensed[index] ?? column.cand[i]
    }
    const mean = (x: number): number => (n > 0 ? x / n : 0)
    const full = { baseline: mean(fb), candidate: mean(fc), delta: mean(fc) - mean(fb) }
    const condensed = { baseline: mean(cb), candidate: mean(cc), delta: mean(cc) - mean(cb) }
    out.push({ metric: m.name, n, full, condensed, directionDiffers: full.delta * condensed.delta < 0 })
  })
  return out
}

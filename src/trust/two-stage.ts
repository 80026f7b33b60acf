import { gainOf } from '../metrics/compute.js'
import type { JudgedQuery } from '../model/qrels.js'
import type { SideEvidence } from './evidence.js'

/**
 * Two-stage diagnostics. A retrieve-then-rerank system can only rank what its first stage found. Comparing
 * the ranker's nDCG@k with the best nDCG@k achievable inside the candidate pool (the pool's grades sorted,
 * over the ideal DCG of ALL judgments) tells whether recall (the pool) or ranking is the bottleneck. The
 * ideal must come from all judgments: an ideal computed from the pool alone calls any ordering of a poor
 * pool perfect.
 */

export type Gain = 'linear' | 'exp'

/** DCG of grades in the given order, cut at k (discount log2(rank + 1), as trec_eval). */
export function dcg(grades: ArrayLike<number>, k: number, g: Gain): number {
  let sum = 0
  const limit = Math.min(k, grades.length)
  for (let i = 0; i < limit; i++) if (grades[i] > 0) sum += gainOf(grades[i], g === 'exp') / Math.log2(i + 2)
  return sum
}

/** Grades (>= 0) of a list of documents (byte strings); unjudged ones count 0. */
function gradesOf(judged: JudgedQuery, docs: readonly string[]): number[] {
  return docs.map((d) => Math.max(0, judged.grades.get(d) ?? 0))
}

/** nDCG@k of a ranking, with the ideal from all of the query's judgments. */
export function ndcgAt(judged: JudgedQuery, ranking: readonly string[], k: number, g: Gain): number {
  const ideal = dcg(judged.gradesDesc, k, g)
  return ideal > 0 ? dcg(gradesOf(judged, ranking), k, g) / ideal : 0
}

/** The best nDCG@k any ordering of `pool` can reach (ideal from all judgments). */
export function poolCeiling(judged: JudgedQuery, pool: readonly string[], k: number, g: Gain): number {
  const ideal = dcg(judged.gradesDesc, k, g)
  const best = gradesOf(judged, pool).sort((a, b) => b - a)
  return ideal > 0 ? dcg(best, k, g) / ideal : 0
}

/** Share of the query's relevant documents (grade >= 1) that are in the pool: Recall@N of the pool. */
export function poolCoverage(judged: JudgedQuery, pool: readonly string[]): number {
  const inPool = new Set(pool)
  let relevant = 0
  let found = 0
  for (const [doc, grade] of judged.grades) {
    if (grade < 1) continue
    relevant++
    if (inPool.has(doc)) found++
  }
  return relevant > 0 ? found / relevant : 0
}

export interface TwoStageSide {
  /** Queries with candidates (the others are counted in `withoutCandidates`). */
  queries: number
  withoutCandidates: number
  meanPoolSize: number
  /** Mean Recall@N of the pool. */
  coverage: number
  /** Mean nDCG@k of the final ranking, and mean best nDCG@k inside the pool. */
  ranker: number
  ceiling: number
  /** Queries whose final top k holds documents that are not in the pool (a sign the pool is not the ranker's input). */
  rankedOutsidePool: number
}

export interface TwoStageResult {
  k: number
  gain: Gain
  baseline: TwoStageSide | null
  candidate: TwoStageSide | null
}

/** The depth the ranker and the pool are compared at, and the gain nDCG uses (rules two_stage). */
export interface TwoStageDepth {
  k: number
  gain: Gain
}

/** Two-stage diagnostics of one side over the given queries (fixed order), or null when it has no candidates. */
export function analyseTwoStage(
  ids: readonly string[],
  ev: SideEvidence,
  judgments: ReadonlyMap<string, JudgedQuery>,
  at: TwoStageDepth
): TwoStageSide | null {
  const { k, gain: g } = at
  if (ev.candidates === null) return null
  let queries = 0
  let without = 0
  let size = 0
  let coverage = 0
  let ranker = 0
  let ceiling = 0
  let outside = 0
  for (const id of ids) {
    const judged = judgments.get(id)
    const pool = ev.candidates.get(id)
    if (judged === undefined) continue
    if (pool === undefined) {
      without++
      continue
    }
    const ranking = ev.queries.get(id)?.top.slice(0, k) ?? []
    queries++
    size += pool.length
    coverage += poolCoverage(judged, pool)
    ranker += ndcgAt(judged, ranking, k, g)
    ceiling += poolCeiling(judged, pool, k, g)
    const inPool = new Set(pool)
    if (ranking.some((d) => !inPool.has(d))) outside++
  }
  const mean = (x: number): number => (queries > 0 ? x / queries : 0)
  return {
    queries,
    withoutCandidates: without,
    meanPoolSize: mean(size),
    coverage: mean(coverage),
    ranker: mean(ranker),
    ceiling: mean(ceiling),
    rankedOutsidePool: outside
  }
}

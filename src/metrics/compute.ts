import type { ParsedMeasure } from '../config/measures.js'
import { countRelevant, type JudgedQuery } from '../model/qrels.js'

/**
 * The per-query measures, as pure functions of one query's ranked judgments. Each mirrors the trec_eval
 * 10.0 source of its counterpart line by line (same loops, same order of additions, same divisions), so
 * values agree to the last printed digit, not just approximately.
 */

/** Rank value of a retrieved document that has no judgment (trec_eval RELVALUE_NONPOOL). */
export const NOT_JUDGED = -1
/** Rank value of a retrieved document judged with a negative grade (trec_eval RELVALUE_UNJUDGED). */
export const POOLED_UNJUDGED = -2

let log2Table = new Float64Array(0)

/** log2(i + 2) for rank index i, cached (trec_eval divides gains by log2(rank + 1)). */
function discounts(n: number): Float64Array {
  if (log2Table.length < n) {
    const size = Math.max(n, log2Table.length * 2, 1024)
    const table = new Float64Array(size)
    for (let i = 0; i < size; i++) table[i] = Math.log2(i + 2)
    log2Table = table
  }
  return log2Table
}

/** A grade's gain in DCG: the grade, or 2^grade − 1 (exp); 0 for a grade of 0 or below. The two-stage diagnostics' too. */
export function gainOf(grade: number, exp: boolean): number {
  if (grade <= 0) return 0
  return exp ? Math.pow(2, grade) - 1 : grade
}

/** One query's ranking after the depth cut, as the measures read it. */
export interface Ranking {
  /** grades[i]: the grade of the document at rank i+1 ({@link NOT_JUDGED} or {@link POOLED_UNJUDGED} when it has none). */
  grades: Int32Array
  /** How many ranks are valid; 0 for a judged query absent from the run (trec_eval's `-c` zeros). */
  n: number
  docs?: RankedDocs
}

/** Computes every measure for one query into `out` (one slot per measure, in order). */
export function computeQuery(
  measures: readonly ParsedMeasure[],
  ranking: Ranking,
  judged: JudgedQuery,
  out: Float64Array
): void {
  for (let m = 0; m < measures.length; m++) out[m] = computeOne(measures[m], ranking, judged)
}

/**
 * The document ids behind a ranking's grades (rank i+1 is `docnos[order[i]]`, byte strings). Only FactRecall@k
 * needs them; without them it scores 0 (a query absent from the run).
 */
export interface RankedDocs {
  docnos: readonly string[]
  order: ArrayLike<number>
}

function computeOne(measure: ParsedMeasure, ranking: Ranking, judged: JudgedQuery): number {
  const { grades: ranked, n, docs } = ranking
  const rel = measure.rel
  const k = measure.cutoff
  switch (measure.kind) {
    case 'P': {
      // m_P.c: relevant in the top k over k (missing ranks count as non-relevant)
      return relevantInTop(ranked, Math.min(n, k!), rel) / k!
    }
    case 'R': {
      // m_recall.c: 0 without relevant documents
      const numRel = countRelevant(judged, rel)
      if (numRel === 0) return 0
      return relevantInTop(ranked, Math.min(n, k!), rel) / numRel
    }
    case 'R_cap': {
      // not in trec_eval: denominator min(|relevant|, k), so a perfect top k scores 1
      const numRel = countRelevant(judged, rel)
      if (numRel === 0) return 0
      return relevantInTop(ranked, Math.min(n, k!), rel) / Math.min(numRel, k!)
    }
    case 'Success': {
      // m_success.c
      return relevantInTop(ranked, Math.min(n, k!), rel) > 0 ? 1 : 0
    }
    case 'RR': {
      // m_recip_rank.c (with a cutoff: 0 when the first relevant document is below k)
      const limit = k === null ? n : Math.min(n, k)
      for (let i = 0; i < limit; i++) if (ranked[i] >= rel) return 1 / (i + 1)
      return 0
    }
    case 'AP':
      // m_map.c / m_map_cut.c: precision at each relevant retrieved document, over ALL relevant documents
      return averagePrecision(ranking, { judged, rel, k })
    case 'nDCG':
      // m_ndcg.c / m_ndcg_cut.c: DCG of the ranking over the DCG of the ideal ranking of ALL judgments
      return ndcg(ranking, { judged, exp: measure.gain === 'exp', k })
    case 'Rprec': {
      // m_Rprec.c
      const numRel = countRelevant(judged, rel)
      const look = Math.min(n, numRel)
      if (look === 0) return 0
      return relevantInTop(ranked, look, rel) / numRel
    }
    case 'Bpref':
      // m_bpref.c: judged non-relevant = grade in [0, rel); unjudged and negative grades are skipped
      return bpref(ranking, { judged, rel })
    case 'Judged': {
      // share of the top k with a judgment line (any grade, negative included); missing ranks count as unjudged
      const limit = Math.min(n, k!)
      let judgedCount = 0
      for (let i = 0; i < limit; i++) if (ranked[i] !== NOT_JUDGED) judgedCount++
      return judgedCount / k!
    }
    case 'NumRet':
      return n
    case 'FactRecall':
      return factRecall(judged, Math.min(n, k!), rel, docs)
    case 'NumRel':
      return countRelevant(judged, rel)
  }
}

/** m_map.c / m_map_cut.c: the precision at each relevant retrieved document, summed over ALL relevant documents. */
function averagePrecision(ranking: Ranking, at: { judged: JudgedQuery; rel: number; k: number | null }): number {
  const { grades: ranked, n } = ranking
  const { judged, rel, k } = at
  const numRel = countRelevant(judged, rel)
  if (numRel === 0) return 0
  const limit = k === null ? n : Math.min(n, k)
  let relSoFar = 0
  let sum = 0
  for (let i = 0; i < limit; i++) {
    if (ranked[i] >= rel) {
      relSoFar++
      sum += relSoFar / (i + 1)
    }
  }
  return relSoFar ? sum / numRel : 0
}

/** m_ndcg.c / m_ndcg_cut.c: the ranking's DCG over the DCG of the ideal ranking of all judgments. */
function ndcg(ranking: Ranking, at: { judged: JudgedQuery; exp: boolean; k: number | null }): number {
  const { grades: ranked, n } = ranking
  const { judged, exp, k } = at
  const limit = k === null ? n : Math.min(n, k)
  const ideal = judged.gradesDesc
  const idealLimit = k === null ? ideal.length : Math.min(ideal.length, k)
  const d = discounts(Math.max(limit, idealLimit))
  let dcg = 0
  for (let i = 0; i < limit; i++) {
    const g = ranked[i]
    if (g > 0) dcg += gainOf(g, exp) / d[i]
  }
  let idcg = 0
  for (let i = 0; i < idealLimit; i++) {
    const g = ideal[i]
    if (g <= 0) break
    idcg += gainOf(g, exp) / d[i]
  }
  return idcg > 0 ? dcg / idcg : 0
}

/** m_bpref.c: judged non-relevant is a grade in [0, rel); unjudged and negative grades are skipped. */
function bpref(ranking: Ranking, at: { judged: JudgedQuery; rel: number }): number {
  const { grades: ranked, n } = ranking
  const { judged, rel } = at
  const numRel = countRelevant(judged, rel)
  const numNonrel = judged.gradesDesc.length - numRel
  let nonrelSoFar = 0
  let sum = 0
  for (let j = 0; j < n; j++) {
    const g = ranked[j]
    if (g < 0) continue
    if (g < rel) nonrelSoFar++
    else if (nonrelSoFar > 0) sum += 1 - Math.min(nonrelSoFar, numRel) / Math.min(numNonrel, numRel)
    else sum += 1
  }
  return numRel ? sum / numRel : sum
}

function relevantInTop(ranked: Int32Array, limit: number, rel: number): number {
  let count = 0
  for (let i = 0; i < limit; i++) if (ranked[i] >= rel) count++
  return count
}

/**
 * Not in trec_eval: the share of the query's key facts with at least one supporting document in the top k.
 * Without key facts (TREC judgments, or a question that lists none) every document graded >= rel is its own
 * fact, so FactRecall@k equals R@k. A query with no fact at all scores 0, like R@k.
 */
function factRecall(judged: JudgedQuery, limit: number, rel: number, docs: RankedDocs | undefined): number {
  let facts = judged.facts
  if (facts === undefined || facts.length === 0) {
    const own: string[][] = []
    for (const [doc, g] of judged.grades) if (g >= rel) own.push([doc])
    facts = own
  }
  if (facts.length === 0 || docs === undefined || limit === 0) return 0
  const top = new Set<string>()
  for (let i = 0; i < limit; i++) top.add(docs.docnos[docs.order[i]])
  let found = 0
  for (const fact of facts) {
    for (const doc of fact) {
      if (top.has(doc)) {
        found++
        break
      }
    }
  }
  return found / facts.length
}

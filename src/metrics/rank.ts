import { NOT_JUDGED, POOLED_UNJUDGED } from './compute.js'
import type { JudgedQuery } from '../model/qrels.js'

/**
 * trec_eval's ranking: score descending, ties broken by document id descending in byte order (strcmp on
 * the ids, reversed), then the optional depth cut. Ranks and the order of lines in the file are ignored.
 * Document ids are byte strings (order.ts), so `<` on them is byte order.
 */

let order = new Uint32Array(1024)
let ranked = new Int32Array(1024)

/** One query's retrieved documents as a run lists them: the first `count` ids and scores (a run block). */
export interface RetrievedList {
  docnos: readonly string[]
  scores: Float64Array
  count: number
}

/**
 * Ranks one query's documents and returns their grades in rank order (a shared buffer, valid until the
 * next call) and how many there are after the depth cut. Runs already in score order (the usual case) are
 * detected in one pass and only their runs of tied scores are ordered.
 */
export function rankGrades(
  list: RetrievedList,
  judged: JudgedQuery,
  depth: number | undefined
): { grades: Int32Array; n: number; order: Uint32Array } {
  const { docnos, scores, count } = list
  if (order.length < count) {
    order = new Uint32Array(Math.max(count, order.length * 2))
    ranked = new Int32Array(order.length)
  }
  // Runs usually come in rank order; often only tied scores are out of docno order. Check for that.
  let scoreSorted = true
  let sorted = true
  let tieRun = 1
  let longestTie = 1
  for (let i = 1; i < count; i++) {
    const sa = scores[i - 1]
    const sb = scores[i]
    if (sa < sb) {
      scoreSorted = false
      break
    }
    if (sa === sb) {
      if (!(docnos[i - 1] > docnos[i])) sorted = false
      if (++tieRun > longestTie) longestTie = tieRun
    } else tieRun = 1
  }
  // long runs of ties would make the insertion sort quadratic: sort those rankings whole
  if (!sorted && longestTie > 64) scoreSorted = false
  const idx = order.subarray(0, count)
  for (let i = 0; i < count; i++) idx[i] = i
  if (!scoreSorted) {
    idx.sort((a, b) => {
      const sa = scores[a]
      const sb = scores[b]
      if (sa > sb) return -1
      if (sa < sb) return 1
      const da = docnos[a]
      const db = docnos[b]
      return da > db ? -1 : da < db ? 1 : 0
    })
  } else if (!sorted) {
    // insertion sort inside each run of equal scores, docno descending
    let runStart = 0
    for (let i = 1; i <= count; i++) {
      if (i < count && scores[i] === scores[runStart]) continue
      for (let j = runStart + 1; j < i; j++) {
        const v = idx[j]
        const d = docnos[v]
        let k = j - 1
        while (k >= runStart && docnos[idx[k]] < d) {
          idx[k + 1] = idx[k]
          k--
        }
        idx[k + 1] = v
      }
      runStart = i
    }
  }
  const n = depth !== undefined && depth < count ? depth : count
  const grades = judged.grades
  for (let i = 0; i < n; i++) {
    const g = grades.get(docnos[idx[i]])
    ranked[i] = g === undefined ? NOT_JUDGED : g < 0 ? POOLED_UNJUDGED : g
  }
  // order[i] is the index (into docnos) of the document at rank i+1: shared buffer, valid until the next call
  return { grades: ranked, n, order: idx }
}

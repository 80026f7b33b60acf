import { NOT_JUDGED, POOLED_UNJUDGED } from './compute.js'
import type { JudgedQuery } from './qrels.js'

/**
 * trec_eval's ranking: score descending, ties broken by document id descending in byte order (strcmp on
 * the ids, reversed), then the optional depth cut. Ranks and the order of lines in the file are ignored.
 * Document ids are byte strings (order.ts), so `<` on them is byte order.
 */

let order = new Uint32Array(1024)
let ranked = new Int32Array(1024)

/** True when document a (score sa) ranks above document b. */
function above(sa: number, da: string, sb: number, db: string): boolean {
  return sa > sb || (sa === sb && da > db)
}

/**
 * Ranks one query's documents and returns their grades in rank order (a shared buffer, valid until the
 * next call) and how many there are after the depth cut. Runs that are already in rank order (the usual
 * case) are detected in one pass and not sorted.
 */
export function rankGrades(
  docnos: readonly string[],
  scores: Float64Array,
  count: number,
  judged: JudgedQuery,
  depth: number | undefined
): { grades: Int32Array; n: number } {
  if (order.length < count) {
    order = new Uint32Array(Math.max(count, order.length * 2))
    ranked = new Int32Array(order.length)
  }
  let sorted = true
  for (let i = 1; i < count; i++) {
    if (!above(scores[i - 1], docnos[i - 1], scores[i], docnos[i])) {
      sorted = false
      break
    }
  }
  const idx = order.subarray(0, count)
  for (let i = 0; i < count; i++) idx[i] = i
  if (!sorted) {
    idx.sort((a, b) => {
      const sa = scores[a]
      const sb = scores[b]
      if (sa > sb) return -1
      if (sa < sb) return 1
      const da = docnos[a]
      const db = docnos[b]
      return da > db ? -1 : da < db ? 1 : 0
    })
  }
  const n = depth !== undefined && depth < count ? depth : count
  const grades = judged.grades
  for (let i = 0; i < n; i++) {
    const g = grades.get(docnos[idx[i]])
    ranked[i] = g === undefined ? NOT_JUDGED : g < 0 ? POOLED_UNJUDGED : g
  }
  return { grades: ranked, n }
}

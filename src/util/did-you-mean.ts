import { quote } from './show.js'

/**
 * Suggests the closest known name for a misspelt one ("recal@10" -> "recall@10"), because a typo in a rules
 * key or metric name should cost the user seconds, not a debugging session.
 */
export function didYouMean(word: string, known: Iterable<string>): string | undefined {
  let best: string | undefined
  let bestDistance = Infinity
  const lower = word.toLowerCase()
  const limit = Math.max(2, Math.floor(word.length / 3))
  for (const candidate of known) {
    // the distance is at least the difference in length: a name that far off is never suggested, and
    // skipping it keeps a 10 MB field value from costing seconds of edit distance
    if (Math.abs(candidate.length - word.length) > limit) continue
    const d = editDistance(lower, candidate.toLowerCase())
    if (d < bestDistance || (d === bestDistance && best !== undefined && candidate < best)) {
      best = candidate
      bestDistance = d
    }
  }
  if (best === undefined) return undefined
  return bestDistance <= limit ? best : undefined
}

/** ` (did you mean "x"?)` or the empty string. */
export function suggestion(word: string, known: Iterable<string>): string {
  const s = didYouMean(word, known)
  return s === undefined ? '' : ` (did you mean ${quote(s)}?)`
}

/** Levenshtein distance with adjacent transpositions counted as one edit. */
export function editDistance(a: string, b: string): number {
  const m = a.length
  const n = b.length
  let prev2 = new Array<number>(n + 1).fill(0)
  let prev = Array.from({ length: n + 1 }, (_, j) => j)
  let cur = new Array<number>(n + 1).fill(0)
  for (let i = 1; i <= m; i++) {
    cur[0] = i
    for (let j = 1; j <= n; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      let v = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, prev2[j - 2] + 1)
      cur[j] = v
    }
    ;[prev2, prev, cur] = [prev, cur, prev2]
  }
  return prev[n]
}

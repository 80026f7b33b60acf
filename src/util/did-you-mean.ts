import { quote } from './show.js'

/**
 * Suggests the closest known name for a misspelt one ("recal@10" -> "recall@10"), because a typo in a rules
 * key or metric name should cost the user seconds, not a debugging session. Two guards keep the suggestion
 * from changing what is measured: it never proposes another cutoff (`success_10` is never answered with
 * `Success@1`: the number is the user's choice, not a typo), and never one of {@link DISTINCT_STEMS} for the
 * other (ranx `hits@10` counts relevant documents, `hit@10` is 0 or 1).
 */
export function didYouMean(word: string, known: Iterable<string>): string | undefined {
  let best: string | undefined
  let bestDistance = Infinity
  const lower = word.toLowerCase()
  const limit = Math.max(2, Math.floor(word.length / 3))
  const cut = splitCutoff(lower)
  for (const candidate of known) {
    // the distance is at least the difference in length: a name that far off is never suggested, and
    // skipping it keeps a 10 MB field value from costing seconds of edit distance
    if (Math.abs(candidate.length - word.length) > limit) continue
    const other = splitCutoff(candidate.toLowerCase())
    if (!sameCutoff(cut.cutoff, other.cutoff) || distinctStems(cut.stem, other.stem)) continue
    const d = editDistance(lower, candidate.toLowerCase())
    if (d < bestDistance || (d === bestDistance && best !== undefined && candidate < best)) {
      best = candidate
      bestDistance = d
    }
  }
  if (best === undefined) return undefined
  return bestDistance <= limit ? best : undefined
}

/**
 * Measure stems that are spelt alike but measure different things, so one is never offered for the other:
 * ranx `hits` (a count) vs `hit` (0/1), `dcg` (unnormalised) vs `ndcg`, `err` (expected reciprocal rank)
 * vs `rr` / `mrr`.
 */
const DISTINCT_STEMS: ReadonlyArray<readonly [string, string]> = [
  ['hits', 'hit'],
  ['dcg', 'ndcg'],
  ['err', 'rr'],
  ['err', 'mrr']
]

function distinctStems(a: string, b: string): boolean {
  return DISTINCT_STEMS.some(([x, y]) => (a === x && b === y) || (a === y && b === x))
}

/**
 * A name split into its stem and trailing cutoff: `recall@10`, `success_10`, `P.5` → stem `recall` /
 * `success` / `P` and cutoff `10` / `10` / `5`; a name without one has cutoff null. Scans from the end (no
 * regex), so a hostile name costs linear time.
 */
export function splitCutoff(name: string): { stem: string; cutoff: string | null } {
  let i = name.length
  while (i > 0 && name.charCodeAt(i - 1) >= 48 && name.charCodeAt(i - 1) <= 57) i--
  if (i === name.length || i < 2) return { stem: name, cutoff: null }
  const sep = name[i - 1]
  if (sep !== '@' && sep !== '_' && sep !== '.') return { stem: name, cutoff: null }
  return { stem: name.slice(0, i - 1), cutoff: name.slice(i) }
}

/** Two cutoffs that are both written must be the same number; a name without one (`recall@1O`) may still be a typo of one with. */
function sameCutoff(a: string | null, b: string | null): boolean {
  if (a === null || b === null) return true
  return Number(a) === Number(b)
}

/** ` (did you mean "x"?)` or the empty string. */
export function suggestion(word: string, known: Iterable<string>): string {
  const s = didYouMean(word, known)
  return s === undefined ? '' : ` (did you mean ${quote(s)}?)`
}

/** Levenshtein distance with adjacent transpositions counted as one edit. */
function editDistance(a: string, b: string): number {
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

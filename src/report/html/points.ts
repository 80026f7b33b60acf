/**
 * Which queries a scatter draws: all of them up to {@link POINTS_PER_PLOT}; beyond that, the queries that lost
 * most (at most half the cap, worst first) and a fixed sample of the others. The sample is the queries whose
 * id hashes lowest (FNV-1a of the id), so it depends on the ids alone: the same queries are drawn whatever the
 * row order, on every run and in every plot of the page, and a query that is drawn once is drawn next time if
 * it is still there. Holdout queries and non-finite pairs are never drawn (counted instead): a point is a
 * query's per-query values, which the trust boundary keeps from every PR report (src/report/holdout.ts).
 */

/** Most queries one scatter draws (at the cap a scatter is about 260 kB of SVG). */
export const POINTS_PER_PLOT = 2000

export interface PointSelection {
  /** Table indices to draw, in drawing order: the others by index, then those that got worse by index (drawn on top). */
  indices: Int32Array
  /** Which of `indices` got worse (1) in the metric's direction. */
  worse: Uint8Array
  /** Queries that could be drawn (finite on both sides, not holdout), and how many of them got worse. */
  drawable: number
  worseTotal: number
  /** Of the drawn: the worst ones taken first because the cap was reached (0 when every query is drawn). */
  worstTaken: number
  /** Holdout queries not drawn; pairs with a non-finite value not drawn. */
  holdout: number
  nonFinite: number
}

/** 32-bit FNV-1a of a string's UTF-16 code units: a fixed, fast hash for the sample (not for security). */
export function idHash(id: string, offset = 0x811c9dc5): number {
  let h = offset >>> 0
  for (let i = 0; i < id.length; i++) {
    h ^= id.charCodeAt(i)
    h = Math.imul(h, 0x01000193) >>> 0
  }
  return h >>> 0
}

/** One metric's columns as the paired table holds them, and what may be drawn. */
export interface PointColumns {
  ids: readonly string[]
  base: Float64Array
  cand: Float64Array
  sign: number
  isHoldout: (i: number) => boolean
  cap?: number
}

/**
 * The queries to draw for one metric. `sign` is +1 when higher is better, else -1 (worse: sign x (cand - base) < 0).
 * `cap` defaults to {@link POINTS_PER_PLOT}.
 */
export function selectPoints(options: PointColumns): PointSelection {
  const { ids, base, cand, sign } = options
  const cap = Math.max(1, Math.floor(options.cap ?? POINTS_PER_PLOT))
  let holdout = 0
  let nonFinite = 0
  const drawable: number[] = []
  const worseSet = new Uint8Array(ids.length)
  let worseTotal = 0
  for (let i = 0; i < ids.length; i++) {
    if (options.isHoldout(i)) holdout++
    else if (!Number.isFinite(base[i]) || !Number.isFinite(cand[i])) nonFinite++
    else {
      drawable.push(i)
      if (sign * (cand[i] - base[i]) < 0) {
        worseSet[i] = 1
        worseTotal++
      }
    }
  }
  const chosen = new Uint8Array(ids.length)
  let worstTaken = 0
  if (drawable.length <= cap) for (const i of drawable) chosen[i] = 1
  else {
    // The worst first (most lost, ties by index: the ids' fixed order), up to half the cap.
    const worse = drawable.filter((i) => worseSet[i] === 1)
    worse.sort((a, b) => sign * (cand[a] - base[a]) - sign * (cand[b] - base[b]) || a - b)
    worstTaken = Math.min(worse.length, Math.floor(cap / 2))
    for (let k = 0; k < worstTaken; k++) chosen[worse[k]] = 1
    sampleByHash(
      drawable.filter((i) => chosen[i] === 0),
      ids,
      cap - worstTaken
    ).forEach((i) => (chosen[i] = 1))
  }
  const order: number[] = []
  for (const i of drawable) if (chosen[i] === 1 && worseSet[i] === 0) order.push(i)
  for (const i of drawable) if (chosen[i] === 1 && worseSet[i] === 1) order.push(i)
  const indices = Int32Array.from(order)
  return {
    indices,
    worse: Uint8Array.from(order, (i) => worseSet[i]),
    drawable: drawable.length,
    worseTotal,
    worstTaken,
    holdout,
    nonFinite
  }
}

/** The `k` candidates whose ids hash lowest (ties at the threshold by index). */
function sampleByHash(candidates: number[], ids: readonly string[], k: number): number[] {
  if (k >= candidates.length) return candidates
  if (k <= 0) return []
  const hashes = Uint32Array.from(candidates, (i) => idHash(ids[i]))
  const threshold = Uint32Array.from(hashes).sort()[k - 1]
  const out: number[] = []
  for (let j = 0; j < candidates.length; j++) if (hashes[j] < threshold) out.push(candidates[j])
  for (let j = 0; j < candidates.length && out.length < k; j++) if (hashes[j] === threshold) out.push(candidates[j])
  return out
}

import type { GateResult } from '../decide/result.js'
import { metricOf, sliceLabel } from './words.js'

/**
 * Which slice the left tail of the histogram comes from: the mean hides a mixture (many small gains, a few
 * large losses), and the first question a reviewer asks of the losses is "whose?". The tail is the worst
 * tenth of the paired queries (at least one) among those that got worse on the primary metric, worst first
 * as `result.regressions` orders them (ties by id), so the answer is deterministic.
 */
export interface LeftTail {
  /** Queries in the tail. */
  size: number
  attribute: string
  value: string
  /** Tail queries in that slice, the slice's queries, all paired queries. */
  inTail: number
  n: number
  paired: number
}

/** Share of the paired queries that makes the tail. */
const TAIL_SHARE = 0.1

/**
 * The declared slice value (rules `slices`) with the most tail queries; a tie goes to the slice that is more
 * over-represented in the tail (the smaller slice), then to rules order and value order. Null without
 * losses or without declared slices.
 */
export function leftTail(result: GateResult): LeftTail | null {
  const paired = result.coverage.paired
  const worse = result.regressions
  if (worse.length === 0 || result.rules.slices.length === 0) return null
  const size = Math.min(worse.length, Math.max(1, Math.ceil(paired * TAIL_SHARE)))
  const tail = worse.slice(0, size)
  const metric = metricOf(result, result.primaryMetric)
  // Queries per single-attribute slice of the metric, indexed once: a lookup per tail value would scan every
  // comparison (up to 20,000 slice values times the metrics) once per value.
  const sliceN = new Map<string, number>()
  for (const c of result.comparisons) {
    if (c.metric !== metric.name || c.slice.length !== 1) continue
    const key = JSON.stringify(c.slice[0])
    if (!sliceN.has(key)) sliceN.set(key, c.n)
  }
  let best: LeftTail | null = null
  for (const attribute of result.rules.slices) {
    const counts = new Map<string, number>()
    for (const q of tail) {
      const v = q.attrs.find(([k]) => k === attribute)?.[1]
      if (v !== undefined) counts.set(v, (counts.get(v) ?? 0) + 1)
    }
    for (const value of [...counts.keys()].sort()) {
      const inTail = counts.get(value) as number
      const n = sliceN.get(JSON.stringify([attribute, value])) ?? 0
      const candidate: LeftTail = { size, attribute, value, inTail, n, paired }
      if (best === null || inTail > best.inTail || (inTail === best.inTail && n > 0 && best.n > 0 && n < best.n))
        best = candidate
    }
  }
  return best
}

/** "Tail of losses: 18 of the 20 queries that lost most are segment = new (40 of all 200 queries)." RAW text. */
export function leftTailSentence(t: LeftTail): string {
  return `Tail of losses: ${t.inTail} of the ${t.size} ${t.size === 1 ? 'query' : 'queries'} that lost most ${t.inTail === 1 ? 'is' : 'are'} ${sliceLabel([[t.attribute, t.value]])} (a slice of ${t.n} of all ${t.paired} queries).`
}

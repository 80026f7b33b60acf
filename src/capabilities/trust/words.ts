import type { ShareCap } from '../../config/trust-rules.js'
import { describeDifferences } from '../../trust/comparability.js'
import type { CapBreach, TrustGuardReason } from '../../trust/trust.js'
import { percent } from '../../report/format.js'

/**
 * The trust family's reason codes in plain words (RAW: each renderer escapes it for where it goes). The guards
 * return codes and numbers (src/trust/trust.ts); each capability gives these as its `words`, so the Markdown,
 * terminal and JSON reports give the same sentence and the analysis holds none.
 */
type Reason<C extends TrustGuardReason['code']> = Extract<TrustGuardReason, { code: C }>

/** Snapshot comparability's words. */
export const COMPARABILITY_WORDS = {
  comparable: (r: Reason<'comparable'>) => `${r.mustMatch.join(', ')} match`,
  not_comparable: (r: Reason<'not_comparable'>) => `not comparable: ${describeDifferences(r.mismatches)}`
}

/** Pooling bias's words. */
export const POOLING_WORDS = {
  unjudged_within: (r: Reason<'unjudged_within'>) => `${unjudgedNumbers(r)}; within ${limits(r.cap)}`,
  unjudged_above: (r: Reason<'unjudged_above'>) =>
    `${unjudgedNumbers(r)}, above ${breachWords(r.breach)}: the judgments do not cover what the candidate returns, so its scores are biased low; judge the pooled documents that have no grade and rerun`
}

/** Whole-class failures' words. */
export const ZERO_HITS_WORDS = {
  zero_hits_within: (r: Reason<'zero_hits_within'>) =>
    `no slice has more queries without a relevant document in the top ${r.depth} than ${limits(r.cap)} (all queries: candidate ${pct(r.candidate)}, baseline ${pct(r.baseline)})`,
  zero_hits_above: (r: Reason<'zero_hits_above'>) =>
    `queries with no relevant document in the top ${r.depth}: ${r.breaches.map((b) => `${label(b.slice)}: ${pct(b.candidate)} of ${b.n} queries (baseline ${pct(b.baseline)}) above ${breachWords(b.breach)}`).join('; ')}`
}

/** A share as a percentage with one decimal (the trust checks' one format). */
export function pct(x: number): string {
  return percent(x, 1)
}

function unjudgedNumbers(r: { depth: number; baseline: number; candidate: number }): string {
  return `the candidate's top ${r.depth} is ${pct(r.candidate)} unjudged on average, the baseline's ${pct(r.baseline)}`
}

/** The limit a value breaks: "the limit of 20.0%", "the baseline's 5.0% + 10.0% allowed". */
function breachWords(b: CapBreach): string {
  return b.kind === 'share'
    ? `the limit of ${pct(b.share)}`
    : `the baseline's ${pct(b.baseline)} + ${pct(b.increase)} allowed`
}

/** The cap as written: "20.0%", "the baseline + 10.0%", or both joined by "and". */
function limits(cap: ShareCap): string {
  const parts: string[] = []
  if (cap.share !== undefined) parts.push(`${pct(cap.share)}`)
  if (cap.increase !== undefined) parts.push(`the baseline + ${pct(cap.increase)}`)
  return parts.join(' and ')
}

/** A slice in the trust checks' words: "all queries", "category=qa, segment=new". */
export function label(slice: Array<[string, string]>): string {
  return slice.length === 0 ? 'all queries' : slice.map(([k, v]) => `${k}=${v}`).join(', ')
}

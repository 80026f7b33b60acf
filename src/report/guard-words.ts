import type { ShareCap } from '../config/types.js'
import { describeDifferences } from '../trust/comparability.js'
import type { CapBreach, GuardReason } from '../trust/trust.js'
import { percent } from './format.js'
import { judgeGuardSentence } from './judge.js'

/**
 * A trust guard's reason in plain words (RAW: each renderer escapes it for where it goes). The guards return
 * codes and numbers (src/trust/trust.ts); the sentence is written here once, so the Markdown, terminal and
 * JSON reports give the same words and the analysis holds none.
 */
export function guardSentence(reason: GuardReason): string {
  switch (reason.code) {
    case 'comparable':
      return `${reason.mustMatch.join(', ')} match`
    case 'not_comparable':
      return `not comparable: ${describeDifferences(reason.mismatches)}`
    case 'unjudged_within':
      return `${unjudgedNumbers(reason)}; within ${limits(reason.cap)}`
    case 'unjudged_above':
      return `${unjudgedNumbers(reason)}, above ${breachWords(reason.breach)}: the judgments do not cover what the candidate returns, so its scores are biased low; judge the pooled documents that have no grade and rerun`
    case 'zero_hits_within':
      return `no slice has more queries without a relevant document in the top ${reason.depth} than ${limits(reason.cap)} (all queries: candidate ${pct(reason.candidate)}, baseline ${pct(reason.baseline)})`
    case 'zero_hits_above':
      return `queries with no relevant document in the top ${reason.depth}: ${reason.breaches.map((b) => `${label(b.slice)}: ${pct(b.candidate)} of ${b.n} queries (baseline ${pct(b.baseline)}) above ${breachWords(b.breach)}`).join('; ')}`
    case 'judge':
      return judgeGuardSentence(reason)
  }
}

/** A share as a percentage with one decimal (the trust checks' one format). */
function pct(x: number): string {
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

function label(slice: Array<[string, string]>): string {
  return slice.length === 0 ? 'all queries' : slice.map(([k, v]) => `${k}=${v}`).join(', ')
}

import { toJudgeOf } from './slots.js'
import { withheldIds, type GateResult as Result } from '../decide/result.js'
import type { ToJudgeEntry } from '../trust/pooling.js'
import { jsonNumbers } from '../util/json-number.js'
import { jsonLine } from '../util/json-line.js'

/** The file name the action writes the to-judge list under (in its report-dir). */
export const TO_JUDGE_FILE = 'to-judge.jsonl'

/**
 * The to-judge file of a gate result: the pooled top-k documents of both systems that have no graded
 * judgment, one JSON object per query, ready to send for annotation. Empty (no lines) when the pool is
 * fully judged or the sides were per-query rows. Queries a capability withholds (the holdout's) are left out.
 */
export function toJudgeFile(result: Result): string {
  const p = toJudgeOf(result)
  if (!p) return ''
  // Holdout queries are never named one by one in what a PR's run writes (their exam owners judge them apart).
  const withheld = withheldIds(result)
  return toJudgeJsonl(withheld === null ? p.toJudge : p.toJudge.filter((e) => !withheld(e.queryId)), p.depth)
}

/** The to-judge file: one JSON object per query, in query order (byte-identical for the same inputs; numbers as every JSON output writes them). */
export function toJudgeJsonl(entries: readonly ToJudgeEntry[], depth: number): string {
  return entries
    .map((e) =>
      jsonLine(
        {
          query_id: e.queryId,
          depth,
          documents: e.documents.map((d) => ({
            doc_id: d.docId,
            baseline_rank: d.baselineRank,
            candidate_rank: d.candidateRank,
            ...(d.pooledUnjudged ? { pooled_unjudged: true } : {})
          }))
        },
        jsonNumbers
      )
    )
    .join('')
}

import type { GateResult } from '../decide/result.js'
import { toJudgeJsonl } from '../trust/pooling.js'

/** The file name the action writes the to-judge list under (in its report-dir). */
export const TO_JUDGE_FILE = 'to-judge.jsonl'

/**
 * The to-judge file of a gate result: the pooled top-k documents of both systems that have no graded
 * judgment, one JSON object per query, ready to send for annotation. Empty (no lines) when the pool is
 * fully judged or the sides were per-query rows.
 */
export function toJudgeFile(result: GateResult): string {
  const p = result.trust?.pooling
  return p ? toJudgeJsonl(p.toJudge, p.depth) : ''
}

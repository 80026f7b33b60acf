/**
 * A PR result with history: the pass scenario (checks on recall@10 over all queries and mrr@10 per segment)
 * and five past gate runs on main, one of which gated only recall@10 (it has no mrr@10 point), plus two runs
 * that gave no report (one missing, one expired). Shared by the report's unit, GFM and browser tests.
 */
import type { GateResult } from '../../src/decide/result.js'
import type { HistoryInput, PastReport } from '../../src/model/history.js'
import { passScenario } from './scenarios.js'
import { historyCapability } from '../../src/capabilities/history/capability.js'

/** Past values: recall@10 drifting down a little, mrr@10 stable. */
function past(i: number, withMrr = true): PastReport {
  const values: PastReport['values'] = [{ metric: 'recall@10', slice: [], value: 0.7 - i * 0.004 }]
  if (withMrr)
    values.push(
      { metric: 'mrr@10', slice: [], value: 0.55 + (i % 2) * 0.01 },
      { metric: 'mrr@10', slice: [['segment', 'new']], value: 0.5 + i * 0.002 }
    )
  return {
    runId: 800 + i,
    runUrl: `https://github.com/acme/search/actions/runs/${800 + i}`,
    commit: `${i}`
      .repeat(40)
      .slice(0, 40)
      .replace(/[^0-9]/g, 'a'),
    date: `2025-06-0${i + 1}T10:00:00Z`,
    values,
    holdoutLooks: 1
  }
}

export const HISTORY: HistoryInput = {
  branch: 'main',
  requested: 7,
  reports: [past(0), past(1), past(2, false), past(3), past(4)],
  skipped: { missing: 1, expired: 1, unreadable: 0, wrong_version: 0, stale: 0 },
  notes: [
    'Run 790 (commit 1234567): no artifact "retrieval-gate-report".',
    'Run 791 (commit 89abcde): artifact "retrieval-gate-report" has expired.'
  ]
}

/** A result with `history` as the history capability would have read it (the rules need no history key for the renderers). */
export function withHistory(result: GateResult, history: HistoryInput): GateResult {
  const { parts } = historyCapability.assess({ evidence: history } as Parameters<typeof historyCapability.assess>[0])
  return { ...result, capabilities: [...result.capabilities, { name: 'history', guards: [], summary: history, parts }] }
}

export function historyScenario(): GateResult {
  return withHistory(passScenario(), HISTORY)
}

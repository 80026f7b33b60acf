import type { HistoryInput } from '../../model/history.js'

/**
 * The JSON report's `history` object (docs/report.md): which past gate runs were read and what was left out.
 * Additive, present only when the rules ask for history. The values themselves are in the past runs' own
 * reports; this names them (run, commit, date) so a reader can fetch them.
 */
export function historyJson(h: HistoryInput): Record<string, unknown> {
  return {
    branch: h.branch,
    requested: h.requested,
    read: h.reports.length,
    skipped: { ...h.skipped },
    runs: h.reports.map((r) => ({ run_id: r.runId, commit: r.commit, date: r.date, holdout_looks: r.holdoutLooks })),
    notes: h.notes
  }
}

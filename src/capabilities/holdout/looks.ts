import type { Rules } from '../../config/types.js'
import type { PriorLooks } from '../../decide/holdout.js'
import type { HistoryInput } from '../../model/history.js'
import type { ExamRecordSpec, TrustedRecords } from '../contract.js'

/**
 * The holdout's record: this PR's looks before this run, from the ledger on the release's commit (counted per
 * head branch, and over the release), recording this run's look unless the rules grade the dev split; plus the
 * looks the default branch's history recorded, when the rules read history. Without a release named there is no
 * ledger: nothing that does not move to keep the looks on, so only this run's look is known. A ledger that cannot
 * be counted gives the reason (and a warning), never 0: the checks on holdout queries are then inconclusive.
 */
export const HOLDOUT_LOOKS: ExamRecordSpec<PriorLooks> = {
  role: 'exam',
  kind: 'record',
  name: 'holdout-looks',
  key: 'dataset.holdout_looks',
  outside: { thisPr: null },
  read: readLooks
}

async function readLooks(records: TrustedRecords, rules: Rules): Promise<PriorLooks> {
  const d = rules.dataset
  if (d === undefined) return { thisPr: null }
  const past = await records.history(rules)
  const history = past === undefined ? {} : { history: historyLooks(past) }
  if (d.holdoutRelease === undefined) return { thisPr: null, unledgered: true, ...history }
  const count = await records.look({
    ledger: 'holdout look',
    at: { ref: d.holdoutRelease, key: 'dataset.holdout_looks.release' },
    perHead: true,
    record: d.split !== 'dev',
    what: 'the holdout'
  })
  if (count.unknown !== undefined) {
    records.warn(
      `retrieval-gate: the holdout looks could not be counted: ${count.unknown}; the checks on holdout queries are inconclusive`
    )
    return { thisPr: null, unknown: count.unknown, ...history }
  }
  return { thisPr: count.head, release: count.all, ...history }
}

/** The holdout looks the history records: the sum of the past reports' `holdout.looks.this_run`, and how many reports had one. */
export function historyLooks(history: HistoryInput): { looks: number; reports: number } {
  const counted = history.reports.filter((r) => r.holdoutLooks !== null)
  return { looks: counted.reduce((n, r) => n + (r.holdoutLooks ?? 0), 0), reports: counted.length }
}

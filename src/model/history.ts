/**
 * The shape history hands to the report: the gated values of past gate runs on the default branch, read from
 * the JSON reports push runs upload (output history-artifact; src/github/history.ts), and what could not be read. It
 * lives in model/ because github/ builds it and report/ draws it, and neither may import the other.
 */

/** One gated value of a past run: a metric over a set of queries (all of them, or a check's slice), the candidate's mean. */
export interface PastValue {
  metric: string
  slice: Array<[string, string]>
  value: number
}

/** One past gate run, as far as history needs it. */
export interface PastReport {
  runId: number
  runUrl: string
  /** The commit the run evaluated (its head sha). */
  commit: string
  /** When the run was created (ISO 8601, as the API gives it). */
  date: string
  values: PastValue[]
  /** The run's `holdout.looks.this_run` (0 or 1), or null when its report has no holdout figures. */
  holdoutLooks: number | null
}

/** Why a past run gave no point; each is counted and named in the report's note, never a failure. */
export type SkipReason = 'missing' | 'expired' | 'unreadable' | 'wrong_version' | 'stale'

/** The history read for one PR report. */
export interface HistoryInput {
  /** The branch whose push runs were read (the default branch). */
  branch: string
  /** history.runs: how many runs were asked for. */
  requested: number
  /** Runs that gave a report, oldest first. */
  reports: PastReport[]
  /** Runs that gave none, counted by reason. */
  skipped: Record<SkipReason, number>
  /** One short line per skipped run (run id and why), for the report's note. */
  notes: string[]
}

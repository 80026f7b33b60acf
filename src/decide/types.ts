/**
 * The status and reason codes of a rule's unit, in their own file so that evaluate.ts (which decides them) and
 * counts.ts (which says how an inconclusive one counts) both import them without importing each other.
 */
export type Status = 'pass' | 'fail' | 'inconclusive'

/** Why a unit got its status, as a stable code (for the JSON report) and plain words (for people). */
export type Reason =
  | 'holds'
  | 'too_few_queries'
  | 'interval_crosses_margin'
  | 'shown_worse'
  | 'not_shown_better'
  | 'shown_not_better'
  | 'too_many_regressions'
  | 'non_finite'
  | 'no_queries'

import type { CheckRule } from '../config/types.js'
import type { Comparison, LevelInterval } from '../stats/compare.js'
import type { Multiplicity } from '../stats/multiplicity.js'

/*
 * The shapes of decide's results, apart from the code that computes them so that decide's small modules
 * (counts, decided-by, describe) and the reports can share them without importing each other in a circle.
 */

/** A unit's or a check's outcome; inconclusive is resolved toward the verdict by src/decide/counts.ts. */
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
  /** The drop since the rules' reference is shown beyond the check's budget (src/capabilities/reference/budget.ts). */
  | 'budget_exceeded'
  /** The interval of the drop since the reference straddles the budget. */
  | 'budget_crosses'
  /** The budget has been looked at more often than reference.looks allows over this release. */
  | 'budget_looks_exceeded'
  /** The looks at the budget so far could not be counted (an unreadable or unwritable ledger). */
  | 'budget_looks_unknown'
  /** The holdout was graded more often in this PR than the rules allow (src/decide/holdout.ts). */
  | 'holdout_looks_exceeded'
  /** The holdout looks so far could not be counted (an unreadable or unwritable ledger): never taken as 0. */
  | 'holdout_looks_unknown'
  /** Fewer seed files on a side than statistics.min_seeds (src/capabilities/seeds/stats.ts). */
  | 'too_few_seeds'
  /**
   * The interval would pass, but it cannot support a pass (the one reliability rule, src/stats/reliability.ts:
   * fewer than two clusters, a stratum of one unit, or, without a range, no spread or too few units for the skew;
   * `comparison.unreliable` or `level.unreliable` says which). Counted by on_too_few: the data are too few.
   */
  | 'interval_unreliable'
  /** at_least / at_most: the interval of the candidate's mean is wholly on the wrong side of the level. */
  | 'beyond_level'
  /** at_least / at_most: the interval of the candidate's mean contains the level. */
  | 'interval_crosses_level'

export type { LevelInterval } from '../stats/compare.js'

/** One evaluated set of queries of a check (the check's `where` set, or one value of its `per_slice`). */
export interface UnitResult {
  slice: Array<[string, string]>
  status: Status
  reason: Reason
  comparison: Comparison
  /** The margin in metric units after resolving a relative margin (0 for max_regressions). */
  margin: number
  /** For max_regressions: queries that got worse by more than the threshold, and the limit in force. */
  regressions: number | null
  regressionLimit: number | null
  /**
   * The unit's p-value in the family (McNemar for a McNemar check, else the randomization test of "no
   * difference"), adjusted by statistics.multiplicity; null for max_regressions (not a statistical test).
   */
  pValue: number | null
  pAdjusted: number | null
  pTest: 'mcnemar' | 'randomization' | 't' | null
  /** Smallest true difference found with 80% power, and (inconclusive units) about how many more queries would settle it. */
  power: { mde: number; moreQueries: number | null } | null
  /** at_least / at_most: the candidate's mean on the unit's queries and its interval (src/stats/comparison.ts levelFrom). */
  level?: LevelInterval
  /** Set when the unit was made inconclusive because the holdout was graded too often in this PR (decide/holdout.ts). */
  holdoutLooks?: { thisPr: number; maxPerPr: number; release?: true }
  /** The unit's regression budget against the rules' reference, when the check has a budget and a reference was read. */
  budget?: BudgetResult
}

/**
 * A unit's regression budget (src/capabilities/reference/budget.ts): the candidate against the rules' reference (the last
 * release) on the unit's queries, at the unit's confidence. `used` and `usedCi` are the drop since the
 * reference in the metric's bad direction (positive = worse than the reference, negative = better), in metric
 * units; `budget` is the allowed drop in metric units (a relative budget resolved on the reference mean).
 */
export interface BudgetResult {
  /** The reference's label ("v1.4"). */
  reference: string
  status: Status
  reason: Extract<
    Reason,
    | 'holds'
    | 'budget_exceeded'
    | 'budget_crosses'
    | 'budget_looks_exceeded'
    | 'budget_looks_unknown'
    | 'interval_unreliable'
    | 'too_few_queries'
    | 'non_finite'
    | 'no_queries'
  >
  budget: number
  used: number
  usedCi: [number, number]
  /** Reference (as `baseline`) against candidate on the unit's queries. */
  comparison: Comparison
}

/** The family the multiplicity adjustment covers: every statistical unit of every check. */
export interface Family {
  method: Multiplicity
  /** Number of statistical units (non_inferior and superior checks, one per slice of a per_slice check). */
  size: number
  /** Confidence of every interval of the family's units. */
  confidence: number
}

/** One check of the rules, evaluated: its units, its status, and how it counts toward the verdict. */
export interface CheckResult {
  rule: CheckRule
  status: Status
  /** How the status counts toward the verdict: fail when any unit counts as fail (inconclusive units: see decide/counts.ts). */
  counts: 'pass' | 'fail'
  units: UnitResult[]
}

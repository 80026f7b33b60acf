/**
 * Why a judge guard has its status, as numbers (src/capabilities/judge/report.ts says it in words). The judge guards are
 * trust guards: when one counts as fail the gate fails as "the ruler changed", decided by that rule, whatever the
 * statistical checks say, because scores from a judge that no longer agrees with the human anchors (or agrees
 * less than the baseline's judge did) do not measure the same thing on both sides.
 */

/** The rules key of a judge guard. */
export type JudgeRuleName =
  'judge.min_kappa' | 'judge.max_drop' | 'judge.repeatability' | 'judge.position' | 'judge.length_bias'

/** Why a unit could not be decided: too few items, an undefined statistic, an interval across the limit, or nothing to measure. */
export type JudgeUndecided = 'too_few' | 'undefined' | 'straddles' | 'no_data'

/** One decided unit of a judge guard: a slice (and a side's judge, for agreement). */
export interface JudgeGuardUnit {
  /** [] for all anchors (or queries), or [[attribute, value]]. */
  slice: Array<[string, string]>
  /** Whose judge: baseline, candidate, or both (one judge serves both sides); null for a difference or the rows. */
  side: 'baseline' | 'candidate' | 'both' | null
  /** Items (or queries) the unit is computed over. */
  n: number
  /** The statistic compared with the limit (kappa, kappa difference, share, rho), or null when undefined. */
  value: number | null
  /** Its bootstrap interval when the rule is decided on one. */
  interval: [number, number] | null
  status: 'pass' | 'fail' | 'inconclusive'
  undecided: JudgeUndecided | null
}

/** The reason of a judge guard: the rule, its limit as written, and every unit (failing ones are named in the sentence). */
export interface JudgeReason {
  code: 'judge'
  rule: JudgeRuleName
  limit: number
  units: JudgeGuardUnit[]
}

import type { CheckRule } from '../config/types.js'
import type { Comparison, LevelInterval } from '../stats/compare.js'
import type { Multiplicity } from '../stats/multiplicity.js'

/*
 * The shapes of decide's results, apart from the code that computes them so that decide's small modules
 * (counts, decided-by, describe) and the reports can share them without importing each other in a circle.
 */

/** A unit's or a check's outcome; inconclusive is resolved toward the verdict by src/decide/counts.ts. */
export type Status = 'pass' | 'fail' | 'inconclusive'

/**
 * Why a unit got its status, as a stable code (for the JSON report) and plain words (for people): the core's own
 * codes, or one a capability's `adjust` gave (the budget's, the holdout's), worded by that capability
 * (RenderParts.unitWords). The core lists none of a capability's codes.
 */
export type Reason = CoreReason | (string & Record<never, never>)

/**
 * The reasons the core itself decides a unit by (src/decide/evaluate.ts) and words (src/report/words.ts). A unit a
 * capability adjusts to any other reason must have that capability's words for it (src/gate.ts checks).
 */
export const CORE_REASONS = [
  'holds',
  'too_few_queries',
  'interval_crosses_margin',
  'shown_worse',
  'not_shown_better',
  'shown_not_better',
  'too_many_regressions',
  'non_finite',
  'no_queries',
  // fewer seed files on a side than statistics.min_seeds (src/capabilities/seeds/stats.ts)
  'too_few_seeds',
  // the interval would pass but cannot support one (the reliability rule, src/stats/reliability.ts; comparison.unreliable
  // or level.unreliable says why): counted by on_too_few
  'interval_unreliable',
  // at_least / at_most: the interval of the candidate's mean is wholly on the wrong side of the level
  'beyond_level',
  // at_least / at_most: the interval of the candidate's mean contains the level
  'interval_crosses_level'
] as const

export type CoreReason = (typeof CORE_REASONS)[number]

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
  /**
   * What capabilities' `adjust` attached to the unit, by capability name (the reference's budget, the holdout's
   * looks); each capability reads back its own (reports, JSON keys). Absent when none did.
   */
  marks?: Readonly<Record<string, unknown>>
  /**
   * How an inconclusive unit counts when a capability's adjustment gave its reason (a budget that straddles counts
   * by on_inconclusive, whatever the check's kind), paired with that reason: it applies only while the unit's reason
   * is `reason`, so a later capability that gives a reason of its own never inherits it. Absent (or another reason):
   * as the core decides by the reason and the check's kind.
   */
  ownPolicy?: { reason: Reason; policy: InconclusivePolicy }
  /** False when more queries cannot settle an inconclusive unit (the holdout looked at too often): next steps skip it. */
  settledByQueries?: false
}

/**
 * Which rules key decides how an inconclusive unit counts toward the verdict (src/decide/counts.ts): `on_too_few`,
 * `superior_must_be_shown` or `on_inconclusive`.
 */
export type InconclusivePolicy = 'on_too_few' | 'superior_must_be_shown' | 'on_inconclusive'

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

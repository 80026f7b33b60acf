import type { CheckRule, Rules } from '../config/types.js'
import { metricBounds } from '../stats/law.js'
import { familyConfidence } from '../stats/multiplicity.js'
import { unitsForMargin } from '../stats/reliability.js'
import { inconclusivePolicy, policyCounts } from './counts.js'
import type { InconclusivePolicy, Reason } from './types.js'

/**
 * What decide demands of a check, as data, before any result exists: the reasons a unit can pass, fail or be
 * inconclusive with, how each inconclusive reason counts toward the verdict under these rules, and the
 * confidence of its intervals when the rules alone fix it. `explain` words this structure, and the report's
 * method table reads the same policies, so neither restates decide's logic (src/decide/evaluate.ts) in prose.
 */
export interface CheckDescription {
  /**
   * The check's test: a non_inferior interval, a superior interval or test (exact McNemar, paired t,
   * randomization), a regression count, or an absolute level (at_least / at_most: the candidate's mean).
   */
  test:
    | 'non_inferior'
    | 'superior_bootstrap'
    | 'superior_mcnemar'
    | 'superior_t'
    | 'superior_randomization'
    | 'max_regressions'
    | 'level'
  /** Whether the check's units are members of the multiplicity family (every test but max_regressions and level). */
  statistical: boolean
  /** The reason of a unit that passes. */
  pass: Reason[]
  /** The reasons a unit fails with; `no_queries` and `non_finite` fail every kind of check. */
  fail: Reason[]
  /** The reasons a unit is inconclusive with, the policy that resolves each and how it counts under these rules (empty: never inconclusive). */
  inconclusive: Array<{ reason: Reason; policy: InconclusivePolicy; counts: 'pass' | 'fail' }>
  /** Fewer queries than this make a unit inconclusive (`too_few_queries`); null when the count does not apply. */
  minQueries: number | null
  /** The attribute whose every value is judged as its own unit (any failing value fails the check, else any inconclusive one makes it inconclusive); null for one unit. */
  perSlice: string | null
  /**
   * The confidence of the check's intervals: the family-adjusted one for a statistical check when the rules
   * alone fix the family's size (no per_slice check), null when the data do; the nominal one otherwise.
   */
  confidence: number | null
  /**
   * The fewest (effective) queries on which the check can pass: for a level even with the best data (every query at
   * the best value); for non_inferior when nothing changed (a better candidate may pass on fewer, since the interval
   * is bounded around its estimate, and a worse one needs more): what the metric's range lets unseen
   * queries change (the reliability rule, src/stats/reliability.ts). Null when the range does not bound it (no
   * range, a relative margin, a superior check: there it depends on the data) or nothing is statistical.
   */
  fewestToPass: number | null
}

/**
 * The fewest queries on which `rule` can pass (see {@link CheckDescription.fewestToPass}) at a confidence: an unchanged
 * candidate clears a non-inferiority margin m on range width R once p(n)·R ≤ m; a level v is reached by a candidate at
 * the range's best end b once p(n)·(b − a) ≤ |b − v|.
 */
export function fewestToPass(rule: CheckRule, rules: Rules, confidence: number): number | null {
  const metric = rules.metrics.get(rule.metric)
  const bounds = metric === undefined ? undefined : metricBounds(metric)
  if (metric === undefined || bounds === undefined) return null
  const width = bounds[1] - bounds[0]
  const kind = rule.kind
  if (kind.type === 'non_inferior' && !kind.margin.relative) return unitsForMargin(kind.margin.value, width, confidence)
  if (kind.type === 'level') {
    const best = metric.better === 'higher' ? bounds[1] : bounds[0]
    return unitsForMargin(Math.abs(best - kind.value), width, confidence)
  }
  return null
}

/**
 * Whether a check is a statistical test of the change, and so a member of the multiplicity family: not a regression
 * count, and not an absolute level (at_least / at_most judges one side's mean, with no test of a difference).
 */
export function isStatistical(rule: CheckRule): boolean {
  return rule.kind.type !== 'max_regressions' && rule.kind.type !== 'level'
}

/** How many statistical units the family has when the rules alone determine it (no statistical per_slice check), else null. */
export function familySizeFromRules(rules: Rules): number | null {
  const statistical = rules.checks.filter(isStatistical)
  return statistical.some((c) => c.perSlice !== undefined) ? null : statistical.length
}

/** The confidence of every statistical interval when the rules alone fix it, else null (a per_slice check makes the family size depend on the data). */
export function familyConfidenceFromRules(rules: Rules): number | null {
  const m = familySizeFromRules(rules)
  const { confidence, multiplicity } = rules.statistics
  if (multiplicity === 'none') return confidence
  return m === null ? null : familyConfidence(confidence, m, multiplicity)
}

/** What `rule` demands, under `rules` (see {@link CheckDescription}). Pure. */
export function describeCheck(rule: CheckRule, rules: Rules): CheckDescription {
  const kind = rule.kind
  const perSlice = rule.perSlice ?? null
  const always: Reason[] = ['no_queries', 'non_finite']
  const inconclusive = (reasons: Reason[]): CheckDescription['inconclusive'] =>
    reasons.map((reason) => {
      const policy = inconclusivePolicy(reason, rule)
      return { reason, policy, counts: policyCounts(policy, rules) }
    })
  if (kind.type === 'max_regressions') {
    return {
      test: 'max_regressions',
      statistical: false,
      pass: ['holds'],
      fail: ['too_many_regressions', ...always],
      inconclusive: [],
      minQueries: null,
      perSlice,
      confidence: rules.statistics.confidence,
      fewestToPass: null
    }
  }
  if (kind.type === 'level') {
    return {
      fewestToPass: fewestToPass(rule, rules, rules.statistics.confidence),
      test: 'level',
      statistical: false,
      pass: ['holds'],
      fail: ['beyond_level', ...always],
      inconclusive: inconclusive(['interval_crosses_level', 'too_few_queries', 'interval_unreliable']),
      minQueries: rules.queries.minPerSlice,
      perSlice,
      confidence: rules.statistics.confidence
    }
  }
  const confidence = familyConfidenceFromRules(rules)
  const base = {
    statistical: true,
    pass: ['holds'] as Reason[],
    minQueries: rules.queries.minPerSlice,
    perSlice,
    confidence,
    fewestToPass: fewestToPass(rule, rules, confidence ?? rules.statistics.confidence)
  }
  if (kind.type === 'non_inferior')
    return {
      ...base,
      test: 'non_inferior',
      fail: ['shown_worse', ...always],
      inconclusive: inconclusive(['interval_crosses_margin', 'too_few_queries', 'interval_unreliable'])
    }
  // superior_bootstrap, superior_mcnemar, superior_t, superior_randomization: the same reasons, by the test named.
  return {
    ...base,
    test: `superior_${kind.test}`,
    fail: ['shown_worse', 'shown_not_better', ...always],
    inconclusive: inconclusive(['not_shown_better', 'too_few_queries', 'interval_unreliable'])
  }
}

/** How an inconclusive unit counts under `rules` for each policy: the verdict's rule in one place, for explain and the report's method table. */
export function describePolicies(rules: Rules): Record<InconclusivePolicy, 'pass' | 'fail'> {
  return {
    on_inconclusive: policyCounts('on_inconclusive', rules),
    on_too_few: policyCounts('on_too_few', rules),
    superior_must_be_shown: policyCounts('superior_must_be_shown', rules)
  }
}

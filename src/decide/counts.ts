import type { CheckRule, Rules } from '../config/types.js'
import type { InconclusivePolicy, Reason, Status } from './types.js'

/**
 * The policy that applies to an inconclusive unit of `rule` with this reason: which rules key decides how it
 * counts. "Too few queries" and "the data do not show it" are different questions, so each has its own answer:
 * - `superior_must_be_shown`: a `superior` check whose gain was not shown always counts as a fail, whatever the
 *   reason (too few queries included), because the rule demands that the candidate be shown better, and neither
 *   `on_inconclusive: pass` nor `on_too_few: pass` can turn "nothing was shown" into "shown";
 * - `on_too_few`: the unit had fewer than `queries.min_per_slice` queries (nothing was measured), or its interval
 *   cannot support a pass (`interval_unreliable`: too few queries or clusters for the method, or no spread);
 * - `on_inconclusive`: any other inconclusive unit (a `non_inferior` interval straddling the margin).
 * A capability's adjustment may set the unit's own policy for its reason instead (UnitResult.ownPolicy).
 */
export function inconclusivePolicy(reason: Reason, rule: CheckRule): InconclusivePolicy {
  // first: too few queries shows no gain either, so on_too_few: pass cannot make an unshown superior check pass
  if (rule.kind.type === 'superior') return 'superior_must_be_shown'
  if (reason === 'too_few_queries' || reason === 'interval_unreliable') return 'on_too_few'
  return 'on_inconclusive'
}

/** How the policy resolves under these rules. */
export function policyCounts(policy: InconclusivePolicy, rules: Rules): 'pass' | 'fail' {
  if (policy === 'on_too_few') return rules.onTooFew
  if (policy === 'superior_must_be_shown') return 'fail'
  return rules.onInconclusive
}

/**
 * How one unit counts toward the verdict: pass and fail as they are; inconclusive as its policy says (the one a
 * capability's adjustment set, else the core's by reason and kind).
 */
export function unitCounts(
  unit: { status: Status; reason: Reason; ownPolicy?: { reason: Reason; policy: InconclusivePolicy } },
  rule: CheckRule,
  rules: Rules
): 'pass' | 'fail' {
  if (unit.status !== 'inconclusive') return unit.status
  const own = unit.ownPolicy?.reason === unit.reason ? unit.ownPolicy.policy : undefined
  return policyCounts(own ?? inconclusivePolicy(unit.reason, rule), rules)
}

/**
 * How a trust guard counts toward the verdict: an inconclusive guard (a cap whose outcome is `inconclusive`)
 * resolves by `on_inconclusive`, the same policy as an inconclusive non_inferior unit.
 */
export function guardCounts(status: Status, rules: Rules): 'pass' | 'fail' {
  if (status !== 'inconclusive') return status
  return policyCounts('on_inconclusive', rules)
}

import type { CheckRule } from '../config/types.js'
import type { Comparison } from '../stats/compare.js'

/**
 * The tests a superior check may gate on besides its bootstrap interval (rules `superior: { test }`), read from the
 * comparison's existing fields: exact McNemar (`pValue`, binary metrics), the paired t-test (`tTest`, under the
 * rules' design) and the paired randomization test (`randomization`, sign flips). Each tests "no difference",
 * two-sided, at the check's alpha; the unit passes when p < alpha and the change goes the better way. Every other
 * statistical unit (non_inferior, superior with the bootstrap) has the randomization test's p in the family.
 */

/** The p-value test a statistical unit reports and the multiplicity family adjusts. */
export function unitTest(rule: CheckRule): 'mcnemar' | 't' | 'randomization' {
  const kind = rule.kind
  if (kind.type === 'superior' && (kind.test === 'mcnemar' || kind.test === 't')) return kind.test
  return 'randomization'
}

/** The unit's raw p-value for the family: McNemar's, the t-test's, or the randomization test's (NaN when missing). */
export function unitPValue(rule: CheckRule, c: Comparison): number {
  const test = unitTest(rule)
  if (test === 'mcnemar') return c.pValue ?? Number.NaN
  if (test === 't') return c.tTest?.pValue ?? Number.NaN
  return c.randomization.pValue
}

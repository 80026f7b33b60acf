import type { Rules } from '../config/types.js'
import type { GuardReason, TrustRuleName, WordedGuard } from '../trust/trust.js'
import { guardCounts } from './counts.js'
import type { CheckResult, UnitResult } from './types.js'

/** A trust guard with how it counts toward the verdict (decided here, with the checks). */
export interface CountedGuard extends WordedGuard {
  counts: 'pass' | 'fail'
}

/**
 * What decided a failing verdict, the one answer every report and the action's failure message read:
 * - `trust`: the first trust guard (in the guards' order) that counts as fail, with its reason code; trust
 *   comes first, because a comparison that cannot be believed fails whatever its intervals say;
 * - `check`: else the first check (rules order) that counts as fail, and the unit shown for it (its first
 *   failing unit, else its first unit that did not pass);
 * - null: the verdict passed.
 */
export type DecidedBy =
  | { kind: 'trust'; rule: TrustRuleName; reason: GuardReason; guard: CountedGuard }
  | { kind: 'check'; check: CheckResult; unit: UnitResult }
  | null

/** The verdict and what decided it, from the trust guards and the evaluated checks. Pure. */
export function decideVerdict(
  rules: Rules,
  guards: readonly WordedGuard[],
  checks: readonly CheckResult[]
): { verdict: 'pass' | 'fail'; decidedBy: DecidedBy; guards: CountedGuard[] } {
  const counted = guards.map((g): CountedGuard => ({ ...g, counts: guardCounts(g.status, rules) }))
  const guard = counted.find((g) => g.counts === 'fail')
  if (guard !== undefined)
    return {
      verdict: 'fail',
      decidedBy: { kind: 'trust', rule: guard.rule, reason: guard.reason, guard },
      guards: counted
    }
  const check = checks.find((c) => c.counts === 'fail')
  if (check === undefined) return { verdict: 'pass', decidedBy: null, guards: counted }
  // A check counts as fail only through a unit that did not pass, so one is always found.
  const unit = (check.units.find((u) => u.status === 'fail') ??
    check.units.find((u) => u.status !== 'pass')) as UnitResult
  return { verdict: 'fail', decidedBy: { kind: 'check', check, unit }, guards: counted }
}

/** The name a failure message gives what decided it: `trust rule "pooling.max_unjudged"` or `"check name"`. */
export function decidedByName(decidedBy: NonNullable<DecidedBy>): string {
  return decidedBy.kind === 'trust' ? decidedBy.rule : decidedBy.check.rule.name
}

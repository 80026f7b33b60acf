/**
 * A capability's own policy goes with its own reason (UnitResult.ownPolicy). The reference's budget adjusts before
 * the holdout's cap (registry order): a superior unit whose budget straddles takes `budget_crosses`, counted by
 * on_inconclusive; when the holdout's cap then gives it `holdout_looks_exceeded`, it counts as any inconclusive
 * superior unit does (fail: a gain not shown), never by the budget's policy. With the policy carried over, a
 * superior check under a holdout cap passed under on_inconclusive: pass (found in review of the opened reasons).
 */
import { describe, expect, it } from '@jest/globals'
import { withBudget, type BudgetResult } from '../../src/capabilities/reference/budget.js'
import type { CheckRule, Rules } from '../../src/config/types.js'
import { unitCounts } from '../../src/decide/counts.js'
import { capHoldoutUnit, type HoldoutAccount } from '../../src/decide/holdout.js'
import type { UnitResult } from '../../src/decide/types.js'
import type { StatsEngine } from '../../src/stats/compare.js'

const superior = { kind: { type: 'superior', test: 'bootstrap', alpha: 0.05 } } as unknown as CheckRule
const lenient = { onInconclusive: 'pass', onTooFew: 'fail' } as unknown as Rules
const passed = { status: 'pass', reason: 'holds', slice: [], comparison: { confidence: 0.95 } } as unknown as UnitResult
const crosses = {
  reference: 'v1.4',
  status: 'inconclusive',
  reason: 'budget_crosses',
  budget: 0.01,
  used: 0,
  usedCi: [-0.01, 0.02],
  comparison: {}
} as unknown as BudgetResult
const over = { exceeded: true, unknown: null, thisPr: 3, maxPerPr: 1, maxPerRelease: null, thisRelease: null }
const holdoutOnly = { members: () => [0] } as unknown as StatsEngine

describe("a capability's policy goes with its reason", () => {
  it('a straddling budget counts by on_inconclusive, whatever the check kind', () => {
    const budgeted = withBudget(passed, crosses)
    expect(budgeted.reason).toBe('budget_crosses')
    expect(unitCounts(budgeted, superior, lenient)).toBe('pass')
  })

  it('capped by the holdout after the budget, a superior unit counts as fail (the gain is not shown)', () => {
    const capped = capHoldoutUnit(withBudget(passed, crosses), over as HoldoutAccount, Uint8Array.of(1), holdoutOnly)
    expect(capped.reason).toBe('holdout_looks_exceeded')
    expect(unitCounts(capped, superior, lenient)).toBe('fail')
  })
})

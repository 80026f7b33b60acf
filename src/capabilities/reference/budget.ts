import type { CheckRule, MetricRule, Rules } from '../../config/types.js'
import type { StatsEngine } from '../../stats/compare.js'
import type { Filters } from '../../stats/subsets.js'
import { inBetterDirection, standing } from '../../decide/core.js'
import type { Comparison } from '../../stats/compare.js'
import type { Status, UnitResult } from '../../decide/types.js'

/**
 * A unit's regression budget: the candidate against the rules' reference (the last release) on the unit's queries,
 * at the unit's confidence. `used` and `usedCi` are the drop since the reference in the metric's bad direction
 * (positive = worse than the reference, negative = better), in metric units; `budget` is the allowed drop in metric
 * units (a relative budget resolved on the reference mean). Attached to the unit as its mark `reference`.
 */
export interface BudgetResult {
  /** The reference's label ("v1.4"). */
  reference: string
  status: Status
  reason:
    | 'holds'
    | 'budget_exceeded'
    | 'budget_crosses'
    | 'budget_looks_exceeded'
    | 'budget_looks_unknown'
    | 'interval_unreliable'
    | 'too_few_queries'
    | 'non_finite'
    | 'no_queries'
  budget: number
  used: number
  usedCi: [number, number]
  /** Reference (as `baseline`) against candidate on the unit's queries. */
  comparison: Comparison
}

/** The unit's budget, when the reference capability attached one. */
export function budgetOf(unit: UnitResult): BudgetResult | undefined {
  return unit.marks?.reference as BudgetResult | undefined
}

/** The candidate against the reference: its statistics engine (same rules, seed and slices) and its label. */
export interface ReferenceStats {
  stats: StatsEngine
  label: string
  /**
   * The release's allowance of looks at the budget (reference.looks), this run's look, and the confidence each look
   * is tested at (1 - (1 - confidence) / looks: Bonferroni over the allowance); undefined without an allowance.
   */
  looks?: BudgetLooks
}

/** This run's look at the budget against the release's allowance (src/capabilities/reference/capability.ts). */
export interface BudgetLooks {
  /** This run's look, counted in the ledger (1 = the first); null when it could not be counted. */
  thisLook: number | null
  allowed: number
  /**
   * Whether the looks were counted in the look ledger (a pull request's run); false outside a pull request, where
   * nothing counts them and this run is taken as look 1: the release-wide level then holds only if every look is
   * counted, which this run's report cannot claim.
   */
  counted: boolean
  /** Why the looks could not be counted, or null. */
  unknown: string | null
}

/** The confidence of each look's budget interval: the allowance shares the release's error rate (Bonferroni). */
export function lookConfidence(confidence: number, allowed: number): number {
  return 1 - (1 - confidence) / allowed
}

/** The check unit a budget is read on. */
export interface BudgetUnit {
  /** The unit's queries: its check's where, and its per_slice value. */
  filters: Filters
  /** The unit's confidence (under reference.looks each look's is derived from it). */
  confidence: number
}

/**
 * A check unit's regression budget: the candidate against the reference on the unit's queries, at the unit's
 * confidence, read exactly as non_inferior reads the PR against its base, with the budget as the margin:
 *
 * | interval of (candidate - reference), in the better direction | status       | reason            |
 * | worse end within the budget (lo >= -budget)                    | pass         | holds             |
 * | better end beyond the budget (hi < -budget)                    | fail         | budget_exceeded   |
 * | straddles -budget                                              | inconclusive | budget_crosses    |
 *
 * An inconclusive budget counts by `on_inconclusive` (default fail: a drop the data cannot rule out is not
 * spent silently). Zero queries, too few and non-finite statistics are read as for the check itself. A
 * relative budget ("2%") is taken of the reference mean of the unit's queries.
 */
export function evaluateBudget(
  rule: CheckRule,
  rules: Rules,
  reference: ReferenceStats,
  unit: BudgetUnit
): BudgetResult | undefined {
  const spec = rule.budget
  if (spec === undefined) return undefined
  const { filters, confidence } = unit
  const metric = rules.metrics.get(rule.metric) as MetricRule
  const looks = reference.looks
  const c = reference.stats.compare(
    rule.metric,
    filters,
    looks === undefined ? confidence : lookConfidence(confidence, looks.allowed)
  )
  const sign = metric.better === 'higher' ? 1 : -1
  const budget = spec.relative ? spec.value * Math.abs(c.baseline) : spec.value
  const [lo, hi] = inBetterDirection(c.ci, metric.better)
  const result = (status: Status, reason: BudgetResult['reason']): BudgetResult => ({
    reference: reference.label,
    status,
    reason,
    budget,
    used: -sign * c.delta,
    usedCi: [-hi, -lo],
    comparison: c
  })
  if (c.n === 0) return result('fail', 'no_queries')
  if (![c.baseline, c.candidate, c.delta, lo, hi, budget].every(Number.isFinite)) return result('fail', 'non_finite')
  if (c.n < rules.queries.minPerSlice) return result('inconclusive', 'too_few_queries')
  // The drop since the reference read as non_inferior reads the PR against its base, the budget as the margin.
  const at = standing({
    ci: c.ci,
    own: c.ownCi,
    threshold: -sign * budget,
    better: metric.better,
    strict: false,
    unreliable: c.unreliable
  })
  // A release may look at its budget `allowed` times: beyond (or uncounted) a pass is not evidence, a shown drop still is.
  if (looks !== undefined && (looks.thisLook === null || looks.thisLook > looks.allowed)) {
    if (at === 'short') return result('fail', 'budget_exceeded')
    return result('inconclusive', looks.thisLook === null ? 'budget_looks_unknown' : 'budget_looks_exceeded')
  }
  if (at === 'clears') return result('pass', 'holds')
  if (at === 'short') return result('fail', 'budget_exceeded')
  return result('inconclusive', at === 'unsupported' ? 'interval_unreliable' : 'budget_crosses')
}

const RANK: Record<Status, number> = { pass: 0, inconclusive: 1, fail: 2 }

/**
 * The unit with its budget: the worse of the two outcomes decides the unit's status. When the budget is what
 * makes it worse, the unit takes the budget's reason (`budget_exceeded`, `budget_crosses`), so the verdict's
 * "decided by" names the check and says the budget was spent; when the PR alone already fails (or both are
 * equally bad), the PR's own reason stays: it is the more direct finding.
 */
export function withBudget(unit: UnitResult, budget: BudgetResult | undefined): UnitResult {
  if (budget === undefined) return unit
  const marked = { ...unit, marks: { ...unit.marks, reference: budget } }
  if (RANK[budget.status] <= RANK[unit.status]) return marked
  // a budget the data neither show spent nor kept counts by on_inconclusive, whatever the check's kind
  const own = budget.reason === 'budget_crosses' || budget.reason.startsWith('budget_looks_')
  return {
    ...marked,
    status: budget.status,
    reason: budget.reason,
    ...(own ? { ownPolicy: { reason: budget.reason, policy: 'on_inconclusive' as const } } : {})
  }
}

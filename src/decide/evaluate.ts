import type { PairedTable } from '../align/pair.js'
import type { CheckRule, MetricRule, Rules } from '../config/types.js'
import type { Comparison, StatsEngine } from '../stats/compare.js'
import { valuesOf, type Filters } from '../stats/subsets.js'

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
}

export interface CheckResult {
  rule: CheckRule
  status: Status
  /** How the status counts toward the verdict (inconclusive resolved by on_inconclusive). */
  counts: 'pass' | 'fail'
  units: UnitResult[]
}

export interface Decision {
  verdict: 'pass' | 'fail'
  /** The first check (in rule order) that made the verdict fail, or null when it passed. */
  decidedBy: CheckResult | null
  checks: CheckResult[]
}

/**
 * Applies every check to its queries and turns the evidence into pass / fail / inconclusive, strictly as the
 * rules say. A statistic that is not a finite number can never pass: the unit fails with reason
 * `non_finite`.
 */
export function decide(rules: Rules, table: PairedTable, stats: StatsEngine): Decision {
  const checks = rules.checks.map((rule) => evaluateCheck(rule, rules, table, stats))
  const decidedBy = checks.find((c) => c.counts === 'fail') ?? null
  return { verdict: decidedBy ? 'fail' : 'pass', decidedBy, checks }
}

function evaluateCheck(rule: CheckRule, rules: Rules, table: PairedTable, stats: StatsEngine): CheckResult {
  const metric = rules.metrics.get(rule.metric) as MetricRule
  const base: Filters = rule.where
  const sets: Filters[] =
    rule.perSlice === undefined
      ? [base]
      : valuesOf(table, rule.perSlice, stats.members(base)).map((v) => [...base, [rule.perSlice as string, v] as const].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)))
  const units = sets.map((filters) => evaluateUnit(rule, metric, rules, stats, filters))
  const status: Status = units.some((u) => u.status === 'fail') ? 'fail' : units.some((u) => u.status === 'inconclusive') ? 'inconclusive' : 'pass'
  const counts = status === 'pass' || (status === 'inconclusive' && rules.onInconclusive === 'pass') ? 'pass' : 'fail'
  return { rule, status, counts, units }
}

function evaluateUnit(rule: CheckRule, metric: MetricRule, rules: Rules, stats: StatsEngine, filters: Filters): UnitResult {
  const comparison = stats.compare(rule.metric, filters)
  const unit = (status: Status, reason: Reason, margin = 0, regressions: number | null = null, regressionLimit: number | null = null): UnitResult => ({
    slice: comparison.slice,
    status,
    reason,
    comparison,
    margin,
    regressions,
    regressionLimit
  })
  const sign = metric.better === 'higher' ? 1 : -1
  const kind = rule.kind
  if (kind.type === 'max_regressions') {
    const d = stats.differences(rule.metric)
    let count = 0
    for (const i of stats.members(filters)) if (sign * d[i] < -kind.threshold) count++
    const n = comparison.n
    const limits = [kind.count, kind.share === undefined ? undefined : Math.floor(kind.share * n + 1e-9)].filter((x): x is number => x !== undefined)
    const limit = Math.min(...limits)
    return unit(count <= limit ? 'pass' : 'fail', count <= limit ? 'holds' : 'too_many_regressions', 0, count, limit)
  }
  const margin = kind.margin.relative ? kind.margin.value * Math.abs(comparison.baseline) : kind.margin.value
  const [lo, hi] = sign > 0 ? comparison.ci : [-comparison.ci[1], -comparison.ci[0]]
  const finite = [comparison.baseline, comparison.candidate, comparison.delta, lo, hi, margin].every(Number.isFinite)
  if (comparison.n < rules.queries.minPerSlice) return unit('inconclusive', 'too_few_queries', margin)
  if (!finite) return unit('fail', 'non_finite', margin)
  if (kind.type === 'non_inferior') {
    if (lo >= -margin) return unit('pass', 'holds', margin)
    if (hi < -margin) return unit('fail', 'shown_worse', margin)
    return unit('inconclusive', 'interval_crosses_margin', margin)
  }
  if (kind.test === 'mcnemar') {
    const p = comparison.pValue as number
    if (!Number.isFinite(p)) return unit('fail', 'non_finite', margin)
    const gained = comparison.gained as number
    const lost = comparison.lost as number
    const better = sign > 0 ? gained > lost : lost > gained
    const worse = sign > 0 ? lost > gained : gained > lost
    if (p < kind.alpha && better) return unit('pass', 'holds', margin)
    if (p < kind.alpha && worse) return unit('fail', 'shown_worse', margin)
    return unit('inconclusive', 'not_shown_better', margin)
  }
  if (lo > margin) return unit('pass', 'holds', margin)
  if (hi < margin) return unit('fail', hi < 0 ? 'shown_worse' : 'shown_not_better', margin)
  return unit('inconclusive', 'not_shown_better', margin)
}

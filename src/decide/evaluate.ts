import type { PairedTable } from '../align/pair.js'
import type { CheckRule, MetricRule, Rules } from '../config/types.js'
import type { Comparison, StatsEngine } from '../stats/compare.js'
import { adjustPValues, familyConfidence } from '../stats/multiplicity.js'
import { minimumDetectable, moreQueriesToSettle } from '../stats/power.js'
import { filterKey, type Filters } from '../stats/subsets.js'
import { regressionsPast, sliceValues } from '../stats/engine-queries.js'
import { unitCounts } from './counts.js'
import { isStatistical } from './describe.js'
import { decideVerdict, type CountedGuard, type DecidedBy } from './decided-by.js'
import type { CheckResult, Family, Reason, Status, UnitResult } from './types.js'
import type { GuardResult } from '../trust/trust.js'
import { minOf } from '../util/extent.js'

export type { CheckResult, Family, Reason, Status, UnitResult } from './types.js'

/**
 * The gate's one decision: every check's result, the trust guards as they count, the verdict and the one thing
 * that decided it (src/decide/decided-by.ts). Every report and the action's failure message read `decidedBy`
 * from here and derive nothing themselves.
 */
export interface Decision {
  verdict: 'pass' | 'fail'
  /** A trust guard, else the first check (rules order) that counts as fail, with its unit; null when the verdict passed. */
  decidedBy: DecidedBy
  checks: CheckResult[]
  /** The trust guards (docs/trust.md) with how each counts; empty without trust rules. */
  guards: CountedGuard[]
  family: Family
}

/**
 * Applies every check to its queries and turns the evidence into pass / fail / inconclusive, strictly as the
 * rules say. A statistic that is not a finite number can never pass: the unit fails with reason
 * `non_finite`. A unit over zero queries can never pass either (whatever on_inconclusive says): it fails
 * with reason `no_queries`, since a rule that tested nothing protected nothing. The trust `guards` (already
 * analysed) come first in the verdict: see {@link decideVerdict}.
 */
export function decide(rules: Rules, table: PairedTable, stats: StatsEngine, guards: readonly GuardResult[] = []): Decision {
  // The family is known before any result: the statistical checks and, for per_slice, the slices present.
  const sets = rules.checks.map((rule) => unitSets(rule, table, stats))
  const members = rules.checks.flatMap((rule, i) => (isStatistical(rule) ? sets[i].map((filters) => ({ rule, filters })) : []))
  const method = rules.statistics.multiplicity
  const family: Family = { method, size: members.length, confidence: familyConfidence(rules.statistics.confidence, members.length, method) }
  const raw = members.map(({ rule, filters }) => {
    const c = stats.compare(rule.metric, filters, family.confidence)
    return rule.kind.type === 'superior' && rule.kind.test === 'mcnemar' ? (c.pValue as number) : c.randomization.pValue
  })
  const adjusted = adjustPValues(raw, method)
  const pOf = new Map(members.map(({ rule, filters }, i) => [unitKey(rule, filters), { raw: raw[i], adjusted: adjusted[i] }]))
  const checks = rules.checks.map((rule, i) => evaluateCheck(rule, sets[i], rules, stats, family, pOf))
  const { verdict, decidedBy, guards: counted } = decideVerdict(rules, guards, checks)
  return { verdict, decidedBy, checks, guards: counted, family }
}

type POf = Map<string, { raw: number; adjusted: number }>

const unitKey = (rule: CheckRule, filters: Filters): string => `${rule.index}\u0000${filterKey(filters)}`

/** The query sets a check is evaluated on: its `where` set, or one per value of its per_slice attribute. */
function unitSets(rule: CheckRule, table: PairedTable, stats: StatsEngine): Filters[] {
  const base: Filters = rule.where
  return rule.perSlice === undefined ? [base] : sliceValues(table, stats, rule.perSlice, base).map((v) => [...base, [rule.perSlice as string, v] as const].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)))
}

function evaluateCheck(rule: CheckRule, sets: Filters[], rules: Rules, stats: StatsEngine, family: Family, pOf: POf): CheckResult {
  const metric = rules.metrics.get(rule.metric) as MetricRule
  // Capabilities (the regression budget, the holdout's looks) adjust units after this, in src/gate.ts.
  const units = sets.map((filters) => evaluateUnit(rule, metric, rules, stats, filters, family, pOf))
  const status: Status = units.some((u) => u.status === 'fail') ? 'fail' : units.some((u) => u.status === 'inconclusive') ? 'inconclusive' : 'pass'
  const counts = units.some((u) => unitCounts(u, rule, rules) === 'fail') ? 'fail' : 'pass'
  return { rule, status, counts, units }
}

function evaluateUnit(rule: CheckRule, metric: MetricRule, rules: Rules, stats: StatsEngine, filters: Filters, family: Family, pOf: POf): UnitResult {
  const statistical = isStatistical(rule)
  const comparison = stats.compare(rule.metric, filters, statistical ? family.confidence : rules.statistics.confidence)
  const p = pOf.get(unitKey(rule, filters))
  const sign = metric.better === 'higher' ? 1 : -1
  const kind = rule.kind
  const unit = (status: Status, reason: Reason, margin = 0, regressions: number | null = null, regressionLimit: number | null = null): UnitResult => ({
    slice: comparison.slice,
    status,
    reason,
    comparison,
    margin,
    regressions,
    regressionLimit,
    pValue: p ? p.raw : null,
    pAdjusted: p ? p.adjusted : null,
    pTest: !statistical ? null : kind.type === 'superior' && kind.test === 'mcnemar' ? 'mcnemar' : 'randomization',
    power: statistical ? powerOf(status, comparison, rules, sign, kind.type === 'non_inferior' ? -margin : kind.type === 'superior' && kind.test === 'bootstrap' ? margin : 0) : null
  })
  // Zero queries: nothing was examined, so the unit fails before any kind-specific logic could call it a pass.
  if (comparison.n === 0) return unit('fail', 'no_queries')
  if (kind.type === 'max_regressions') {
    const { count, nonFinite } = regressionsPast(stats, rule, filters, sign, kind.threshold)
    const n = comparison.n
    const limits = [kind.count, kind.share === undefined ? undefined : Math.floor(kind.share * n + 1e-9)].filter((x): x is number => x !== undefined)
    const limit = minOf(limits)
    // A NaN difference is neither a regression nor not one: counting it as "not regressed" would pass silently.
    if (nonFinite > 0 || !Number.isFinite(limit)) return unit('fail', 'non_finite', 0, count, Number.isFinite(limit) ? limit : null)
    if (tooFewSeeds(rules, stats)) return unit('inconclusive', 'too_few_seeds', 0, count, limit)
    return unit(count <= limit ? 'pass' : 'fail', count <= limit ? 'holds' : 'too_many_regressions', 0, count, limit)
  }
  const margin = kind.margin.relative ? kind.margin.value * Math.abs(comparison.baseline) : kind.margin.value
  const [lo, hi] = sign > 0 ? comparison.ci : [-comparison.ci[1], -comparison.ci[0]]
  // McNemar decides on its (family-adjusted) p-value, so that is evidence to check too.
  const mcnemarP = kind.type === 'superior' && kind.test === 'mcnemar' ? ((p?.adjusted ?? comparison.pValue) as number) : 0
  const finite = [comparison.baseline, comparison.candidate, comparison.delta, lo, hi, margin, mcnemarP].every(Number.isFinite)
  // Non-finite evidence fails before anything else can make the unit inconclusive (which on_inconclusive: pass would pass).
  if (comparison.n > 0 && !finite) return unit('fail', 'non_finite', margin)
  if (tooFewSeeds(rules, stats)) return unit('inconclusive', 'too_few_seeds', margin)
  if (comparison.n < rules.queries.minPerSlice) return unit('inconclusive', 'too_few_queries', margin)
  if (!finite) return unit('fail', 'non_finite', margin)
  if (kind.type === 'non_inferior') {
    if (lo >= -margin) return unit('pass', 'holds', margin)
    if (hi < -margin) return unit('fail', 'shown_worse', margin)
    return unit('inconclusive', 'interval_crosses_margin', margin)
  }
  if (kind.test === 'mcnemar') {
    // mcnemarP is the family-adjusted p (McNemar's own p without multiplicity), already checked finite above.
    const gained = comparison.gained as number
    const lost = comparison.lost as number
    const better = sign > 0 ? gained > lost : lost > gained
    const worse = sign > 0 ? lost > gained : gained > lost
    if (mcnemarP < kind.alpha && better) return unit('pass', 'holds', margin)
    if (mcnemarP < kind.alpha && worse) return unit('fail', 'shown_worse', margin)
    return unit('inconclusive', 'not_shown_better', margin)
  }
  if (lo > margin) return unit('pass', 'holds', margin)
  if (hi < margin) return unit('fail', hi < 0 ? 'shown_worse' : 'shown_not_better', margin)
  return unit('inconclusive', 'not_shown_better', margin)
}

/**
 * statistics.min_seeds: a side with fewer seed files than the rules ask has not measured training noise, so
 * no check can be judged on it (an engine that does not count seeds has one file per side).
 */
function tooFewSeeds(rules: Rules, stats: StatsEngine): boolean {
  const min = rules.statistics.minSeeds
  if (min === undefined) return false
  const seeds = stats.seeds ?? { baseline: 1, candidate: 1 }
  return Math.min(seeds.baseline, seeds.candidate) < min
}

/**
 * Power figures of a statistical unit: the smallest difference detectable with 80% power at the unit's
 * confidence and, when inconclusive, about how many more queries would settle it if the true difference
 * were the observed one (at least enough to reach min_per_slice).
 */
function powerOf(status: Status, c: Comparison, rules: Rules, sign: number, boundary: number): { mde: number; moreQueries: number | null } {
  const mde = minimumDetectable(c.se, c.confidence)
  if (status !== 'inconclusive') return { mde, moreQueries: null }
  const more = moreQueriesToSettle(c.n, c.se, Math.abs(sign * c.delta - boundary), c.confidence)
  const floor = Math.max(0, rules.queries.minPerSlice - c.n)
  return { mde, moreQueries: more === null ? (floor > 0 ? floor : null) : Math.max(more, floor) }
}

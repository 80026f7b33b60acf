import type { PairedTable } from '../align/pair.js'
import type { CheckRule, MetricRule, Rules } from '../config/types.js'
import type { Comparison, StatsEngine } from '../stats/compare.js'
import { adjustPValues, familyConfidence } from '../stats/multiplicity.js'
import { minimumDetectable, queriesToSettle } from '../stats/power.js'
import { metricBounds } from '../stats/law.js'
import { unitsForMargin } from '../stats/reliability.js'
import { filterKey, type Filters } from '../stats/subsets.js'
import { regressionsPast, sliceValues } from '../stats/engine-queries.js'
import { unitCounts } from './counts.js'
import { isStatistical } from './describe.js'
import { decideVerdict, type CountedGuard, type DecidedBy } from './decided-by.js'
import type { CheckResult, Family, Reason, Status, UnitResult } from './types.js'
import type { WordedGuard } from '../trust/trust.js'
import { minOf } from '../util/extent.js'
import { standing, type Standing } from './core.js'
import { unitPValue, unitTest } from './superior-tests.js'

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
export function decide(
  rules: Rules,
  table: PairedTable,
  stats: StatsEngine,
  guards: readonly WordedGuard[] = []
): Decision {
  // The family is known before any result: the statistical checks and, for per_slice, the slices present.
  const sets = rules.checks.map((rule) => unitSets(rule, table, stats))
  const members = rules.checks.flatMap((rule, i) =>
    isStatistical(rule) ? sets[i].map((filters) => ({ rule, filters })) : []
  )
  const method = rules.statistics.multiplicity
  const family: Family = {
    method,
    size: members.length,
    confidence: familyConfidence(rules.statistics.confidence, members.length, method)
  }
  // Each unit's own test: McNemar, the t-test or the randomization test (src/decide/superior-tests.ts).
  const raw = members.map(({ rule, filters }) =>
    unitPValue(rule, stats.compare(rule.metric, filters, family.confidence))
  )
  const adjusted = adjustPValues(raw, method)
  const pOf = new Map(
    members.map(({ rule, filters }, i) => [unitKey(rule, filters), { raw: raw[i], adjusted: adjusted[i] }])
  )
  const context: DecisionContext = { rules, stats, family, pOf }
  const checks = rules.checks.map((rule, i) => evaluateCheck(rule, sets[i], context))
  const { verdict, decidedBy, guards: counted } = decideVerdict(rules, guards, checks)
  return { verdict, decidedBy, checks, guards: counted, family }
}

type POf = Map<string, { raw: number; adjusted: number }>

/** What every check of one decision is judged with, computed once before any check. */
interface DecisionContext {
  rules: Rules
  stats: StatsEngine
  /** The statistical units tested together, and the confidence each is judged at. */
  family: Family
  /** Each statistical unit's raw and family-adjusted p-value, by {@link unitKey}. */
  pOf: POf
}

const unitKey = (rule: CheckRule, filters: Filters): string => `${rule.index}\u0000${filterKey(filters)}`

/** The query sets a check is evaluated on: its `where` set, or one per value of its per_slice attribute. */
function unitSets(rule: CheckRule, table: PairedTable, stats: StatsEngine): Filters[] {
  const base: Filters = rule.where
  return rule.perSlice === undefined
    ? [base]
    : sliceValues(table, stats, rule.perSlice, base).map((v) =>
        [...base, [rule.perSlice as string, v] as const].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
      )
}

function evaluateCheck(rule: CheckRule, sets: Filters[], context: DecisionContext): CheckResult {
  const rules = context.rules
  const metric = rules.metrics.get(rule.metric) as MetricRule
  // Capabilities (the regression budget, the holdout's looks) adjust units after this, in src/gate.ts.
  const units = sets.map((filters) => evaluateUnit(rule, metric, filters, context))
  const status: Status = units.some((u) => u.status === 'fail')
    ? 'fail'
    : units.some((u) => u.status === 'inconclusive')
      ? 'inconclusive'
      : 'pass'
  const counts = units.some((u) => unitCounts(u, rule, rules) === 'fail') ? 'fail' : 'pass'
  return { rule, status, counts, units }
}

/** A max_regressions unit's count of regressed queries and the most it allows (null when no limit is a number). */
interface RegressionCount {
  regressions: number
  regressionLimit: number | null
}

function evaluateUnit(rule: CheckRule, metric: MetricRule, filters: Filters, context: DecisionContext): UnitResult {
  const { rules, stats, family, pOf } = context
  const statistical = isStatistical(rule)
  const comparison = stats.compare(rule.metric, filters, statistical ? family.confidence : rules.statistics.confidence)
  const p = pOf.get(unitKey(rule, filters))
  const sign = metric.better === 'higher' ? 1 : -1
  const kind = rule.kind
  const unit = (status: Status, reason: Reason, margin = 0, counted?: RegressionCount): UnitResult => ({
    slice: comparison.slice,
    status,
    reason,
    comparison,
    margin,
    regressions: counted === undefined ? null : counted.regressions,
    regressionLimit: counted === undefined ? null : counted.regressionLimit,
    pValue: p ? p.raw : null,
    pAdjusted: p ? p.adjusted : null,
    pTest: !statistical ? null : unitTest(rule),
    power: statistical ? powerOf(status, comparison, rules, { kind, margin }) : null
  })
  // Zero queries: nothing was examined, so the unit fails before any kind-specific logic could call it a pass.
  if (comparison.n === 0) return unit('fail', 'no_queries')
  if (kind.type === 'max_regressions') return regressionUnit(rule, filters, { context, sign, unit })
  if (kind.type === 'level') {
    // An absolute level: the candidate's mean and its interval, by the level's law (src/stats/comparison.ts).
    const level = stats.level(rule.metric, filters, comparison.confidence)
    const withLevel = (status: Status, reason: Reason): UnitResult => ({ ...unit(status, reason), level })
    if (!Number.isFinite(level.mean) || !level.ci.every(Number.isFinite)) return withLevel('fail', 'non_finite')
    if (tooFewSeeds(rules, stats)) return withLevel('inconclusive', 'too_few_seeds')
    if (comparison.n < rules.queries.minPerSlice) return withLevel('inconclusive', 'too_few_queries')
    const at = standing({
      ci: level.ci,
      own: level.ownCi,
      threshold: kind.value,
      better: metric.better,
      strict: false,
      unreliable: level.unreliable
    })
    return withLevel(...LEVEL_WORDS[at])
  }
  const margin = kind.margin.relative ? kind.margin.value * Math.abs(comparison.baseline) : kind.margin.value
  // A superior check on McNemar, the t-test or the randomization test also needs its (family-adjusted) p-value.
  const byTest = kind.type === 'superior' && kind.test !== 'bootstrap'
  const testP = byTest ? (p?.adjusted ?? unitPValue(rule, comparison)) : 0
  const finite = [comparison.baseline, comparison.candidate, comparison.delta, ...comparison.ci, margin, testP].every(
    Number.isFinite
  )
  // Non-finite evidence fails before anything else can make the unit inconclusive (which on_inconclusive: pass would pass).
  if (!finite) return unit('fail', 'non_finite', margin)
  if (tooFewSeeds(rules, stats)) return unit('inconclusive', 'too_few_seeds', margin)
  if (comparison.n < rules.queries.minPerSlice) return unit('inconclusive', 'too_few_queries', margin)
  // Every kind reads the same interval against its threshold (src/decide/core.ts), under the one reliability rule.
  const superior = kind.type === 'superior'
  const at = standing({
    ci: comparison.ci,
    own: comparison.ownCi,
    threshold: superior ? sign * margin : -sign * margin,
    better: metric.better,
    strict: superior,
    unreliable: comparison.unreliable
  })
  if (!superior) return unit(...NON_INFERIOR_WORDS[at], margin)
  if (at === 'short') {
    const better = sign > 0 ? comparison.ci[1] : -comparison.ci[0]
    return unit('fail', better < 0 ? 'shown_worse' : 'shown_not_better', margin)
  }
  if (byTest) {
    // The test's p decides "better" only where the interval agrees: a p-value cannot pass what the rule refuses,
    // and the sign-flip test's null (symmetry) is not a mean of zero. Its direction: McNemar's gained against lost.
    const up = kind.test === 'mcnemar' ? (comparison.gained as number) - (comparison.lost as number) : comparison.delta
    if (testP < kind.alpha && sign * up < 0) return unit('fail', 'shown_worse', margin)
    if (at === 'clears' && !(testP < kind.alpha && sign * up > 0))
      return unit('inconclusive', 'not_shown_better', margin)
  }
  return unit(...SUPERIOR_WORDS[at], margin)
}

/** Each standing (src/decide/core.ts) in a kind's words: every kind holds, or is unsupported, alike. */
const wordsOf = (short: Reason, straddles: Reason): Record<Standing, [Status, Reason]> => ({
  clears: ['pass', 'holds'],
  short: ['fail', short],
  straddles: ['inconclusive', straddles],
  unsupported: ['inconclusive', 'interval_unreliable']
})
/** The words of a non_inferior unit, a superior one and a level. */
const NON_INFERIOR_WORDS = wordsOf('shown_worse', 'interval_crosses_margin')
const SUPERIOR_WORDS = wordsOf('shown_not_better', 'not_shown_better')
const LEVEL_WORDS = wordsOf('beyond_level', 'interval_crosses_level')

/** What a max_regressions unit is judged with. */
interface RegressionSite {
  context: DecisionContext
  sign: number
  unit: (status: Status, reason: Reason, margin?: number, counted?: RegressionCount) => UnitResult
}

/** A max_regressions unit: a count of queries past the threshold against the limit (not a statistical test). */
function regressionUnit(rule: CheckRule, filters: Filters, site: RegressionSite): UnitResult {
  const { context, sign, unit } = site
  const kind = rule.kind as Extract<CheckRule['kind'], { type: 'max_regressions' }>
  const { count, nonFinite } = regressionsPast(context.stats, rule, filters, { sign, threshold: kind.threshold })
  const n = context.stats.compare(rule.metric, filters, context.rules.statistics.confidence).n
  const limits = [kind.count, kind.share === undefined ? undefined : Math.floor(kind.share * n + 1e-9)].filter(
    (x): x is number => x !== undefined
  )
  const limit = minOf(limits)
  // A NaN difference is neither a regression nor not one: counting it as "not regressed" would pass silently.
  if (nonFinite > 0 || !Number.isFinite(limit))
    return unit('fail', 'non_finite', 0, { regressions: count, regressionLimit: Number.isFinite(limit) ? limit : null })
  const counted = { regressions: count, regressionLimit: limit }
  if (tooFewSeeds(context.rules, context.stats)) return unit('inconclusive', 'too_few_seeds', 0, counted)
  // A slice with no more queries than the count allows to regress cannot fail: no evidence, never a pass (the rules'
  // loader refuses a count no slice can exceed; a small slice of a per_slice check lands here, counted by on_too_few).
  if (limit >= n) return unit('inconclusive', 'too_few_queries', 0, counted)
  return unit(count <= limit ? 'pass' : 'fail', count <= limit ? 'holds' : 'too_many_regressions', 0, counted)
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

/** What a unit is tested for: its check's kind and the margin in the metric's units (0 for kinds without one). */
interface Demand {
  kind: CheckRule['kind']
  margin: number
}

/**
 * Power figures of a statistical unit: the smallest difference detectable with 80% power at the unit's confidence
 * (Student's t with the comparison's degrees of freedom) and, when an inconclusive non_inferior unit could be settled
 * by more queries, about how many more would give it an 80% chance to pass if the candidate truly changes nothing
 * (the plan a non-inferiority check is sized for; never the observed difference, which is noise): enough for the
 * interval's width, and on a bounded metric enough for the range's bound to allow the margin (the reliability rule,
 * src/stats/reliability.ts). Said only where no change is plausible (the interval holds 0): more queries are no
 * advice for a change the data already show. A superior check has no planned gain in the rules, and seed replicates
 * need more seeds, not queries: no figure. At least enough to reach min_per_slice.
 */
function powerOf(
  status: Status,
  c: Comparison,
  rules: Rules,
  demand: Demand
): { mde: number; moreQueries: number | null } {
  const { kind, margin } = demand
  const mde = minimumDetectable(c.se, c.confidence, c.df)
  if (status !== 'inconclusive') return { mde, moreQueries: null }
  const floor = Math.max(0, rules.queries.minPerSlice - c.n)
  const plausible = c.ci[0] <= 0 && 0 <= c.ci[1]
  let more: number | null = null
  if (kind.type === 'non_inferior' && c.interval !== 'seeds-t' && plausible) {
    more = queriesToSettle({
      n: c.n,
      se: c.se,
      df: c.df,
      units: c.clusters ?? c.n,
      distance: margin,
      confidence: c.confidence
    })
    const bounds = metricBounds(rules.metrics.get(c.metric) as MetricRule)
    const units = bounds === undefined ? null : unitsForMargin(margin, bounds[1] - bounds[0], c.confidence)
    // In queries: effective units grow with the queries at the same cluster sizes and strata.
    if (units !== null && c.effective > 0) more = Math.max(more ?? 0, Math.ceil((units * c.n) / c.effective) - c.n)
  }
  return { mde, moreQueries: more === null ? (floor > 0 ? floor : null) : Math.max(more, floor) }
}

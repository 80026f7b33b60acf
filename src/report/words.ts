import type { MetricRule } from '../config/types.js'
import type { CheckResult, UnitResult } from '../decide/evaluate.js'
import type { GateResult } from '../decide/result.js'
import { clean } from './escape.js'
import { alphaText, confidenceLabel, digitsFor, fixed, pValue, signed } from './format.js'
import { whyNoPass } from './interval-words.js'
import { sliceLabel } from './slice-label.js'

export { sliceLabel }

/** A metric the rules declare, by name (every name a result carries is declared: config/ checked it). */
export const metricOf = (result: Pick<GateResult, 'rules'>, name: string): MetricRule =>
  result.rules.metrics.get(name) as MetricRule

/** Longest name or value a sentence quotes (a hostile 10,000-character slice value is cut, not repeated). */
const NAME = 60

/**
 * Plain words for people who do not read intervals for a living. Every function here returns RAW text that
 * may contain untrusted names (metric, check, slice values): callers escape the whole sentence for the
 * place it goes (escape.ts).
 */

/** A status as the Markdown report writes it (GitHub draws the emoji; the page swaps them for text symbols). */
export const STATUS: Record<string, string> = { pass: '✅ pass', fail: '❌ fail', inconclusive: '⚠️ inconclusive' }

/** What a verdict does and does not claim: the last words of the Markdown report and of the HTML page. */
export const SCOPE_SENTENCE =
  'This gate enforces the checks written in the rules before the results were seen. A pass means those checks held on these queries; it does not certify that the candidate is better overall, nor anything about metrics, slices or queries the rules do not name.'

/**
 * The one unit rule of every report (headline, tables, pictures, terminal text, sentences): a metric whose values
 * are shares, i.e. bounded within a width of 1 (a declared `range` such as [0, 1], or a ranking measure computed
 * from runs, which lies in [0, 1]: MetricRule.bounds), shows its CHANGES (differences, intervals, margins,
 * thresholds, budgets, seed spreads) in points (x100): "+2.3 points" in words, "+2.31 pts" in a table cell; every
 * other metric shows them in its own units with its unit word ("+5.2 ms"). LEVELS (a side's mean, one query's
 * value) are shown as the files hold them (0.5525), in every place alike.
 */
export function inPoints(metric: MetricRule): boolean {
  const b = metric.bounds ?? metric.range
  return b !== undefined && b[1] - b[0] <= 1
}

/** Points are shown with 2 decimals in a table cell: the precision of the 4 decimals of the raw value. */
const CELL_POINT_DIGITS = 2

/** A change in a table cell: points with 2 decimals for a share, else the metric's digits for `typical` (a level). */
export function changeCell(x: number, metric: MetricRule, typical: number): string {
  if (inPoints(metric)) return signed(x * 100, CELL_POINT_DIGITS)
  return signed(x, digitsFor(metric.range, typical))
}

/**
 * How many decimals a LEVEL of `metric` (a side's mean, one query's value) is shown with: four for a share (a
 * declared range, or a ranking measure's bounds), so a query at 1 reads 1.0000 beside 0.9553, else by `typical`.
 */
export function levelDigits(metric: MetricRule, typical: number): number {
  return digitsFor(metric.bounds ?? metric.range, typical)
}

/** A change in a table cell with its unit after it: `-9.84 pts`, `+5.2 ms` (RAW: escape it). */
export function changeWithUnit(x: number, metric: MetricRule, typical: number): string {
  const unit = cellUnit(metric)
  return `${changeCell(x, metric, typical)}${unit ? ` ${unit}` : ''}`
}

/** "pts", the metric's unit ("ms") or "": the unit a table's change cell carries after its number (RAW: escape it). */
export function cellUnit(metric: MetricRule): string {
  return inPoints(metric) ? 'pts' : metric.unit
}

/** The unit word of a metric's changes: "points", the metric's unit, or "". */
export function unitWord(metric: MetricRule): string {
  return inPoints(metric) ? 'points' : metric.unit
}

/** A number in the metric's display terms: x100 with one decimal for shares, else the metric's digits. */
export function displayNumber(x: number, metric: MetricRule, withSign = true, typical = x): string {
  if (inPoints(metric)) return withSign ? signed(x * 100, 1) : fixed(x * 100, 1)
  const d = digitsFor(metric.range, typical)
  return withSign ? signed(x, d) : fixed(x, d)
}

/** A value in the metric's terms with its unit: "-9.8 points", "+5.2 ms"; `typical` sets the digits (as in the sentence beside it). */
export function amount(x: number, metric: MetricRule, withSign = true, typical = x): string {
  const u = unitWord(metric)
  const s = displayNumber(x, metric, withSign, typical)
  return u ? `${s} ${u}` : s
}

/**
 * What the evaluation could see, for an inconclusive unit: "with 400 queries this evaluation detects a change of
 * about 2.8 points (80% power); if the candidate truly changed nothing, about 1,200 more independent queries would
 * give this check an 80% chance to pass". The figure plans for no true change (what a non-inferiority check is
 * sized for), never for the observed difference, which is itself noise.
 */
function powerWords(unit: UnitResult, metric: MetricRule): string {
  const p = unit.power
  if (p === null || !Number.isFinite(p.mde)) return ''
  const c = unit.comparison
  const clusters = c.clusters === null ? '' : ` in ${c.clusters} clusters`
  // The digits of the interval beside it: "+4.99 to +5.33 ms ... about 0.24 ms", not "0.2439 ms".
  const typical = Math.max(Math.abs(c.ci[0]), Math.abs(c.ci[1]))
  let text = `; with ${c.n} queries${clusters} this evaluation detects a change of about ${amount(p.mde, metric, false, Number.isFinite(typical) ? typical : p.mde)} (80% power)`
  if (unit.status === 'inconclusive' && p.moreQueries !== null && p.moreQueries > 0) {
    const plan =
      unit.reason === 'too_few_queries' || unit.reason === 'interval_unreliable'
        ? ''
        : 'if the candidate truly changed nothing, '
    text += `; ${plan}about ${p.moreQueries} more independent queries would give this check an 80% chance to pass`
  }
  return text
}

/** "+0.6 to +2.5 points": an interval of the change in the report's units. */
function rangeWords(ci: readonly [number, number], metric: MetricRule): string {
  const u = unitWord(metric)
  const typical = Math.max(Math.abs(ci[0]), Math.abs(ci[1]))
  return `${displayNumber(ci[0], metric, true, typical)} to ${displayNumber(ci[1], metric, true, typical)}${u ? ` ${u}` : ''}`
}

/** "95% interval -10.9 to -8.8 points, 40 queries" */
function intervalWords(unit: UnitResult, metric: MetricRule): string {
  const c = unit.comparison
  return `${confidenceLabel(c.confidence)} interval ${rangeWords(c.ci, metric)}, ${c.n} ${c.n === 1 ? 'query' : 'queries'}`
}

/**
 * One sentence a product manager can read about a unit that did not pass, e.g. "recall@10 for segment = new
 * fell by 9.8 points (95% interval -10.9 to -8.8 points, 40 queries); the rules allow a drop of at most 2.0
 * points." `minPerSlice` is the rules' queries.min_per_slice (named in the too-few-queries sentence).
 */
export function explainUnit(
  check: CheckResult,
  unit: UnitResult,
  metric: MetricRule,
  at: { minPerSlice?: number; capabilities: GateResult['capabilities'] }
): string {
  const c = unit.comparison
  const who = c.slice.length === 0 ? '' : ` for ${sliceLabel(c.slice)}`
  const higher = metric.better === 'higher'
  const moved = c.delta === 0 ? 'did not change' : c.delta > 0 ? 'rose' : 'fell'
  const by = c.delta === 0 || !Number.isFinite(c.delta) ? '' : ` by ${amount(Math.abs(c.delta), metric, false)}`
  const name = clean(metric.name, NAME)
  const head = `${name}${who} ${moved}${by} (${intervalWords(unit, metric)})`
  // a reason of a capability's own (the budget's, the holdout's): its words
  for (const c of at.capabilities) {
    const said = c.parts.unitWords?.(unit, { check, metric, name: `${name}${who}`, head })
    if (said !== undefined) return said
  }
  const worseWord = higher ? 'drop' : 'rise'
  const kind = check.rule.kind
  switch (unit.reason) {
    case 'too_few_queries':
      if (kind.type === 'max_regressions')
        return `${name}${who} has only ${c.n} ${c.n === 1 ? 'query' : 'queries'}, no more than the ${unit.regressionLimit ?? 0} that may regress, so the check cannot fail there and is inconclusive.`
      return `${name}${who} has only ${c.n} ${c.n === 1 ? 'query' : 'queries'}; the rules need at least ${at.minPerSlice ?? 'min_per_slice'} to judge it, so the check is inconclusive.`
    case 'interval_unreliable':
      return `${head}; this interval cannot support a pass: ${whyNoPass(unit, metric, rangeWords(c.ownCi, metric))}, so the check is inconclusive.`
    case 'too_few_seeds':
      return `${head}; a side has fewer independently trained seeds than statistics.min_seeds asks for, so a gain cannot be told from training noise and the check is inconclusive.`
    case 'non_finite':
      return `${head}; a statistic is not a finite number, so the check cannot pass.`
    case 'no_queries':
      return `${name}${who} has no queries to compare; a check over zero queries never passes.`
    case 'too_many_regressions': {
      const t =
        kind.type === 'max_regressions' && kind.threshold > 0
          ? ` by more than ${amount(kind.threshold, metric, false)}`
          : ''
      return `${unit.regressions} of ${c.n} queries${who} got worse on ${name}${t}; the rules allow at most ${unit.regressionLimit}.`
    }
    default:
      break
  }
  if (kind.type === 'level') return levelSentence(kind, unit, metric, `${name}${who}`)
  const marginWords = (m: number): string => {
    const rel = kind.type !== 'max_regressions' && kind.margin.relative ? ` (${kind.margin.text} of the baseline)` : ''
    return `${amount(m, metric, false)}${rel}`
  }
  if (kind.type === 'non_inferior') {
    const allowed = `a ${worseWord} of at most ${marginWords(unit.margin)}`
    if (unit.reason === 'shown_worse') return `${head}; the rules allow ${allowed}.`
    const worst = higher ? c.ci[0] : c.ci[1]
    return `${head}; the data cannot rule out a ${worseWord} of ${amount(Math.abs(worst), metric, false)}, and the rules allow ${allowed}${powerWords(unit, metric)}.`
  }
  if (kind.type === 'superior') {
    const power = unit.status === 'inconclusive' ? powerWords(unit, metric) : ''
    // McNemar's p is the comparison's own; another test's is the unit's.
    const p = kind.test === 'mcnemar' ? c.pValue : unit.pValue
    const adjusted =
      unit.pAdjusted !== null && unit.pAdjusted !== p ? `, ${pValue(unit.pAdjusted)} adjusted for the other checks` : ''
    if (kind.test === 'mcnemar')
      return `${head}: ${c.gained} queries gained and ${c.lost} lost (McNemar p = ${pValue(p)}${adjusted}); the rules need more gained than lost with p < ${alphaText(kind.alpha)}${power}.`
    if (kind.test === 't' || kind.test === 'randomization') {
      const test = kind.test === 't' ? 'paired t-test' : 'randomization test'
      return `${head}: ${test} p = ${pValue(p)}${adjusted}; the rules need the mean to ${higher ? 'rise' : 'fall'} with p < ${alphaText(kind.alpha)}${power}.`
    }
    return `${head}; the rules need the whole interval to show a gain of more than ${marginWords(unit.margin)}${power}.`
  }
  return head + '.'
}

/** A level of a metric as the files hold it, with the metric's digits and unit: "0.3412", "212.5 ms". */
export function levelText(x: number, metric: MetricRule, typical = x): string {
  const s = fixed(x, digitsFor(metric.range, typical))
  return metric.unit ? `${s} ${metric.unit}` : s
}

/**
 * The sentence of an at_least / at_most unit that did not pass: "recall@10 has a candidate mean of 0.3412 (95% t
 * interval 0.3221 to 0.3603, 400 queries); the rules need at least 0.3500." (too few queries and non-finite values
 * have their sentences in explainUnit).
 */
function levelSentence(
  kind: { bound: 'at_least' | 'at_most'; value: number },
  unit: UnitResult,
  metric: MetricRule,
  subject: string
): string {
  const level = unit.level
  const need = `the rules need ${kind.bound === 'at_least' ? 'at least' : 'at most'} ${levelText(kind.value, metric)}`
  if (level === undefined) return `${subject}: ${need}.`
  const n = unit.comparison.n
  const queries = `${n} ${n === 1 ? 'query' : 'queries'}`
  const typical = Math.max(Math.abs(level.ci[0]), Math.abs(level.ci[1]))
  const method = level.method === 'exact' ? "Clopper–Pearson's exact" : 'skew-corrected t'
  const interval = `${confidenceLabel(level.confidence)} ${method} interval ${fixed(level.ci[0], digitsFor(metric.range, typical))} to ${levelText(level.ci[1], metric, typical)}`
  const head = `${subject} has a candidate mean of ${levelText(level.mean, metric, typical)} (${interval}, ${queries})`
  if (unit.reason === 'interval_crosses_level')
    return `${head}; the interval contains ${levelText(kind.value, metric)}, so the data cannot show it, and ${need}.`
  if (unit.reason === 'interval_unreliable')
    return `${head}; this interval cannot support a pass: ${whyNoPass(unit, metric, `${fixed(level.ownCi[0], digitsFor(metric.range, typical))} to ${levelText(level.ownCi[1], metric, typical)}`)}; ${need}.`
  return `${head}; ${need}.`
}

/**
 * Sentences about the statistics a reader of the checks table must know (raw text: escape it): under
 * target weights, every metric over all queries with the observed and with the target mix (the table's
 * numbers are the target's); under a multiplicity adjustment, the confidence every check's interval has.
 * E.g. "Target mix by segment (established 50%, new 50%; observed 90%, 10%): recall@10 0.600 → 0.575
 * (-2.5 points) with the target mix, 0.760 → 0.795 (+3.5 points) with the observed mix."
 */
export function statisticsSentences(result: GateResult): string[] {
  const out: string[] = []
  const { rules } = result
  for (const c of result.comparisons) {
    if (c.slice.length > 0 || c.mix === null) continue
    const metric = rules.metrics.get(c.metric) as MetricRule
    const pct = (x: number): string => `${fixed(x * 100, 0)}%`
    const target = c.mix.strata.map((s) => `${s.value} ${pct(s.target)}`).join(', ')
    const observed = c.mix.strata.map((s) => pct(s.observed)).join(', ')
    const v = (x: number): string => (inPoints(metric) ? fixed(x, 3) : displayNumber(x, metric, false))
    out.push(
      `Target mix by ${c.mix.by} (${target}; observed ${observed}): ${metric.name} ${v(c.baseline)} → ${v(c.candidate)} (${amount(c.delta, metric)}) with the target mix, ` +
        `${v(c.mix.observed.baseline)} → ${v(c.mix.observed.candidate)} (${amount(c.mix.observed.delta, metric)}) with the observed mix.`
    )
  }
  const f = result.decision.family
  if (f.method !== 'none' && f.size > 1) {
    out.push(
      `Multiplicity (${f.method}) over ${f.size} statistical checks: every check's interval is at ${confidenceLabel(f.confidence)} (1 − ${fixed(1 - rules.statistics.confidence, 3)}/${f.size}), and p-values are ${f.method === 'holm' ? 'Holm' : 'Bonferroni'}-adjusted.`
    )
  }
  return out
}

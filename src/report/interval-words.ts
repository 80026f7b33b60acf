import type { CheckResult } from '../decide/evaluate.js'
import type { GateResult } from '../decide/result.js'
import type { Comparison } from '../stats/compare.js'
import type { IntervalMethod } from '../stats/interval.js'
import { unitsForMargin, unitsForSkew, unseenShare, type Unreliable } from '../stats/reliability.js'
import { metricBounds } from '../stats/law.js'
import type { MetricRule } from '../config/types.js'
import type { UnitResult } from '../decide/types.js'
import { sliceLabel } from './slice-label.js'

/**
 * The interval each check used and why, and why an interval could not support a pass, in words (RAW text: the
 * caller escapes it). The law itself is fixed in src/stats/law.ts, the one reliability rule in
 * src/stats/reliability.ts; these only say them.
 */

/** The method's name as the report shows it. */
export function methodName(method: IntervalMethod): string {
  switch (method) {
    case 'score':
      return "Tango's score interval for paired proportions"
    case 'exact':
      return "Clopper–Pearson's exact interval"
    case 'skew-t':
      return "Hall's skew-corrected t"
    case 'seeds-t':
      return 't over seeds and queries (Satterthwaite)'
    case 'bca':
      return 'BCa paired bootstrap'
    case 'percentile':
      return 'percentile paired bootstrap'
  }
}

/** Why a comparison got its method: the metric type and design that chose it (or the rules' setting), and its widening. */
export function methodReason(c: Comparison, result: GateResult): string {
  const s = result.rules.statistics
  const widened =
    c.widened === 'range'
      ? "; widened to what the metric's range allows unseen queries to change"
      : c.widened === 'student'
        ? "; widened to Student's t"
        : ''
  if (c.interval === 'seeds-t')
    return `seed replicates: training variance from the spread of the seed means, query variance from the queries${widened}`
  if (s.interval !== 'auto') return `statistics.interval: ${s.interval}${widened}`
  if (c.interval === 'score')
    return `binary metric, independent queries: no resampling of a few discordant queries, never a zero-width interval${widened}`
  if (c.clusters !== null)
    return `clustered (${c.clusters} clusters): cluster-robust, skew-corrected, clusters − 1 degrees of freedom${widened}`
  if (s.weights !== undefined)
    return `target weights by ${s.weights.by}: stratified, skew-corrected, Satterthwaite degrees of freedom${widened}`
  return `not binary: corrected for skew (rare large losses), never narrower than Student's t${widened}`
}

/** Why an interval cannot support a pass, and what would settle it (RAW text). */
export function unreliableWords(
  code: Unreliable,
  c: Pick<Comparison, 'n' | 'clusters' | 'effective' | 'unitSkew'>
): string {
  switch (code) {
    case 'no_spread':
      return "the values do not vary (beyond rounding), and without a declared range nothing bounds what other queries could change: declare the metric's range, or this check cannot pass"
    case 'few_units': {
      const needed = Math.ceil(unitsForSkew(c.unitSkew))
      return `the differences are skewed (skewness ${c.unitSkew.toFixed(1)}) and the metric has no declared range, so the mean of ${Math.round(c.effective)} effective ${c.clusters === null ? 'queries' : 'clusters'} is not yet near normal: about ${needed} are needed (Sugden's rule, 28 + 25·skewness²), or declare the metric's range`
    }
    case 'few_clusters':
      return `only ${c.clusters ?? 0} cluster: the variability between clusters cannot be estimated`
    case 'single_unit_stratum':
      return 'a stratum holds a single unit, whose variability cannot be estimated'
  }
}

/**
 * Why an inconclusive interval_unreliable unit could not pass, and what would settle it (RAW text): the reliability
 * rule's code, or, when only the range's bound stood in the way, how far unseen queries could move the check and how
 * many queries would rule that out; `own`: the data's own interval in the report's words, said then.
 */
export function whyNoPass(unit: UnitResult, metric: MetricRule, own?: string): string {
  const c = unit.comparison
  const code = unit.level?.unreliable ?? c.unreliable
  if (code !== null) return unreliableWords(code, c)
  const bounds = metricBounds(metric)
  const units = `${Math.round(c.effective)} ${c.clusters === null ? 'queries' : 'effective clusters'}`
  const share = unseenShare(c.effective, c.confidence)
  const width = bounds === undefined ? 1 : bounds[1] - bounds[0]
  // What an unchanged candidate needs; said only when the unit has fewer (with more, it is this estimate's distance
  // from the limit, not the margin, that the bound does not allow).
  const margin = unit.level === undefined && unit.margin > 0 ? unitsForMargin(unit.margin, width, c.confidence) : null
  const needed = margin !== null && margin > c.effective ? margin : null
  const settle =
    unit.power?.moreQueries !== undefined && unit.power?.moreQueries !== null
      ? `about ${unit.power.moreQueries} more queries would settle it if nothing changed`
      : needed !== null
        ? `a margin this small needs at least ${needed} ${c.clusters === null ? 'queries' : 'effective clusters'}`
        : 'more queries would narrow it'
  // the interval the sentence quoted is the widened one: the data's own is said, or "clear the limit" reads as false
  const theirs =
    own === undefined ? '' : ` (their own interval is ${own}; the one above adds what unseen queries could change)`
  return `the data alone clear the limit${theirs}, but with ${units} a share of up to ${(100 * share).toFixed(1)}% of unseen ones could each lie anywhere in the metric's range${bounds === undefined ? '' : ` [${bounds[0]}, ${bounds[1]}]`}, which the limit does not allow; ${settle}`
}

/** One row of the method table: a check, an interval it used, why, and on which of its units. */
export interface MethodRow {
  check: CheckResult
  method: IntervalMethod
  reason: string
  /** The units (slices) that used it; every unit of the check when `all`. */
  slices: string[]
  all: boolean
}

/** Per statistical check, each interval method its units used (in unit order), with the reason. */
export function methodRows(result: GateResult): MethodRow[] {
  const rows: MethodRow[] = []
  for (const check of result.decision.checks) {
    if (check.rule.kind.type === 'max_regressions') continue
    const byMethod = new Map<string, MethodRow>()
    for (const unit of check.units) {
      const c = unit.comparison
      const reason = methodReason(c, result)
      const key = `${c.interval}\u0000${reason}`
      let row = byMethod.get(key)
      if (!row) byMethod.set(key, (row = { check, method: c.interval, reason, slices: [], all: false }))
      row.slices.push(sliceLabel(c.slice))
    }
    for (const row of byMethod.values()) {
      row.all = byMethod.size === 1
      rows.push(row)
    }
  }
  return rows
}

/** A note and the units of one check it applies to. */
export interface IntervalNote {
  check: CheckResult
  note: string
  slices: string[]
}

/**
 * Every note of a gated unit's comparison (clusters, strata, fallbacks, seeds), grouped per check and note, in
 * check order: what the JSON's `comparisons[].notes` hold for the gated units, for the Markdown and text reports.
 */
export function gatedNotes(result: GateResult): IntervalNote[] {
  const out: IntervalNote[] = []
  for (const check of result.decision.checks) {
    const byNote = new Map<string, IntervalNote>()
    for (const unit of check.units) {
      for (const note of unit.comparison.notes) {
        let entry = byNote.get(note)
        if (!entry) byNote.set(note, (entry = { check, note, slices: [] }))
        entry.slices.push(sliceLabel(unit.comparison.slice))
      }
    }
    out.push(...byNote.values())
  }
  return out
}

/** "segment = a, segment = b and 3 more" (at most `max` named). */
export function slicesList(slices: readonly string[], max = 4): string {
  if (slices.length <= max) return slices.join(', ')
  return `${slices.slice(0, max).join(', ')} and ${slices.length - max} more`
}

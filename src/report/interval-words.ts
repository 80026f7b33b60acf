import type { CheckResult } from '../decide/evaluate.js'
import type { GateResult } from '../decide/result.js'
import type { Comparison } from '../stats/compare.js'
import { MIN_CLUSTERS, MIN_QUERIES_SKEW, type IntervalMethod, type Unreliable } from '../stats/interval-choice.js'
import { sliceLabel } from './slice-label.js'

/**
 * The interval each check used and why, and why an interval could not support a pass, in words (RAW text: the
 * caller escapes it). The choice itself is made in src/stats/interval-choice.ts; these only say it.
 */

/** The method's name as the report shows it. */
export function methodName(method: IntervalMethod): string {
  switch (method) {
    case 'score':
      return "Tango's score interval for paired proportions"
    case 'skew-t':
      return "Hall's skew-corrected t"
    case 'seeds-t':
      return 't over seeds and queries (Satterthwaite)'
    case 'tied-bound':
      return 'bound for equal differences (rule of three on the range)'
    case 'bca':
      return 'BCa paired bootstrap'
    case 'percentile':
      return 'percentile paired bootstrap'
  }
}

/** Why a comparison got its method: the metric type and design that chose it (or the rules' setting). */
export function methodReason(c: Comparison, result: GateResult): string {
  const s = result.rules.statistics
  if (s.interval !== 'auto') return `statistics.interval: ${s.interval}`
  switch (c.interval) {
    case 'score':
      return 'binary metric, independent queries: no resampling of a few discordant queries, never a zero-width interval'
    case 'seeds-t':
      return 'seed replicates: training variance from the spread of the seed means, query variance from the queries'
    case 'tied-bound':
      return 'every difference is the same: no spread to estimate, so the share of unseen queries that could differ, times the range'
    default:
      if (c.clusters !== null)
        return `clustered (${c.clusters} clusters): cluster-robust, skew-corrected, clusters − 1 degrees of freedom; needs ${MIN_CLUSTERS} clusters or more`
      if (s.weights !== undefined)
        return `target weights by ${s.weights.by}: stratified, skew-corrected, Satterthwaite degrees of freedom`
      return `not binary: corrected for skew (rare large losses); needs ${MIN_QUERIES_SKEW} queries or more`
  }
}

/** Why an interval cannot support a pass, e.g. "only 35 queries: a metric that is not binary needs at least 40 …". */
export function unreliableWords(code: Unreliable, c: Comparison): string {
  switch (code) {
    case 'no_spread':
      return 'the differences do not vary, so the interval has no width and says nothing about other queries'
    case 'few_queries':
      return `only ${c.n} queries: a metric that is not binary needs at least ${MIN_QUERIES_SKEW} for its interval to hold its level when rare large losses are possible (a loss in 1 query of 10 is absent from 30 queries 4% of the time)`
    case 'few_clusters':
      return (c.clusters ?? 0) < 2
        ? `only ${c.clusters ?? 0} cluster: the variability between clusters cannot be estimated`
        : `only ${c.clusters ?? 0} clusters: a clustered interval needs at least ${MIN_CLUSTERS} to hold its level when the effect sits in a few clusters`
    case 'single_unit_stratum':
      return 'a stratum holds a single unit, whose variability cannot be estimated'
  }
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

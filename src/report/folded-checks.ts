import type { CheckResult, UnitResult } from '../decide/evaluate.js'
import { percent } from './format.js'
import { sliceLabel } from './words.js'
import { maxOf } from '../util/extent.js'

/**
 * A `max_regressions` check over `per_slice` has one unit per value of the attribute, and listed row by row in the
 * head's checks table it takes most of the table (one check, eight categories). Such a check is folded: one row
 * in the table that says how its slices did, and a collapsed list of every slice under the table
 * (src/report/markdown.ts). Every other check keeps one row per unit.
 */

/** True for a check whose units the head's table folds into one row. */
export function isFolded(check: CheckResult): boolean {
  return check.rule.kind.type === 'max_regressions' && check.units.length > 1
}

/** A max_regressions unit's count of worsened queries and its limit (set for every unit of such a check; 0 if not). */
const worse = (u: UnitResult): number => u.regressions ?? 0
const limit = (u: UnitResult): number => u.regressionLimit ?? 0

/** The unit with the most worsened queries relative to its limit (the one nearest to failing), ties by rules order. */
function nearest(units: readonly UnitResult[]): UnitResult {
  let best = units[0]
  const ratio = (u: UnitResult): number => (limit(u) > 0 ? worse(u) / limit(u) : worse(u) > 0 ? Infinity : 0)
  for (const u of units) if (ratio(u) > ratio(best)) best = u
  return best
}

/** "4 slices of category", the folded row's Queries cell and its summary's subject (RAW: escape it). */
export function foldedSlices(check: CheckResult): string {
  const by = check.rule.perSlice ?? check.units[0].comparison.slice.map(([k]) => k).join(', ')
  return `${check.units.length} slices of ${by}`
}

/** The folded row's Needs cell: "≤ 40 worse (max 19)", or "≤ 50.0% worse each (max 19 of 40)" when limits differ. */
export function foldedNeeds(check: CheckResult): string {
  const kind = check.rule.kind
  const worst = nearest(check.units)
  const limits = new Set(check.units.map(limit))
  if (limits.size === 1) return `≤ ${limit(worst)} worse (max ${maxOf(check.units.map(worse))})`
  const share = kind.type === 'max_regressions' && kind.share !== undefined ? percent(kind.share) : 'the limit'
  return `≤ ${share} worse each (max ${worse(worst)} of ${worst.comparison.n})`
}

/** The folded row's n: every query of the check's slices (each query is in one slice of the attribute). */
export function foldedCount(check: CheckResult): number {
  return check.units.reduce((sum, u) => sum + u.comparison.n, 0)
}

/**
 * The one-line summary of a folded check's collapsed slices: "Check 4 “few regressions per category”: 4 slices of
 * category, all pass; nearest its limit: category = policy, 19 worse (limit 40)"; "furthest past its limit" when
 * that slice fails (RAW: it quotes the check's name and
 * a slice value, so it is a `text` span, escaped by each renderer).
 */
export function foldedSummary(check: CheckResult): string {
  const counts = { pass: 0, fail: 0, inconclusive: 0 }
  for (const u of check.units) counts[u.status]++
  const n = check.units.length
  const outcome =
    counts.pass === n
      ? 'all pass'
      : [`${counts.fail} fail`, `${counts.inconclusive} inconclusive`, `${counts.pass} pass`]
          .filter((t) => !t.startsWith('0 '))
          .join(', ')
  const worst = nearest(check.units)
  // Past its limit, the slice with the highest count for its limit is the furthest beyond it, not the nearest.
  const said = worse(worst) > limit(worst) ? 'furthest past its limit' : 'nearest its limit'
  const near = `${said}: ${sliceLabel(worst.comparison.slice)}, ${worse(worst)} worse (limit ${limit(worst)})`
  return `Check ${check.rule.index + 1} “${check.rule.name}”: ${foldedSlices(check)}, ${outcome}; ${near}`
}

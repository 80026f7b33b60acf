import type { PairedTable } from '../align/pair.js'
import type { CheckRule } from '../config/types.js'
import type { StatsEngine } from './compare.js'
import { valuesOf, type Filters } from './subsets.js'

/**
 * The two questions decide asks of the queries themselves, answered by the engine when it has no rows (a
 * warehouse's aggregates, src/stats/aggregate-engine.ts) and from the paired table otherwise.
 */

/** The distinct values of `attr` among the queries `filters` selects, sorted. */
export function sliceValues(table: PairedTable, stats: StatsEngine, attr: string, filters: Filters): string[] {
  return stats.valuesOf ? stats.valuesOf(attr, filters) : valuesOf(table, attr, stats.members(filters))
}

/**
 * What a regression is for a max_regressions check: a difference worse than `threshold` in the metric's direction
 * (`sign` +1 when higher is better, -1 when lower is).
 */
export interface RegressionLine {
  sign: number
  threshold: number
}

/**
 * The drop a query must exceed to count against a max_regressions threshold: the threshold itself, raised by a
 * billionth of it. A difference is computed in binary (0.75 − 0.8 is −0.050000000000000044, 0.25 − 0.3 is
 * −0.04999999999999999), so two drops that are both exactly the threshold as written would fall on either side of it;
 * within a billionth they count as equal to it, hence not "more than". A threshold of 0 stays exact: any drop counts.
 * The SQL compares against the same bar (src/stats/warehouse-sql.ts), so rows and sums count alike.
 */
export function regressionBar(threshold: number): number {
  return threshold + threshold * 1e-9
}

/** The queries of `filters` worse than a max_regressions check's threshold, and those whose difference is not a number. */
export function regressionsPast(
  stats: StatsEngine,
  check: CheckRule,
  filters: Filters,
  line: RegressionLine
): { count: number; nonFinite: number } {
  if (stats.regressionCount) return stats.regressionCount(check, filters)
  const { sign } = line
  const bar = regressionBar(line.threshold)
  const d = stats.differences(check.metric)
  let count = 0
  let nonFinite = 0
  for (const i of stats.members(filters)) {
    const worse = -sign * d[i]
    if (!Number.isFinite(worse)) nonFinite++
    else if (worse > bar) count++
  }
  return { count, nonFinite }
}

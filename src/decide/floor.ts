import type { PairedTable } from '../align/pair.js'
import type { CheckKind, MetricRule, Rules } from '../config/types.js'
import { buildDesign, estimate } from '../stats/design.js'
import { tInterval } from '../stats/linear.js'
import type { Filters } from '../stats/subsets.js'
import type { LevelInterval, Reason, Status } from './types.js'

/**
 * An absolute level (`at_least: 0.35`, `at_most: 200`): what a team that gates on a level, not only on a change,
 * asks of the candidate. The candidate's mean on the unit's queries is judged with its interval: the worse end
 * clearing the level is a pass, the better end short of it a fail, an interval around it inconclusive.
 *
 * The interval is Student's t at the unit's confidence, over the candidate's per-query values under the rules'
 * design (src/stats/linear.ts tInterval, the linearised standard error the paired t cross-check uses: cluster-
 * robust with statistics.cluster, stratified with statistics.weights, so its mean is the report's candidate mean).
 * A bootstrap of a single side's level would need its own resamples; the t interval of a mean over the hundreds of
 * queries a check needs (queries.min_per_slice) is close to it, and is the interval ranx and scipy users know.
 * Every query equal (no spread) gives an interval of no width: no evidence, inconclusive.
 */

/** The level interval of a metric's candidate values on a set of queries, at a confidence. */
export type LevelOf = (metric: string, filters: Filters, members: Int32Array, confidence: number) => LevelInterval

/** {@link LevelOf} over `table` under the rules' design. Pure; each call builds the design of its queries. */
export function candidateLevels(table: PairedTable, rules: Rules): LevelOf {
  return (metric, filters, members, confidence) => {
    const column = (table.metrics.get(metric) as { cand: Float64Array }).cand
    const label = filters.length === 0 ? 'all queries' : filters.map(([k, v]) => `${k} = ${v}`).join(', ')
    const design = buildDesign(table, members, [column], {
      statistics: rules.statistics,
      label,
      rulesFile: rules.source.file
    })
    const mean = estimate(design, 0)
    const t = tInterval(design, 0, confidence)
    return { mean, ci: t === null ? null : t.ci, confidence, method: 't', df: t === null ? null : t.df }
  }
}

/** The outcome of a level check on its interval (after the checks every kind shares: no queries, non-finite, too few). */
export function levelOutcome(
  kind: Extract<CheckKind, { type: 'level' }>,
  metric: MetricRule,
  level: LevelInterval
): { status: Status; reason: Reason } {
  if (level.ci === null) return { status: 'inconclusive', reason: 'no_spread' }
  // In the metric's direction: "worse" is low for at_least (better: higher), high for at_most (better: lower).
  const sign = metric.better === 'higher' ? 1 : -1
  const [worse, better] = sign > 0 ? [level.ci[0], level.ci[1]] : [-level.ci[1], -level.ci[0]]
  const bar = sign * kind.value
  if (worse >= bar) return { status: 'pass', reason: 'holds' }
  if (better < bar) return { status: 'fail', reason: 'beyond_level' }
  return { status: 'inconclusive', reason: 'interval_crosses_level' }
}

import type { MetricRule } from '../config/types.js'
import type { CheckResult, UnitResult } from '../decide/evaluate.js'
import { digitsFor, fixed, pValue, signed } from './format.js'

/** "segment = new, category = faq" or "all queries". Untrusted values: callers escape the whole sentence. */
export function sliceLabel(slice: ReadonlyArray<readonly [string, string]>): string {
  return slice.length === 0 ? 'all queries' : slice.map(([k, v]) => `${k} = ${v}`).join(', ')
}

/** A value in the metric's terms: points for 0..1 metrics, units otherwise. */
export function amount(x: number, metric: MetricRule, withSign = true): string {
  if (metric.range && metric.range[1] - metric.range[0] <= 1) {
    const pts = withSign ? signed(x * 100, 1) : fixed(x * 100, 1)
    return `${pts} points`
  }
  const d = digitsFor(metric.range, x)
  const s = withSign ? signed(x, d) : fixed(x, d)
  return metric.unit ? `${s} ${metric.unit}` : s
}

/**
 * One sentence a product manager can read about a unit that did not pass, e.g. "recall@10 for segment = new
 * fell by 10.0 points (95% interval -16.0 to -5.0 points, 100 queries); the rules allow at most -2.0 points."
 */
export function explainUnit(check: CheckResult, unit: UnitResult, metric: MetricRule): string {
  const c = unit.comparison
  const who = c.slice.length === 0 ? '' : ` for ${sliceLabel(c.slice)}`
  const conf = `${fixed(c.confidence * 100, 0)}%`
  const sign = metric.better === 'higher' ? 1 : -1
  const moved = sign * c.delta >= 0 ? (c.delta === 0 ? 'did not change' : 'improved') : metric.better === 'higher' ? 'fell' : 'rose'
  const by = c.delta === 0 ? '' : ` by ${amount(Math.abs(c.delta), metric, false)}`
  const interval = `${conf} interval ${amount(c.ci[0], metric)} to ${amount(c.ci[1], metric)}, ${c.n} queries`
  const head = `${metric.name}${who} ${moved}${by} (${interval})`
  const kind = check.rule.kind
  switch (unit.reason) {
    case 'too_few_queries':
      return `${metric.name}${who} has only ${c.n} queries; the rules need at least the min_per_slice to judge it, so the check is inconclusive.`
    case 'non_finite':
      return `${head}; a statistic is not a finite number, so the check cannot pass.`
    case 'too_many_regressions':
      return `${unit.regressions} of ${c.n} queries${who} got worse on ${metric.name}; the rules allow at most ${unit.regressionLimit}.`
    default:
      break
  }
  if (kind.type === 'non_inferior') {
    const allowed = amount(-sign * unit.margin, metric)
    if (unit.reason === 'shown_worse') return `${head}; the rules allow at most ${allowed}.`
    const worst = sign > 0 ? c.ci[0] : c.ci[1]
    return `${head}; the data cannot rule out a change of ${amount(worst, metric)}, beyond the ${allowed} the rules allow.`
  }
  if (kind.type === 'superior') {
    if (kind.test === 'mcnemar') {
      return `${head}: ${c.gained} queries gained and ${c.lost} lost (McNemar p = ${pValue(c.pValue)}); the rules ask for a significant gain at p < ${fixed(kind.alpha, 3)}.`
    }
    return `${head}; the rules ask for an improvement the interval shows to exceed ${amount(sign * unit.margin, metric)}.`
  }
  return head + '.'
}

import type { MetricRule } from '../config/types.js'
import type { CheckResult, UnitResult } from '../decide/evaluate.js'
import type { GateResult } from '../decide/result.js'
import { mermaidText } from './escape.js'
import { confidenceLabels } from './format.js'
import { histogram } from './histogram.js'
import { gatedMetrics } from './regressions.js'
import { displayNumber, sliceLabel, unitWord } from './words.js'
import { maxOf, minOf } from '../util/extent.js'

/**
 * Pictures as Mermaid source, which GitHub renders inside a ```mermaid fence. Only diagram types GitHub's
 * Mermaid renders and mermaid 12 parses are used: `xychart-beta` (bar) for the histogram, `gantt` (with
 * `dateFormat x`, i.e. plain numbers, and a hidden time axis) for intervals, because it is the one type
 * that draws a bar from a start to an end, which an interval is. Every name from the inputs goes through
 * {@link mermaidText}; numbers are formatted with fixed digits, so the source is byte-deterministic.
 */

/** Span of the interval chart's number line, in the Gantt's "milliseconds". */
const SCALE = 1000
const ORIGIN = 1000

/** The histogram bar colour (GitHub honours the init directive; without it Mermaid's default is used). */
const BAR_COLOUR = '#4c78a8'

/** Histogram of the per-query differences of the primary metric, or null when there are no queries. */
export function histogramChart(result: GateResult): string | null {
  const metric = result.rules.metrics.get(result.primaryMetric) as MetricRule
  const d = result.primaryDifferences
  if (d.length === 0) return null
  const h = histogram(d, metric)
  const max = h.bins.reduce((m, b) => Math.max(m, b.count), 0)
  const top = Math.max(1, Math.ceil(max * 1.1))
  const u = unitWord(metric)
  const worse = metric.better === 'higher' ? 'left of 0' : 'right of 0'
  return [
    `%%{init: {"themeVariables": {"xyChart": {"plotColorPalette": "${BAR_COLOUR}"}}}}%%`,
    'xychart-beta',
    `  title "${mermaidText(metric.name, 32)}: change per query, candidate minus baseline"`,
    `  x-axis "change${u ? ` in ${mermaidText(u, 16)}` : ''} (${worse} is worse)" [${h.bins.map((b) => `"${b.label}"`).join(', ')}]`,
    `  y-axis "queries" 0 --> ${top}`,
    `  bar [${h.bins.map((b) => String(b.count)).join(', ')}]`
  ].join('\n')
}

interface Row {
  check: CheckResult
  unit: UnitResult
  limit: number | null
}

/** The value a unit's change must stay beyond, in metric units (candidate - baseline), or null (count rules). */
function limitOf(check: CheckResult, unit: UnitResult, metric: MetricRule): number | null {
  const sign = metric.better === 'higher' ? 1 : -1
  const kind = check.rule.kind
  if (kind.type === 'non_inferior') return -sign * unit.margin
  if (kind.type === 'superior') return kind.test === 'mcnemar' ? 0 : sign * unit.margin
  return null
}

const TAG: Record<string, string> = { fail: 'crit', inconclusive: 'active', pass: 'done' }

/**
 * One interval chart per gated metric: every unit of every check on that metric (a check, or one slice of
 * a per_slice check) is a bar from the lower to the upper end of its interval, red when it fails, blue
 * when inconclusive, grey when it passes; a diamond marks each check's limit and one marks "no change".
 */
export function intervalCharts(result: GateResult): string[] {
  const charts: string[] = []
  for (const name of gatedMetrics(result)) {
    const metric = result.rules.metrics.get(name) as MetricRule
    const rows: Row[] = []
    for (const check of result.decision.checks) {
      if (check.rule.metric !== name) continue
      for (const unit of check.units) rows.push({ check, unit, limit: limitOf(check, unit, metric) })
    }
    const finite = rows.filter((r) => r.unit.comparison.ci.every(Number.isFinite))
    if (finite.length === 0) continue
    const values = [0]
    for (const r of finite) values.push(r.unit.comparison.ci[0], r.unit.comparison.ci[1], ...(r.limit === null || !Number.isFinite(r.limit) ? [] : [r.limit]))
    const min = minOf(values)
    const span = maxOf(values) - min || 1
    const at = (v: number): number => ORIGIN + Math.round(((v - min) / span) * SCALE)
    const num = (v: number): string => displayNumber(v, metric)
    const u = unitWord(metric)
    const conf = confidenceLabels(finite.map((r) => r.unit.comparison.confidence))
    const lines = [
      'gantt',
      `  title ${mermaidText(name, 32)} - change with its ${conf} interval${u ? ` in ${mermaidText(u, 16)}` : ''}, ${metric.better} is better`,
      '  dateFormat x',
      '  axisFormat .',
      '  todayMarker off',
      '  section reference',
      `  no change 0 :milestone, z0, ${at(0)}, 0ms`
    ]
    let current: CheckResult | null = null
    let shownLimit: number | null = null
    finite.forEach((r, i) => {
      const c = r.unit.comparison
      if (r.check !== current) {
        current = r.check
        shownLimit = null
        lines.push(`  section ${r.check.rule.index + 1}. ${mermaidText(r.check.rule.name, 40)}`)
      }
      const start = at(c.ci[0])
      const end = Math.max(at(c.ci[1]), start + 2)
      // The line starts with a number: a task name starting with a word such as "title" or "section" would be read as a keyword.
      const label = `${num(c.delta)} (${num(c.ci[0])} to ${num(c.ci[1])}) ${mermaidText(sliceLabel(c.slice), 40)}`
      lines.push(`  ${label} :${TAG[r.unit.status]}, u${i}, ${start}, ${end}`)
      if (r.limit !== null && Number.isFinite(r.limit) && r.limit !== shownLimit) {
        shownLimit = r.limit
        lines.push(`  limit ${num(r.limit)} :milestone, m${i}, ${at(r.limit)}, 0ms`)
      }
    })
    charts.push(lines.join('\n'))
  }
  return charts
}

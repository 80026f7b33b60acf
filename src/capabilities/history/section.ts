import type { MetricRule } from '../../config/types.js'
import type { GateResult } from '../../decide/result.js'
import type { HistoryInput, PastReport, SkipReason } from '../../model/history.js'
import {
  cells,
  code,
  em,
  paragraph,
  row,
  strong,
  table,
  text,
  words,
  type Block,
  type Span,
  SAFE_URL
} from '../../model/document.js'
import { digitsFor, fixed } from '../../report/format.js'
import { gatedMetrics } from '../../report/regressions.js'
import { sliceLabel } from '../../report/words.js'
import { maxOf, minOf } from '../../util/extent.js'

/**
 * The `### History` section of a PR report: each gated metric (over all queries, and over every slice a check
 * gates) drawn over the last gate runs on the default branch, with this PR's candidate as the last point: a
 * Mermaid `xychart-beta` line chart GitHub renders, and a table of the numbers. Pure: the past reports were
 * read by src/github/history.ts; what could not be read is counted in a note and never fails anything.
 */

/** Most charts drawn (the table holds every series up to {@link MAX_COLUMNS}). */
const MAX_CHARTS = 6
/** Most series the table shows as columns. */
const MAX_COLUMNS = 8

/** One line over time: a gated metric over a set of queries. */
interface Series {
  metric: string
  slice: Array<[string, string]>
  key: string
  /** This PR's candidate value. */
  current: number
}

const keyOf = (metric: string, slice: ReadonlyArray<readonly [string, string]>): string =>
  JSON.stringify([metric, [...slice].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))])

/** The series of this result: each gated metric over all queries, then every non-empty slice a check gates it on. */
function seriesOf(result: GateResult): Series[] {
  const out: Series[] = []
  const seen = new Set<string>()
  const add = (metric: string, slice: Array<[string, string]>, current: number): void => {
    const key = keyOf(metric, slice)
    if (seen.has(key) || !Number.isFinite(current)) return
    seen.add(key)
    out.push({ metric, slice, key, current })
  }
  for (const metric of gatedMetrics(result)) {
    const overall = result.comparisons.find((c) => c.metric === metric && c.slice.length === 0)
    if (overall) add(metric, [], overall.candidate)
    for (const check of result.decision.checks) {
      if (check.rule.metric !== metric) continue
      for (const unit of check.units) add(metric, unit.slice, unit.comparison.candidate)
    }
  }
  return out
}

/**
 * A past report's values by series key, first value of a key kept (as a search would find it). Built once per
 * report: a search per drawn series would key every value again (up to 50 runs x 2,000 values, twice per series).
 */
function valuesByKey(report: PastReport): Map<string, number> {
  const index = new Map<string, number>()
  for (const x of report.values) {
    const k = keyOf(x.metric, x.slice)
    if (!index.has(k)) index.set(k, x.value)
  }
  return index
}

/** A past report's value of a series, or undefined when that run did not gate it. */
function valueIn(index: Map<string, number>, key: string): number | undefined {
  const v = index.get(key)
  return v !== undefined && Number.isFinite(v) ? v : undefined
}

const short = (sha: string): string => sha.replace(/[^0-9a-f]/gi, '').slice(0, 7)

const WORDS: Record<SkipReason, string> = {
  missing: 'no report artifact',
  expired: 'expired',
  unreadable: 'unreadable',
  wrong_version: 'from another report version',
  stale: 'stale (too old)'
}

/** "Of the last 5 push runs on main, 3 gave a report; 1 no report artifact, 1 expired." */
function readLine(h: HistoryInput): Span[] {
  const skipped = (Object.keys(WORDS) as SkipReason[])
    .filter((r) => h.skipped[r] > 0)
    .map((r) => `${h.skipped[r]} ${WORDS[r]}`)
  const asked = `history.runs is ${h.requested}`
  const found = h.reports.length + (Object.keys(WORDS) as SkipReason[]).reduce((n, r) => n + h.skipped[r], 0)
  return [
    words(`Gate reports of the last ${found} successful push runs on `),
    text(h.branch, 80),
    words(
      ` (${asked}): ${h.reports.length} read${skipped.length > 0 ? `; left out (never a failure): ${skipped.join(', ')}` : ''}.`
    )
  ]
}

/** One xychart-beta line chart of a series: past points that have it, then this PR. */
function chart(metric: MetricRule, points: Array<{ label: string; value: number }>): string {
  const values = points.map((p) => p.value)
  const lo = minOf(values)
  const hi = maxOf(values)
  const pad = (hi - lo) * 0.1 || Math.abs(hi) * 0.05 || 0.01
  const d = digitsFor(metric.range, Math.max(Math.abs(lo), Math.abs(hi)))
  const bottom = metric.range ? Math.max(metric.range[0], lo - pad) : lo - pad
  const top = metric.range ? Math.min(metric.range[1], hi + pad) : hi + pad
  // No input name goes into Mermaid source (it would be mangled or break the chart): the sentence above names it.
  return [
    'xychart-beta',
    `  title "past runs, then this PR"`,
    `  x-axis [${points.map((p) => `"${p.label}"`).join(', ')}]`,
    `  y-axis "candidate mean" ${fixed(bottom, d)} --> ${fixed(top, d)}`,
    `  line [${values.map((v) => fixed(v, d)).join(', ')}]`
  ].join('\n')
}

/** Outside a pull request nothing reads the history: said where the chart would be, so the key is never silent. */
export function historyNotReadSection(): Block[] {
  return [
    { kind: 'headline', level: 3, spans: [words('History')] },
    paragraph(
      em(
        words(
          'Not read outside a pull request: the history is the reports of push runs on the default branch, which the action reads when it gates a pull request.'
        )
      )
    )
  ]
}

/**
 * The History section's lines (empty when the result carries no history). Every past run that gave a report is
 * a row of the table and a point of each chart that has its series; a run that gated another set of metrics
 * simply has no point on the series it lacks.
 */
export function historySection(result: GateResult, h: HistoryInput): Block[] {
  const out: Block[] = [{ kind: 'headline', level: 3, spans: [words('History')] }, paragraph(...readLine(h))]
  if (h.notes.length > 0)
    out.push({
      kind: 'list',
      items: h.notes.slice(0, 10).map((n) => ({ spans: [text(n, 300)] })),
      more: h.notes.length - Math.min(10, h.notes.length)
    })
  const series = seriesOf(result)
  if (h.reports.length === 0 || series.length === 0) {
    out.push(
      paragraph(
        em(
          words(
            'No past report to draw: the chart starts with the next push run on the default branch that uploads its report.'
          )
        )
      )
    )
    return out
  }
  const metricOf = (name: string): MetricRule => result.rules.metrics.get(name) as MetricRule
  const indexes = h.reports.map(valuesByKey)
  out.push(
    paragraph(
      words("Each chart is one gated metric's candidate mean in the gate runs on "),
      text(h.branch, 80),
      words(" (labelled by commit), with this PR's candidate as the last point.")
    )
  )
  for (const s of series.slice(0, MAX_CHARTS)) {
    const labels = new Set<string>()
    const points = h.reports.flatMap((r, i) => {
      const v = valueIn(indexes[i], s.key)
      if (v === undefined) return []
      // Two runs of one commit would share a category (and one point would hide the other): add the run.
      const label = labels.has(short(r.commit)) ? `${short(r.commit)} run ${r.runId}` : short(r.commit)
      labels.add(label)
      return [{ label, value: v }]
    })
    points.push({ label: 'this PR', value: s.current })
    const where: Span[] = s.slice.length === 0 ? [] : [words(' ('), text(sliceLabel(s.slice), 120), words(')')]
    out.push(paragraph(text(s.metric, 120), ...where, words(':')), {
      kind: 'figure',
      language: 'mermaid',
      lines: chart(metricOf(s.metric), points).split('\n')
    })
  }
  if (series.length > MAX_CHARTS)
    out.push(paragraph(em(words(`${series.length - MAX_CHARTS} more series are in the table only.`))))
  out.push(historyTable(h, series, indexes, metricOf))
  if (series.length > MAX_COLUMNS)
    out.push(paragraph(em(words(`${series.length - MAX_COLUMNS} more series are left out of the table.`))))
  return out
}

/** The table of past runs: run, commit, date and each series' value, then this PR's values in bold. */
function historyTable(
  h: HistoryInput,
  series: Series[],
  indexes: Array<ReturnType<typeof valuesByKey>>,
  metricOf: (name: string) => MetricRule
): Block {
  const columns = series.slice(0, MAX_COLUMNS)
  const digits = (s: Series): number => digitsFor(metricOf(s.metric).range, Math.abs(s.current))
  const head = [
    ...cells('Run', 'Commit', 'Date'),
    ...columns.map((s) => [text(`${s.metric}${s.slice.length === 0 ? '' : ` (${sliceLabel(s.slice)})`}`, 60)])
  ]
  const rows = h.reports.map((r, i) =>
    row(
      SAFE_URL.test(r.runUrl) ? { kind: 'link', href: r.runUrl, spans: [words(String(r.runId))] } : String(r.runId),
      code(short(r.commit)),
      text(r.date.slice(0, 10), 10),
      ...columns.map((s) => {
        const v = valueIn(indexes[i], s.key)
        return v === undefined ? '—' : fixed(v, digits(s))
      })
    )
  )
  rows.push(row('this PR', '', '', ...columns.map((s) => strong(words(fixed(s.current, digits(s)))))))
  return table(head, rows)
}

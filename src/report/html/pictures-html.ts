import type { MetricRule } from '../../config/types.js'
import type { GateResult } from '../../decide/result.js'
import { barRows } from '../count-bars.js'
import { gatedForestData, sliceForestRows } from '../forest.js'
import { leftTail, leftTailSentence } from '../left-tail.js'
import { gatedMetrics } from '../regressions.js'
import { hiddenRowsLine } from '../slice-rows.js'
import { sliceLabel, unitWord } from '../words.js'
import { barsSvg, limitItems } from './bars-svg.js'
import { entities, esc } from './escape.js'
import { forestSvg } from './forest-svg.js'
import { histogramSvg } from './histogram-svg.js'
import { POINTS_PER_PLOT, selectPoints, type PointSelection } from './points.js'
import { scatterSvg } from './scatter-svg.js'
import { SLICE_COLOURS, type SliceColours } from './slice-colours.js'

/**
 * The pictures of the page, per gated metric: the forest plot of its checks, baseline against candidate query
 * by query with the histogram of the changes, and wins and losses per slice; and the exploratory per-slice
 * forest plots. Each picture is SVG drawn by this folder from the same rows as the Markdown report's pictures.
 */

const metricOf = (result: GateResult, name: string): MetricRule => result.rules.metrics.get(name) as MetricRule
const plural = (n: number, one: string, many: string): string => `${n} ${n === 1 ? one : many}`

/** What the forest plots' marks mean (the same words for every plot). */
const FOREST_LEGEND =
  '<p class="note"><span class="st pass">● pass</span> · <span class="st fail">■ FAIL</span> (thick line) · <span class="st inconclusive">□ inconclusive</span> (dotted) · ○ exploratory · the marker is the change, the line its interval; the solid vertical line is no change, a dashed one a check\'s limit, labelled with the check\'s number.</p>'

/** The forest plot of every gated metric: one row per check unit, on one numeric axis. */
export function forestSection(result: GateResult): string {
  const out: string[] = []
  for (const f of gatedForestData(result)) {
    const metric = metricOf(result, f.metric)
    const { svg, hidden } = forestSvg({ metric, rows: f.rows, limits: f.limits, label: f.title })
    out.push(`<figure><figcaption>${esc(f.title, 300)}</figcaption>`, svg)
    if (hidden > 0) out.push(`<p class="note">${entities(hiddenRowsLine(hidden))}</p>`)
    const keys = f.keys.map((k) => `<li><strong>${entities(k.check)}</strong> ${esc(k.name, 120)}: ${esc(k.words, 300)}</li>`)
    out.push(`<ul class="key">${keys.join('\n')}</ul>`, '</figure>')
  }
  if (out.length > 0) out.push(FOREST_LEGEND)
  return out.join('\n')
}

/** The per-query differences of a metric (candidate − baseline), in the table's order. */
function differences(result: GateResult, name: string): Float64Array {
  if (name === result.primaryMetric) return result.primaryDifferences
  const cols = result.table.metrics.get(name) as { base: Float64Array; cand: Float64Array }
  return cols.cand.map((c, i) => c - cols.base[i])
}

/** The words under a scatter: how many points, which were left out and why. */
function scatterCaption(s: PointSelection, metric: MetricRule, cap: number): string {
  const drawn = s.indices.length
  const worse = s.worse.reduce((n, w) => n + w, 0)
  const parts: string[] = []
  if (drawn === s.drawable) parts.push(`Each point is a query (${drawn}): ▼ got worse (${worse}), ● did not.`)
  else {
    parts.push(
      `${drawn} of ${s.drawable} queries are drawn (at most ${cap} per plot): the ${s.worstTaken} that lost most and a fixed sample of ${drawn - s.worstTaken} of the others, chosen by a hash of the query id (the same queries every run); ▼ got worse, ● did not. ${s.worseTotal} got worse in all; the histogram counts every query.`
    )
  }
  if (s.holdout > 0) parts.push(`${plural(s.holdout, 'holdout query is', 'holdout queries are')} not drawn: the holdout is reported in aggregates only.`)
  if (s.nonFinite > 0) parts.push(`${plural(s.nonFinite, 'query', 'queries')} with a value that is not a finite number ${s.nonFinite === 1 ? 'is' : 'are'} not drawn.`)
  if (metric.binary) parts.push('The values are 0 or 1: the points are spread around each of the four places so that their number shows.')
  return parts.map(entities).join(' ')
}

/** The colour key of the scatter (slice values and their query counts), or the shapes alone. */
function legend(colours: SliceColours | null): string {
  const items = ['<li>▼ got worse</li>', '<li>● did not</li>']
  if (colours !== null) {
    colours.values.forEach((v, k) => items.push(`<li><span class="sw c${k}">●</span> ${esc(sliceLabel([[colours.attribute, v.value]]), 80)} (${v.count})</li>`))
    if (colours.other.values > 0) items.push(`<li><span class="sw c${SLICE_COLOURS}">●</span> ${plural(colours.other.values, 'other value', 'other values')} (${colours.other.count})</li>`)
  }
  return `<ul class="legend">${items.join('')}</ul>`
}

/** Per gated metric: baseline against candidate (one point per query, up to the cap) and the histogram of the changes. */
export function querySection(result: GateResult, options: { isHoldout: (i: number) => boolean; colours: SliceColours | null; maxPoints?: number }): string {
  const cap = options.maxPoints ?? POINTS_PER_PLOT
  const out: string[] = []
  const tail = leftTail(result)
  for (const name of gatedMetrics(result)) {
    const metric = metricOf(result, name)
    const cols = result.table.metrics.get(name) as { base: Float64Array; cand: Float64Array }
    const selection = selectPoints({ ids: result.table.ids, base: cols.base, cand: cols.cand, sign: metric.better === 'lower' ? -1 : 1, isHoldout: options.isHoldout, cap })
    const label = `${metric.name}: baseline against candidate, one point per query`
    out.push(`<h3>${esc(metric.name, 80)}: query by query</h3>`, '<div class="charts">')
    out.push('<figure>', scatterSvg({ metric, ids: result.table.ids, base: cols.base, cand: cols.cand, selection, colours: options.colours, label }))
    out.push(`<figcaption>${scatterCaption(selection, metric, cap)}</figcaption>`, legend(options.colours), '</figure>')
    const unit = unitWord(metric)
    const hist = histogramSvg({ metric, differences: differences(result, name), label: `${metric.name}: how the change per query is spread` })
    if (hist !== null) {
      const nonFinite = hist.nonFinite > 0 ? ` ${plural(hist.nonFinite, 'difference is', 'differences are')} not a finite number and not binned.` : ''
      const words = `Change per query, candidate − baseline${unit ? ` in ${unit}` : ''}, over all ${hist.queries} queries: many small gains and a few large losses can have the same mean.${nonFinite}`
      const tailWords = tail !== null && name === result.primaryMetric ? ` ${leftTailSentence(tail)}` : ''
      out.push('<figure>', hist.svg, `<figcaption>${esc(words + tailWords, 800)}</figcaption>`, '</figure>')
    }
    out.push('</div>')
  }
  return out.join('\n')
}

/** Per gated metric: queries worse and better per slice, on one count scale. */
export function sliceBarsSection(result: GateResult): string {
  const out: string[] = []
  for (const name of gatedMetrics(result)) {
    const metric = metricOf(result, name)
    const { rows, hidden } = barRows(result, name)
    if (rows.length === 0) continue
    const title = `${metric.name}: queries worse and better, per slice`
    out.push(`<figure><figcaption>${esc(title, 200)}</figcaption>`, barsSvg({ metric, rows, label: title }))
    const limits = limitItems(rows, metric)
    if (limits.length > 0) out.push(`<ul class="key">${limits.map((l) => `<li>▮ ${l}</li>`).join('')}</ul>`)
    if (hidden > 0) out.push(`<p class="note">${entities(hiddenRowsLine(hidden))}</p>`)
    out.push('</figure>')
  }
  return out.join('\n')
}

/** The exploratory per-slice forest plot of every gated metric (nothing here gates). */
export function sliceForests(result: GateResult): string {
  const out: string[] = []
  for (const name of gatedMetrics(result)) {
    const rows = sliceForestRows(result, name)
    if (rows === null) continue
    const metric = metricOf(result, name)
    const title = `${metric.name}: change per slice (exploratory)`
    const { svg, hidden } = forestSvg({ metric, rows, limits: [], label: title })
    out.push(`<figure><figcaption>${esc(title, 200)}</figcaption>`, svg)
    if (hidden > 0) out.push(`<p class="note">${entities(hiddenRowsLine(hidden))}</p>`)
    out.push('</figure>')
  }
  return out.join('\n')
}

import type { GateResult } from '../../decide/result.js'
import { barRows } from '../count-bars.js'
import { gatedForestData, sliceForestRows } from '../forest.js'
import { gatedMetrics } from '../regressions.js'
import { metricOf } from '../words.js'
import { hiddenRowsLine } from '../slice-rows.js'
import { barsSvg, limitItems } from './bars-svg.js'
import { entities, esc } from './escape.js'
import { forestSvg } from './forest-svg.js'

/**
 * The pictures of the checks and slices, per gated metric: the forest plot of its checks and wins and losses per
 * slice; and the exploratory per-slice forest plots. Each picture is SVG drawn by this folder from the same rows
 * as the Markdown report's Unicode pictures (forest.ts, count-bars.ts). Query by query is query-section.ts.
 */

/** What the forest plots' marks mean (the same words for every plot). */
const FOREST_LEGEND = [
  '<p class="note"><span class="st pass">● pass</span> · <span class="st fail">■ FAIL</span> (thick line) ·',
  '<span class="st inconclusive">□ inconclusive</span> (dotted) · ○ exploratory · the marker is the change, the line',
  "its interval; the solid vertical line is no change, a dashed one a check's limit, labelled with the check's number.</p>"
].join(' ')

/** The note on the rows a picture left out ([] when none). */
const hiddenNote = (hidden: number): string[] =>
  hidden > 0 ? [`<p class="note">${entities(hiddenRowsLine(hidden))}</p>`] : []

/** A picture with its caption (RAW, cut at `max`) and what goes under it. */
const figure = (title: string, max: number, svg: string, under: string[]): string =>
  [`<figure><figcaption>${esc(title, max)}</figcaption>`, svg, ...under, '</figure>'].join('\n')

/** The forest plot of every gated metric: one row per check unit, on one numeric axis. */
export function forestSection(result: GateResult): string {
  const out: string[] = []
  for (const f of gatedForestData(result)) {
    const metric = metricOf(result, f.metric)
    const { svg, hidden } = forestSvg({ metric, rows: f.rows, limits: f.limits, label: f.title })
    const keys = f.keys.map(
      (k) => `<li><strong>${entities(k.check)}</strong> ${esc(k.name, 120)}: ${esc(k.words, 300)}</li>`
    )
    out.push(figure(f.title, 300, svg, [...hiddenNote(hidden), `<ul class="key">${keys.join('\n')}</ul>`]))
  }
  if (out.length > 0) out.push(FOREST_LEGEND)
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
    const limits = limitItems(rows, metric).map((l) => `<li>▮ ${l}</li>`)
    const key = limits.length > 0 ? [`<ul class="key">${limits.join('')}</ul>`] : []
    out.push(figure(title, 200, barsSvg({ metric, rows, label: title }), [...key, ...hiddenNote(hidden)]))
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
    out.push(figure(title, 200, svg, hiddenNote(hidden)))
  }
  return out.join('\n')
}

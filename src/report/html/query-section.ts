import type { MetricRule } from '../../config/types.js'
import type { GateResult } from '../../decide/result.js'
import { leftTail, leftTailSentence, type LeftTail } from '../left-tail.js'
import { gatedMetrics } from '../regressions.js'
import { metricOf, sliceLabel, unitWord } from '../words.js'
import { entities, esc } from './escape.js'
import { histogramSvg } from './histogram-svg.js'
import { POINTS_PER_PLOT, selectPoints, type PointSelection } from './points.js'
import { scatterSvg } from './scatter-svg.js'
import { SLICE_COLOURS, type SliceColours } from './slice-colours.js'

/**
 * "Query by query": per gated metric, baseline against candidate with one point per query (up to the cap,
 * points.ts) beside the histogram of the per-query changes, each with the words that say what was drawn and
 * what was left out (holdout queries, non-finite values, the cap).
 */

export interface QueryPictures {
  /** decide/holdout.ts's mask: a holdout query is never drawn. */
  isHoldout: (i: number) => boolean
  colours: SliceColours | null
  /** Most queries a scatter draws (POINTS_PER_PLOT). */
  maxPoints?: number
}

const plural = (n: number, one: string, many: string): string => `${n} ${n === 1 ? one : many}`

/** The words under a scatter: how many points, which were left out and why (RAW). */
function scatterWords(s: PointSelection, metric: MetricRule, cap: number): string[] {
  const drawn = s.indices.length
  const out: string[] = []
  if (drawn === s.drawable) out.push(`Each point is a query (${drawn}): ▼ got worse (${s.worseTotal}), ● did not.`)
  else {
    const sample = `a fixed sample of ${drawn - s.worstTaken} of the others, chosen by a hash of the query id (the same queries every run)`
    out.push(
      `${drawn} of ${s.drawable} queries are drawn (at most ${cap} per plot): the ${s.worstTaken} that lost most and ${sample}.`
    )
    out.push(`▼ got worse (${s.worseTotal} in all), ● did not; the histogram counts every query.`)
  }
  if (s.holdout > 0)
    out.push(
      `${plural(s.holdout, 'holdout query is', 'holdout queries are')} not drawn: the holdout is reported in aggregates only.`
    )
  if (s.nonFinite > 0)
    out.push(`${plural(s.nonFinite, 'query has', 'queries have')} a value that is not a finite number, not drawn.`)
  if (metric.binary)
    out.push('The values are 0 or 1: the points are spread around each of the four places so that their number shows.')
  return out
}

/** The key of the scatter: the shapes, then the slice values' colours with their query counts. */
function legend(colours: SliceColours | null): string {
  const items = ['<li>▼ got worse</li>', '<li>● did not</li>']
  const swatch = (k: number, words: string): string => `<li><span class="sw c${k}">●</span> ${words}</li>`
  if (colours !== null) {
    const named = (v: string): string => esc(sliceLabel([[colours.attribute, v]]), 80)
    colours.values.forEach((v, k) => items.push(swatch(k, `${named(v.value)} (${v.count})`)))
    const other = colours.other
    if (other.only !== undefined) items.push(swatch(SLICE_COLOURS, `${named(other.only)} (${other.count})`))
    else if (other.values > 0)
      items.push(swatch(SLICE_COLOURS, `${plural(other.values, 'other value', 'other values')} (${other.count})`))
  }
  return `<ul class="legend">${items.join('')}</ul>`
}

/** The per-query differences of a metric (candidate − baseline), in the table's order. */
function differences(result: GateResult, name: string): Float64Array {
  if (name === result.primaryMetric) return result.primaryDifferences
  const cols = result.table.metrics.get(name) as { base: Float64Array; cand: Float64Array }
  return cols.cand.map((c, i) => c - cols.base[i])
}

/** One gated metric's scatter figure. */
function scatterFigure(result: GateResult, metric: MetricRule, options: QueryPictures): string {
  const cap = options.maxPoints ?? POINTS_PER_PLOT
  const { ids } = result.table
  const { base, cand } = result.table.metrics.get(metric.name) as { base: Float64Array; cand: Float64Array }
  const sign = metric.better === 'lower' ? -1 : 1
  const selection = selectPoints({ ids, base, cand, sign, isHoldout: options.isHoldout, cap })
  const label = `${metric.name}: baseline against candidate, one point per query`
  const svg = scatterSvg({ metric, ids, base, cand, selection, colours: options.colours, label })
  const words = scatterWords(selection, metric, cap).map(entities).join(' ')
  return ['<figure>', svg, `<figcaption>${words}</figcaption>`, legend(options.colours), '</figure>'].join('\n')
}

/** One gated metric's histogram figure ('' without queries); the primary metric's names its tail of losses. */
function histogramFigure(result: GateResult, metric: MetricRule, tail: LeftTail | null): string {
  const label = `${metric.name}: how the change per query is spread`
  const hist = histogramSvg({ metric, differences: differences(result, metric.name), label })
  if (hist === null) return ''
  const unit = unitWord(metric)
  const words = [
    `Change per query, candidate − baseline${unit ? ` in ${unit}` : ''}, over all ${hist.queries} queries:`
  ]
  words.push('many small gains and a few large losses can have the same mean.')
  if (hist.nonFinite > 0)
    words.push(`${plural(hist.nonFinite, 'difference is', 'differences are')} not a finite number, not binned.`)
  if (tail !== null && metric.name === result.primaryMetric) words.push(leftTailSentence(tail))
  return ['<figure>', hist.svg, `<figcaption>${esc(words.join(' '), 800)}</figcaption>`, '</figure>'].join('\n')
}

/** Per gated metric: baseline against candidate and the histogram of the changes, side by side when there is room. */
export function querySection(result: GateResult, options: QueryPictures): string {
  const out: string[] = []
  const tail = leftTail(result)
  for (const name of gatedMetrics(result)) {
    const metric = metricOf(result, name)
    out.push(`<h3>${esc(metric.name, 80)}: query by query</h3>`, '<div class="charts">')
    out.push(scatterFigure(result, metric, options), histogramFigure(result, metric, tail), '</div>')
  }
  return out.join('\n')
}

import type { MetricRule } from '../../config/types.js'
import { histogram, SIDE_SYMBOL as SYMBOL } from '../histogram.js'
import { maxOf } from '../../util/extent.js'
import { unitWord } from '../words.js'
import { entities, esc } from './escape.js'
import { bottomAxis, countTicks, linear, rect, svgOpen, text } from './svg.js'

/**
 * The histogram of one metric's per-query differences (candidate − baseline) with the bins of the Markdown
 * report (histogram.ts: symmetric around 0, round widths, exact ties in their own bin), drawn as horizontal bars
 * as there: one row per bin, labelled with its range in display units and ▼ worse, = no change, ▲ better, the
 * count axis numeric below. An empty bin draws no bar (its row and label stay, so the gaps show). Colours follow
 * the side (red, grey, blue) and the symbols say it too.
 */

const WIDTH = 440
const LABEL_RIGHT = 118
const BAR_LEFT = 126
const BAR_RIGHT = 384
const ROW = 22
const TOP = 10
const BOTTOM = 52

/** What one histogram draws: a metric's per-query differences, and the picture's accessible name (RAW). */
export interface HistogramPicture {
  metric: MetricRule
  differences: ArrayLike<number>
  label: string
}

/** The histogram of the differences, or null when there are none. */
export function histogramSvg(options: HistogramPicture): { svg: string; nonFinite: number; queries: number } | null {
  const { metric } = options
  if (options.differences.length === 0) return null
  const h = histogram(options.differences, metric)
  const ticks = countTicks(maxOf(h.bins.map((b) => b.count)))
  const x = linear(0, ticks[ticks.length - 1], BAR_LEFT, BAR_RIGHT)
  const bottom = TOP + h.bins.length * ROW
  const height = bottom + BOTTOM
  const out = [
    svgOpen({ width: WIDTH, height, label: options.label, kind: 'histogram', data: { bins: h.bins.length } })
  ]
  out.push(bottomAxis({ ticks, at: x, label: String, across: bottom + 2, from: BAR_LEFT, to: BAR_RIGHT, grid: TOP }))
  out.push(text('axis-title', { x: (BAR_LEFT + BAR_RIGHT) / 2, y: bottom + 40, anchor: 'middle' }, 'queries'))
  const unit = unitWord(metric)
  out.push(
    text('axis-title', { x: LABEL_RIGHT, y: bottom + 40, anchor: 'end' }, esc(`change${unit ? ` (${unit})` : ''}`, 40))
  )
  h.bins.forEach((b, i) => {
    const y = TOP + i * ROW
    const words = `${b.count} ${b.count === 1 ? 'query' : 'queries'} ${b.side === 'same' ? 'unchanged' : `${b.side}, change ${b.label}${unit ? ` ${unit}` : ''}`}`
    out.push(`<g class="bin ${b.side}"><title>${esc(words, 200)}</title>`)
    out.push(
      text('bin-label', { x: LABEL_RIGHT, y: y + ROW / 2 + 4, anchor: 'end' }, entities(`${SYMBOL[b.side]} ${b.label}`))
    )
    if (b.count > 0) {
      const w = Math.max(1, x(b.count) - BAR_LEFT)
      out.push(rect('bar', { x: BAR_LEFT, y: y + 3, width: w, height: ROW - 6 }))
      out.push(text('count', { x: BAR_LEFT + w + 4, y: y + ROW / 2 + 4 }, String(b.count)))
    }
    out.push('</g>')
  })
  out.push('</svg>')
  return { svg: out.join('\n'), nonFinite: h.nonFinite, queries: options.differences.length }
}

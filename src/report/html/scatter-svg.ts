import type { MetricRule } from '../../config/types.js'
import { numberAxis } from '../axis.js'
import { clean } from '../escape.js'
import { fixed } from '../format.js'
import { changeWithUnit, levelDigits } from '../words.js'
import { maxOf, minOf } from '../../util/extent.js'
import { esc } from './escape.js'
import { idHash, type PointSelection } from './points.js'
import type { SliceColours } from './slice-colours.js'
import { bottomAxis, el, leftAxis, line, linear, px, svgOpen, text } from './svg.js'

/**
 * Baseline against candidate, one point per query (points.ts decides which when there are many): x is the
 * baseline's value, y the candidate's, on one scale with the same ticks, so the diagonal is "no change" and the
 * side of it a point falls on says which way the query moved. A query that got worse is a ▼ (drawn on top), any
 * other a ●: the shape says it, so the colour is free for the slice (slice-colours.ts). A binary metric has four
 * places only (0 or 1 on each side); its points are spread by a fixed offset from their id's hash within each
 * place, so the four counts can be seen. Every point's `<title>` names the query and both values.
 */

const WIDTH = 440
const HEIGHT = 430
const LEFT = 60
const TOP = 14
const SIZE = 356
/** How far a binary metric's points are spread around 0 and 1 (in metric units). */
const JITTER = 0.14

/** What one scatter draws: a gated metric's two columns, the queries chosen (points.ts), their colours. */
export interface ScatterPicture {
  metric: MetricRule
  ids: readonly string[]
  base: Float64Array
  cand: Float64Array
  selection: PointSelection
  colours: SliceColours | null
  /** The accessible name (RAW). */
  label: string
}

/** The value axis both sides share: ticks, ends and decimals (0 and 1 only for a binary metric). */
function valueAxis(picture: ScatterPicture): { ticks: number[]; lo: number; hi: number; digits: number } {
  const { metric, base, cand, selection } = picture
  if (metric.binary) return { ticks: [0, 1], lo: -0.3, hi: 1.3, digits: 0 }
  const values: number[] = []
  if (metric.range !== undefined && metric.range[1] - metric.range[0] <= 1) values.push(...metric.range)
  else if (selection.indices.length > 0) {
    const drawn = Array.from(selection.indices)
    values.push(
      minOf(drawn.map((i) => Math.min(base[i], cand[i]))),
      maxOf(drawn.map((i) => Math.max(base[i], cand[i])))
    )
  }
  return numberAxis(values, SIZE)
}

/** One scatter. */
export function scatterSvg(options: ScatterPicture): string {
  const { metric, base, cand, selection, colours } = options
  const right = LEFT + SIZE
  const bottom = TOP + SIZE
  const { ticks, lo, hi, digits } = valueAxis(options)
  const x = linear(lo, hi, LEFT, right)
  const y = linear(lo, hi, bottom, TOP)
  const data = { points: selection.indices.length, drawable: selection.drawable }
  const out = [svgOpen({ width: WIDTH, height: HEIGHT, label: options.label, kind: 'scatter', data })]
  const label = (v: number): string => fixed(v, digits)
  out.push(bottomAxis({ ticks, at: x, label, across: bottom, from: LEFT, to: right, grid: TOP }))
  out.push(leftAxis({ ticks, at: y, label, across: LEFT, from: TOP, to: bottom, grid: right }))
  out.push(text('axis-title', { x: (LEFT + right) / 2, y: bottom + 38, anchor: 'middle' }, 'baseline'))
  const rotated = {
    class: 'axis-title',
    transform: `translate(14 ${px((TOP + bottom) / 2)}) rotate(-90)`,
    'text-anchor': 'middle'
  }
  out.push(el('text', rotated, 'candidate'))
  out.push(line('diagonal', { x1: x(lo), y1: y(lo), x2: x(hi), y2: y(hi) }))
  const higher = metric.better === 'higher'
  // Which side of the diagonal is better (a binary metric's corners hold points, so it goes without).
  if (!metric.binary) {
    out.push(text('corner', { x: LEFT + 8, y: TOP + 16 }, higher ? 'candidate better ↖' : 'candidate worse ↖'))
    out.push(
      text(
        'corner',
        { x: right - 8, y: bottom - 10, anchor: 'end' },
        higher ? '↘ candidate worse' : '↘ candidate better'
      )
    )
  }
  // A binary metric's points are spread around their place by a fixed offset from the id's hash (two hashes).
  const place = (v: number, id: string, offset: number): number =>
    metric.binary ? v + ((idHash(id, offset) / 2 ** 32) * 2 - 1) * JITTER : v
  out.push('<g class="points">')
  selection.indices.forEach((i, k) => {
    const id = options.ids[i]
    const cx = x(place(base[i], id, 0x811c9dc5))
    const cy = y(place(cand[i], id, 0x01000193))
    const d = levelDigits(metric, Math.abs(base[i]))
    const colour = colours === null ? 0 : colours.of(i)
    const slice = colours === null ? '' : `, ${clean(colours.attribute, 40)} = ${clean(colours.valueAt(i), 60)}`
    const words = `${clean(id, 80)}: ${fixed(base[i], d)} → ${fixed(cand[i], d)} (${changeWithUnit(cand[i] - base[i], metric, Math.abs(base[i]))})${slice}`
    const title = `<title>${esc(words, 300)}</title>`
    const worse = selection.worse[k] === 1
    const cls = `pt c${colour}${worse ? ' w' : ''}`
    out.push(
      worse
        ? el('path', { class: cls, d: `M${px(cx - 4.5)} ${px(cy - 3)}h9l-4.5 7.5z` }, title)
        : el('circle', { class: cls, cx, cy, r: 3 }, title)
    )
  })
  out.push('</g>', '</svg>')
  return out.join('\n')
}

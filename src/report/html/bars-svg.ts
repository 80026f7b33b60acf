import type { MetricRule } from '../../config/types.js'
import { limitWords, type BarRow } from '../count-bars.js'
import { maxOf } from '../../util/extent.js'
import { entities, esc } from './escape.js'
import { bottomAxis, countTicks, line, linear, rect, svgOpen, text } from './svg.js'

/**
 * Wins and losses per slice as diverging bars, the rows of the Markdown picture (count-bars.ts `barRows`): queries
 * that got worse to the left of the centre line, queries that got better to the right, on one count scale (the
 * axis is labelled with counts on both sides), ties as a number at the row's end. A `max_regressions` limit is
 * a count, so it is drawn as one: a mark at the limit on the worse side, and its words in the row's tooltip.
 */

const WIDTH = 880
const CENTRE = 520
const HALF = 240
const TIES_X = 872
const ROW = 22
const TOP = 24
const BOTTOM = 44
const SLICE_CHARS = 40

/** What one picture of bars draws: a metric's rows (count-bars.ts), and the picture's accessible name (RAW). */
export interface BarsPicture {
  metric: MetricRule
  rows: BarRow[]
  label: string
}

/** The bars of one metric's rows. */
export function barsSvg(options: BarsPicture): string {
  const { rows, metric } = options
  const ticks = countTicks(Math.max(1, maxOf(rows.map((r) => Math.max(r.wins, r.losses, r.limit?.count ?? 0)))))
  const top = ticks[ticks.length - 1]
  const right = linear(0, top, CENTRE, CENTRE + HALF)
  const left = linear(0, top, CENTRE, CENTRE - HALF)
  const bottom = TOP + rows.length * ROW
  const out = [
    svgOpen({ width: WIDTH, height: bottom + BOTTOM, label: options.label, kind: 'bars', data: { rows: rows.length } })
  ]
  const all = [
    ...ticks
      .slice(1)
      .map((t) => -t)
      .reverse(),
    ...ticks
  ]
  const x = (v: number): number => (v < 0 ? left(-v) : right(v))
  const label = (v: number): string => String(Math.abs(v))
  out.push(
    bottomAxis({ ticks: all, at: x, label, across: bottom + 2, from: CENTRE - HALF, to: CENTRE + HALF, grid: TOP })
  )
  out.push(
    text('direction', { x: CENTRE - 8, y: TOP - 8, anchor: 'end' }, '◄ worse'),
    text('direction', { x: CENTRE + 8, y: TOP - 8 }, 'better ►')
  )
  out.push(text('direction', { x: TIES_X, y: TOP - 8, anchor: 'end' }, 'ties'))
  out.push(text('axis-title', { x: CENTRE, y: bottom + 38, anchor: 'middle' }, 'queries'))
  rows.forEach((r, i) => {
    const y = TOP + i * ROW
    const mid = y + ROW / 2 + 4
    const limit = limitWords(r, metric)
    const words = `${r.slice}: ${r.losses} worse, ${r.wins} better, ${r.ties} ties${limit ? `; ${limit}` : ''}`
    out.push(
      `<g class="slice-row${r.limit !== null && r.limit.status !== 'pass' ? ` ${r.limit.status}` : ''}"><title>${esc(words, 400)}</title>`
    )
    out.push(text('slice', { x: 0, y: mid }, esc(r.slice, SLICE_CHARS)))
    if (r.losses > 0)
      out.push(
        rect('bar worse', { x: left(r.losses), y: y + 3, width: Math.max(1, CENTRE - left(r.losses)), height: ROW - 6 })
      )
    if (r.wins > 0)
      out.push(rect('bar better', { x: CENTRE, y: y + 3, width: Math.max(1, right(r.wins) - CENTRE), height: ROW - 6 }))
    // The loss count goes left of its bar, or of the limit mark when that is further out.
    const lossEnd = r.limit === null ? left(r.losses) : Math.min(left(r.losses), left(r.limit.count))
    out.push(
      text('count', { x: lossEnd - 5, y: mid, anchor: 'end' }, String(r.losses)),
      text('count', { x: right(r.wins) + 4, y: mid }, String(r.wins))
    )
    out.push(text('count', { x: TIES_X, y: mid, anchor: 'end' }, String(r.ties)))
    if (r.limit !== null)
      out.push(line('count-limit', { x1: left(r.limit.count), y1: y + 1, x2: left(r.limit.count), y2: y + ROW - 1 }))
    out.push('</g>')
  })
  out.push(line('zero', { x1: CENTRE, y1: TOP - 2, x2: CENTRE, y2: bottom + 2 }))
  out.push('</svg>')
  return out.join('\n')
}

/** The entities-escaped limit words of the rows that have a limit, for a list under the picture. */
export function limitItems(rows: BarRow[], metric: MetricRule): string[] {
  return rows.filter((r) => r.limit !== null).map((r) => `${esc(r.slice, 120)}: ${entities(limitWords(r, metric))}`)
}

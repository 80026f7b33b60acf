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
  const out = [svgOpen({ width: WIDTH, height: bottom + BOTTOM, label: options.label, kind: 'bars', data: { rows: rows.length } })]
  const all = [
    ...ticks
      .slice(1)
      .map((t) => -t)
      .reverse(),
    ...ticks
  ]
  const x = (v: number): number => (v < 0 ? left(-v) : right(v))
  const label = (v: number): string => String(Math.abs(v))
  out.push(bottomAxis({ ticks: all, at: x, label, across: bottom + 2, from: CENTRE - HALF, to: CENTRE + HALF, grid: TOP }))
  out.push(text(CENTRE - 8, TOP - 8, '◄ worse', 'direction', 'end'), text(CENTRE + 8, TOP - 8, 'better ►', 'direction'))
  out.push(text(TIES_X, TOP - 8, 'ties', 'direction', 'end'))
  out.push(text(CENTRE, bottom + 38, 'queries', 'axis-title', 'middle'))
  rows.forEach((r, i) => {
    const y = TOP + i * ROW
    const mid = y + ROW / 2 + 4
    const limit = limitWords(r, metric)
    const words = `${r.slice}: ${r.losses} worse, ${r.wins} better, ${r.ties} ties${limit ? `; ${limit}` : ''}`
    out.push(`<g class="slice-row${r.limit !== null && r.limit.status !== 'pass' ? ` ${r.limit.status}` : ''}"><title>${esc(words, 400)}</title>`)
    out.push(text(0, mid, esc(r.slice, SLICE_CHARS), 'slice'))
    if (r.losses > 0) out.push(rect(left(r.losses), y + 3, Math.max(1, CENTRE - left(r.losses)), ROW - 6, 'bar worse'))
    if (r.wins > 0) out.push(rect(CENTRE, y + 3, Math.max(1, right(r.wins) - CENTRE), ROW - 6, 'bar better'))
    // The loss count goes left of its bar, or of the limit mark when that is further out.
    const lossEnd = r.limit === null ? left(r.losses) : Math.min(left(r.losses), left(r.limit.count))
    out.push(text(lossEnd - 5, mid, String(r.losses), 'count', 'end'), text(right(r.wins) + 4, mid, String(r.wins), 'count'))
    out.push(text(TIES_X, mid, String(r.ties), 'count', 'end'))
    if (r.limit !== null) out.push(line(left(r.limit.count), y + 1, left(r.limit.count), y + ROW - 1, 'count-limit'))
    out.push('</g>')
  })
  out.push(line(CENTRE, TOP - 2, CENTRE, bottom + 2, 'zero'))
  out.push('</svg>')
  return out.join('\n')
}

/** The entities-escaped limit words of the rows that have a limit, for a list under the picture. */
export function limitItems(rows: BarRow[], metric: MetricRule): string[] {
  return rows.filter((r) => r.limit !== null).map((r) => `${esc(r.slice, 120)}: ${entities(limitWords(r, metric))}`)
}

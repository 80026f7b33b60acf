import { signed } from './format.js'
import { maxOf, minOf } from '../util/extent.js'
import { niceStep } from './histogram.js'
import { displayWidth } from './columns.js'

/**
 * One numeric axis for the Unicode pictures: round tick values (1, 2, 2.5, 5 x 10^k apart, so a reader can
 * interpolate), every tick labelled with its number, and a value -> column mapping shared by all rows, so
 * intervals of different checks can be compared by eye. Values are in the picture's display units (points
 * for shares): the caller converts once.
 */
export interface NumberAxis {
  /** Leftmost and rightmost value on the axis (both ticks). */
  lo: number
  hi: number
  step: number
  ticks: number[]
  /** Columns of the plot area. */
  width: number
  /** Decimals of the tick labels (those of the step: 2.5 -> 1, 5 -> 0). */
  digits: number
}

/** Aim for about this many intervals between ticks. */
const TICK_INTERVALS = 4

/** Decimals needed to write `step` exactly (at most 6). */
function decimalsOf(step: number): number {
  for (let d = 0; d < 6; d++) {
    const scaled = step * 10 ** d
    if (Math.abs(scaled - Math.round(scaled)) < 1e-9 * Math.max(1, scaled)) return d
  }
  return 6
}

/** The axis spanning every finite value of `values` (callers include 0 and the limits), `width` columns wide. */
export function numberAxis(values: number[], width: number): NumberAxis {
  const finite = values.filter(Number.isFinite)
  let min = finite.length > 0 ? minOf(finite) : 0
  let max = finite.length > 0 ? maxOf(finite) : 0
  if (min === max) {
    min -= 1
    max += 1
  }
  const step = niceStep((max - min) / TICK_INTERVALS)
  const kLo = Math.floor(min / step + 1e-9)
  const kHi = Math.ceil(max / step - 1e-9)
  const ticks: number[] = []
  for (let k = kLo; k <= kHi; k++) ticks.push(k * step)
  return { lo: kLo * step, hi: kHi * step, step, ticks, width, digits: decimalsOf(step) }
}

/** The column (0-based) of value `v` on the axis (clamped to the plot). */
export function columnOf(axis: NumberAxis, v: number): number {
  const c = Math.round(((v - axis.lo) / (axis.hi - axis.lo)) * (axis.width - 1))
  return Math.min(axis.width - 1, Math.max(0, c))
}

/** A tick's label: fixed decimals, an explicit sign for positive values (the axis is a change). */
export function tickLabel(axis: NumberAxis, v: number): string {
  const s = signed(v, axis.digits)
  return /^0(?:\.0*)?$/.test(s) ? '0' : s
}

/**
 * The axis drawn under the rows: a rule with `┴` at every tick, then the labels centred under their ticks
 * (a label that would touch its neighbour is left out; the first, the last and 0 are placed first).
 */
export function axisLines(axis: NumberAxis): [string, string] {
  const rule = Array.from({ length: axis.width }, () => '─')
  for (const t of axis.ticks) rule[columnOf(axis, t)] = '┴'
  const labels = Array.from({ length: axis.width + 8 }, () => ' ')
  const taken = labels.map(() => false)
  const order = axis.ticks
    .map((t, i) => ({ t, i }))
    .sort((a, b) => rank(a, axis) - rank(b, axis) || a.i - b.i)
    .map((x) => x.t)
  for (const t of order) {
    const text = tickLabel(axis, t)
    const w = displayWidth(text)
    const start = Math.min(labels.length - w, Math.max(0, columnOf(axis, t) - Math.floor(w / 2)))
    let free = true
    for (let c = Math.max(0, start - 1); c < Math.min(labels.length, start + w + 1); c++) if (taken[c]) free = false
    if (!free) continue
    Array.from(text).forEach((ch, j) => {
      labels[start + j] = ch
      taken[start + j] = true
    })
  }
  return [rule.join(''), labels.join('').trimEnd()]
}

/** Placement priority of a tick: 0 first, then the two ends, then the rest left to right. */
function rank(x: { t: number; i: number }, axis: NumberAxis): number {
  if (Math.abs(x.t) < axis.step * 1e-9) return 0
  if (x.i === 0 || x.i === axis.ticks.length - 1) return 1
  return 2
}

import { fixed } from '../format.js'
import { entities } from './escape.js'

/**
 * The few SVG pieces every picture of the page is made of: fixed-decimal coordinates (the same bytes on every
 * machine), a linear scale, numeric axes with ticks and a label under every tick, and the `<svg>` element
 * itself. Colours are CSS classes (style.ts), so the pictures follow the page's light or dark theme; no
 * `style` attribute is written (the Content-Security-Policy allows the page's one style element only).
 */

/** A coordinate or length in the SVG: one decimal, fixed formatting. */
export const px = (x: number): string => fixed(x, 1)

/** An attribute value: a number is a coordinate (px), a string is entity-escaped. */
type Value = number | string

/**
 * One SVG element: `<name a="v" ...>content</name>`, or self-closed without content. Every attribute value is
 * entity-escaped (numbers written by {@link px}); `content` must already be escaped (esc, entities) or markup.
 */
export function el(name: string, attributes: Record<string, Value>, content?: string): string {
  const attrs = Object.entries(attributes)
    .map(([k, v]) => ` ${k}="${typeof v === 'number' ? px(v) : entities(v)}"`)
    .join('')
  return content === undefined ? `<${name}${attrs}/>` : `<${name}${attrs}>${content}</${name}>`
}

/** Maps [lo, hi] onto [a, b] (a > b for a y axis, which grows downwards), clamped to the range. */
export function linear(lo: number, hi: number, a: number, b: number): (v: number) => number {
  const span = hi - lo || 1
  return (v) => a + ((Math.min(hi, Math.max(lo, v)) - lo) / span) * (b - a)
}

/** Ticks of a count axis from 0: steps of 1, 2 or 5 x 10^k, at most five intervals, the last at or above `max`. */
export function countTicks(max: number): number[] {
  let step = 0
  for (let p = 1; step === 0; p *= 10) step = [1, 2, 5].map((f) => f * p).find((s) => s * 5 >= max) ?? 0
  const top = Math.max(step, Math.ceil(max / step) * step)
  const ticks: number[] = []
  for (let t = 0; t <= top; t += step) ticks.push(t)
  return ticks
}

export interface SvgFrame {
  width: number
  height: number
  /** The picture's accessible name (RAW: escaped here). */
  label: string
  /** Its kind, a class name the tests and the style read: forest, scatter, histogram, bars. */
  kind: string
  /** `data-*` counts the tests read (points drawn, rows). */
  data?: Record<string, number>
}

/** The opening `<svg>` of a picture: its size in CSS pixels (the page scales it down when narrower). */
export function svgOpen(frame: SvgFrame): string {
  const { width, height } = frame
  const data = Object.entries(frame.data ?? {}).map(([k, v]) => ` data-${k}="${v}"`)
  const size = `viewBox="0 0 ${width} ${height}" width="${width}" height="${height}"`
  return `<svg class="plot ${frame.kind}" ${size} role="img" aria-label="${entities(frame.label)}"${data.join('')}>`
}

export interface Axis {
  ticks: number[]
  /** Where a value is along the axis (pixels). */
  at: (v: number) => number
  /** A tick's label (RAW). */
  label: (v: number) => string
  /** Where the axis line is across (y of a horizontal axis, x of a vertical one), and its two ends along. */
  across: number
  from: number
  to: number
  /** Grid lines from the axis to this coordinate across, when given. */
  grid?: number
}

/** A horizontal axis: the domain line, a tick and its label under every value, light grid lines up to `grid`. */
export function bottomAxis(axis: Axis): string {
  const y = axis.across
  const out = [el('line', { class: 'domain', x1: axis.from, y1: y, x2: axis.to, y2: y })]
  for (const t of axis.ticks) {
    const x = axis.at(t)
    if (axis.grid !== undefined) out.push(el('line', { class: 'grid', x1: x, y1: axis.grid, x2: x, y2: y }))
    out.push(el('line', { class: 'tick', x1: x, y1: y, x2: x, y2: y + 5 }))
    out.push(el('text', { class: 'tick', x, y: y + 18, 'text-anchor': 'middle' }, entities(axis.label(t))))
  }
  return `<g class="axis x">${out.join('')}</g>`
}

/** A vertical axis: the domain line, a tick and its label left of every value, light grid lines to `grid`. */
export function leftAxis(axis: Axis): string {
  const x = axis.across
  const out = [el('line', { class: 'domain', x1: x, y1: axis.from, x2: x, y2: axis.to })]
  for (const t of axis.ticks) {
    const y = axis.at(t)
    if (axis.grid !== undefined) out.push(el('line', { class: 'grid', x1: x, y1: y, x2: axis.grid, y2: y }))
    out.push(el('line', { class: 'tick', x1: x - 5, y1: y, x2: x, y2: y }))
    out.push(el('text', { class: 'tick', x: x - 8, y: y + 4, 'text-anchor': 'end' }, entities(axis.label(t))))
  }
  return `<g class="axis y">${out.join('')}</g>`
}

/** Where a text goes: the point it is anchored at, and which of its ends sits there (default its start). */
interface TextPlace {
  x: number
  y: number
  anchor?: 'start' | 'middle' | 'end'
}

/** Text of class `cls` at `at`; `content` must already be escaped (esc or entities). */
export function text(cls: string, at: TextPlace, content: string): string {
  const { x, y, anchor = 'start' } = at
  return el('text', anchor === 'start' ? { class: cls, x, y } : { class: cls, x, y, 'text-anchor': anchor }, content)
}

/** A line of class `cls` from (x1, y1) to (x2, y2). */
export function line(cls: string, at: { x1: number; y1: number; x2: number; y2: number }): string {
  const { x1, y1, x2, y2 } = at
  return el('line', { class: cls, x1, y1, x2, y2 })
}

/** A rectangle of class `cls`: its top left corner (x, y) and its size. */
export function rect(cls: string, at: { x: number; y: number; width: number; height: number }): string {
  const { x, y, width, height } = at
  return el('rect', { class: cls, x, y, width, height })
}

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

/** Maps [lo, hi] onto [a, b] (a > b for a y axis, which grows downwards), clamped to the range. */
export function linear(lo: number, hi: number, a: number, b: number): (v: number) => number {
  const span = hi - lo || 1
  return (v) => a + ((Math.min(hi, Math.max(lo, v)) - lo) / span) * (b - a)
}

/** Ticks of a count axis from 0: integer steps of 1, 2 or 5 x 10^k, at most five intervals, the last at or above `max`. */
export function countTicks(max: number): number[] {
  let step = 0
  for (let p = 1; step === 0; p *= 10) step = [1, 2, 5].map((f) => f * p).find((s) => s * 5 >= max) ?? 0
  const top = Math.max(step, Math.ceil(max / step) * step)
  const ticks: number[] = []
  for (let t = 0; t <= top; t += step) ticks.push(t)
  return ticks
}

/** The opening `<svg>` of a picture: its size in CSS pixels (scaled down by the page when narrower), an accessible name. */
export function svgOpen(options: { width: number; height: number; label: string; kind: string; data?: Record<string, number> }): string {
  const data = Object.entries(options.data ?? {})
    .map(([k, v]) => ` data-${k}="${v}"`)
    .join('')
  const { width, height } = options
  return `<svg class="plot ${options.kind}" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-label="${entities(options.label)}"${data}>`
}

/** A horizontal axis at `y`: the domain line, a tick and its label at every value, and light grid lines up to `gridTop`. */
export function bottomAxis(options: { ticks: number[]; x: (v: number) => number; y: number; gridTop?: number; label: (v: number) => string; left: number; right: number }): string {
  const { ticks, x, y } = options
  const out = [`<g class="axis x">`, `<line class="domain" x1="${px(options.left)}" y1="${px(y)}" x2="${px(options.right)}" y2="${px(y)}"/>`]
  for (const t of ticks) {
    const at = px(x(t))
    if (options.gridTop !== undefined) out.push(`<line class="grid" x1="${at}" y1="${px(options.gridTop)}" x2="${at}" y2="${px(y)}"/>`)
    out.push(`<line class="tick" x1="${at}" y1="${px(y)}" x2="${at}" y2="${px(y + 5)}"/>`, `<text class="tick" x="${at}" y="${px(y + 18)}" text-anchor="middle">${entities(options.label(t))}</text>`)
  }
  out.push('</g>')
  return out.join('')
}

/** A vertical axis at `x`: the domain line, a tick and its label at every value, light grid lines to `gridRight`. */
export function leftAxis(options: { ticks: number[]; y: (v: number) => number; x: number; gridRight?: number; label: (v: number) => string; top: number; bottom: number }): string {
  const { ticks, x, y } = options
  const out = [`<g class="axis y">`, `<line class="domain" x1="${px(x)}" y1="${px(options.top)}" x2="${px(x)}" y2="${px(options.bottom)}"/>`]
  for (const t of ticks) {
    const at = px(y(t))
    if (options.gridRight !== undefined) out.push(`<line class="grid" x1="${px(x)}" y1="${at}" x2="${px(options.gridRight)}" y2="${at}"/>`)
    out.push(`<line class="tick" x1="${px(x - 5)}" y1="${at}" x2="${px(x)}" y2="${at}"/>`, `<text class="tick" x="${px(x - 8)}" y="${px(y(t) + 4)}" text-anchor="end">${entities(options.label(t))}</text>`)
  }
  out.push('</g>')
  return out.join('')
}

/** Text at (x, y); `text` must already be escaped (esc or entities). */
export function text(x: number, y: number, content: string, cls: string, anchor: 'start' | 'middle' | 'end' = 'start'): string {
  return `<text class="${cls}" x="${px(x)}" y="${px(y)}"${anchor === 'start' ? '' : ` text-anchor="${anchor}"`}>${content}</text>`
}

/** A line from (x1, y1) to (x2, y2). */
export function line(x1: number, y1: number, x2: number, y2: number, cls: string): string {
  return `<line class="${cls}" x1="${px(x1)}" y1="${px(y1)}" x2="${px(x2)}" y2="${px(y2)}"/>`
}

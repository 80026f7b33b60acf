import type { MetricRule } from '../../config/types.js'
import { numberAxis, tickLabel } from '../axis.js'
import { forestFrame, forestNumbers, toDisplay, type ForestLimit, type ForestRow, type RowStatus } from '../forest.js'
import { unitWord } from '../words.js'
import { entities, esc } from './escape.js'
import { bottomAxis, el, line, linear, px, rect, svgOpen, text } from './svg.js'

/**
 * The forest plot as SVG: the same rows, limits and axis as the Unicode one (forest.ts: `gatedForestData`,
 * `sliceForestRows`, axis.ts `numberAxis`), one row per check unit or slice, its change as a marker inside its
 * interval, on one numeric axis in the metric's display units (points for shares) with a labelled tick at every
 * round value, a solid line at no change and a dashed one at each check's limit. Status is told by word, marker
 * and line, not by colour alone: pass ● on a solid line, FAIL ■ on a thick line, inconclusive □ on a dotted
 * line, exploratory ○. Every row has a `<title>` (the tooltip) with its full label and numbers.
 */

const WIDTH = 880
/** Left edge and width of the plot area; where the numbers start; row height; room above and below the rows. */
const PLOT_LEFT = 340
const PLOT_WIDTH = 290
const NUMBERS_X = 642
const ROW = 24
const TOP = 40
const BOTTOM = 58
/** A limit label's width per character (11 px bold digits) and the room kept between two on one line, in pixels. */
const LABEL_CHAR = 7.5
const LABEL_GAP = 4
/** Height of one line of limit labels above the rows (an 11 px label's box is about 13 px tall). */
const LABEL_LINE = 14
/** Longest slice label drawn in a row (the tooltip has it whole). */
const SLICE_CHARS = 34

const WORD: Record<RowStatus, string> = { pass: 'pass', fail: 'FAIL', inconclusive: 'inconcl.', exploratory: '' }
const LONG_WORD: Record<RowStatus, string> = {
  pass: 'pass',
  fail: 'FAIL',
  inconclusive: 'inconclusive',
  exploratory: 'exploratory'
}

/** The marker of a row's point estimate: ● pass, ■ FAIL, □ inconclusive, ○ exploratory. */
function marker(status: RowStatus, x: number, y: number): string {
  if (status === 'fail' || status === 'inconclusive')
    return rect('mark', { x: x - 4.5, y: y - 4.5, width: 9, height: 9 })
  return el('circle', { class: 'mark', cx: x, cy: y, r: 4.5 })
}

/** What one forest plot draws: the rows and limits of forest.ts, and the picture's accessible name (RAW). */
export interface ForestPicture {
  metric: MetricRule
  rows: ForestRow[]
  limits: ForestLimit[]
  label: string
}

/**
 * One forest plot. Rows beyond the report's picture cap (slice-rows.ts: failing and inconclusive rows first)
 * are counted in `hidden`, as in the Markdown.
 */
export function forestSvg(options: ForestPicture): { svg: string; hidden: number } {
  const { metric } = options
  const { rows, hidden, limits, values } = forestFrame(metric, options)
  const axis = numberAxis(values, PLOT_WIDTH)
  const right = PLOT_LEFT + PLOT_WIDTH
  const x = linear(axis.lo, axis.hi, PLOT_LEFT, right)
  const placed = placeLimitLabels(limits, x)
  // Room above the rows for every line of labels the limits need (the highest label's box stays inside the picture).
  const top = Math.max(TOP, LABEL_LINE * (placed.lines + 1))
  const bottom = top + rows.length * ROW
  const unit = unitWord(metric)
  const out = [
    svgOpen({
      width: WIDTH,
      height: bottom + BOTTOM,
      label: options.label,
      kind: 'forest',
      data: { rows: rows.length }
    })
  ]
  const label = (v: number): string => tickLabel(axis, v)
  out.push(
    bottomAxis({ ticks: axis.ticks, at: x, label, across: bottom + 4, from: PLOT_LEFT, to: right, grid: top - 6 })
  )
  if (unit) out.push(text('unit', { x: right + 26, y: bottom + 22 }, esc(unit, 16)))
  const [lower, upper] = metric.better === 'higher' ? ['← worse', 'better →'] : ['← better', 'worse →']
  out.push(
    text('direction', { x: PLOT_LEFT, y: bottom + 42 }, lower),
    text('direction', { x: right, y: bottom + 42, anchor: 'end' }, upper)
  )
  if (axis.lo <= 0 && axis.hi >= 0) out.push(line('zero', { x1: x(0), y1: top - 6, x2: x(0), y2: bottom + 4 }))
  out.push(...limitLines(placed.labels, { top, bottom }, (v) => `${label(v)}${unit ? ` ${unit}` : ''}`))
  rows.forEach((r, i) => out.push(rowSvg(r, metric, x, top + i * ROW + ROW / 2)))
  out.push('</svg>')
  return { svg: out.join('\n'), hidden }
}

/** A limit's label where it is drawn: its x and the line above the rows it sits on (0: the lowest). */
interface PlacedLimit {
  value: number
  check: string
  at: number
  line: number
}

/**
 * Each limit once (a relative margin gives every slice its own), its label (the check's number, centred on its
 * line) on the lowest line above the rows where it clears every label already there by LABEL_GAP, left to right:
 * limits close together on a wide axis stack their numbers instead of drawing them over each other.
 */
function placeLimitLabels(
  limits: Array<{ value: number; check: string }>,
  x: (v: number) => number
): { labels: PlacedLimit[]; lines: number } {
  const seen = new Set<string>()
  const ends: number[] = []
  const labels: PlacedLimit[] = []
  for (const l of [...limits].sort((a, b) => a.value - b.value || (a.check < b.check ? -1 : 1))) {
    const at = x(l.value)
    const key = `${l.check} ${px(at)}`
    if (seen.has(key)) continue
    seen.add(key)
    const half = (l.check.length * LABEL_CHAR) / 2
    let line = ends.findIndex((end) => at - half >= end + LABEL_GAP)
    if (line < 0) line = ends.length
    ends[line] = at + half
    labels.push({ ...l, at, line })
  }
  return { labels, lines: ends.length }
}

/** The limits' dashed lines from their labels down through the rows, each with its tooltip. */
function limitLines(
  labels: PlacedLimit[],
  rows: { top: number; bottom: number },
  words: (v: number) => string
): string[] {
  return labels.map((l) => {
    const top = rows.top - 6 - LABEL_LINE * l.line
    const title = `<title>${esc(`check ${l.check}: limit ${words(l.value)}`, 200)}</title>`
    return `<g class="limit">${title}${line('limit', { x1: l.at, y1: top, x2: l.at, y2: rows.bottom + 4 })}${text('limit-label', { x: l.at, y: top - 3, anchor: 'middle' }, entities(l.check))}</g>`
  })
}

function rowSvg(r: ForestRow, metric: MetricRule, x: (v: number) => number, y: number): string {
  const c = r.comparison
  const numbers = forestNumbers(metric, c) + (r.note === '' ? '' : `  ${r.note}`)
  const unit = unitWord(metric)
  const who = r.check === '' ? r.slice : `check ${r.check}, ${r.slice}`
  const tooltip = `${LONG_WORD[r.status]}: ${who}: ${forestNumbers(metric, c)}${unit ? ` ${unit}` : ''}${r.note === '' ? '' : `; ${r.note}`}`
  const out = [`<g class="unit ${r.status}"><title>${esc(tooltip, 400)}</title>`]
  out.push(
    text('status', { x: 0, y: y + 4 }, WORD[r.status]),
    text('check', { x: 80, y: y + 4, anchor: 'end' }, entities(r.check))
  )
  out.push(text('slice', { x: 90, y: y + 4 }, esc(r.slice, SLICE_CHARS)))
  if (c.ci.every(Number.isFinite) && Number.isFinite(c.delta)) {
    const lo = x(toDisplay(metric, c.ci[0]))
    const hi = x(toDisplay(metric, c.ci[1]))
    out.push(
      line('ci', { x1: lo, y1: y, x2: hi, y2: y }),
      line('cap', { x1: lo, y1: y - 5, x2: lo, y2: y + 5 }),
      line('cap', { x1: hi, y1: y - 5, x2: hi, y2: y + 5 })
    )
    out.push(marker(r.status, x(toDisplay(metric, c.delta)), y))
  }
  out.push(text('numbers', { x: NUMBERS_X, y: y + 4 }, esc(numbers, 60)), '</g>')
  return out.join('')
}

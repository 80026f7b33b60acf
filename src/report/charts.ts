import type { MetricRule } from '../config/types.js'
import type { GateResult } from '../decide/result.js'
import { padEnd, padStart } from './columns.js'
import { histogram, SIDE_SYMBOL as SYMBOL, type Bin, type Histogram } from './histogram.js'
import { maxOf } from '../util/extent.js'
import { metricOf } from './words.js'

/**
 * The histogram of per-query changes of the primary metric, twice: as Mermaid source (GitHub draws it, in
 * colour, with a numeric count axis) and as Unicode lines (the terminal report). Mermaid is used only here,
 * where it draws honestly: `xychart-beta horizontal` puts the bins on the vertical axis, one label per row, so
 * labels cannot run together, and each bin's label carries its count. The interval pictures are Unicode (forest.ts):
 * no Mermaid chart draws an interval on a numeric axis. No name from the inputs goes into the Mermaid source
 * (the title and axis words are our own; the metric is named in the Markdown around it, where it renders as
 * typed), so Mermaid's syntax never has to be escaped. Gains and losses differ in colour AND symbol: each
 * side is its own series (its own colour) and each label starts with ▼ (worse), = (no change) or ▲ (better).
 */

/** Colours of the worse, unchanged and better series (a red-grey-blue diverging scheme, readable in light and dark). */
const COLOURS = { worse: '#d6604d', same: '#8c8c8c', better: '#4393c3' } as const

/** The histogram of the primary metric's differences, or null when there are no queries. */
function primaryHistogram(result: GateResult): { h: Histogram; metric: MetricRule } | null {
  const metric = metricOf(result, result.primaryMetric)
  if (result.primaryDifferences.length === 0) return null
  return { h: histogram(result.primaryDifferences, metric), metric }
}

/**
 * Mermaid source of the histogram (horizontal bars, one series per side), or null when there are no queries.
 * Each bin's label carries its count ("▲ 0 to 2.5 (71)"), and the count axis has no tick labels: Mermaid pads
 * a labelled value axis by half a label's width, so a bar of 0 (every bin of the two other series, and an empty
 * bin) would be drawn as a stub of that width in its series' colour, and an empty bin would look like gains.
 * Without the labels the padding is 0 and a bar of 0 is drawn 0 wide (__tests__/report/mermaid.slow.test.ts
 * measures the drawn bars).
 */
export function histogramChart(result: GateResult): string | null {
  const p = primaryHistogram(result)
  if (p === null) return null
  const { h } = p
  const top = Math.max(1, Math.ceil(maxOf(h.bins.map((b) => b.count)) * 1.1))
  const series = (side: Bin['side']): string =>
    `  bar [${h.bins.map((b) => (b.side === side ? String(b.count) : '0')).join(', ')}]`
  return [
    `%%{init: {"themeVariables": {"xyChart": {"plotColorPalette": "${COLOURS.worse}, ${COLOURS.same}, ${COLOURS.better}"}}, "xyChart": {"yAxis": {"showLabel": false, "showTick": false}}}}%%`,
    'xychart-beta horizontal',
    '  title "Change per query, candidate minus baseline"',
    `  x-axis "change (▼ worse, ▲ better)" [${h.bins.map((b) => `"${SYMBOL[b.side]} ${b.label} (${b.count})"`).join(', ')}]`,
    `  y-axis "queries" 0 --> ${top}`,
    series('worse'),
    series('same'),
    series('better')
  ].join('\n')
}

/** Longest bar of the Unicode histogram, in columns. */
const BAR = 40

/**
 * The histogram as Unicode lines for the terminal: one row per bin, `▼ ▒▒▒` for losses, `= ░░` for ties,
 * `▲ ███` for gains, the count after each bar. `paint` colours a whole row by its side.
 */
export function histogramLines(
  result: GateResult,
  paint: (side: Bin['side'], s: string) => string = (_s, s) => s
): string[] {
  const p = primaryHistogram(result)
  if (p === null) return []
  const { h } = p
  const max = Math.max(1, maxOf(h.bins.map((b) => b.count)))
  const fill: Record<Bin['side'], string> = { worse: '▒', same: '░', better: '█' }
  const width = maxOf(h.bins.map((b) => b.label.length))
  return h.bins.map((b) => {
    const n = b.count === 0 ? 0 : Math.max(1, Math.round((b.count / max) * BAR))
    return paint(
      b.side,
      `${SYMBOL[b.side]} ${padStart(b.label, width)} ${padEnd(fill[b.side].repeat(n), BAR)} ${b.count}`.trimEnd()
    )
  })
}

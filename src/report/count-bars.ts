import { hiddenRowsLine, pictureRows } from './slice-rows.js'
import type { MetricRule } from '../config/types.js'
import type { GateResult } from '../decide/result.js'
import { cutToWidth, padEnd, padStart } from './columns.js'
import { codeText } from './escape.js'
import { LINE } from './forest.js'
import { gatedMetrics } from './regressions.js'
import { maxOf } from '../util/extent.js'
import { displayNumber, metricOf, sliceLabel, unitWord } from './words.js'

/**
 * Wins and losses per slice as a diverging bar: queries that got worse to the left of the centre line (`▒`),
 * queries that got better to the right (`█`), ties as a number, all on one count scale, so a slice where a
 * few queries lose a lot (a mixture the mean hides) stands out next to the others. A `max_regressions` limit is
 * a count, so it is drawn as a count: `║` at the limit on the worse side, and the count against it in words.
 * Unicode in a fenced block, like the forest plot (forest.ts), for the same reasons.
 */

/** Columns of each half of the bar, of the slice label, of a count. */
const HALF = 15
const SLICE = 28
const COUNT = 5

/** One slice's wins and losses on a metric, with a max_regressions limit when a check counts one there. */
export interface BarRow {
  slice: string
  wins: number
  losses: number
  ties: number
  /** The max_regressions limit on this slice, with what was counted against it, or null. */
  limit: { count: number; worse: number; status: string; threshold: number } | null
}

/** Cells of a bar of `n` on a scale of `scale` counts over `HALF` columns (a non-zero count gets a cell). */
function cells(n: number, scale: number): number {
  if (n <= 0) return 0
  return Math.min(HALF, Math.max(1, Math.round((n / scale) * HALF)))
}

/** A row's limit in words, "limit 40 worse: 19, pass" (with the check's threshold when it has one); "" without a limit. */
export function limitWords(row: BarRow, metric: MetricRule): string {
  const l = row.limit
  if (l === null) return ''
  const by =
    l.threshold > 0
      ? ` by more than ${displayNumber(l.threshold, metric, false)}${unitWord(metric) ? ` ${codeText(unitWord(metric), 16)}` : ''}`
      : ''
  return `limit ${l.count} worse${by}: ${l.worse}, ${l.status === 'fail' ? 'FAIL' : l.status}`
}

function drawRow(row: BarRow, scale: number, metric: MetricRule): string {
  const left = Array.from({ length: HALF }, () => ' ')
  for (let i = HALF - cells(row.losses, scale); i < HALF; i++) left[i] = '▒'
  if (row.limit !== null) left[Math.max(0, HALF - Math.max(1, cells(row.limit.count, scale)))] = '║'
  const right = '█'.repeat(cells(row.wins, scale))
  let line = `${padEnd(cutToWidth(codeText(row.slice, 200), SLICE), SLICE)} ${padStart(String(row.losses), COUNT)} ${left.join('')}│${padEnd(right, HALF)} ${padEnd(String(row.wins), COUNT)} ${padStart(String(row.ties), COUNT)}`
  if (row.limit !== null) line += `  ║ ${limitWords(row, metric)}`
  return line
}

/**
 * The rows of one metric's diverging bars (all queries, then every slice compared on it, then gated slices not
 * among them), at most MARKDOWN_SLICE_ROWS of them (limits exceeded first), and how many were left out.
 */
export function barRows(result: GateResult, name: string): { rows: BarRow[]; hidden: number } {
  const all: BarRow[] = []
  const bySlice = new Map<string, BarRow>()
  const add = (slice: Array<[string, string]>, c: { wins: number; losses: number; ties: number }): BarRow => {
    const key = JSON.stringify(slice)
    let row = bySlice.get(key)
    if (row === undefined) {
      row = { slice: sliceLabel(slice), wins: c.wins, losses: c.losses, ties: c.ties, limit: null }
      bySlice.set(key, row)
      all.push(row)
    }
    return row
  }
  for (const c of result.comparisons) if (c.metric === name) add(c.slice, c)
  for (const check of result.decision.checks) {
    if (check.rule.metric !== name) continue
    const kind = check.rule.kind
    for (const unit of check.units) {
      const row = add(unit.comparison.slice, unit.comparison)
      if (kind.type === 'max_regressions' && unit.regressionLimit !== null && unit.regressions !== null) {
        row.limit = {
          count: unit.regressionLimit,
          worse: unit.regressions,
          status: unit.status,
          threshold: kind.threshold
        }
      }
    }
  }
  const { shown, hidden } = pictureRows(all, (r) => r.limit !== null && r.limit.status !== 'pass')
  return { rows: shown, hidden }
}

/** The diverging bars of one metric as Unicode lines ([] when nothing compares it). */
function barsFor(result: GateResult, name: string): string[] {
  const metric = metricOf(result, name)
  const { rows, hidden } = barRows(result, name)
  if (rows.length === 0) return []
  const scale = Math.max(1, maxOf(rows.map((r) => Math.max(r.wins, r.losses, r.limit?.count ?? 0))))
  const title = cutToWidth(
    `${codeText(metric.name, 60)}: queries worse ▒ and better █ per slice (one scale: ${HALF} columns = ${scale} queries)`,
    LINE
  )
  const header = `${' '.repeat(SLICE)} ${padStart('worse', COUNT)} ${padStart('◄', HALF)}│${padEnd('►', HALF)} ${padEnd('better', COUNT)} ${padStart('ties', COUNT)}`
  return [
    title,
    '',
    header,
    ...rows.map((r) => drawRow(r, scale, metric)),
    ...(hidden > 0 ? [hiddenRowsLine(hidden)] : [])
  ]
}

/** One block of diverging bars per gated metric, in the order the checks name the metrics. */
export function countBars(result: GateResult): Array<{ metric: string; lines: string[] }> {
  return gatedMetrics(result)
    .map((name) => ({ metric: name, lines: barsFor(result, name) }))
    .filter((b) => b.lines.length > 0)
}

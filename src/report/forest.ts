import { hiddenRowsLine, pictureRows } from './slice-rows.js'
import type { MetricRule } from '../config/types.js'
import type { CheckResult, UnitResult } from '../decide/evaluate.js'
import type { GateResult } from '../decide/result.js'
import type { Comparison } from '../stats/compare.js'
import { axisLines, columnOf, numberAxis, type NumberAxis } from './axis.js'
import { cutToWidth, displayWidth, padEnd, padStart } from './columns.js'
import { codeText } from './escape.js'
import { alphaText, confidenceLabels } from './format.js'
import { gatedMetrics } from './regressions.js'
import { displayNumber, inPoints, metricOf, sliceLabel, unitWord } from './words.js'

/**
 * The forest plot: one row per check and slice, each a point estimate inside its interval, on ONE numeric
 * axis in the metric's display units with labelled ticks, a vertical line at 0 and one at every check's
 * limit. It is drawn with Unicode characters for a fenced code block, because that is the one medium that
 * renders the same in a PR comment, a job summary, a terminal and a Markdown file, needs no renderer version
 * and shows names exactly as typed (a code block parses nothing). Only characters of WGL4 (the set
 * Consolas, Menlo, DejaVu Sans Mono and SF Mono all carry) are used, so no glyph falls back to a font of
 * another width. Status is told apart by word, marker and line, never by colour alone:
 * pass `├──●──┤`, FAIL `╞══■══╡`, inconclusive `├··□··┤`, exploratory `├──○──┤`.
 */

/** A row's status; `exploratory` rows (the per-slice breakdown) gate nothing. */
export type RowStatus = 'pass' | 'fail' | 'inconclusive' | 'exploratory'

export interface ForestRow {
  status: RowStatus
  /** Check number ("2") or "" for exploratory rows. */
  check: string
  /** RAW slice label ("segment = new"); cleaned and cut here. */
  slice: string
  comparison: Comparison
  /** RAW text after the numbers ("19 worse, limit 40"), or "". */
  note: string
}

/** A limit line: its value in metric units and the RAW words of the key line ("1  recall does not drop"). */
export interface ForestLimit {
  value: number
  check: string
}

const STATUS_WORD: Record<RowStatus, string> = { pass: 'pass', fail: 'FAIL', inconclusive: 'INCONCL', exploratory: '' }
const GLYPHS: Record<RowStatus, { left: string; line: string; right: string; mark: string }> = {
  pass: { left: '├', line: '─', right: '┤', mark: '●' },
  fail: { left: '╞', line: '═', right: '╡', mark: '■' },
  inconclusive: { left: '├', line: '·', right: '┤', mark: '□' },
  exploratory: { left: '├', line: '─', right: '┤', mark: '○' }
}

/**
 * Columns of the plot area, of the slice label, of the status word. A row is at most about 110 columns (a PR
 * comment's code block shows about 113 in GitHub's monospace font at 880 px; the browser test measures it).
 */
const PLOT = 34
const SLICE = 26
const WORD = 7
/** Columns before the plot area: status word, check number, slice label, with single spaces between. */
const CHECK = 3
/** Longest title or key line, in columns. */
export const LINE = 110

/** Values of a picture in display units (points for shares), as every other number of the report. */
export const toDisplay = (metric: MetricRule, v: number): number => (inPoints(metric) ? v * 100 : v)

/**
 * A forest plot's rows within the picture cap (slice-rows.ts: failing and inconclusive rows first), how many were
 * left out, its finite limits in display units, and the values its axis must hold (0, the limits, the intervals).
 */
export function forestFrame(
  metric: MetricRule,
  options: { rows: ForestRow[]; limits: ForestLimit[] }
): { rows: ForestRow[]; hidden: number; limits: ForestLimit[]; values: number[] } {
  const { shown: rows, hidden } = pictureRows(options.rows, (r) => r.status === 'fail' || r.status === 'inconclusive')
  const limits = options.limits
    .filter((l) => Number.isFinite(l.value))
    .map((l) => ({ value: toDisplay(metric, l.value), check: l.check }))
  const values = [0, ...limits.map((l) => l.value)]
  for (const r of rows)
    if (r.comparison.ci.every(Number.isFinite)) values.push(...r.comparison.ci.map((v) => toDisplay(metric, v)))
  return { rows, hidden, limits, values }
}

/** One row of the plot area: the reference lines, then the interval and its point estimate over them. */
function plotCells(axis: NumberAxis, metric: MetricRule, row: ForestRow, limits: number[]): string {
  const cells = Array.from({ length: PLOT }, () => ' ')
  for (const l of limits) cells[columnOf(axis, l)] = '¦'
  if (axis.lo <= 0 && axis.hi >= 0) cells[columnOf(axis, 0)] = '│'
  const c = row.comparison
  if (!c.ci.every(Number.isFinite) || !Number.isFinite(c.delta)) return cells.join('')
  const g = GLYPHS[row.status]
  const lo = columnOf(axis, toDisplay(metric, c.ci[0]))
  const hi = columnOf(axis, toDisplay(metric, c.ci[1]))
  for (let i = lo; i <= hi; i++) cells[i] = g.line
  if (hi > lo) {
    cells[lo] = g.left
    cells[hi] = g.right
  }
  cells[columnOf(axis, toDisplay(metric, c.delta))] = g.mark
  return cells.join('')
}

/** "-10.1 [-10.9, -9.4]" in display units (RAW: the numbers at a forest row's end, in every picture). */
export function forestNumbers(metric: MetricRule, c: Comparison): string {
  const typical = Math.max(Math.abs(c.ci[0]), Math.abs(c.ci[1]), Math.abs(c.delta))
  return `${displayNumber(c.delta, metric, true, typical)} [${displayNumber(c.ci[0], metric, true, typical)}, ${displayNumber(c.ci[1], metric, true, typical)}]`
}

/**
 * The lines of one forest plot (RAW text for a fenced block or a terminal; names are cleaned of control
 * characters and bidi marks, nothing else, so they read as typed). `keys` are the key lines under the axis.
 */
export function drawForest(options: {
  metric: MetricRule
  title: string
  rows: ForestRow[]
  limits: ForestLimit[]
  keys: string[]
}): string[] {
  const { metric } = options
  const frame = forestFrame(metric, options)
  const { rows, hidden } = frame
  const limits = frame.limits.map((l) => l.value)
  const axis = numberAxis(frame.values, PLOT)
  const indent = ' '.repeat(WORD + 1 + CHECK + 1 + SLICE + 1)
  const out = [cutToWidth(options.title, LINE), '']
  for (const r of rows) {
    const head = `${padEnd(STATUS_WORD[r.status], WORD)} ${padStart(r.check, CHECK - 1)}  ${padEnd(cutToWidth(codeText(r.slice, 200), SLICE), SLICE)} `
    const note = r.note === '' ? '' : `  ${codeText(r.note, 120)}`
    out.push(`${head}${plotCells(axis, metric, r, limits)}  ${forestNumbers(metric, r.comparison)}${note}`.trimEnd())
  }
  if (hidden > 0) out.push(hiddenRowsLine(hidden))
  const [rule, labels] = axisLines(axis)
  const u = unitWord(metric)
  out.push(indent + rule, indent + labels + (u ? `  ${codeText(u, 16)}` : ''))
  const higher = metric.better === 'higher'
  const dir = `${higher ? '← worse' : '← better'}`
  const other = `${higher ? 'better →' : 'worse →'}`
  out.push(indent + dir + ' '.repeat(Math.max(1, PLOT - displayWidth(dir) - displayWidth(other))) + other)
  out.push('')
  for (const k of options.keys) out.push(cutToWidth(k, LINE))
  const used = new Set(rows.map((r) => r.status))
  const legend = (['pass', 'fail', 'inconclusive', 'exploratory'] as RowStatus[])
    .filter((s) => used.has(s))
    .map((s) => `${GLYPHS[s].mark} ${s === 'fail' ? 'FAIL' : s}`)
  out.push(`${legend.join('  ')}   │ no change${limits.length > 0 ? '   ¦ limit' : ''}`)
  return out
}

/** The value a unit's change must stay beyond, in metric units (candidate - baseline), or null (counts, p-value tests, levels). */
export function limitOf(check: CheckResult, unit: UnitResult, metric: MetricRule): number | null {
  const sign = metric.better === 'higher' ? 1 : -1
  const kind = check.rule.kind
  if (kind.type === 'non_inferior') return -sign * unit.margin
  // A superior check on McNemar, the t or the randomization test decides on a p-value: no limit on the axis.
  if (kind.type === 'superior') return kind.test === 'bootstrap' ? sign * unit.margin : null
  return null
}

/** "19 worse ≤ 40" for a max_regressions unit (the count against its limit); "" otherwise. */
function countNote(check: CheckResult, unit: UnitResult): string {
  if (check.rule.kind.type !== 'max_regressions' || unit.regressions === null) return ''
  return `${unit.regressions} worse ≤ ${unit.regressionLimit ?? 'n/a'}`
}

/** The title line: metric, what is drawn, units, the rows' confidence, direction. */
function titleOf(metric: MetricRule, rows: ForestRow[], what: string): string {
  const u = unitWord(metric)
  return `${codeText(metric.name, 60)}: ${what}, candidate − baseline${u ? ` in ${codeText(u, 16)}` : ''}, ${confidenceLabels(rows.map((r) => r.comparison.confidence))} intervals (${metric.better} is better)`
}

/** One check's line in a forest plot's key: its number, its RAW name and what its limit is (RAW words). */
export interface ForestKey {
  check: string
  name: string
  words: string
}

/** What one gated metric's forest plot draws, whatever the medium (Unicode here, SVG in html/forest-svg.ts). */
export interface ForestData {
  metric: string
  title: string
  rows: ForestRow[]
  limits: ForestLimit[]
  keys: ForestKey[]
}

/** The rows, limits and key of each gated metric's forest plot, rows in rules order (every unit of every check). */
export function gatedForestData(result: GateResult): ForestData[] {
  const out: ForestData[] = []
  for (const name of gatedMetrics(result)) {
    const metric = metricOf(result, name)
    const rows: ForestRow[] = []
    const limits: ForestLimit[] = []
    const keys: ForestKey[] = []
    // An at_least / at_most check judges a level, not a change: it is not drawn on the axis of changes.
    const checks = result.decision.checks.filter((c) => c.rule.metric === name && c.rule.kind.type !== 'level')
    for (const check of checks) {
      const n = String(check.rule.index + 1)
      // A Set: a relative margin gives every slice its own limit, and a list lookup per unit is quadratic in slices.
      const own = new Set<number>()
      for (const unit of check.units) {
        rows.push({
          status: unit.status,
          check: n,
          slice: sliceLabel(unit.comparison.slice),
          comparison: unit.comparison,
          note: countNote(check, unit)
        })
        const l = limitOf(check, unit, metric)
        if (l !== null && Number.isFinite(l)) own.add(l)
      }
      for (const l of own) limits.push({ value: l, check: n })
      keys.push({ check: n, name: check.rule.name, words: keyWords(check, [...own], metric) })
    }
    if (rows.length === 0) continue
    out.push({ metric: name, title: titleOf(metric, rows, 'change'), rows, limits, keys })
  }
  return out
}

/** One forest plot per gated metric, rows in rules order (every unit of every check on that metric). */
export function gatedForests(result: GateResult): Array<{ metric: string; lines: string[] }> {
  return gatedForestData(result).map((f) => {
    const metric = metricOf(result, f.metric)
    const keys = f.keys.map((k) => `${padStart(k.check, CHECK)}  ${codeText(k.name, 80)}: ${k.words}`)
    return { metric: f.metric, lines: drawForest({ metric, title: f.title, rows: f.rows, limits: f.limits, keys }) }
  })
}

/** What the key says about a check's limit: "¦ limit -2.0 points", "at most 40 queries worse". */
function keyWords(check: CheckResult, limits: number[], metric: MetricRule): string {
  const kind = check.rule.kind
  if (kind.type === 'max_regressions') {
    const n = check.units.map((u) => u.regressionLimit)
    return `a count, not an interval: at most ${n[0] ?? 'n/a'} queries worse${check.units.length > 1 ? ' per slice' : ''}`
  }
  const u = unitWord(metric)
  const words = limits.map((l) => displayNumber(l, metric)).join(', ')
  if (kind.type === 'superior' && kind.test !== 'bootstrap') {
    const alpha = alphaText(kind.alpha)
    const test =
      kind.test === 'mcnemar'
        ? `McNemar p < ${alpha}, more gained than lost`
        : `${kind.test === 't' ? 't-test' : 'randomization test'} p < ${alpha}, a gain`
    return `${test} (a test: no limit on the axis)`
  }
  return `¦ limit ${words}${u ? ` ${codeText(u, 16)}` : ''}${kind.type === 'superior' ? ' (the interval must clear it)' : ''}`
}

/** The exploratory per-slice rows of one metric (every comparison of it), or null when there is only one. */
export function sliceForestRows(result: GateResult, name: string): ForestRow[] | null {
  const comparisons = result.comparisons.filter((c) => c.metric === name)
  if (comparisons.length < 2) return null
  return comparisons.map((c) => ({
    status: 'exploratory',
    check: '',
    slice: sliceLabel(c.slice),
    comparison: c,
    note: `n = ${c.n}`
  }))
}

/** The exploratory per-slice rows of one metric as a forest plot (no limits: nothing here gates). */
export function sliceForest(result: GateResult, name: string): string[] | null {
  const metric = metricOf(result, name)
  const rows = sliceForestRows(result, name)
  if (rows === null) return null
  const title = titleOf(metric, rows, 'change per slice (exploratory)')
  return drawForest({ metric, title, rows, limits: [], keys: [] })
}

import { rowOfId } from '../../align/row-of-id.js'
import { queryDetails, type GateResult, type RegressedQuery } from '../../decide/result.js'
import { fixed } from '../format.js'
import { changeWithUnit, levelDigits, metricOf } from '../words.js'
import { gatedMetrics } from '../regressions.js'
import { listableRegressions, withheldSentence } from '../holdout.js'
import { gradeText } from '../top-documents.js'
import { entities, esc } from './escape.js'

/**
 * The regressed queries of the primary metric as a table a reviewer can sort and filter (script.ts; without a
 * script it reads the same, worst first): the query, both values and the change, the change of every other
 * gated metric (changes in each metric's one unit, words.ts), the query's attributes, and, when the caller has
 * them, a row under it with the query's text and both sides' top documents with their grades. Holdout queries are never listed (the trust boundary: src/report/holdout.ts);
 * they are counted under the table.
 */

/** Most rows the table lists (worst first); the regression set file lists all of them. */
export const REGRESSED_ROWS = 500
/** Most documents of a top-k list shown per side, and the longest query text and document id. */
const TOP_DOCS = 10
const TEXT_CHARS = 300
const DOC_CHARS = 60

/** One document of a ranking: its id and its relevance grade (null: not judged). */
export interface RankedDoc {
  doc: string
  grade: number | null
}

/** A lookup by query id (a Map is one). */
export interface Lookup<T> {
  get(id: string): T | undefined
}

/**
 * Per-query details the page shows beside a regressed query when the caller has them: its text (from a
 * queries file) and each side's top documents with their grades (runs mode). A column appears only when its
 * lookup is given.
 */
export interface QueryDetails {
  text?: Lookup<string>
  baselineTop?: Lookup<readonly RankedDoc[]>
  candidateTop?: Lookup<readonly RankedDoc[]>
}

/**
 * What the capabilities show beside each query (the queries file's text; both runs' top documents with their
 * judgments' grades in runs mode), as the page's lookups by query id.
 */
export function capabilityDetails(result: GateResult): QueryDetails | undefined {
  if (!result.capabilities.some((c) => c.parts.queryDetails !== undefined)) return undefined
  const at = (id: string) => queryDetails(result, rowOfId(result.table, id))
  const ranked = (docs: string[] | undefined, grades: Array<number | null> | undefined): RankedDoc[] | undefined =>
    docs?.map((doc, k) => ({ doc, grade: grades?.[k] ?? null }))
  return {
    text: { get: (id) => at(id).text },
    baselineTop: { get: (id) => ranked(at(id).top?.baseline, at(id).grades?.baseline) },
    candidateTop: { get: (id) => ranked(at(id).top?.candidate, at(id).grades?.candidate) }
  }
}

interface Column {
  head: string
  /** Numeric columns sort by value and are right-aligned. */
  numeric: boolean
  cell: (r: RegressedQuery, i: number) => string
}

/** A number cell: its value for sorting (`data-v`), its text in the metric's digits, `worse` marked. */
function numberCell(value: number, shown: string, worse = false): string {
  const v = Number.isFinite(value) ? String(value) : ''
  return `<td class="num${worse ? ' worse' : ''}" data-v="${entities(v)}">${entities(shown)}</td>`
}

/** One side's top-k list under its heading: document ids with their grades, at most TOP_DOCS. */
function topList(side: string, docs: readonly RankedDoc[]): string {
  const items = docs.slice(0, TOP_DOCS).map((d) => {
    const rel = d.grade !== null && d.grade > 0 ? ' rel' : ''
    return `<li><span class="doc">${esc(d.doc, DOC_CHARS)}</span> <span class="grade${rel}">${entities(gradeText(d.grade))}</span></li>`
  })
  const more = docs.length > TOP_DOCS ? `<li class="more">and ${docs.length - TOP_DOCS} more</li>` : ''
  const list =
    docs.length === 0 ? '<p class="note">none retrieved</p>' : `<ol class="topk">${items.join('')}${more}</ol>`
  return `<div class="top"><p class="side">${side} top documents (grade)</p>${list}</div>`
}

/** What the table needs besides the result. */
export interface RegressedOptions {
  details?: QueryDetails
  /** Most rows listed (REGRESSED_ROWS). */
  maxRows?: number
}

/** A text column: its heading and the RAW text of each row's cell, escaped and cut at `max`. */
function textColumn(head: string, max: number, value: (r: RegressedQuery) => string, cls = ''): Column {
  const open = cls === '' ? '<td>' : `<td class="${cls}">`
  return { head, numeric: false, cell: (r) => `${open}${esc(value(r), max)}</td>` }
}

/** The change of another gated metric on the row's query, marked when it got worse in that metric's direction. */
function otherChange(result: GateResult, name: string, rows: RegressedQuery[]): Column {
  const metric = metricOf(result, name)
  const cols = result.table.metrics.get(name) as { base: Float64Array; cand: Float64Array }
  const sign = metric.better === 'lower' ? -1 : 1
  const first = rows.length > 0 ? rowOfId(result.table, rows[0].id) : -1
  const typical = first < 0 ? 0 : Math.abs(cols.base[first])
  const cell = (_r: RegressedQuery, i: number): string => {
    const delta = i < 0 ? NaN : cols.cand[i] - cols.base[i]
    return numberCell(delta, changeWithUnit(delta, metric, typical), sign * delta < 0)
  }
  return { head: `Δ ${metric.name}`, numeric: true, cell }
}

/** The table's columns: the query, both values and the change, every other gated metric's change, the attributes. */
function columnsOf(result: GateResult, rows: RegressedQuery[]): Column[] {
  const primary = metricOf(result, result.primaryMetric)
  const typical = rows.length > 0 ? Math.abs(rows[0].baseline) : 0
  const d = levelDigits(primary, typical)
  const columns: Column[] = [textColumn('Query', 120, (r) => r.id, 'id')]
  columns.push(
    { head: 'Baseline', numeric: true, cell: (r) => numberCell(r.baseline, fixed(r.baseline, d)) },
    { head: 'Candidate', numeric: true, cell: (r) => numberCell(r.candidate, fixed(r.candidate, d)) },
    {
      head: `Δ ${primary.name}`,
      numeric: true,
      cell: (r) => numberCell(r.delta, changeWithUnit(r.delta, primary, typical), true)
    }
  )
  for (const name of gatedMetrics(result))
    if (name !== result.primaryMetric) columns.push(otherChange(result, name, rows))
  const attrNames = rows.length > 0 ? rows[0].attrs.map(([k]) => k) : []
  attrNames.forEach((a, k) => columns.push(textColumn(a, 60, (r) => r.attrs[k]?.[1] ?? '')))
  return columns
}

/**
 * The row under a query's numbers, across the whole table, when the caller has details: the query's text and both
 * sides' top documents side by side. Below the numbers rather than beside them, so the documents stay in view at
 * any width (nine columns beside them did not fit a laptop's window). '' without details.
 */
function detailsRow(r: RegressedQuery, details: QueryDetails, span: number): string {
  const parts: string[] = []
  const text = details.text?.get(r.id)
  if (text !== undefined) parts.push(`<p class="text">${esc(text, TEXT_CHARS)}</p>`)
  const lists: string[] = []
  if (details.baselineTop !== undefined) lists.push(topList('Baseline', details.baselineTop.get(r.id) ?? []))
  if (details.candidateTop !== undefined) lists.push(topList('Candidate', details.candidateTop.get(r.id) ?? []))
  if (lists.length > 0) parts.push(`<div class="tops">${lists.join('')}</div>`)
  if (parts.length === 0) return ''
  return `<tr class="docs"><td colspan="${span}"><div class="inner">${parts.join('')}</div></td></tr>`
}

/** The filter box: hidden until the page's script shows it (without a script it would do nothing). */
const FILTER = [
  '<p class="filter" hidden><label>Filter rows',
  '<input type="search" data-filter="regressed" placeholder="query id, text, slice value" autocomplete="off"></label>',
  '<output data-count="regressed"></output></p>'
].join(' ')

/**
 * The section's HTML: the list the reader may see (dev split only), at most `maxRows` rows, the filter box, the
 * table, and the sentences under it.
 */
export function regressedTable(
  result: GateResult,
  options: RegressedOptions
): { html: string; listed: number; withheld: number } {
  const { table } = result
  const primary = metricOf(result, result.primaryMetric)
  // A holdout query is never listed (holdout.ts, as in every report).
  const { shown: listable, withheld } = listableRegressions(result)
  const rows = listable.slice(0, Math.max(0, options.maxRows ?? REGRESSED_ROWS))
  const out: string[] = []
  if (rows.length > 0) {
    const columns = columnsOf(result, rows)
    const details = options.details ?? {}
    const more = listable.length > rows.length ? ` (the ${rows.length} that lost most are listed)` : ''
    const count = `${listable.length} ${listable.length === 1 ? 'query' : 'queries'} got worse on ${esc(primary.name, 60)}${more}`
    out.push(`<p>${count}, worst first. Sort by a column's heading; filter by any text of a row.</p>`, FILTER)
    const heading = (c: Column): string =>
      `<th scope="col"${c.numeric ? ' class="num"' : ''}><button type="button">${esc(c.head, 60)}</button></th>`
    // One body per query (its numbers, then its details), so sorting and filtering move and hide them together.
    const bodies = rows.map((r) => {
      const i = rowOfId(table, r.id)
      const numbers = `<tr>${columns.map((c) => c.cell(r, i)).join('')}</tr>`
      return `<tbody>${numbers}${detailsRow(r, details, columns.length)}</tbody>`
    })
    out.push(
      `<div class="table scroll"><table class="sortable" id="regressed">`,
      `<thead><tr>${columns.map(heading).join('')}</tr></thead>`
    )
    out.push(...bodies, '</table></div>')
  } else if (withheld === 0) out.push(`<p>No query got worse on ${esc(primary.name, 60)}.</p>`)
  if (withheld > 0) out.push(`<p class="note">${entities(withheldSentence(withheld))}</p>`)
  return { html: out.join('\n'), listed: rows.length, withheld }
}

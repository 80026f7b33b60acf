import type { MetricRule } from '../../config/types.js'
import type { GateResult, RegressedQuery } from '../../decide/result.js'
import { digitsFor, fixed, signed } from '../format.js'
import { gatedMetrics } from '../regressions.js'
import { withheldSentence } from '../holdout.js'
import { entities, esc } from './escape.js'

/**
 * The regressed queries of the primary metric as a table a reviewer can sort and filter (script.ts; without a
 * script it reads the same, worst first): the query, both values and the change, the change of every other
 * gated metric, the query's attributes, and, when the caller has them, the query's text and both sides' top
 * documents with their grades. Holdout queries are never listed (the trust boundary: src/report/holdout.ts);
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

/** Index of `id` in the table's ids (sorted by UTF-16 code units, pair.ts), or -1. */
export function indexOfId(ids: readonly string[], id: string): number {
  let lo = 0
  let hi = ids.length - 1
  while (lo <= hi) {
    const mid = (lo + hi) >> 1
    if (ids[mid] === id) return mid
    if (ids[mid] < id) lo = mid + 1
    else hi = mid - 1
  }
  return -1
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

/** A top-k list: document ids with their grades (– for not judged), at most TOP_DOCS. */
function topCell(docs: readonly RankedDoc[] | undefined): string {
  if (docs === undefined) return '<td></td>'
  const items = docs.slice(0, TOP_DOCS).map((d) => {
    const grade = d.grade === null || !Number.isFinite(d.grade) ? '–' : fixed(d.grade, Number.isInteger(d.grade) ? 0 : 2)
    const rel = d.grade !== null && d.grade > 0 ? ' rel' : ''
    return `<li><span class="doc">${esc(d.doc, DOC_CHARS)}</span> <span class="grade${rel}">${entities(grade)}</span></li>`
  })
  const more = docs.length > TOP_DOCS ? `<li class="more">and ${docs.length - TOP_DOCS} more</li>` : ''
  return `<td><ol class="topk">${items.join('')}${more}</ol></td>`
}

/**
 * The section's HTML: the list the reader may see (dev split only), at most `maxRows` rows, the filter box
 * (shown by the script), the table, and the sentences under it. `isHoldout` is decide/holdout.ts's mask.
 */
export function regressedTable(result: GateResult, options: { isHoldout: (i: number) => boolean; details?: QueryDetails; maxRows?: number }): { html: string; listed: number; withheld: number } {
  const { table, rules } = result
  const primary = rules.metrics.get(result.primaryMetric) as MetricRule
  const listable = result.regressions.filter((r) => !options.isHoldout(indexOfId(table.ids, r.id)))
  const withheld = result.regressions.length - listable.length
  const rows = listable.slice(0, Math.max(0, options.maxRows ?? REGRESSED_ROWS))
  const d = digitsFor(primary.range, rows.length > 0 ? Math.abs(rows[0].baseline) : 0)
  const columns: Column[] = [{ head: 'Query', numeric: false, cell: (r) => `<td class="id">${esc(r.id, 120)}</td>` }]
  const details = options.details ?? {}
  const textOf = details.text
  if (textOf !== undefined) columns.push({ head: 'Query text', numeric: false, cell: (r) => `<td class="text">${esc(textOf.get(r.id) ?? '', TEXT_CHARS)}</td>` })
  columns.push(
    { head: 'Baseline', numeric: true, cell: (r) => numberCell(r.baseline, fixed(r.baseline, d)) },
    { head: 'Candidate', numeric: true, cell: (r) => numberCell(r.candidate, fixed(r.candidate, d)) },
    { head: `Δ ${primary.name}`, numeric: true, cell: (r) => numberCell(r.delta, signed(r.delta, d), true) }
  )
  for (const name of gatedMetrics(result).filter((m) => m !== result.primaryMetric)) {
    const metric = rules.metrics.get(name) as MetricRule
    const cols = table.metrics.get(name) as { base: Float64Array; cand: Float64Array }
    const sign = metric.better === 'lower' ? -1 : 1
    columns.push({
      head: `Δ ${metric.name}`,
      numeric: true,
      cell: (_r, i) => {
        const delta = i < 0 ? NaN : cols.cand[i] - cols.base[i]
        return numberCell(delta, signed(delta, digitsFor(metric.range, Math.abs(cols.base[i] ?? 0))), sign * delta < 0)
      }
    })
  }
  const attrNames = rows.length > 0 ? rows[0].attrs.map(([k]) => k) : []
  attrNames.forEach((a, k) => columns.push({ head: a, numeric: false, cell: (r) => `<td>${esc(r.attrs[k]?.[1] ?? '', 60)}</td>` }))
  const baselineTop = details.baselineTop
  const candidateTop = details.candidateTop
  if (baselineTop !== undefined) columns.push({ head: 'Baseline top documents (grade)', numeric: false, cell: (r) => topCell(baselineTop.get(r.id)) })
  if (candidateTop !== undefined) columns.push({ head: 'Candidate top documents (grade)', numeric: false, cell: (r) => topCell(candidateTop.get(r.id)) })

  const out: string[] = []
  if (rows.length > 0) {
    const more = listable.length > rows.length ? ` (the ${rows.length} that lost most are listed)` : ''
    out.push(`<p>${listable.length} ${listable.length === 1 ? 'query' : 'queries'} got worse on ${esc(primary.name, 60)}${more}, worst first. Sort by a column's heading; filter by any text of a row.</p>`)
    out.push(`<p class="filter" hidden><label>Filter rows <input type="search" data-filter="regressed" placeholder="query id, text, slice value" autocomplete="off"></label> <output data-count="regressed"></output></p>`)
    const head = columns.map((c) => `<th scope="col"${c.numeric ? ' class="num"' : ''}><button type="button">${esc(c.head, 60)}</button></th>`).join('')
    const body = rows.map((r) => {
      const i = indexOfId(table.ids, r.id)
      return `<tr>${columns.map((c) => c.cell(r, i)).join('')}</tr>`
    })
    out.push(`<div class="table scroll"><table class="sortable" id="regressed"><thead><tr>${head}</tr></thead>`, `<tbody>`, ...body, `</tbody></table></div>`)
  } else if (withheld === 0) out.push(`<p>No query got worse on ${esc(primary.name, 60)}.</p>`)
  if (withheld > 0) out.push(`<p class="note">${entities(withheldSentence(withheld))}</p>`)
  return { html: out.join('\n'), listed: rows.length, withheld }
}

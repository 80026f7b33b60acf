import type { Rules } from '../../config/types.js'
import { InputError } from '../../errors.js'
import type { SideRows } from '../../model/rows.js'
import { quote, quoteList } from '../../util/show.js'
import type { PairedTable } from '../../align/pair.js'

/** How many ids a refusal lists before "and N more". */
const LIST_LIMIT = 10

/**
 * The candidate paired with the reference (the last release's rows) on the exam: the SAME ids in the same
 * order, the same attribute columns (the exam's, so every slice and `where` selects the same queries) and the
 * same candidate column as the gate's own table (already checked and filled), with the reference's values in
 * place of the baseline's. The statistics run on it exactly as on the gate's table (same seed derivation per
 * subset, so the same resampling plan).
 *
 * The reference must describe the exam, or its budget means nothing: a reference whose queries are not
 * exactly the exam's, that lacks a value, holds one outside the metric's range, or labels a query with another
 * slice value than the exam does is refused as not comparable, never re-paired on the queries both happen to
 * have. A refusal is unusable input (exit 2), not a failed rule: the reference is exam-side, written by the
 * release, and the PR cannot fix it; the fix is to cut a new reference on the current exam.
 */
export function pairReference(rules: Rules, table: PairedTable, reference: SideRows, label: string): PairedTable {
  const notComparable = (what: string, extra: { line?: number; queryId?: string } = {}): InputError =>
    new InputError(
      { file: reference.source, ...extra },
      `the reference ${quote(label)} is not comparable with the exam: ${what}`,
      "a budget is only meaningful on the exam's queries: regenerate the reference rows on the current exam (the rows of the last release, evaluated on today's queries and judgments), or move reference to the release that used this exam"
    )
  // The reference is read like any rows file, which refuses a repeated id with both lines.
  const byId = reference.index
  const exam = new Set(table.ids)
  const missing = table.ids.filter((id) => !byId.has(id))
  const extra = [...byId.keys()].filter((id) => !exam.has(id)).sort()
  if (missing.length > 0 || extra.length > 0) {
    const parts: string[] = []
    if (missing.length > 0)
      parts.push(
        `${missing.length} exam ${missing.length === 1 ? 'query is' : 'queries are'} not in it (${list(missing)})`
      )
    if (extra.length > 0)
      parts.push(
        `${extra.length} of its ${extra.length === 1 ? 'queries is' : 'queries are'} not in the exam (${list(extra)})`
      )
    throw notComparable(`a different query set: ${parts.join('; ')}`)
  }
  const metrics = new Map<string, { base: Float64Array; cand: Float64Array }>()
  for (const metric of rules.metrics.values()) {
    const cand = (table.metrics.get(metric.name) as { cand: Float64Array }).cand
    const base = new Float64Array(table.ids.length)
    const values = reference.values.get(metric.name)
    table.ids.forEach((id, i) => {
      const row = byId.get(id) as number
      const v = values === undefined ? Number.NaN : values[row]
      const line = reference.lines[row]
      if (Number.isNaN(v))
        throw notComparable(`query ${quote(id)} has no value of ${metric.name}`, { line, queryId: id })
      if (metric.binary && v !== 0 && v !== 1)
        throw notComparable(`${metric.name} = ${v}, but the rules declare it binary (0 or 1)`, { line, queryId: id })
      if (metric.range && (v < metric.range[0] || v > metric.range[1]))
        throw notComparable(`${metric.name} = ${v} is outside its range [${metric.range[0]}, ${metric.range[1]}]`, {
          line,
          queryId: id
        })
      base[i] = v
    })
    metrics.set(metric.name, { base, cand })
  }
  for (const [name, column] of table.attrs) {
    const own = reference.attrs.get(name)
    table.ids.forEach((id, i) => {
      const row = byId.get(id) as number
      const value = own?.[row]
      if (value !== undefined && value !== '' && value !== column[i]) {
        throw notComparable(
          `query ${quote(id)} has ${name} = ${quote(value)} in the reference and ${quote(column[i])} in the exam`,
          { line: reference.lines[row], queryId: id }
        )
      }
    })
  }
  return {
    ids: table.ids,
    metrics,
    attrs: table.attrs,
    coverage: { ...table.coverage, baselineRows: reference.ids.length }
  }
}

function list(ids: string[]): string {
  return quoteList(ids, LIST_LIMIT) + (ids.length > LIST_LIMIT ? ` and ${ids.length - LIST_LIMIT} more` : '')
}

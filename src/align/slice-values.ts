import type { Rules } from '../config/types.js'
import { InputError } from '../errors.js'
import type { PairedTable } from './pair.js'

/**
 * Most distinct values an attribute may have when the rules slice by it (`slices:` or a check's
 * `per_slice`). Each value is a comparison of its own (a row of the JSON report per metric, a unit of a
 * per_slice check). Since the members of every value are found in one pass and a one-query slice is one
 * value per metric (no resampling), the cost is linear in queries and values: `npm run bench:scale`
 * measures 20,000 one-query values (README "Performance"). The cap bounds the JSON report (about 0.6 KB per
 * value and metric); the Markdown shows at most MARKDOWN_SLICE_ROWS rows (src/report/slice-rows.ts).
 * `statistics.cluster` is not capped: it can legitimately name every user.
 */
export const MAX_SLICE_VALUES = 20000

/**
 * Refuses, with the rules key and the count, a `slices` or `per_slice` attribute with more than
 * {@link MAX_SLICE_VALUES} distinct values (a per_slice attribute counted among the queries its check's
 * `where` selects), before any statistic is computed.
 */
export function refuseTooManySliceValues(rules: Rules, table: PairedTable, cap = MAX_SLICE_VALUES): void {
  rules.slices.forEach((attr, i) => {
    const count = distinctValues(table, attr, [])
    if (count > cap) tooMany(rules, { key: `slices[${i}]` }, attr, { count, cap })
  })
  for (const check of rules.checks) {
    if (check.perSlice === undefined) continue
    const count = distinctValues(table, check.perSlice, [...check.where])
    if (count > cap)
      tooMany(rules, { key: `checks[${check.index}].per_slice`, line: check.line }, check.perSlice, { count, cap })
  }
}

function distinctValues(table: PairedTable, attr: string, where: Array<[string, string]>): number {
  const column = table.attrs.get(attr)
  if (column === undefined) return 0
  const filters = where.map(([k, v]) => [table.attrs.get(k) as string[], v] as const)
  const seen = new Set<string>()
  for (let i = 0; i < column.length; i++) {
    let selected = true
    for (const [col, v] of filters) if (col[i] !== v) selected = false
    if (selected) seen.add(column[i])
  }
  return seen.size
}

/** The rules key that slices by the attribute, and its line when the rules have one for it. */
interface SliceKey {
  key: string
  line?: number
}

function tooMany(rules: Rules, at: SliceKey, attr: string, values: { count: number; cap: number }): never {
  const { count, cap } = values
  throw new InputError(
    { file: rules.source.file, line: at.line, key: at.key },
    `attribute "${attr.slice(0, 80)}" has ${count} distinct values; a slice attribute may have at most ${cap} (each value is a comparison of its own)`,
    'slice by a coarser attribute (a segment, a bucket); to account for many users, name the attribute as statistics.cluster instead'
  )
}

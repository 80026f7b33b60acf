import type { PairedTable } from '../align/pair.js'

/** Attribute filters, sorted by attribute name: [] means every query. */
export type Filters = ReadonlyArray<readonly [string, string]>

/** Canonical text of a filter set, e.g. `category=faq&segment=new` (`all` for no filter). Used as cache and seed key. */
export function filterKey(filters: Filters): string {
  if (filters.length === 0) return 'all'
  return [...filters]
    .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)
    .join('&')
}

/** A subset as the design's notes and refusals name it: `segment = new, tier = 1`, or `all queries`. */
export function subsetLabel(filters: Filters): string {
  return filters.length === 0 ? 'all queries' : filters.map(([k, v]) => `${k} = ${v}`).join(', ')
}

/** Indices (into the table's fixed order) of the queries matching every filter. */
export function membersOf(table: PairedTable, filters: Filters): Int32Array {
  const n = table.ids.length
  if (filters.length === 0) return Int32Array.from({ length: n }, (_, i) => i)
  const columns = filters.map(([k, v]) => [table.attrs.get(k) as string[], v] as const)
  const out: number[] = []
  for (let i = 0; i < n; i++) if (columns.every(([col, v]) => col[i] === v)) out.push(i)
  return Int32Array.from(out)
}

/** The distinct values of an attribute among the given members, sorted. */
export function valuesOf(table: PairedTable, attr: string, members: Int32Array): string[] {
  const column = table.attrs.get(attr) as string[]
  const set = new Set<string>()
  for (const i of members) set.add(column[i])
  return [...set].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
}

/**
 * Every value's members of one attribute in one pass (value -> indices in the table's order): what makes
 * thousands of slice values cost one pass over the queries instead of one pass per value.
 */
export function membersByValue(table: PairedTable, attr: string): Map<string, Int32Array> {
  const column = table.attrs.get(attr) as string[]
  const lists = new Map<string, number[]>()
  for (let i = 0; i < column.length; i++) {
    let list = lists.get(column[i])
    if (!list) lists.set(column[i], (list = []))
    list.push(i)
  }
  const out = new Map<string, Int32Array>()
  for (const [v, list] of lists) out.set(v, Int32Array.from(list))
  return out
}

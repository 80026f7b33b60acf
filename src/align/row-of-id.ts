import type { PairedTable } from './pair.js'

/**
 * The row of a query id in the paired table, or -1: a binary search over the ids, which the table keeps sorted
 * by code unit. A report that shows ten queries looks them up here instead of building a map of every id (at
 * 10^6 queries that map was 80 MB of the report's peak).
 */
export function rowOfId(table: Pick<PairedTable, 'ids'>, id: string): number {
  const { ids } = table
  let lo = 0
  let hi = ids.length - 1
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1
    const v = ids[mid]
    if (v === id) return mid
    if (v < id) lo = mid + 1
    else hi = mid - 1
  }
  return -1
}

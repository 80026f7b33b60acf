import type { QueryRow } from '../model/rows.js'
import type { ParsedMeasure } from '../config/measures.js'

/**
 * Printing as trec_eval prints: 4 decimals with C printf's rounding (round half to even on the exact
 * binary value; JavaScript's toFixed rounds exact ties up, e.g. 0.03125 → "0.0313" where trec_eval prints
 * "0.0312"), counts as integers.
 */

/** `%.4f` as glibc prints it. */
export function formatFixed4(x: number): string {
  const fixed = x.toFixed(4)
  // An exact tie needs x = m / 20000 to be a double, i.e. a short binary fraction: 30 digits show it whole.
  const long = x.toFixed(30)
  const dot = long.indexOf('.')
  if (long.charCodeAt(dot + 5) !== 0x35 || !/^0*$/.test(long.slice(dot + 6))) return fixed
  const truncated = long.slice(0, dot + 5)
  const lastDigit = truncated.charCodeAt(truncated.length - 1) - 0x30
  return lastDigit % 2 === 0 ? truncated : fixed
}

/** A measure value as trec_eval prints it: counts as integers, everything else with 4 decimals. */
export function formatValue(measure: ParsedMeasure, value: number): string {
  return measure.aggregate === 'sum' ? String(Math.round(value)) : formatFixed4(value)
}

/**
 * The "all" value of each measure: the mean over the rows (summed in row order), or the sum for counts.
 * With no rows every mean is 0.
 */
export function aggregateRows(measures: readonly ParsedMeasure[], rows: readonly QueryRow[]): number[] {
  return measures.map((m) => {
    let sum = 0
    for (const row of rows) sum += row.values.get(m.name) ?? 0
    if (m.aggregate === 'sum') return sum
    return rows.length ? sum / rows.length : 0
  })
}

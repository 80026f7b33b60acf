/**
 * The one number format of every JSON output (the JSON report, the regression set, the to-judge file), so the
 * same value is written as the same bytes everywhere and a reader never sees floating-point noise such as
 * `-0.050000000000000044` (0.35 − 0.4). Documented in docs/report.md ("Numbers in the JSON outputs").
 */

/** Significant digits a non-integer keeps: far finer than any metric, bootstrap or p-value resolution. */
const JSON_SIGNIFICANT_DIGITS = 12

/**
 * A number as the JSON outputs write it: integers unchanged (counts, ranks, sizes), other finite values
 * rounded to {@link JSON_SIGNIFICANT_DIGITS} significant digits (then written by JSON.stringify's shortest
 * round-trip form: -0.05, 0.3, 1.23456789012e-7), -0 as 0, and a non-finite value as null (JSON has no NaN;
 * never a silent 0).
 */
export function jsonNumber(x: number): number | null {
  if (!Number.isFinite(x)) return null
  if (Number.isInteger(x)) return x === 0 ? 0 : x
  const r = Number(x.toPrecision(JSON_SIGNIFICANT_DIGITS))
  return r === 0 ? 0 : r
}

/** A JSON.stringify replacer applying {@link jsonNumber} to every number of the value written. */
export function jsonNumbers(_key: string, value: unknown): unknown {
  return typeof value === 'number' ? jsonNumber(value) : value
}

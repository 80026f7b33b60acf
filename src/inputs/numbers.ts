import { InputError, type Where } from '../errors.js'

/**
 * Strict decimal number syntax for text fields: optional sign, digits with an optional fraction, optional
 * exponent. Hex ("0x10"), "NaN", "Infinity", "1_000", "" and padded text are not numbers here, because
 * JavaScript's Number() would quietly accept some of them (Number("") is 0, Number("0x10") is 16).
 */
const DECIMAL = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/

/** Parses a strict decimal; returns undefined for anything else, and for values that overflow to ±Infinity. */
export function parseDecimal(text: string): number | undefined {
  if (!DECIMAL.test(text)) return undefined
  const value = Number(text)
  return Number.isFinite(value) ? value : undefined
}

/** Why a text is not a usable number, for the error message. */
export function describeBadNumber(text: string): string {
  if (text === '') return 'is empty'
  if (DECIMAL.test(text)) return `${JSON.stringify(text)} overflows to infinity`
  return `${JSON.stringify(text.length > 40 ? text.slice(0, 40) + '…' : text)} is not a decimal number`
}

/**
 * A metric value written as text (a CSV cell): an empty cell is a missing value (null, for the pairing stage
 * to refuse or fill as the rules say); anything that is not a strict finite decimal is refused with the
 * file, line, query and column.
 */
export function parseMetricCell(text: string, column: string, where: Where): number | null {
  const trimmed = text.trim()
  if (trimmed === '') return null
  const value = parseDecimal(trimmed)
  if (value === undefined) {
    throw new InputError(where, `column "${column}": ${describeBadNumber(trimmed)}`, 'write metric values as plain decimal numbers (e.g. 0.5, 1e-3)')
  }
  return value
}

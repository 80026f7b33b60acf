import { InputError, type Where } from '../errors.js'
import { quote } from '../util/show.js'

/**
 * Longest number written as text that the gate reads (a CSV cell, a score in a run). A double needs at most
 * 17 significant digits, so even a long fixed-point export (`format(x, '.50f')`) stays far below this; a
 * longer "number" is a broken or hostile file, and refusing it keeps messages short and parsing cheap.
 */
export const MAX_NUMBER_CHARS = 1000

/**
 * Strict decimal number syntax for text fields: optional sign, digits with an optional fraction, optional
 * exponent (`[+-]?(digits[.digits?] | .digits)([eE][+-]?digits)?`). Hex ("0x10"), "NaN", "Infinity",
 * "1_000", "" and padded text are not numbers here, because JavaScript's Number() would quietly accept some
 * of them (Number("") is 0, Number("0x10") is 16). A hand scanner, one pass, no regex: the regex it replaces
 * (`\d+\.?\d*`) backtracked quadratically on a long run of digits followed by a letter (17 s for 100,000
 * digits), and every byte of a cell comes from the pull request.
 */
export function isDecimalText(text: string): boolean {
  const n = text.length
  let i = 0
  let c = text.charCodeAt(0)
  if (c === 0x2b || c === 0x2d) i++
  let digits = 0
  while (i < n && (c = text.charCodeAt(i)) >= 0x30 && c <= 0x39) {
    i++
    digits++
  }
  if (i < n && text.charCodeAt(i) === 0x2e) {
    i++
    while (i < n && (c = text.charCodeAt(i)) >= 0x30 && c <= 0x39) {
      i++
      digits++
    }
  }
  if (digits === 0) return false
  if (i < n && ((c = text.charCodeAt(i)) === 0x65 || c === 0x45)) {
    i++
    if (i < n && ((c = text.charCodeAt(i)) === 0x2b || c === 0x2d)) i++
    const start = i
    while (i < n && (c = text.charCodeAt(i)) >= 0x30 && c <= 0x39) i++
    if (i === start) return false
  }
  return i === n
}

/** Parses a strict decimal; returns undefined for anything else, for values that overflow to ±Infinity, and beyond {@link MAX_NUMBER_CHARS}. */
export function parseDecimal(text: string): number | undefined {
  if (text.length > MAX_NUMBER_CHARS || !isDecimalText(text)) return undefined
  const value = Number(text)
  return Number.isFinite(value) ? value : undefined
}

/** Why a text is not a usable number, for the error message. */
function describeBadNumber(text: string): string {
  if (text === '') return 'is empty'
  if (text.length > MAX_NUMBER_CHARS)
    return `is ${text.length} characters long; a number is at most ${MAX_NUMBER_CHARS}`
  if (isDecimalText(text)) return `${JSON.stringify(text)} overflows to infinity`
  return `${JSON.stringify(text.length > 40 ? text.slice(0, 40) + '…' : text)} is not a decimal number`
}

/**
 * A metric value written as text (a CSV cell): an empty cell is a missing value (null, for the pairing stage
 * to refuse or fill as the rules say); anything that is not a strict finite decimal is refused with the
 * file, line, query and column.
 */
export function parseMetricCell(text: string, column: string, where: Where | (() => Where)): number | null {
  const trimmed = text.trim()
  if (trimmed === '') return null
  const value = parseDecimal(trimmed)
  if (value === undefined) {
    throw new InputError(
      typeof where === 'function' ? where() : where,
      `column "${column}": ${describeBadNumber(trimmed)}`,
      'write metric values as plain decimal numbers (e.g. 0.5, 1e-3)'
    )
  }
  return value
}

/**
 * The refusal of a non-finite value (`NaN`, `Infinity`, `-Infinity`, as a number or as the word a tool wrote) in a
 * field the rules read: the gate never compares NaN, and a missing value has its own spelling and its own rule.
 * (Python's `json.dump` writes those words bare; src/readers/json/document.ts reads them where a value starts.)
 */
export function nonFiniteRefusal(where: Where, field: string, value: number | string): InputError {
  const word = typeof value === 'number' ? (Number.isNaN(value) ? 'NaN' : value > 0 ? 'Infinity' : '-Infinity') : value
  const why = /nan/i.test(word)
    ? `Python's json.dump writes float("nan") so; JSON has no NaN`
    : `a value beyond the double range, or Python's json.dump of float("inf")`
  return new InputError(
    where,
    `${quote(field)} is ${word}, not a number the gate can compare (${why})`,
    'write null or drop the field where the value is missing (queries.missing decides what the gate does with a missing value), or fix what computed it'
  )
}

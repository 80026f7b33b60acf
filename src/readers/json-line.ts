import { InputError } from '../errors.js'
import { parseStrictJson, REPEATED_KEY_HINT } from './json-strict.js'
import { parseJsonWithNonFinite } from './non-finite.js'

/** One JSON Lines line read as an object, or why it is not one. */
export type ObjectLine = { record: Record<string, unknown>; problem?: undefined } | { record?: undefined; problem: string; repeated?: boolean }

/**
 * Reads one line of a JSON Lines file as a JSON object, the one way every JSON Lines reader does it (rows,
 * runs, evaluator exports, evaluation sets): valid JSON, an object (not an array or a scalar), and no key
 * twice in any object of the line (src/readers/json-strict.ts), since JSON.parse would silently keep the last
 * of `{"m": 0.1, "m": 0.9}`. Returns the problem as a value so a reader that lists every violation
 * (validate) can go on.
 */
export function parseObjectLine(text: string): ObjectLine {
  const parsed = parseStrictJson(text)
  if (parsed.problem !== undefined) return { problem: parsed.problem, repeated: parsed.repeated }
  const value = parsed.value
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return { problem: 'is not a JSON object' }
  return { record: value as Record<string, unknown> }
}

/**
 * {@link readObjectLine} for records whose values may be Python's bare `NaN` / `Infinity` / `-Infinity`, given as
 * numbers: per-query rows, where a field the rules do not read is not read whatever it holds, and a used one is
 * refused by name (src/readers/non-finite.ts). A line that is not JSON even so is refused as by readObjectLine.
 */
export function readRecordLine(text: string, file: string, line: number, hint: string): Record<string, unknown> {
  const parsed = parseObjectLine(text)
  if (parsed.record !== undefined) return parsed.record
  if (parsed.repeated !== true) {
    const lenient = parseJsonWithNonFinite(text)?.value
    if (lenient !== null && typeof lenient === 'object' && !Array.isArray(lenient)) return lenient as Record<string, unknown>
  }
  throw new InputError({ file, line }, parsed.problem, parsed.repeated === true ? REPEATED_KEY_HINT : hint)
}

/** {@link parseObjectLine}, refusing a bad line with the file, the line and `hint` (what a good line looks like). */
export function readObjectLine(text: string, file: string, line: number, hint: string): Record<string, unknown> {
  const parsed = parseObjectLine(text)
  if (parsed.problem !== undefined) throw new InputError({ file, line }, parsed.problem, parsed.repeated === true ? REPEATED_KEY_HINT : hint)
  return parsed.record
}

import { InputError } from '../../errors.js'
import { decodeLine, forEachLineBytes, refuseNotUtf8, type LineOptions } from '../lines.js'
import { isObject, parseJsonWithNonFinite, parseStrictJson, REPEATED_KEY_HINT } from './document.js'
import { FlatRecord } from './flat-record.js'

/**
 * JSON Lines, read one way by every reader of them (per-query rows, evaluator exports, runs, exam records): the file
 * streamed line by line as bytes (src/readers/lines.ts); a flat line of plain keys and scalars taken by the fast path
 * (./flat-record.ts, lexed by the one JSON tokenizer), any other line parsed by the one document parser
 * (./document.ts: valid JSON, an object, no key twice at any depth), so both paths give the same members or the
 * same refusal.
 */

/** One JSON Lines line read as an object, or why it is not one. */
export type ObjectLine =
  { record: Record<string, unknown>; problem?: undefined } | { record?: undefined; problem: string; repeated?: boolean }

/**
 * Reads one line of a JSON Lines file as a JSON object, the one way every JSON Lines reader does it (rows,
 * runs, evaluator exports, evaluation sets) off the fast path: valid JSON, an object (not an array or a scalar), and no key
 * twice in any object of the line (src/readers/json/document.ts), since JSON.parse would silently keep the last
 * of `{"m": 0.1, "m": 0.9}`. Returns the problem as a value so a reader that lists every violation
 * (validate) can go on.
 */
export function parseObjectLine(text: string): ObjectLine {
  const parsed = parseStrictJson(text)
  if (parsed.problem !== undefined) return { problem: parsed.problem, repeated: parsed.repeated }
  return isObject(parsed.value) ? { record: parsed.value } : { problem: 'is not a JSON object' }
}

/**
 * {@link parseObjectLine}, refusing a bad line with the file, the line and `hint` (what a good line looks like).
 * With `nonFinite`, values may also be Python's bare `NaN` / `Infinity` / `-Infinity`, given as numbers: per-query
 * rows, where a field the rules do not read is not read whatever it holds, and a used one is refused by name
 * (src/readers/numbers.ts); a line that is not JSON even so is refused all the same.
 */
function readObjectLine(
  text: string,
  where: { file: string; line: number; hint: string; nonFinite: boolean }
): Record<string, unknown> {
  const parsed = parseObjectLine(text)
  if (parsed.record !== undefined) return parsed.record
  if (where.nonFinite && parsed.repeated !== true) {
    const lenient = parseJsonWithNonFinite(text)?.value
    if (isObject(lenient)) return lenient
  }
  const { file, line, hint } = where
  throw new InputError({ file, line }, parsed.problem, parsed.repeated === true ? REPEATED_KEY_HINT : hint)
}

/** One record's members in the order of Object.keys: keys[0..size) and values[0..size). Valid during the call only. */
export interface JsonMembers {
  readonly size: number
  readonly keys: readonly string[]
  readonly values: readonly unknown[]
}

/** The value of member `key`, or undefined when the record has none (JSON has no undefined, so the two are told apart). */
export function memberValue(members: JsonMembers, key: string): unknown {
  for (let k = 0; k < members.size; k++) if (members.keys[k] === key) return members.values[k]
  return undefined
}

/** True when the record has a member `key`. */
export function hasMember(members: JsonMembers, key: string): boolean {
  for (let k = 0; k < members.size; k++) if (members.keys[k] === key) return true
  return false
}

/** How {@link forEachJsonRecord} reads and refuses lines. */
export interface JsonLinesOptions extends LineOptions {
  /** What a good line looks like, for the refusal of a bad one; a function when it depends on the line. */
  hint: string | ((text: string, line: number) => string)
  /**
   * Python's bare NaN / Infinity / -Infinity read as numbers (per-query rows: a field the rules do not read is not
   * read, a used one is refused by name); otherwise such a line is not JSON.
   */
  nonFinite?: boolean
  /** Sees each non-blank line the fast path did not take, before it is parsed (a reader's own first-line refusals). */
  beforeParse?: (text: string, line: number) => void
}

/**
 * Calls `onRecord` with the members of every non-blank line of a JSON Lines file, in file order. A line that is
 * not one JSON object is refused with the file, its line and the hint. Returns the number of lines.
 */
export async function forEachJsonRecord(
  file: string,
  onRecord: (members: JsonMembers, line: number) => void,
  options: JsonLinesOptions
): Promise<number> {
  const flat = new FlatRecord()
  const general = { size: 0, keys: [] as string[], values: [] as unknown[] }
  return forEachLineBytes(
    file,
    (bytes, from, to, line) => {
      if (flat.parse(bytes, from, to)) return onRecord(flat, line)
      const text = decodeLine(bytes, from, to) ?? refuseNotUtf8(options.name ?? file, line)
      if (text.trim() === '') return
      options.beforeParse?.(text, line)
      const hint = typeof options.hint === 'string' ? options.hint : options.hint(text, line)
      const record = readObjectLine(text, {
        file: options.name ?? file,
        line,
        hint,
        nonFinite: options.nonFinite === true
      })
      const keys = Object.keys(record)
      general.size = keys.length
      general.keys = keys
      general.values = keys.map((k) => record[k])
      onRecord(general, line)
    },
    options
  )
}

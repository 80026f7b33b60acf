import { InputError, type Where } from '../errors.js'
import { parseStrictJson } from './json-strict.js'
import { quote } from '../util/show.js'

/**
 * Python's `json.dump` writes `float("nan")` and the infinities as the bare words `NaN`, `Infinity` and
 * `-Infinity`, which are not JSON; evaluation tools leave NaN in measures that could not be computed (bpref
 * of a query without judged non-relevant documents). A field the rules do not read decides nothing, so such a
 * word there must not reject the file; in a field the rules read it is refused by name, with the fix
 * ({@link nonFiniteRefusal}). This reads a JSON text that fails JSON.parse only because of those words.
 */

/** The three words Python writes for non-finite floats, as the numbers they stand for. */
const WORDS: ReadonlyMap<string, number> = new Map([
  ['NaN', Number.NaN],
  ['Infinity', Number.POSITIVE_INFINITY],
  ['-Infinity', Number.NEGATIVE_INFINITY]
])

/** The string each word is replaced by before parsing; a text that already holds it is not rewritten. */
const MARK = '\u0000rg-non-finite:'
const MARK_ESCAPED = '\\u0000rg-non-finite:'

/**
 * Parses `text` as JSON in which a value may also be `NaN`, `Infinity` or `-Infinity` (outside strings, where a
 * value starts), giving those as numbers; undefined when the text is not JSON even so, or holds none of them (the
 * caller's own refusal then stands). Repeated keys are refused as in every JSON the gate reads: the result is
 * undefined and the strict parse's refusal is the one shown. Linear in the text's length.
 */
export function parseJsonWithNonFinite(text: string): { value: unknown } | undefined {
  if (text.includes(MARK_ESCAPED)) return undefined
  let out = ''
  let from = 0
  let found = false
  let inString = false
  let last = 0 // the last non-space character outside strings before i
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (inString) {
      if (c === 0x5c) i++
      else if (c === 0x22) inString = false
      continue
    }
    if (c === 0x22) {
      inString = true
      last = c
      continue
    }
    if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) continue
    if ((c === 0x4e || c === 0x49 || c === 0x2d) && (last === 0x3a || last === 0x5b || last === 0x2c || last === 0)) {
      const word = c === 0x4e ? 'NaN' : c === 0x49 ? 'Infinity' : '-Infinity'
      const after = text.charCodeAt(i + word.length)
      if (text.startsWith(word, i) && !isWordChar(after)) {
        out += `${text.slice(from, i)}"${MARK_ESCAPED}${word}"`
        i += word.length - 1
        from = i + 1
        found = true
        last = 0x30
        continue
      }
    }
    last = c
  }
  if (!found) return undefined
  const parsed = parseStrictJson(out + text.slice(from))
  if (parsed.problem !== undefined) return undefined
  return { value: restore(parsed.value) }
}

/** A letter, digit or underscore: `NaNx` or `Infinity2` is not one of the words. */
function isWordChar(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f
}

/** The parsed value with each marked string turned back into its number (objects and arrays changed in place). */
function restore(value: unknown): unknown {
  if (typeof value === 'string') return value.startsWith(MARK) ? (WORDS.get(value.slice(MARK.length)) ?? value) : value
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = restore(value[i])
    return value
  }
  if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>
    for (const key of Object.keys(record)) record[key] = restore(record[key])
  }
  return value
}

/**
 * The refusal of a non-finite value (`NaN`, `Infinity`, `-Infinity`, as a number or as the word a tool wrote) in a
 * field the rules read: the gate never compares NaN, and a missing value has its own spelling and its own rule.
 */
export function nonFiniteRefusal(where: Where, field: string, value: number | string): InputError {
  const word = typeof value === 'number' ? (Number.isNaN(value) ? 'NaN' : value > 0 ? 'Infinity' : '-Infinity') : value
  const why = /nan/i.test(word) ? `Python's json.dump writes float("nan") so; JSON has no NaN` : `a value beyond the double range, or Python's json.dump of float("inf")`
  return new InputError(
    where,
    `${quote(field)} is ${word}, not a number the gate can compare (${why})`,
    'write null or drop the field where the value is missing (queries.missing decides what the gate does with a missing value), or fix what computed it'
  )
}

import { InputError } from '../../errors.js'
import { quote } from '../../util/show.js'
import { readWholeText } from '../whole-file.js'

/**
 * The one JSON document parser: the one way the gate reads JSON text (a JSON Lines line off the fast path, a JSON
 * array of rows, a manifest, an evaluator's export, a report of an earlier run). JSON.parse keeps the last of two equal keys without a word, so `{"recall@10": 0.30, "recall@10":
 * 0.99}` would silently be 0.99 and a repeated `content_hash` would satisfy `must_match`: a repeated key at
 * ANY depth is ambiguous input and is refused with its line and key path. JSON.parse checks the syntax;
 * then one linear scan of the (now known valid) text finds the first repeated key, keeping one set of keys
 * per open object. The streaming reader of big ranx / pytrec_eval objects (src/readers/json/nested.ts)
 * applies the same rule to its own two levels; YAML/JSON rules files use the YAML parser's uniqueKeys.
 */

/** A key found twice in one object. */
export interface RepeatedKey {
  key: string
  /** 1-based line of the second occurrence, counted in the text scanned. */
  line: number
  /** Where the object is, e.g. `[3]`, `testCases[0].metricsData[1]`; '' for the top-level object. */
  path: string
}

interface Frame {
  isObject: boolean
  /** Object: keys seen so far. */
  seen: Set<string> | undefined
  /** Object: the last key read (the path segment of its value). Array: the index of the current item. */
  key: string
  index: number
  expectKey: boolean
}

/**
 * The first key repeated within one object of a JSON text that JSON.parse accepted, at any depth, or
 * undefined. Linear in the text's length (each string is scanned once; keys are hashed once).
 */
export function findRepeatedKey(text: string): RepeatedKey | undefined {
  const stack: Frame[] = []
  let line = 1
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c === 0x22) {
      const start = i
      let escaped = false
      for (i++; i < text.length; i++) {
        const d = text.charCodeAt(i)
        if (escaped) escaped = false
        else if (d === 0x5c) escaped = true
        else if (d === 0x22) break
      }
      const top = stack[stack.length - 1]
      if (top !== undefined && top.isObject && top.expectKey) {
        const raw = text.slice(start + 1, i)
        const key = raw.includes('\\') ? (JSON.parse(`"${raw}"`) as string) : raw
        top.seen ??= new Set()
        if (top.seen.has(key)) return { key, line, path: pathOf(stack.slice(0, -1)) }
        top.seen.add(key)
        top.key = key
        top.expectKey = false
      }
    } else if (c === 0x7b) stack.push({ isObject: true, seen: undefined, key: '', index: 0, expectKey: true })
    else if (c === 0x5b) stack.push({ isObject: false, seen: undefined, key: '', index: 0, expectKey: false })
    else if (c === 0x7d || c === 0x5d) stack.pop()
    else if (c === 0x2c) {
      const top = stack[stack.length - 1]
      if (top?.isObject) top.expectKey = true
      else if (top !== undefined) top.index++
    } else if (c === 0x0a) line++
  }
  return undefined
}

/** `a.b[2].c` for the open containers (each frame names the member its child is in). */
function pathOf(frames: Frame[]): string {
  let path = ''
  for (const f of frames) {
    if (f.isObject) path += path === '' ? f.key : `.${f.key}`
    else path += `[${f.index}]`
  }
  return path
}

/** The words of a repeated-key refusal: `key "m" appears twice in [3] (JSON would silently keep the last)`. */
function repeatedKeyProblem(r: RepeatedKey): string {
  return `key ${quote(r.key)} appears twice in ${r.path === '' ? 'the record' : `the object at ${quote(r.path)}`} (JSON would silently keep the last)`
}

/** The hint of every repeated-key refusal. */
export const REPEATED_KEY_HINT = 'write each key once per object'

/** A strictly parsed JSON text, or why it is not acceptable (invalid JSON with its line, a repeated key). */
export type StrictJson =
  | { value: unknown; problem?: undefined; line?: undefined }
  | { value?: undefined; problem: string; line: number | undefined; repeated: boolean }

/**
 * Parses `text` as one JSON value and refuses a repeated key at any depth. Returns the problem as a value
 * (with the line in `text`, when known) so a reader that lists every violation (validate) can go on.
 */
export function parseStrictJson(text: string): StrictJson {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    const message = (error as Error).message
    const at = /position (\d+)/.exec(message)
    return {
      problem: `is not valid JSON (${message})`,
      line: at ? lineAt(text, Number(at[1])) : undefined,
      repeated: false
    }
  }
  if (value !== null && typeof value === 'object') {
    const repeated = findRepeatedKey(text)
    if (repeated !== undefined) return { problem: repeatedKeyProblem(repeated), line: repeated.line, repeated: true }
  }
  return { value }
}

/** The 1-based line of `offset` in `text` (linear; no array of lines is built). */
function lineAt(text: string, offset: number): number {
  let line = 1
  for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) line++
  return line
}

/** {@link parseStrictJson} for a whole file: refuses with the file and the line, and `hint` for invalid JSON. */
export function readStrictJson(text: string, file: string, hint: string): unknown {
  const parsed = parseStrictJson(text)
  if (parsed.problem === undefined) return parsed.value
  throw new InputError({ file, line: parsed.line }, parsed.problem, parsed.repeated ? REPEATED_KEY_HINT : hint)
}

/**
 * Python's `json.dump` writes `float("nan")` and the infinities as the bare words `NaN`, `Infinity` and
 * `-Infinity`, which are not JSON; evaluation tools leave NaN in measures that could not be computed (bpref
 * of a query without judged non-relevant documents). A field the rules do not read decides nothing, so such a
 * word there must not reject the file; in a field the rules read it is refused by name, with the fix
 * (src/readers/numbers.ts). This reads a JSON text that fails JSON.parse only because of those words.
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
 * Parses `text` as one JSON value, or returns undefined when it is not valid JSON, keeping the last of two equal
 * keys. For format detection only: the reader the detection picks parses the file again strictly (repeated keys
 * refused).
 */
export function tryJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown
  } catch {
    return undefined
  }
}

/** A plain JSON object (not null, not an array). */
export function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}

/** Largest document read whole (ragas / deepeval exports); per-sample exports are far smaller. */
export const MAX_DOCUMENT_BYTES = 256 * 1024 * 1024

/**
 * Reads a whole JSON document (a ragas or deepeval export, a JSON array of rows), refusing files over
 * {@link MAX_DOCUMENT_BYTES}, invalid JSON (with the line JSON.parse points at) and a key repeated in any
 * object, with its line. Python's bare NaN / Infinity are read as numbers (refused later only in the fields the
 * rules read).
 */
export async function readJsonDocument(file: string, what: string): Promise<unknown> {
  const text = await readWholeText(file, {
    limit: MAX_DOCUMENT_BYTES,
    what: `a ${what}`,
    hint: 'write it as JSON Lines (one record per line) or CSV instead'
  })
  const parsed = parseStrictJson(text)
  if (parsed.problem === undefined) return parsed.value
  if (parsed.repeated) throw new InputError({ file, line: parsed.line }, parsed.problem, REPEATED_KEY_HINT)
  // Python's json.dump writes NaN bare: read as NaN numbers, refused only in the fields the rules read.
  const lenient = parseJsonWithNonFinite(text)
  if (lenient !== undefined) return lenient.value
  const nan = /\bNaN\b/.test(text)
    ? ' (Python wrote NaN, which is not JSON: export with pandas to_json, which writes null)'
    : ''
  throw new InputError({ file, line: parsed.line }, `${parsed.problem}${nan}`, `a ${what} is one JSON document`)
}

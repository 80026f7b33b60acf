import { InputError } from '../errors.js'
import { quote } from '../util/show.js'

/**
 * The one way the gate reads JSON text (a JSON Lines line, a JSON array of rows, a manifest, an evaluator's
 * export). JSON.parse keeps the last of two equal keys without a word, so `{"recall@10": 0.30, "recall@10":
 * 0.99}` would silently be 0.99 and a repeated `content_hash` would satisfy `must_match`: a repeated key at
 * ANY depth is ambiguous input and is refused with its line and key path. JSON.parse checks the syntax;
 * then one linear scan of the (now known valid) text finds the first repeated key, keeping one set of keys
 * per open object. The streaming reader of big ranx / pytrec_eval objects (src/readers/importers/json-object.ts)
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
export type StrictJson = { value: unknown; problem?: undefined; line?: undefined } | { value?: undefined; problem: string; line: number | undefined; repeated: boolean }

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
    return { problem: `is not valid JSON (${message})`, line: at ? lineAt(text, Number(at[1])) : undefined, repeated: false }
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

/**
 * {@link parseStrictJson} for a whole file: refuses with the file and the line (offset by `firstLine - 1`
 * when the text is one line of a file), and `hint` for invalid JSON.
 */
export function readStrictJson(text: string, file: string, hint: string, firstLine = 1): unknown {
  const parsed = parseStrictJson(text)
  if (parsed.problem === undefined) return parsed.value
  const line = parsed.line === undefined ? undefined : parsed.line + firstLine - 1
  throw new InputError({ file, line }, parsed.problem, parsed.repeated ? REPEATED_KEY_HINT : hint)
}

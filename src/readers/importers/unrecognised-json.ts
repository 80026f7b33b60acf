import { InputError } from '../../errors.js'
import { quote } from '../../util/show.js'
import { isObject, MAX_DOCUMENT_BYTES, tryJson } from '../json/document.js'
import { HEAD_BYTES, type Probe } from '../probe.js'
import { readWholeText } from '../whole-file.js'

/**
 * A file that is valid JSON but none of the shapes the gate reads (a results summary, a config, a list of
 * numbers) used to reach the JSON Lines reader, which said its first line "is not valid JSON" and asked for one
 * object per line: wrong on both counts for a pretty-printed document. This module recognises that case and says
 * what it is: valid JSON, of this top-level shape (keys escaped and cut, as every input value in a message), and
 * which JSON shapes are read.
 */

/** A head this long may be cut (a cut character or a byte order mark costs up to 3 bytes of {@link HEAD_BYTES}). */
const HEAD_BYTES_SEEN = HEAD_BYTES - 3

/** How many keys of an object the message names. */
const SHOWN_KEYS = 5

/** Longest key shown (characters). */
const SHOWN_KEY_CHARS = 40

/** The JSON shapes read as per-query rows (docs/importers.md). */
export const ROWS_JSON_SHAPES =
  'JSON Lines (one {"query_id": "q1", "<metric>": 0.5} object per line), a JSON array of such records (ragas to_json(orient="records")), pytrec_eval {query_id: {measure: value}}, deepeval test runs ({"testCases": [...]}, {"testRunData": {...}}, {"test_results": [...]}); see docs/importers.md'

/** The JSON shapes read as a run. */
export const RUN_JSON_SHAPES =
  'a ranx / pytrec_eval object {query_id: {doc_id: score}}, or JSON Lines ({"query_id", "doc_id", "score"} or {"query_id", "results": [...]} per line); see docs/importers.md'

/** One value's kind in a few words: `text`, `number`, `an array of 3`, `an object of 2 keys`. */
function kind(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return `an array of ${value.length}`
  if (isObject(value)) return `an object of ${Object.keys(value).length} keys`
  if (typeof value === 'string') return 'text'
  return typeof value
}

/**
 * The top-level shape of a parsed JSON document, for a message: `an object with 2 keys: "experiment" (text),
 * "results" (an array of 2)`, `an array of 3 items, the first a number`, `a single number`.
 */
export function describeJsonShape(value: unknown): string {
  if (isObject(value)) {
    const keys = Object.keys(value)
    if (keys.length === 0) return 'an empty object {}'
    const shown = keys.slice(0, SHOWN_KEYS).map((k) => `${quote(k, SHOWN_KEY_CHARS)} (${kind(value[k])})`)
    const more = keys.length > SHOWN_KEYS ? `, and ${keys.length - SHOWN_KEYS} more` : ''
    return `an object with ${keys.length} key${keys.length === 1 ? '' : 's'}: ${shown.join(', ')}${more}`
  }
  if (Array.isArray(value)) {
    if (value.length === 0) return 'an empty array []'
    const first = kind(value[0])
    return `an array of ${value.length} item${value.length === 1 ? '' : 's'}, the first ${first === 'text' || first === 'null' || first === 'number' || first === 'boolean' ? `a ${first === 'text' ? 'string' : first}` : first}`
  }
  return `a single ${kind(value) === 'text' ? 'string' : kind(value)}`
}

/** The refusal of a valid JSON document of a shape the gate does not read, naming its shape and what is read. */
export function unrecognisedJson(file: string, value: unknown, read: string): InputError {
  return new InputError(
    { file },
    `is valid JSON, but not a shape the gate reads: the document is ${describeJsonShape(value)}`,
    `the JSON read here: ${read}`
  )
}

/**
 * For a file about to be read as JSON Lines: when its first line is complete but not JSON on its own (a
 * pretty-printed document starts `{` alone), and the whole file is one valid JSON document, that document (a
 * repeated key keeping the last: it is only shown, never read); undefined otherwise (the JSON Lines reader then
 * names the broken line). Reads the whole file only in that case, and only under the whole-document cap.
 */
export async function wholeJsonDocument(probe: Probe): Promise<{ value: unknown } | undefined> {
  const { text, line } = probe.firstLine
  if (line === 0 || tryJson(text) !== undefined) return undefined
  if (probe.head.split('\n').length <= line && Buffer.byteLength(probe.head) >= HEAD_BYTES_SEEN) return undefined // the first line may go on past the head
  return probe.memo('whole-json', async () => {
    let whole: string
    try {
      whole = await readWholeText(probe.file, { limit: MAX_DOCUMENT_BYTES, what: 'a JSON document', hint: '' })
    } catch {
      return undefined
    }
    const value = tryJson(whole)
    return value === undefined ? undefined : { value }
  })
}

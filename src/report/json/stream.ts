import { jsonNumbers } from '../../util/json-number.js'

/**
 * A JSON writer that hands out its text in chunks, so a report with an answer-grown list (10^6 queries: half a
 * million regressed queries) is never one string nor one object tree in memory. Its bytes are exactly
 * `JSON.stringify(value, jsonNumbers, 2)`'s: the same key order, two-space indentation, undefined and function
 * values left out of objects (null in arrays), every number through {@link jsonNumber}.
 */

/** An array whose items are made while the JSON is written (an iterable, read once). */
export class StreamedArray {
  constructor(readonly items: Iterable<unknown>) {}
}

/** Characters a chunk gathers before it is handed out: few writes, a small buffer. */
const CHUNK_CHARS = 1 << 16

const skipped = (v: unknown): boolean => v === undefined || typeof v === 'function' || typeof v === 'symbol'

/**
 * `holder[key]` as JSON.stringify reads it: through its own toJSON, called with the property's name (an array's
 * index as a string, '' at the top), as the spec's SerializeJSONProperty does.
 */
function property(value: unknown, key: string): unknown {
  const toJSON: unknown =
    (typeof value === 'object' && value !== null) || typeof value === 'bigint'
      ? (value as { toJSON?: unknown }).toJSON
      : undefined
  return typeof toJSON === 'function' ? (toJSON as (key: string) => unknown).call(value, key) : value
}

/**
 * One value that holds no StreamedArray, already read through its toJSON ({@link property}), at `indent`:
 * JSON.stringify's text with its lines indented. It is handed over by a wrapper's toJSON, so its own toJSON (if
 * the one called returned such an object) is not called a second time, with the wrong key.
 */
function leaf(value: unknown, indent: string): string {
  const text = JSON.stringify({ toJSON: () => value }, jsonNumbers, 2)
  return indent === '' ? text : text.replace(/\n/g, `\n${indent}`)
}

/** True when `value` is a plain object or array that may hold a StreamedArray (walked key by key). */
const container = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !(value instanceof StreamedArray) && !('toJSON' in value)

function* walk(value: unknown, indent: string): Generator<string> {
  if (value instanceof StreamedArray) {
    yield* items(value.items, indent)
    return
  }
  if (!container(value) || !holdsStream(value)) {
    yield leaf(value, indent)
    return
  }
  if (Array.isArray(value)) {
    yield* items(value, indent)
    return
  }
  const inner = indent + '  '
  const entries = Object.keys(value)
    .map((k): [string, unknown] => [k, property(value[k], k)])
    .filter(([, v]) => !skipped(v))
  if (entries.length === 0) {
    yield '{}'
    return
  }
  yield '{'
  for (const [i, [key, v]] of entries.entries()) {
    yield `${i === 0 ? '' : ','}\n${inner}${JSON.stringify(key)}: `
    yield* walk(v, inner)
  }
  yield `\n${indent}}`
}

function* items(list: Iterable<unknown>, indent: string): Generator<string> {
  const inner = indent + '  '
  let index = 0
  for (const raw of list) {
    yield `${index === 0 ? '[' : ','}\n${inner}`
    const item = property(raw, String(index++))
    if (skipped(item)) yield 'null'
    else yield* walk(item, inner)
  }
  yield index === 0 ? '[]' : `\n${indent}]`
}

/** Whether a StreamedArray sits anywhere under `value` (only the report's few top-level containers are walked). */
function holdsStream(value: Record<string, unknown> | unknown[]): boolean {
  const values: unknown[] = Array.isArray(value) ? value : Object.values(value)
  return values.some((v) => v instanceof StreamedArray || (container(v) && holdsStream(v)))
}

/** `value` as JSON text (with a final newline), in chunks of about 64 K characters. */
export function* jsonChunks(value: unknown): Generator<string> {
  let buffer = ''
  for (const piece of walk(property(value, ''), '')) {
    buffer += piece
    if (buffer.length >= CHUNK_CHARS) {
      yield buffer
      buffer = ''
    }
  }
  yield buffer + '\n'
}

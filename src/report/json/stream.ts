import { jsonNumber } from '../../util/json-number.js'

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

/** One value that holds no StreamedArray, at `indent`: JSON.stringify's text with its lines indented. */
function leaf(value: unknown, indent: string): string {
  const text = JSON.stringify(value, (_k, v: unknown) => (typeof v === 'number' ? jsonNumber(v) : v), 2)
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
  const keys = Object.keys(value).filter((k) => !skipped(value[k]))
  if (keys.length === 0) {
    yield '{}'
    return
  }
  yield '{'
  for (const [i, key] of keys.entries()) {
    yield `${i === 0 ? '' : ','}\n${inner}${JSON.stringify(key)}: `
    yield* walk(value[key], inner)
  }
  yield `\n${indent}}`
}

function* items(list: Iterable<unknown>, indent: string): Generator<string> {
  const inner = indent + '  '
  let first = true
  for (const item of list) {
    yield `${first ? '[' : ','}\n${inner}`
    first = false
    if (skipped(item)) yield 'null'
    else yield* walk(item, inner)
  }
  yield first ? '[]' : `\n${indent}]`
}

/** Whether a StreamedArray sits anywhere under `value` (only the report's few top-level containers are walked). */
function holdsStream(value: Record<string, unknown> | unknown[]): boolean {
  const values: unknown[] = Array.isArray(value) ? value : Object.values(value)
  return values.some((v) => v instanceof StreamedArray || (container(v) && holdsStream(v)))
}

/** `value` as JSON text (with a final newline), in chunks of about 64 K characters. */
export function* jsonChunks(value: unknown): Generator<string> {
  let buffer = ''
  for (const piece of walk(value, '')) {
    buffer += piece
    if (buffer.length >= CHUNK_CHARS) {
      yield buffer
      buffer = ''
    }
  }
  yield buffer + '\n'
}

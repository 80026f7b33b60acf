import { open } from 'node:fs/promises'
import { InputError } from '../errors.js'
import { openError, readWholeText } from '../inputs/whole-file.js'
import { parseStrictJson, REPEATED_KEY_HINT } from '../inputs/json-strict.js'

/** Re-exported for the importers that open files themselves. */
export { openError }

/**
 * Small helpers the importers share to recognise a file by its first bytes: formats are detected from the
 * content (the first 64 KiB), never from the file name alone, so a run saved as `run.txt` or a qrels file
 * without an extension is still read for what it is.
 */

/** How many bytes detection looks at. */
export const HEAD_BYTES = 65536

/** Largest JSON document (ragas / deepeval exports) read whole; per-sample exports are far smaller. */
export const MAX_DOCUMENT_BYTES = 256 * 1024 * 1024


/** The first {@link HEAD_BYTES} of a file as text (UTF-8, byte order mark removed; a cut character is dropped). */
export async function readHead(file: string): Promise<string> {
  let handle
  try {
    handle = await open(file, 'r')
  } catch (error) {
    throw openError(file, error)
  }
  try {
    const buf = Buffer.alloc(HEAD_BYTES)
    let bytesRead: number
    try {
      ;({ bytesRead } = await handle.read(buf, 0, buf.length, 0))
    } catch (error) {
      throw openError(file, error)
    }
    return buf.toString('utf8', 0, bytesRead).replace(/^\ufeff/, '')
  } finally {
    await handle.close()
  }
}

/** The first line of `head` that is not blank, without its line terminator, or '' when there is none. */
export function firstContentLine(head: string): { text: string; line: number } {
  const lines = head.split('\n')
  for (let i = 0; i < lines.length; i++) {
    const text = lines[i].replace(/\r$/, '')
    if (text.trim() !== '') return { text, line: i + 1 }
  }
  return { text: '', line: 0 }
}

/** The first non-blank character of `head`, or '' for an empty file. */
export function firstChar(head: string): string {
  const m = /\S/.exec(head)
  return m ? m[0] : ''
}

/**
 * For text starting with `{`: the first character of the first key's value (`{"q1": {` gives "{"), or ''
 * when the head does not reach it. Tells a JSON object of objects from a JSON Lines record without
 * parsing the whole document.
 */
export function firstValueStart(head: string): string {
  const m = /^\s*\{\s*"(?:[^"\\]|\\.)*"\s*:\s*(\S)/.exec(head)
  return m ? m[1] : ''
}

/**
 * Parses `text` as one JSON value, or returns undefined when it is not valid JSON. For format detection
 * only: the reader the detection picks parses the file again strictly (repeated keys refused).
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

/**
 * Reads a whole JSON document (a ragas or deepeval export, a JSON array of rows), refusing files over
 * {@link MAX_DOCUMENT_BYTES}, invalid JSON (with the line JSON.parse points at) and a key repeated in any
 * object (src/inputs/json-strict.ts), with its line.
 */
export async function readJsonDocument(file: string, what: string): Promise<unknown> {
  const text = await readWholeText(file, { limit: MAX_DOCUMENT_BYTES, what: `a ${what}`, hint: 'write it as JSON Lines (one record per line) or CSV instead' })
  const parsed = parseStrictJson(text)
  if (parsed.problem === undefined) return parsed.value
  if (parsed.repeated) throw new InputError({ file, line: parsed.line }, parsed.problem, REPEATED_KEY_HINT)
  const nan = /\bNaN\b/.test(text) ? ' (Python wrote NaN, which is not JSON: export with pandas to_json, which writes null)' : ''
  throw new InputError({ file, line: parsed.line }, `${parsed.problem}${nan}`, `a ${what} is one JSON document`)
}

import { open } from 'node:fs/promises'
import { InputError } from '../errors.js'
import { openError } from './whole-file.js'
import { startsWithLz4Magic } from './binary/lz4-frame.js'

/**
 * Format detection, in one place: what a run, a rows file or a records file is, and the helpers the importers
 * share to recognise an export by its first bytes. Formats are detected from the content (the first 64 KiB),
 * not from the file name alone, so a run saved as `run.txt` or a qrels file without an extension is still read
 * for what it is (the one exception: a rows file not named by --format is CSV when it is called `*.csv`).
 */

/** How many bytes detection looks at. */
export const HEAD_BYTES = 65536

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

/** The four bytes every Parquet file starts (and ends) with. */
const PARQUET_MAGIC = 'PAR1'

/** True when the file starts with the Parquet magic `PAR1` (pandas, pyarrow, Spark, DuckDB all write it). */
export async function isParquet(file: string): Promise<boolean> {
  return (await readHead(file)).startsWith(PARQUET_MAGIC)
}

/** The layout of a per-query rows file not named by --format: by its name (`.csv`), else JSON Lines. */
export function guessRowsFormat(file: string): 'jsonl' | 'csv' {
  return /\.csv$/i.test(file) ? 'csv' : 'jsonl'
}

/** The layout of a records file named as ragas: by its first character, then its name. */
export async function recordsLayout(file: string): Promise<'csv' | 'jsonl' | 'json'> {
  const head = await readHead(file)
  const first = firstChar(head)
  if (first === '[') return 'json'
  if (first === '{') return 'jsonl'
  return 'csv'
}

/**
 * For a run whose first non-blank character is `{`: JSON Lines (one record per line, with "query_id") or
 * one ranx / pytrec_eval JSON object `{query_id: {doc_id: score}}`. `head` is the file's start.
 */
export function sniffBraceRun(head: string): 'jsonl' | 'json' {
  const { text } = firstContentLine(head)
  if (text.includes('"query_id"')) return 'jsonl'
  return firstValueStart(head) === '{' ? 'json' : 'jsonl'
}

/** Run file formats: TREC whitespace columns, JSON Lines, one ranx / pytrec_eval JSON object, or a Parquet table. */
export type RunFormat = 'trec' | 'jsonl' | 'json' | 'parquet' | 'lz4'

/**
 * Detects the run format from the first non-blank character (after a UTF-8 BOM): `{` means JSON Lines,
 * or a ranx / pytrec_eval `{query_id: {doc_id: score}}` object (src/readers/importers), `PAR1` a Parquet table
 * (src/readers/parquet.ts), the LZ4 frame magic `04 22 4D 18` a ranx `.lz4` run (src/readers/importers/ranx-lz4.ts),
 * anything else TREC.
 * Reads only the first 64 KiB.
 */
export async function detectRunFormat(file: string): Promise<RunFormat> {
  let handle
  try {
    handle = await open(file, 'r')
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT') throw new InputError({ file }, 'file not found', 'check the path (it is read relative to the working directory)', { code: 'not_found' })
    if (code === 'EISDIR') throw new InputError({ file }, 'is a directory, not a file', 'name the file itself')
    throw new InputError({ file }, `cannot be read: ${(error as Error).message}`)
  }
  try {
    const buf = Buffer.alloc(65536)
    const { bytesRead } = await handle.read(buf, 0, buf.length, 0).catch((error: unknown) => {
      throw openError(file, error)
    })
    if (buf.toString('latin1', 0, Math.min(4, bytesRead)) === PARQUET_MAGIC) return 'parquet'
    if (startsWithLz4Magic(buf.subarray(0, bytesRead))) return 'lz4'
    let i = bytesRead >= 3 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf ? 3 : 0
    while (i < bytesRead && (buf[i] === 0x20 || buf[i] === 0x09 || buf[i] === 0x0a || buf[i] === 0x0d)) i++
    return i < bytesRead && buf[i] === 0x7b ? sniffBraceRun(buf.toString('utf8', i, bytesRead)) : 'trec'
  } finally {
    await handle.close()
  }
}

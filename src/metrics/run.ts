import { open } from 'node:fs/promises'
import { openError } from '../inputs/whole-file.js'
import { InputError } from '../errors.js'
import { readRanxRun, sniffBraceRun } from '../importers/index.js'
import { BlockCollector, NotGroupedSignal, type BlockHandler } from './blocks.js'
import { readJsonlRun } from './jsonl-run.js'
import { readTrecRun } from './trec-run.js'

/** Run file formats: TREC whitespace columns, JSON Lines, or one ranx / pytrec_eval JSON object. */
export type RunFormat = 'trec' | 'jsonl' | 'json'

/**
 * Detects the run format from the first non-blank character (after a UTF-8 BOM): `{` means JSON Lines,
 * or a ranx / pytrec_eval `{query_id: {doc_id: score}}` object (src/importers), anything else TREC.
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
    let i = bytesRead >= 3 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf ? 3 : 0
    while (i < bytesRead && (buf[i] === 0x20 || buf[i] === 0x09 || buf[i] === 0x0a || buf[i] === 0x0d)) i++
    return i < bytesRead && buf[i] === 0x7b ? sniffBraceRun(buf.toString('utf8', i, bytesRead)) : 'trec'
  } finally {
    await handle.close()
  }
}

/** What reading a run found. */
export interface RunReadInfo {
  format: RunFormat
  /** False when the run was not grouped by query and had to be buffered whole. */
  grouped: boolean
  /** Passthrough fields skipped because they were objects or arrays (JSONL only). */
  skippedFields: string[]
}

/**
 * Reads a run, handing each query's block to `onBlock`. First streams (memory: one query); if the run
 * turns out not to be grouped by query, calls `onRestart` (drop what was computed) and reads it again,
 * buffering all queries (memory: the whole run).
 */
export async function readRun(file: string, onBlock: BlockHandler, onRestart: () => void): Promise<RunReadInfo> {
  const format = await detectRunFormat(file)
  const read = async (mode: 'stream' | 'buffer'): Promise<string[]> => {
    const collector = new BlockCollector(file, mode, onBlock)
    let skipped: string[] = []
    if (format === 'trec') await readTrecRun(file, collector)
    else if (format === 'json') readRanxRun(file, collector)
    else skipped = [...(await readJsonlRun(file, collector))]
    collector.finish()
    return skipped
  }
  try {
    return { format, grouped: true, skippedFields: await read('stream') }
  } catch (error) {
    if (!(error instanceof NotGroupedSignal)) throw error
  }
  onRestart()
  return { format, grouped: false, skippedFields: await read('buffer') }
}

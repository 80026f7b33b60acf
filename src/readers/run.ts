import type { FormatChoice } from '../model/format.js'
import { detectFormat } from './detect.js'
import { BlockCollector, NotGroupedSignal, type BlockHandler } from './run-blocks.js'

/** What reading a run found. */
export interface RunReadInfo {
  /** The format it was read as and why (src/readers/detect.ts). */
  format: FormatChoice
  /** False when the run was not grouped by query and had to be buffered whole. */
  grouped: boolean
  /** Passthrough fields skipped because they were objects or arrays (JSONL only). */
  skippedFields: string[]
}

/**
 * Reads a run in whatever format it is (TREC, JSON Lines, ranx / pytrec_eval JSON, Parquet:
 * src/readers/formats.ts), detected once, handing each query's block to `onBlock`. First streams (memory: one
 * query); if the run turns out not to be grouped by query, calls `onRestart` (drop what was computed) and reads it
 * again, buffering all queries (memory: the whole run).
 */
export async function readRun(file: string, onBlock: BlockHandler, onRestart: () => void): Promise<RunReadInfo> {
  const { entry, choice, probe } = await detectFormat({ kind: 'run', file })
  const read = async (mode: 'stream' | 'buffer'): Promise<string[]> => {
    const collector = new BlockCollector(file, mode, onBlock)
    const skipped = await entry.read(probe, collector)
    collector.finish()
    return [...(skipped ?? [])]
  }
  try {
    return { format: choice, grouped: true, skippedFields: await read('stream') }
  } catch (error) {
    if (!(error instanceof NotGroupedSignal)) throw error
  }
  onRestart()
  return { format: choice, grouped: false, skippedFields: await read('buffer') }
}

/** The format a run file is read as (its name in src/readers/formats.ts), for callers that only ask. */
export async function detectRunFormat(file: string): Promise<string> {
  return (await detectFormat({ kind: 'run', file })).choice.name
}

import { readRanxLz4Run, readRanxRun } from './importers/index.js'
import { refuseWholeJsonDocument, RUN_JSON_SHAPES } from './importers/unrecognised-json.js'
import { detectRunFormat, type RunFormat } from './sniff.js'
import { BlockCollector, NotGroupedSignal, type BlockHandler } from './run-blocks.js'
import { readJsonlRun } from './jsonl-run.js'
import { readTrecRun } from './trec-run.js'
import { readParquetRun } from './parquet.js'

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
  if (format === 'jsonl') await refuseWholeJsonDocument(file, RUN_JSON_SHAPES)
  const read = async (mode: 'stream' | 'buffer'): Promise<string[]> => {
    const collector = new BlockCollector(file, mode, onBlock)
    let skipped: string[] = []
    if (format === 'trec') await readTrecRun(file, collector)
    else if (format === 'json') readRanxRun(file, collector)
    else if (format === 'parquet') await readParquetRun(file, collector)
    else if (format === 'lz4') await readRanxLz4Run(file, collector)
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

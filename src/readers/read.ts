import { neededAttributes } from '../config/attributes.js'
import type { Rules } from '../config/types.js'
import type { FormatChoice } from '../model/format.js'
import type { Qrels } from '../model/qrels.js'
import type { SideRows } from '../model/rows.js'
import { FORMATS, type FormatEntry, type FormatKind } from './formats.js'
import { Probe, type ProbeInput } from './probe.js'
import type { RecordHandler } from './record-maps.js'
import { BlockCollector, NotGroupedSignal, type BlockHandler } from './run-blocks.js'
import type { RowsFormat, RowsInput, RowsOptions } from './rows-input.js'

/**
 * The one detection step and the readers' front doors. Detection: which format a file is, from its name, its first
 * bytes and `--input-format` when given, by asking the registry (src/readers/formats.ts) in its order. The result
 * names the entry chosen and why (the content, the extension, the option, or the kind's default), for the report.
 * A shape that looks like one format but is another, or is not read at all, is an entry of its own whose reader
 * refuses it with what to do; so is a listing whose layout no evidence settles (src/readers/importers/ir-measures.ts).
 * Each input kind is then read by the entry detection chose.
 */

/** What detection is asked. */
export interface DetectRequest<K extends FormatKind> extends ProbeInput {
  kind: K
  /** `--input-format` (per-query rows): the entry that answers to this name, its content permitting. */
  format?: RowsFormat
}

/** The entry detection chose, why, and the probe (what it read, for the entry's reader to reuse). */
export interface Detected<K extends FormatKind> {
  entry: Extract<FormatEntry, { kind: K }>
  choice: FormatChoice
  probe: Probe
}

/** Detects the format of `request.file` among the registry's entries of `request.kind` (see the module comment). */
export async function detectFormat<K extends FormatKind>(request: DetectRequest<K>): Promise<Detected<K>> {
  const { kind, format } = request
  const probe = new Probe(request)
  const entries = FORMATS.filter((e): e is Extract<FormatEntry, { kind: K }> => e.kind === kind)
  const chosen = (entry: Extract<FormatEntry, { kind: K }>, by: FormatChoice['by'], why: string): Detected<K> => ({
    entry,
    probe,
    choice: { kind, name: entry.name, by, why }
  })
  if (format !== undefined) {
    for (const entry of entries) {
      for (const named of entry.named ?? []) {
        if (named.option === format && (named.when === undefined || (await named.when(probe))))
          return chosen(entry, 'explicit', `named with --input-format ${format}`)
      }
    }
    throw new Error(`format registry: no ${kind} entry answers to --input-format ${format}`)
  }
  for (const entry of entries) {
    const sniffed = await entry.sniff?.(probe)
    if (sniffed !== undefined) return chosen(entry, sniffed.by, sniffed.why)
  }
  // Every kind ends with its default format, which sniffs anything: reaching here is a registry bug.
  throw new Error(`format registry: no ${kind} entry took ${request.file}`)
}

export type { RowsOptions } from './rows-input.js'

/**
 * Reads one per-query rows file (JSON Lines, CSV, Parquet, long form, other tools' exports), detected or named with
 * `options.format`. The rows carry the format chosen and why (`format`), for the report. Every reader gives the
 * same {@link SideRows}, so pairing, statistics and reports do not depend on the format.
 */
export async function readRows(file: string, options: RowsOptions): Promise<SideRows> {
  const { entry, choice, probe } = await detectFormat({
    kind: 'rows',
    file,
    format: options.format,
    metricFields: options.metricFields,
    idField: options.idField
  })
  const side = await entry.read(probe, options)
  side.format = choice
  return side
}

/**
 * One side's per-query rows as the gate reads them: only the metric fields the rules name (and the answer length
 * the judge's length-bias diagnostic reads like a metric, never gated by itself) and only the attributes the rules
 * use, so memory grows with what the rules use, not with the other fields of a file.
 */
export async function readGatedRows(file: string, rules: Rules, input: RowsInput = {}): Promise<SideRows> {
  const keepAttributes = new Set(neededAttributes(rules).keys())
  const length = rules.judge?.lengthBias?.length
  const metricFields = new Set(rules.metrics.keys())
  if (length !== undefined) metricFields.add(length)
  return readRows(file, { metricFields, format: input.format, idField: input.idField, keepAttributes })
}

/**
 * Reads a judgments file (TREC qrels, ranx / pytrec_eval JSON, BEIR TSV), read once and shared by the baseline and
 * the candidate run; every format has the TREC reader's semantics (src/readers/trec-qrels.ts).
 */
export async function readQrels(file: string): Promise<Qrels> {
  const { entry, probe } = await detectFormat({ kind: 'qrels', file })
  return entry.read(probe)
}

/**
 * Calls `onRecord` for every record of a small exam or answer file of records (judge anchors and labels, a
 * queries file): JSON Lines, or CSV with a header when its name ends in `.csv` (src/readers/record-maps.ts reads
 * both). `hint` says what a record looks like.
 */
export async function forEachRecord(file: string, name: string, onRecord: RecordHandler, hint: string): Promise<void> {
  const { entry, probe } = await detectFormat({ kind: 'records', file })
  await entry.read(probe, { name, onRecord, hint })
}

/** What reading a run found. */
export interface RunReadInfo {
  /** The format it was read as and why ({@link detectFormat}). */
  format: FormatChoice
  /** False when the run was not grouped by query and had to be buffered whole. */
  grouped: boolean
  /** Passthrough fields skipped because they were objects or arrays (JSONL only). */
  skippedFields: string[]
}

/**
 * Reads a run (TREC, JSON Lines, ranx / pytrec_eval JSON, Parquet), handing each query's block to `onBlock`. First
 * streams (memory: one query); if the run turns out not to be grouped by query, calls `onRestart` (drop what was
 * computed) and reads it again, buffering all queries (memory: the whole run).
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

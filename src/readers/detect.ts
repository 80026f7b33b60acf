import type { FormatChoice } from '../model/format.js'
import { FORMATS, type FormatEntry, type FormatKind } from './formats.js'
import { Probe } from './probe.js'
import type { RowsFormat } from './rows-input.js'

/**
 * The one detection step: which format a file is, from its name, its first bytes and `--input-format` when given,
 * by asking the registry (src/readers/formats.ts) in its order. The result names the entry chosen and why (the
 * content, the extension, the option, or the kind's default), for the report. A shape that looks like one format
 * but is another, or is not read at all, is an entry of its own whose reader refuses it with what to do; so is
 * a listing whose layout no evidence settles (src/readers/importers/ir-measures.ts).
 */

/** What detection is asked. */
export interface DetectRequest<K extends FormatKind> {
  kind: K
  file: string
  /** The name the file goes by when `file` is a copy (a fetched file), for the sniffs that look at the name. */
  name?: string
  /** `--input-format` (per-query rows): the entry that answers to this name, its content permitting. */
  format?: RowsFormat
  /** The file's first bytes, when the caller has them; read from the file when a sniff first needs them. */
  head?: Buffer
  /** The rules' metrics (long form is told from wide by them) and `--id-field`. */
  metricFields?: ReadonlySet<string>
  idField?: string
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

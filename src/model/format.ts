/**
 * Which format a file was read as and why: the result of the one detection step (src/readers/read.ts), kept
 * with what was read so the report can name it (JSON report `inputs.formats`). A misdetected file is the kind of
 * mistake a reader of the report can only see if the report says how the file was read.
 */
export interface FormatChoice {
  /** What the file was read as: per-query rows, a run, judgments, exam records, or a warehouse's aggregates. */
  kind: 'rows' | 'run' | 'qrels' | 'records' | 'aggregates'
  /** The format's name in the registry (src/readers/formats.ts), e.g. `jsonl`, `parquet-long`, `ranx-json`. */
  name: string
  /**
   * What decided: the file's content (its first bytes, or its header), its name (the extension), `--input-format`,
   * or nothing else matched (the kind's default format, which then refuses what it cannot read).
   */
  by: 'content' | 'extension' | 'explicit' | 'fallback'
  /** The evidence in a few words, e.g. `it starts with PAR1, the Parquet magic`. */
  why: string
}

/**
 * The format of one side as the report names it: the format of its file, or of all its seed files when they share
 * one; several names joined (`jsonl + csv`) when seed files differ; null when the side was not read from a file
 * (rows a caller computed).
 */
export function sideFormat(files: ReadonlyArray<{ format?: FormatChoice }>): FormatChoice | null {
  const chosen = files.map((f) => f.format).filter((f): f is FormatChoice => f !== undefined)
  if (chosen.length === 0 || chosen.length < files.length) return null
  const names = [...new Set(chosen.map((f) => f.name))]
  if (names.length === 1) return chosen[0]
  return { kind: chosen[0].kind, name: names.join(' + '), by: 'content', why: 'each seed file detected on its own' }
}

/**
 * The output files written beside a report, and how the report names them: a file only when it was written,
 * otherwise how to get it (docs/report.md, "Files the report names").
 */

/** The regression set's file name in the action's report-dir (the CLI writes it where --regressions says). */
export const REGRESSIONS_FILE = 'regressions.jsonl'

/**
 * The output files that were written beside the report, as the caller (the CLI, the action) names them.
 * An absent field: that file was not written.
 */
export interface WrittenFiles {
  /** The regression set (the CLI's `--regressions FILE`; the action's report-dir/regressions.jsonl). */
  regressions?: string
  /** The to-judge list (the CLI's `--to-judge FILE`; the action's report-dir/to-judge.jsonl). */
  toJudge?: string
}

/** The option of the gate command that writes each file (the action always writes both). */
const FLAG: Record<keyof WrittenFiles, string> = { regressions: '--regressions FILE', toJudge: '--to-judge FILE' }

/**
 * Where an output file is: `{ file }` when it was written, else `{ how }`, RAW words saying how to get it
 * ("add --regressions FILE to the gate command").
 */
export function fileOrHow(files: WrittenFiles | undefined, kind: keyof WrittenFiles): { file: string; how?: undefined } | { file?: undefined; how: string } {
  const file = files?.[kind]
  return file !== undefined ? { file } : { how: `add ${FLAG[kind]} to the gate command` }
}

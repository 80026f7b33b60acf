import { clean } from './escape.js'

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
  /** The self-contained HTML page (the CLI's `--html FILE`; the action's report-dir/report.html). */
  html?: string
  /** Set by the action: the folder (its report-dir) the files were written to, which workflows upload as the report artifact. */
  reportDir?: string
}

/** The HTML page's file name in the action's report-dir (the CLI writes it where --html says). */
export const HTML_FILE = 'report.html'

/** The option of the gate command that writes each file (the action always writes both). */
const FLAG: Record<'regressions' | 'toJudge' | 'html', string> = {
  regressions: '--regressions FILE',
  toJudge: '--to-judge FILE',
  html: '--html FILE'
}

/**
 * Where an output file is: `{ file }` when it was written, else `{ how }`, RAW words saying how to get it
 * ("add --regressions FILE to the gate command").
 */
export function fileOrHow(
  files: WrittenFiles | undefined,
  kind: keyof typeof FLAG
): { file: string; how?: undefined } | { file?: undefined; how: string } {
  const file = files?.[kind]
  return file !== undefined ? { file } : { how: `add ${FLAG[kind]} to the gate command` }
}

/**
 * The sentence under the regressed queries that names the regression set (RAW): its file and how many queries
 * it holds, or how to write it. `worse` counts the queries that got worse on at least one gated metric.
 */
export function regressionSetSentence(files: WrittenFiles | undefined, worse: number): string {
  const where = fileOrHow(files, 'regressions')
  return where.file !== undefined
    ? `The regression set ${clean(where.file, 200)} lists all ${worse} queries that got worse on at least one gated metric, with both values and their attributes: keep it as a regression suite.`
    : `${worse} queries got worse on at least one gated metric. To keep them as a regression suite (both values and their attributes, one JSON line per query), ${where.how}.`
}

/**
 * Where the HTML page is, for the Markdown and terminal reports (RAW), or null when it was not written: in the
 * action "report.html in the report artifact", from the CLI the file as given.
 */
export function pageSentence(files: WrittenFiles | undefined): string | null {
  const file = files?.html
  if (file === undefined) return null
  const where =
    files?.reportDir !== undefined
      ? `${clean(file.split(/[\\/]/).pop() ?? file, 200)} in the report artifact (report-dir ${clean(files.reportDir, 200)})`
      : clean(file, 200)
  return `The full page, with every check and slice on one axis and each query plotted, is ${where}: one HTML file that opens in a browser, from disk.`
}

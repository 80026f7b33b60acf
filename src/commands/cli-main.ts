import { parseArgs } from 'node:util'
import { runGate } from '../gate.js'
import { cliOverrides, loadGateInputs, readRules } from '../load.js'
import { cliInputSource } from './cli-source.js'
import type { InputSource } from '../capabilities/contract.js'
import { InputError, isInputError } from '../errors.js'
import { writeOutput } from '../output.js'
import { jsonReportChunks } from '../report/json.js'
import { toMarkdown } from '../report/markdown.js'
import { toHtmlReport } from '../report/html/index.js'
import { toRegressionsJsonl } from '../report/regressions.js'
import { toText } from '../report/text.js'
import { VERSION } from '../version.js'
import { suggestion } from '../util/did-you-mean.js'
import {
  asksForHelp,
  commandUsage,
  COMMANDS,
  fullUsage,
  isCommand,
  parserOptions,
  seeHelp,
  type CommandName,
  type OptionDoc
} from './usage.js'
import { explainCommand } from './explain.js'
import { DEFAULT_RULES_FILE, initCommand } from './init.js'
import { metricsCommand } from './metrics.js'
import { validateCommand } from './validate.js'
import { sqlCommand } from './sql.js'
import { lineRuns } from './line-runs.js'
import { loadAggregateInputs } from '../capabilities/aggregates.js'
import { activeCapabilities } from '../capabilities/registry.js'
import type { Rules } from '../config/types.js'
import type { GateResult } from '../decide/result.js'
import type { WrittenFiles } from '../report/files.js'
import { toJudgeFile } from '../report/to-judge.js'
import { parseRowsFormat, type RowsInput } from '../readers/rows-input.js'
import { MAX_LOG_LINE_CHARS, quote, safeLines } from '../util/show.js'

/** Thrown for a wrong command line: printed as one line and where the usage is (of the command when known), exit 2. */
class UsageError extends Error {
  constructor(
    message: string,
    readonly command?: CommandName
  ) {
    super(message)
  }
}

type Write = (text: string) => void

/** What the entry point knows about the terminal and the process (only src/cli.ts reads the process). */
export interface Terminal {
  /** stdout is a terminal: the default format is text, and text may be coloured. */
  isTTY: boolean
  /** NO_COLOR is set (https://no-color.org): never colour. */
  noColor: boolean
  /** Threads for the resampling (RG_THREADS, else the cores); changes the time, never a byte. */
  threads?: number
  /**
   * How the user runs this CLI (invocation.ts: `retrieval-gate`, or `node dist/cli.js` from a clone), for the
   * commands it prints to run next; `retrieval-gate` when not given.
   */
  command?: string
}

/**
 * The command line. Returns the exit code instead of exiting, so tests can call it in-process; only the
 * entry point at the bottom touches `process`.
 */
export async function main(
  argv: string[],
  rawOut: Write,
  rawErr: Write,
  terminal: Terminal = { isTTY: false, noColor: false }
): Promise<number> {
  // The output boundary: in a workflow's `run:` step every line the CLI prints is read by the runner, so no
  // line may start a workflow command or carry a raw control character, whatever an input smuggled into a
  // message or a report (src/util/show.ts). Clean text passes byte-identical.
  const out: Write = (text) => rawOut(safeLines(text, { colour: terminal.isTTY && !terminal.noColor }))
  const err: Write = (text) => rawErr(safeLines(text, { maxLine: MAX_LOG_LINE_CHARS }))
  try {
    const [command, ...rest] = argv
    if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
      const about = rest[0]
      if (command === 'help' && about !== undefined && isCommand(about)) {
        out(commandUsage(about))
        return 0
      }
      out(fullUsage())
      return command === undefined ? 2 : 0
    }
    if (command === '--version' || command === '-v') {
      out(`${VERSION}\n`)
      return 0
    }
    if (isCommand(command) && asksForHelp(rest)) {
      out(commandUsage(command))
      return 0
    }
    if (command === 'gate') return await gateCommand(rest, out, terminal)
    if (command === 'metrics') return await metricsCommandLine(rest, out, err)
    if (command === 'init') return await initCommandLine(rest, out, terminal)
    if (command === 'explain') return await explainCommandLine(rest, out)
    if (command === 'validate') return await validateCommandLine(rest, out, err)
    if (command === 'sql') return await sqlCommandLine(rest, out)
    throw new UsageError(`unknown command ${quote(command)}${suggestion(command, Object.keys(COMMANDS))}`)
  } catch (error) {
    if (error instanceof UsageError) {
      err(`retrieval-gate: ${error.message}\n${seeHelp(error.command, terminal.command)}\n`)
      return 2
    }
    if (isInputError(error)) {
      err(`retrieval-gate: ${error.message}\n`)
      return 2
    }
    err(
      `retrieval-gate: internal error: ${(error as Error)?.stack ?? String(error)}\nPlease report this with the command that caused it.\n`
    )
    return 3
  }
}

/**
 * Parses a command's arguments against its options in {@link COMMANDS}, refusing a line without the options `need`
 * (by default those the table marks required, as the usage shows them); a wrong line is a UsageError naming the command.
 */
function parse(command: CommandName, args: string[], need = requiredOptions(command)) {
  let values
  try {
    values = parseArgs({ args, options: parserOptions(command), allowPositionals: false, strict: true }).values
  } catch (error) {
    throw new UsageError(`${(error as Error).message}${optionSuggestion(command, error)}`, command)
  }
  required(command, values, need)
  return values
}

function required(command: CommandName, values: Record<string, unknown>, names: string[]): void {
  const absent = names.filter((n) => values[n] === undefined)
  if (absent.length > 0) throw new UsageError(`missing ${absent.map((n) => `--${n}`).join(', ')}`, command)
}

function requiredOptions(command: CommandName): string[] {
  const options = Object.entries(COMMANDS[command].options as Record<string, OptionDoc>)
  return options.filter(([, o]) => o.required === true).map(([name]) => name)
}

/** ` (did you mean "--baseline-manifest"?)` for a misspelt option of `command`, else the empty string. */
function optionSuggestion(command: CommandName, error: unknown): string {
  if ((error as { code?: string }).code !== 'ERR_PARSE_ARGS_UNKNOWN_OPTION') return ''
  const given = /'(--?[^']*)'/.exec((error as Error).message)?.[1]
  if (given === undefined || !given.startsWith('--')) return ''
  const names = Object.keys(COMMANDS[command].options).map((n) => `--${n}`)
  return suggestion(given.split('=')[0], names)
}

async function gateCommand(args: string[], out: Write, terminal: Terminal): Promise<number> {
  const v = parse('gate', args, [])
  // --aggregates replaces --baseline and --candidate: only --rules is required with it
  required('gate', v, v.aggregates === undefined ? requiredOptions('gate') : ['rules'])
  if (v.aggregates !== undefined) return aggregatesGate(v, out, terminal)
  const format = reportFormat(v, terminal)
  const rules = await readRules(v.rules as string)
  refuseUnreadOverrides(v, rules)
  const loaded = await loadGateInputs(rules, sourceOf(v, rules), {
    rowsInput: rowsInputOf(v),
    qrels: v.qrels as string | undefined,
    given: (option) => v[option] !== undefined
  })
  const result = runGate(loaded, { threads: terminal.threads })
  if (v['to-judge']) await writeOutput(v['to-judge'] as string, toJudgeFile(result))
  if (v.regressions) await writeOutput(v.regressions as string, toRegressionsJsonl(result))
  // The reports name an output file only when it was written (otherwise they say which option writes it).
  const files = {
    regressions: v.regressions as string | undefined,
    toJudge: v['to-judge'] as string | undefined,
    html: v.html as string | undefined
  }
  if (v.html) await writeOutput(v.html as string, toHtmlReport(result, { files }))
  return writeReports(result, { v, format, files, out, terminal })
}

/** gate --aggregates: the decision from a warehouse's aggregates (src/capabilities/aggregates.ts), no rows. */
async function aggregatesGate(v: Values, out: Write, terminal: Terminal): Promise<number> {
  const rowsOnly = Object.keys(GATE_OPTIONS).filter((o) => !WITH_AGGREGATES.has(o) && v[o] !== undefined)
  if (rowsOnly.length > 0)
    throw new UsageError(`--aggregates replaces the rows: --${rowsOnly[0]} cannot be given with it`, 'gate')
  const format = reportFormat(v, terminal)
  const rules = await readRules(v.rules as string)
  const result = runGate(await loadAggregateInputs(rules, sourceOf(v, rules)), { threads: terminal.threads })
  return writeReports(result, { v, format, files: {}, out, terminal })
}

type Values = ReturnType<typeof parse>

/** The command line's input source: exam files in the working directory, the rest from the options given. */
function sourceOf(v: Values, rules: Rules): InputSource {
  return cliInputSource({ given: v as Record<string, string | string[] | undefined>, rulesFile: rules.source.file })
}

/** How per-query files are read (--input-format, --id-field), for gate and init. */
function rowsInputOf(v: Values): RowsInput {
  const format = v['input-format'] as string | undefined
  return {
    format: format === undefined ? undefined : parseRowsFormat(format),
    idField: v['id-field'] as string | undefined
  }
}

/** The report on stdout: --format, else text on a terminal and Markdown otherwise. */
function reportFormat(v: Values, terminal: Terminal): 'markdown' | 'json' | 'text' {
  const format = (v.format as string | undefined) ?? (terminal.isTTY ? 'text' : 'markdown')
  if (format !== 'markdown' && format !== 'json' && format !== 'text')
    throw new UsageError(`--format must be markdown, json or text, not ${quote(format)}`, 'gate')
  return format
}

/** The gate's options, as its parser and its help have them. */
const GATE_OPTIONS = COMMANDS.gate.options as Record<string, OptionDoc>

/** What --aggregates takes beside it: every other option reads or writes rows (or files beside them) and is refused. */
const WITH_AGGREGATES = new Set(['rules', 'aggregates', 'format', 'markdown', 'json'])

/**
 * The options that give an exam input the command line cannot fetch (an input spec's `override`, e.g. --reference),
 * as the capabilities declare them: read only when a spec of a capability these rules switch on names them.
 */
const OVERRIDES = cliOverrides().map((o) => o.option)

/** An override given for an input these rules never read is refused: it would be read by nothing. */
function refuseUnreadOverrides(v: Values, rules: Rules): void {
  const read = new Set(
    activeCapabilities(rules).flatMap(({ capability, config }) =>
      capability
        .inputs(config, rules)
        .flatMap((s) => (s.kind === 'file' || s.kind === 'artifact' ? (s.override?.option ?? []) : []))
    )
  )
  const unread = OVERRIDES.find((o) => v[o] !== undefined && !read.has(o))
  if (unread === undefined) return
  throw new InputError(
    { file: v[unread] as string, key: `--${unread}` },
    `gives ${GATE_OPTIONS[unread].description}, but nothing in these rules reads it`,
    `add what reads it to the rules (pre-registered, like the margins), or leave --${unread} out`
  )
}

/**
 * Writes the Markdown and JSON report files asked for, then the report on stdout in `format`; the exit code is
 * the verdict's. The JSON report streams to its file and to stdout alike (at 10^6 queries it is 79 MiB; stdout in
 * runs of whole lines, lineRuns).
 */
async function writeReports(
  result: GateResult,
  at: { v: Values; format: string; files: WrittenFiles; out: Write; terminal: Terminal }
): Promise<number> {
  const { v, format, files, out, terminal } = at
  // each report is built once, and only when something takes it
  const markdown = v.markdown || format === 'markdown' ? toMarkdown(result, { files }) : ''
  if (v.markdown) await writeOutput(v.markdown as string, markdown)
  const runs = format === 'json' ? lineRuns(out) : undefined
  if (v.json) {
    // one walk of the JSON report for its file and, with --format json, for stdout
    const both = function* (): Generator<string> {
      for (const chunk of jsonReportChunks(result)) {
        runs?.add(chunk)
        yield chunk
      }
    }
    await writeOutput(v.json as string, both())
  } else if (runs !== undefined) for (const chunk of jsonReportChunks(result)) runs.add(chunk)
  if (runs !== undefined) runs.end()
  else out(format === 'text' ? toText(result, { color: terminal.isTTY && !terminal.noColor, files }) : markdown)
  return result.decision.verdict === 'pass' ? 0 : 1
}

async function sqlCommandLine(args: string[], out: Write): Promise<number> {
  const v = parse('sql', args)
  await sqlCommand(
    {
      rules: v.rules as string,
      dialect: (v.dialect as string | undefined) ?? 'duckdb',
      baseline: (v.baseline as string | undefined) ?? 'baseline',
      candidate: (v.candidate as string | undefined) ?? 'candidate',
      idField: v['id-field'] as string | undefined,
      shard: v.shard as string | undefined,
      histogramsOnly: v['histograms-only'] === true,
      out: v.out as string | undefined
    },
    out
  )
  return 0
}

async function metricsCommandLine(args: string[], out: Write, err: Write): Promise<number> {
  const v = parse('metrics', args)
  const format = v.format ?? 'trec'
  if (format !== 'trec' && format !== 'jsonl')
    throw new UsageError(`--format must be trec or jsonl, not ${quote(String(format))}`, 'metrics')
  const noRelevant = v['no-relevant'] ?? 'zero'
  if (noRelevant !== 'exclude' && noRelevant !== 'zero' && noRelevant !== 'report')
    throw new UsageError(`--no-relevant must be exclude, zero or report, not ${quote(String(noRelevant))}`, 'metrics')
  let depth: number | undefined
  if (v.depth !== undefined) {
    if (!/^[1-9][0-9]{0,8}$/.test(v.depth as string))
      throw new UsageError(`-M (depth) must be a positive integer, not ${quote(String(v.depth))}`, 'metrics')
    depth = Number(v.depth)
  }
  const complete = v.complete === true
  const notes = await metricsCommand(
    {
      qrels: v.qrels as string,
      run: v.run as string,
      measures: v.measure as string[],
      perQuery: v['per-query'] === true,
      format,
      depth,
      noRelevant,
      complete
    },
    out
  )
  for (const w of notes.warnings) err(`retrieval-gate: ${w}\n`)
  return 0
}

async function initCommandLine(args: string[], out: Write, terminal: Terminal): Promise<number> {
  const v = parse('init', args)
  await initCommand(
    {
      baseline: v.baseline as string,
      candidate: v.candidate as string,
      out: (v.out as string | undefined) ?? DEFAULT_RULES_FILE,
      force: v.force === true,
      qrels: v.qrels as string | undefined,
      queries: v.queries as string | undefined,
      ...rowsInputOf(v),
      command: terminal.command
    },
    out
  )
  return 0
}

async function explainCommandLine(args: string[], out: Write): Promise<number> {
  const v = parse('explain', args)
  await explainCommand(v.rules as string, out)
  return 0
}

async function validateCommandLine(args: string[], out: Write, err: Write): Promise<number> {
  const v = parse('validate', args)
  return validateCommand(
    {
      dataset: v.dataset as string,
      corpus: v.corpus as string | undefined,
      previous: v.previous as string | undefined
    },
    out,
    err
  )
}

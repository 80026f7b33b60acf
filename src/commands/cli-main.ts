import { parseArgs } from 'node:util'
import { isInputError } from '../errors.js'
import { runGate } from '../gate.js'
import { readRules, readSides } from '../load.js'
import { writeOutput } from '../output.js'
import { toJsonReport } from '../report/json.js'
import { toMarkdown } from '../report/markdown.js'
import { toRegressionsJsonl } from '../report/regressions.js'
import { toText } from '../report/text.js'
import { VERSION } from '../version.js'
import { explainCommand } from './explain.js'
import { DEFAULT_RULES_FILE, initCommand } from './init.js'
import { metricsCommand } from './metrics.js'
import { validateCommand } from './validate.js'
import { toJudgeFile } from '../checks/to-judge.js'
import { parseRowsFormat } from '../importers/index.js'

const USAGE = `retrieval-gate ${VERSION}

Usage:
  retrieval-gate gate --rules R --baseline B --candidate C [--markdown F] [--json F] [--qrels Q]
                      [--regressions F] [--format markdown|json|text]
                      [--baseline-manifest F] [--candidate-manifest F] [--to-judge F]
      Compare baseline and candidate (per-query rows, or runs when the rules name judgments or --qrels is
      given) against the rules; print the report (--format: text on a terminal, else markdown; text is
      coloured on a terminal unless NO_COLOR is set). --regressions writes the queries that got worse on a
      gated metric as JSON Lines.
      Exit 0 = pass, 1 = fail (a rule was not met), 2 = unusable input or usage.
  retrieval-gate metrics --qrels Q --run R -m MEASURE [-m MEASURE ...] [--per-query] [--format trec|jsonl]
                         [-M DEPTH] [--no-relevant exclude|zero|report]
      Compute ranking metrics from a run (TREC or JSON Lines) and judgments (TREC qrels), as trec_eval -c -q
      does (--no-relevant zero averages over every judged query, exactly as trec_eval -c).
  retrieval-gate init --baseline B --candidate C [--out retrieval-gate.yml] [--force] [--qrels Q]
                      [--input-format F] [--id-field NAME]
      Inspect the two files and write a commented starter rules file to edit before the first PR.
  retrieval-gate validate --dataset D [--corpus C] [--previous P]
      Check an evaluation set (JSON Lines, rules/dataset.schema.json) against its contract: schema, gold vs
      answerable, unique fact ids, every chunk in the corpus listing C, no silent change against the previous
      copy P. Lists every violation as file:line: [id] rule: message. Exit 0 = valid, 2 = violations.
  retrieval-gate explain --rules R
      Say in plain words what each check of the rules will demand.
  Inputs (gate, init): per-query rows are JSON Lines or CSV, or the output of ragas, deepeval, pytrec_eval,
  ir_measures or trec_eval -q (detected, or named with --input-format jsonl|csv|ragas|deepeval|pytrec_eval|
  ir_measures|trec_eval; --id-field names the query id column of exports without query_id). Runs may be
  TREC, JSON Lines or ranx / pytrec_eval JSON; judgments TREC qrels, ranx / pytrec_eval JSON or BEIR TSV.
  retrieval-gate --version | --help
`

/** Thrown for a wrong command line: printed with the usage, exit 2. */
class UsageError extends Error {}

type Write = (text: string) => void

/** What the entry point knows about the terminal and the process (only src/cli.ts reads the process). */
export interface Terminal {
  /** stdout is a terminal: the default format is text, and text may be coloured. */
  isTTY: boolean
  /** NO_COLOR is set (https://no-color.org): never colour. */
  noColor: boolean
  /** Threads for the resampling (RG_THREADS, else the cores); changes the time, never a byte. */
  threads?: number
}

/**
 * The command line. Returns the exit code instead of exiting, so tests can call it in-process; only the
 * entry point at the bottom touches `process`.
 */
export async function main(argv: string[], out: Write, err: Write, terminal: Terminal = { isTTY: false, noColor: false }): Promise<number> {
  try {
    const [command, ...rest] = argv
    if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
      out(USAGE)
      return command === undefined ? 2 : 0
    }
    if (command === '--version' || command === '-v') {
      out(`${VERSION}\n`)
      return 0
    }
    if (command === 'gate') return await gateCommand(rest, out, terminal)
    if (command === 'metrics') return await metricsCommandLine(rest, out)
    if (command === 'init') return await initCommandLine(rest, out)
    if (command === 'explain') return await explainCommandLine(rest, out)
    if (command === 'validate') return await validateCommandLine(rest, out, err)
    throw new UsageError(`unknown command "${command}"`)
  } catch (error) {
    if (error instanceof UsageError) {
      err(`retrieval-gate: ${error.message}\n\n${USAGE}`)
      return 2
    }
    if (isInputError(error)) {
      err(`retrieval-gate: ${error.message}\n`)
      return 2
    }
    err(`retrieval-gate: internal error: ${(error as Error)?.stack ?? String(error)}\nPlease report this with the command that caused it.\n`)
    return 3
  }
}

function parse<T extends Record<string, { type: 'string' | 'boolean'; multiple?: boolean; short?: string }>>(args: string[], options: T) {
  try {
    return parseArgs({ args, options, allowPositionals: false, strict: true }).values
  } catch (error) {
    throw new UsageError((error as Error).message)
  }
}

function required(values: Record<string, unknown>, names: string[]): void {
  const absent = names.filter((n) => values[n] === undefined)
  if (absent.length > 0) throw new UsageError(`missing ${absent.map((n) => `--${n}`).join(', ')}`)
}

async function gateCommand(args: string[], out: Write, terminal: Terminal): Promise<number> {
  const v = parse(args, {
    regressions: { type: 'string' },
    format: { type: 'string' },
    rules: { type: 'string' },
    baseline: { type: 'string' },
    candidate: { type: 'string' },
    markdown: { type: 'string' },
    json: { type: 'string' },
    qrels: { type: 'string' },
    'input-format': { type: 'string' },
    'id-field': { type: 'string' },
    'baseline-manifest': { type: 'string' },
    'candidate-manifest': { type: 'string' },
    'to-judge': { type: 'string' }
  })
  required(v, ['rules', 'baseline', 'candidate'])
  const format = (v.format as string | undefined) ?? (terminal.isTTY ? 'text' : 'markdown')
  if (!['markdown', 'json', 'text'].includes(format)) throw new UsageError(`--format must be markdown, json or text, not "${format}"`)
  const rules = await readRules(v.rules as string)
  const input = { format: v['input-format'] === undefined ? undefined : parseRowsFormat(v['input-format'] as string), idField: v['id-field'] as string | undefined }
  const manifests = { baselineManifest: v['baseline-manifest'] as string | undefined, candidateManifest: v['candidate-manifest'] as string | undefined }
  const { baseline, candidate, trust } = await readSides(rules, v.baseline as string, v.candidate as string, v.qrels as string | undefined, manifests, input)
  const result = runGate(rules, baseline, candidate, trust, { threads: terminal.threads })
  if (v['to-judge']) await writeOutput(v['to-judge'] as string, toJudgeFile(result))
  if (v.regressions) await writeOutput(v.regressions as string, toRegressionsJsonl(result))
  // The reports name an output file only when it was written (otherwise they say which option writes it).
  const files = { regressions: v.regressions as string | undefined, toJudge: v['to-judge'] as string | undefined }
  const markdown = toMarkdown(result, { files })
  if (v.markdown) await writeOutput(v.markdown as string, markdown)
  const json = toJsonReport(result)
  if (v.json) await writeOutput(v.json as string, json)
  out(format === 'json' ? json : format === 'text' ? toText(result, { color: terminal.isTTY && !terminal.noColor, files }) : markdown)
  return result.decision.verdict === 'pass' ? 0 : 1
}

async function metricsCommandLine(args: string[], out: Write): Promise<number> {
  const v = parse(args, {
    qrels: { type: 'string' },
    run: { type: 'string' },
    measure: { type: 'string', short: 'm', multiple: true },
    'per-query': { type: 'boolean' },
    format: { type: 'string' },
    depth: { type: 'string', short: 'M' },
    'no-relevant': { type: 'string' }
  })
  required(v, ['qrels', 'run', 'measure'])
  const format = v.format ?? 'trec'
  if (format !== 'trec' && format !== 'jsonl') throw new UsageError(`--format must be trec or jsonl, not "${format}"`)
  const noRelevant = v['no-relevant'] ?? 'exclude'
  if (noRelevant !== 'exclude' && noRelevant !== 'zero' && noRelevant !== 'report') throw new UsageError(`--no-relevant must be exclude, zero or report, not "${noRelevant}"`)
  let depth: number | undefined
  if (v.depth !== undefined) {
    if (!/^[1-9][0-9]{0,8}$/.test(v.depth as string)) throw new UsageError(`-M (depth) must be a positive integer, not "${v.depth}"`)
    depth = Number(v.depth)
  }
  await metricsCommand(
    { qrels: v.qrels as string, run: v.run as string, measures: v.measure as string[], perQuery: v['per-query'] === true, format, depth, noRelevant },
    out
  )
  return 0
}

async function initCommandLine(args: string[], out: Write): Promise<number> {
  const v = parse(args, {
    baseline: { type: 'string' },
    candidate: { type: 'string' },
    out: { type: 'string' },
    force: { type: 'boolean' },
    qrels: { type: 'string' },
    'input-format': { type: 'string' },
    'id-field': { type: 'string' }
  })
  required(v, ['baseline', 'candidate'])
  await initCommand(
    {
      baseline: v.baseline as string,
      candidate: v.candidate as string,
      out: (v.out as string | undefined) ?? DEFAULT_RULES_FILE,
      force: v.force === true,
      qrels: v.qrels as string | undefined,
      format: v['input-format'] === undefined ? undefined : parseRowsFormat(v['input-format'] as string),
      idField: v['id-field'] as string | undefined
    },
    out
  )
  return 0
}

async function explainCommandLine(args: string[], out: Write): Promise<number> {
  const v = parse(args, { rules: { type: 'string' } })
  required(v, ['rules'])
  await explainCommand(v.rules as string, out)
  return 0
}

async function validateCommandLine(args: string[], out: Write, err: Write): Promise<number> {
  const v = parse(args, { dataset: { type: 'string' }, corpus: { type: 'string' }, previous: { type: 'string' } })
  required(v, ['dataset'])
  return validateCommand({ dataset: v.dataset as string, corpus: v.corpus as string | undefined, previous: v.previous as string | undefined }, out, err)
}

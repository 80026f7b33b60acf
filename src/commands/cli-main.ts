import { writeFile } from 'node:fs/promises'
import { parseArgs } from 'node:util'
import { isInputError } from '../errors.js'
import { runGate } from '../gate.js'
import { readRules, readSides } from '../load.js'
import { toJsonReport } from '../report/json.js'
import { toMarkdown } from '../report/markdown.js'
import { VERSION } from '../version.js'
import { metricsCommand } from './metrics.js'

const USAGE = `retrieval-gate ${VERSION}

Usage:
  retrieval-gate gate --rules R --baseline B --candidate C [--markdown F] [--json F] [--qrels Q]
      Compare baseline and candidate (per-query rows, or runs when the rules name judgments or --qrels is
      given) against the rules; print the report.
      Exit 0 = pass, 1 = fail (a rule was not met), 2 = unusable input or usage.
  retrieval-gate metrics --qrels Q --run R -m MEASURE [-m MEASURE ...] [--per-query] [--format trec|jsonl]
                         [-M DEPTH] [--no-relevant exclude|zero|report]
      Compute ranking metrics from a run (TREC or JSON Lines) and judgments (TREC qrels), as trec_eval -c -q
      does (--no-relevant zero averages over every judged query, exactly as trec_eval -c).
  retrieval-gate --version | --help
`

/** Thrown for a wrong command line: printed with the usage, exit 2. */
class UsageError extends Error {}

type Write = (text: string) => void

/**
 * The command line. Returns the exit code instead of exiting, so tests can call it in-process; only the
 * entry point at the bottom touches `process`.
 */
export async function main(argv: string[], out: Write, err: Write): Promise<number> {
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
    if (command === 'gate') return await gateCommand(rest, out)
    if (command === 'metrics') return await metricsCommandLine(rest, out)
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

async function gateCommand(args: string[], out: Write): Promise<number> {
  const v = parse(args, {
    rules: { type: 'string' },
    baseline: { type: 'string' },
    candidate: { type: 'string' },
    markdown: { type: 'string' },
    json: { type: 'string' },
    qrels: { type: 'string' }
  })
  required(v, ['rules', 'baseline', 'candidate'])
  const rules = await readRules(v.rules as string)
  const { baseline, candidate } = await readSides(rules, v.baseline as string, v.candidate as string, v.qrels as string | undefined)
  const result = runGate(rules, baseline, candidate)
  const markdown = toMarkdown(result)
  if (v.markdown) await writeFile(v.markdown as string, markdown)
  if (v.json) await writeFile(v.json as string, toJsonReport(result))
  out(markdown)
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

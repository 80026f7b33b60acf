import { writeFile } from 'node:fs/promises'
import { parseArgs } from 'node:util'
import { isInputError } from '../errors.js'
import { runGate } from '../gate.js'
import { readRules, readSide } from '../load.js'
import { toJsonReport } from '../report/json.js'
import { toMarkdown } from '../report/markdown.js'
import { VERSION } from '../version.js'

const USAGE = `retrieval-gate ${VERSION}

Usage:
  retrieval-gate gate --rules R --baseline B --candidate C [--markdown F] [--json F]
      Compare baseline and candidate per-query rows against the rules; print the report.
      Exit 0 = pass, 1 = fail (a rule was not met), 2 = unusable input or usage.
  retrieval-gate metrics --qrels Q --run R -m MEASURE [-m MEASURE ...] [--per-query] [--format trec|jsonl] [-M DEPTH]
      Compute ranking metrics from a run and judgments, as trec_eval -c does.
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
    json: { type: 'string' }
  })
  required(v, ['rules', 'baseline', 'candidate'])
  const rules = await readRules(v.rules as string)
  const baseline = await readSide(v.baseline as string, rules)
  const candidate = await readSide(v.candidate as string, rules)
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
    depth: { type: 'string', short: 'M' }
  })
  required(v, ['qrels', 'run', 'measure'])
  void out
  throw new UsageError('the metrics command is not available in this build')
}

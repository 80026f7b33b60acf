import { VERSION } from '../version.js'
import { maxOf } from '../util/extent.js'
import { ROW_FORMATS } from '../readers/rows-input.js'
import { cliOverrides, optionalFiles } from '../load.js'

/** One option as node:util parseArgs takes it. */
export interface OptionSpec {
  type: 'string' | 'boolean'
  multiple?: boolean
  short?: string
}

/** One option as the parser takes it and as `--help` lists it (one line each, the convention commander prints). */
export interface OptionDoc extends OptionSpec {
  /** What the option takes, as the help shows it: `<file>`, `<name>`; none for a boolean. */
  value?: string
  /** One line of what it does (the help wraps nothing: keep it short). */
  description: string
  /** Shown in the usage line and marked "(required)" in the list. */
  required?: boolean
}

/** A command's options and its help, side by side so they cannot drift (a test checks each option is listed). */
export interface CommandSpec {
  /** One line for the list of commands (`retrieval-gate --help`) and under the command's usage line. */
  summary: string
  /** A few lines of what the command does, after the summary (already wrapped at about 110 columns). */
  about?: string
  options: Record<string, OptionDoc>
}

/** The exit codes every command uses; `--help` and docs/cli.md say them. */
export const EXIT_CODES =
  'Exit codes: 0 pass (or done), 1 fail (a rule was not met), 2 unusable input or usage, 3 internal error (a bug: please report it with the command).'

/** An option that takes a value (`<file>` unless said), with its help line; `more`: required, repeatable, short. */
const takes = (description: string, more: Omit<OptionDoc, 'type' | 'description'> = {}): OptionDoc => ({
  type: 'string',
  value: '<file>',
  description,
  ...more
})
/** A switch (no value). */
const flag = (description: string, more: { short?: string } = {}): OptionDoc => ({
  type: 'boolean',
  description,
  ...more
})

const INPUT_FORMAT = takes(`name the format of per-query files: ${ROW_FORMATS.join(', ')}`, { value: '<format>' })
const ID_FIELD = takes('the query id field of exports without query_id (ragas user_input, ...)', { value: '<name>' })

/** What the rows and runs may be, for the commands that read them. */
const INPUTS = `Per-query rows are JSON Lines, CSV or Parquet, wide (a column per metric) or long (query_id, measure, value),
or the output of ragas, deepeval, pytrec_eval, ir_measures or trec_eval -q (detected, or named with
--input-format). Runs are TREC, JSON Lines, ranx / pytrec_eval JSON or Parquet; judgments TREC qrels, ranx / pytrec_eval
JSON or BEIR TSV (a ranx .lz4 file is refused with the conversion).`

/**
 * Every command the CLI accepts: the options its parser is given and the help `<command> --help` prints. Kept in
 * one table because a usage written apart from the parser forgets options (`--input-format` was accepted by gate
 * for a release before its usage said so).
 */
export const COMMANDS = {
  gate: {
    summary: 'compare baseline and candidate against the rules and print the report',
    about: `Baseline and candidate are per-query rows, or runs when the rules name judgments (judgments.qrels) or
--qrels is given. The report goes to stdout: text on a terminal (coloured unless NO_COLOR is set), Markdown
otherwise. Repeat --baseline / --candidate to give one file per independently trained seed.
${INPUTS}`,
    options: {
      rules: takes('the rules (YAML or JSON), written before the results were seen', { required: true }),
      baseline: takes('the baseline: per-query rows, or a run (repeat: one file per seed)', {
        multiple: true,
        required: true
      }),
      candidate: takes('the candidate, in the form of the baseline (repeat: one file per seed)', {
        multiple: true,
        required: true
      }),
      format: takes('the report on stdout: markdown, json or text (default: text on a terminal, else markdown)', {
        value: '<format>'
      }),
      markdown: takes('also write the Markdown report to a file'),
      json: takes('also write the JSON report to a file'),
      html: takes('also write the report as one self-contained HTML page with plots (docs/report.md)'),
      regressions: takes('write the queries that got worse on a gated metric (JSON Lines)'),
      'to-judge': takes('write the pooled top documents without a judgment, to judge'),
      qrels: takes('the judgments: baseline and candidate are runs (as the rules key judgments.qrels)'),
      'input-format': INPUT_FORMAT,
      'id-field': ID_FIELD,
      // the override options: exam inputs the command line cannot fetch, as the capabilities declare them
      ...Object.fromEntries(cliOverrides().map((o) => [o.option, takes(o.help)])),
      // the optional files: the core's and each capability's, as they declare them (src/load.ts optionalFiles)
      ...Object.fromEntries(optionalFiles().map((f) => [f.option, takes(f.help)])),
      aggregates: takes(
        'instead of --baseline / --candidate: the sums `retrieval-gate sql` computes in a warehouse, a file or a directory of part files (repeat: one per shard; docs/scale.md)',
        { value: '<path>', multiple: true }
      )
    }
  },
  metrics: {
    summary: 'compute ranking metrics from a run and judgments and print them as trec_eval -q does',
    about: `With no option it prints what trec_eval -q (10.0) prints: the averages are over every judged query, those
without a relevant document included, and a judged query the run lacks stops it as it stops trec_eval; -c scores
that query 0, as trec_eval -c does. Runs are TREC or JSON Lines (ranx / pytrec_eval JSON, Parquet too);
judgments TREC qrels, ranx / pytrec_eval JSON or BEIR TSV.`,
    options: {
      qrels: takes('the judgments', { required: true }),
      run: takes('the run to score', { required: true }),
      measure: takes("a measure (repeatable): nDCG@10, P@5, RR, AP, R@100, or trec_eval's ndcg_cut_10, P_5, map", {
        value: '<name>',
        multiple: true,
        short: 'm',
        required: true
      }),
      'per-query': flag('print every query before the "all" lines (trec_eval -q)'),
      format: takes('trec (MEASURE<tab>QUERY<tab>VALUE, the default) or jsonl (a JSON record per query)', {
        value: '<format>'
      }),
      complete: flag('score a judged query the run lacks 0, as trec_eval -c (without -c it is refused)', {
        short: 'c'
      }),
      depth: takes('keep the top n documents of each ranking (trec_eval -M)', { value: '<n>', short: 'M' }),
      'no-relevant': takes(
        "judged queries without a relevant document: zero (the default, trec_eval's), exclude or report",
        { value: '<policy>' }
      )
    }
  },
  init: {
    summary: 'inspect two files and write a commented starter rules file to edit before the first PR',
    about: INPUTS,
    options: {
      baseline: takes('the baseline file to inspect', { required: true }),
      candidate: takes('the candidate file to inspect', { required: true }),
      out: takes('where to write the rules (default: retrieval-gate.yml)'),
      force: flag('overwrite an existing rules file'),
      qrels: takes('the judgments: the two files are runs, and ranking measures are proposed'),
      queries: takes(
        'a queries file (query_id, text, attributes): its attributes are proposed as slices (queries.file)'
      ),
      'input-format': INPUT_FORMAT,
      'id-field': ID_FIELD
    }
  },
  validate: {
    summary: 'check an evaluation set against its contract and list every violation',
    about: `Checks the schema (rules/dataset.schema.json), gold vs answerable, unique fact ids, every chunk in the corpus
listing, and no silent change against the previous copy. Lists every violation as file:line: [id] rule: message.
Exit 0 = valid, 2 = violations.`,
    options: {
      dataset: takes('the evaluation set (JSON Lines)', { required: true }),
      corpus: takes('the corpus listing every chunk id may come from'),
      previous: takes('the previous copy of the evaluation set, to compare with')
    }
  },
  explain: {
    summary: 'say in plain words what each check of the rules will demand',
    options: { rules: takes('the rules to explain', { required: true }) }
  },
  sql: {
    summary: "write the SQL that computes the gate's sums where the rows are, for gate --aggregates",
    about: `The statement computes Poisson resample sums, sign-flip sums, histograms of few-valued metrics, counts and
moments per subset and stratum, for DuckDB, Spark SQL or BigQuery; the rules fix statistics.method (poisson, or
multinomial for few-valued metrics). Run it, export the result (Parquet, CSV or JSON Lines; a file or a directory of
part files), then gate with --aggregates FILE|DIR in place of --baseline and --candidate. docs/scale.md.`,
    options: {
      rules: takes('the rules the sums are for', { required: true }),
      dialect: takes('duckdb (the default), spark or bigquery', { value: '<dialect>' }),
      baseline: takes("the baseline's per-query rows: a table or any relation (default: baseline)", {
        value: '<relation>'
      }),
      candidate: takes("the candidate's per-query rows (default: candidate)", { value: '<relation>' }),
      'id-field': ID_FIELD,
      shard: takes("this run's shard, when the SQL runs once per partition (the gate adds the shards)", {
        value: '<name>'
      }),
      'histograms-only': flag('leave out the Poisson and sign sums: enough when every metric takes few values'),
      out: takes('write the SQL to a file (default: stdout)')
    }
  }
} as const satisfies Record<string, CommandSpec>

/** The command names, in the order the usage lists them. */
export type CommandName = keyof typeof COMMANDS

/** True for a name {@link COMMANDS} knows. */
export function isCommand(name: string): name is CommandName {
  return Object.prototype.hasOwnProperty.call(COMMANDS, name)
}

/** The options of `name` as node:util parseArgs takes them (the help fields left out). */
export function parserOptions(name: CommandName): Record<string, OptionSpec> {
  const out: Record<string, OptionSpec> = {}
  for (const [key, o] of Object.entries(COMMANDS[name].options as Record<string, OptionDoc>)) {
    out[key] = {
      type: o.type,
      ...(o.multiple === true ? { multiple: true } : {}),
      ...(o.short === undefined ? {} : { short: o.short })
    }
  }
  return out
}

/** `-m, --measure <name>` or `    --rules <file>` (long options line up under a short one's long form). */
function flags(name: string, o: OptionDoc): string {
  const long = `--${name}${o.value === undefined ? '' : ` ${o.value}`}`
  return o.short === undefined ? `    ${long}` : `-${o.short}, ${long}`
}

/** Lines of `  flags  description`, the descriptions in one column (two spaces after the longest flags). */
function optionLines(entries: ReadonlyArray<[string, string]>): string[] {
  const width = maxOf(entries.map(([f]) => f.length))
  return entries.map(([f, d]) => `  ${f.padEnd(width)}  ${d}`)
}

/** What `<command> --help` prints: the version, the usage line, what it does, one option per line, the exit codes. */
export function commandUsage(name: CommandName): string {
  const spec = COMMANDS[name] as CommandSpec
  const options = Object.entries(spec.options)
  const required = options
    .filter(([, o]) => o.required === true)
    .map(([key, o]) =>
      o.short === undefined ? `--${key} ${o.value ?? ''}`.trimEnd() : `-${o.short} ${o.value ?? ''}`.trimEnd()
    )
  const entries: Array<[string, string]> = options.map(([key, o]) => [
    flags(key, o),
    `${o.description}${o.required === true ? ' (required)' : ''}`
  ])
  entries.push(['-h, --help', 'show this help'])
  return [
    `retrieval-gate ${VERSION}`,
    '',
    `Usage: retrieval-gate ${name} ${required.join(' ')} [options]`,
    '',
    `${spec.summary[0].toUpperCase()}${spec.summary.slice(1)}.`,
    ...(spec.about === undefined ? [] : [spec.about]),
    '',
    'Options:',
    ...optionLines(entries),
    '',
    EXIT_CODES,
    ''
  ].join('\n')
}

/** What `retrieval-gate --help` prints: every command with its summary, the global options, the exit codes. */
export function fullUsage(): string {
  const commands = (Object.keys(COMMANDS) as CommandName[]).map((n): [string, string] => [n, COMMANDS[n].summary])
  commands.push(['help <command>', "show a command's options (also: retrieval-gate <command> --help)"])
  return [
    `retrieval-gate ${VERSION}`,
    '',
    'Usage: retrieval-gate <command> [options]',
    '',
    'Commands:',
    ...optionLines(commands),
    '',
    'Options:',
    ...optionLines([
      ['-v, --version', 'print the version'],
      ['-h, --help', 'show this help']
    ]),
    '',
    EXIT_CODES,
    `From a clone: node dist/cli.js <command> ...; installed from its tarball (npm pack, then npm install -g ./retrieval-gate-${VERSION}.tgz): retrieval-gate <command> ...`,
    'The npm registry (npm install -g retrieval-gate, npx retrieval-gate) has it from the first release on.',
    ''
  ].join('\n')
}

/** The line a usage error ends with: where the command's options are listed, as the user runs the CLI (`program`). */
export function seeHelp(name: CommandName | undefined, program = 'retrieval-gate'): string {
  return name === undefined ? `see ${program} --help` : `see ${program} ${name} --help`
}

/**
 * True when the arguments ask for help (`--help` or `-h` anywhere before a `--`): checked before parsing, so
 * `gate --help` answers with the usage even when the other arguments are incomplete.
 */
export function asksForHelp(args: readonly string[]): boolean {
  for (const a of args) {
    if (a === '--') return false
    if (a === '--help' || a === '-h') return true
  }
  return false
}

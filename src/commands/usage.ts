import { VERSION } from '../version.js'

/** One option as node:util parseArgs takes it. */
export interface OptionSpec {
  type: 'string' | 'boolean'
  multiple?: boolean
  short?: string
}

/** A command's options and its usage text, side by side so they cannot drift (a test checks each option is listed). */
export interface CommandSpec {
  options: Record<string, OptionSpec>
  usage: string
}

const INPUTS = `  Inputs: per-query rows are JSON Lines, CSV or Parquet, wide (a column per metric) or long (query_id/qid,
  measure, value; also TSV), or the output of ragas, deepeval, pytrec_eval, ir_measures or trec_eval -q (detected,
  or named with --input-format jsonl|csv|long|parquet|ragas|deepeval|pytrec_eval|ir_measures|trec_eval; a CSV
  whose name does not end in .csv needs --input-format csv; --id-field names the query id column of exports
  without query_id). Runs may be TREC, JSON Lines, ranx / pytrec_eval JSON or Parquet; judgments TREC qrels,
  ranx / pytrec_eval JSON or BEIR TSV.
`

/**
 * Every command the CLI accepts: the options its parser is given and the usage `<command> --help` prints.
 * Kept in one table because a usage written apart from the parser forgets options (`--input-format` was
 * accepted by gate for a release before its usage said so).
 */
export const COMMANDS = {
  gate: {
    options: {
      rules: { type: 'string' },
      baseline: { type: 'string', multiple: true },
      candidate: { type: 'string', multiple: true },
      markdown: { type: 'string' },
      json: { type: 'string' },
      html: { type: 'string' },
      qrels: { type: 'string' },
      regressions: { type: 'string' },
      format: { type: 'string' },
      'input-format': { type: 'string' },
      'id-field': { type: 'string' },
      'baseline-manifest': { type: 'string' },
      'candidate-manifest': { type: 'string' },
      reference: { type: 'string' },
      'reference-manifest': { type: 'string' },
      'candidate-judge-labels': { type: 'string' },
      'to-judge': { type: 'string' },
      aggregates: { type: 'string', multiple: true }
    },
    usage: `  retrieval-gate gate --rules R --baseline B --candidate C [--markdown F] [--json F] [--html F]
                      [--qrels Q] [--regressions F] [--to-judge F] [--format markdown|json|text]
                      [--input-format F] [--id-field NAME]
                      [--baseline-manifest F] [--candidate-manifest F]
                      [--reference F] [--reference-manifest F] [--candidate-judge-labels F]
      Compare baseline and candidate (per-query rows, or runs when the rules name judgments or --qrels is
      given) against the rules; print the report (--format: text on a terminal, else markdown; text is
      coloured on a terminal unless NO_COLOR is set). --markdown and --json also write the report to a file;
      --html writes it as one self-contained HTML page with plots of every check and query (docs/report.md);
      --regressions writes the queries that got worse on a gated metric as JSON Lines; --to-judge writes the
      unjudged documents to judge; --baseline-manifest / --candidate-manifest give each side's manifest
      for the comparability checks. --reference gives the rows of the rules' reference (the last release)
      that the checks' budgets are spent against (default: the rules' reference path, when it names no ref);
      --reference-manifest its snapshot manifest. --candidate-judge-labels gives the candidate judge's labels
      of the rules' judge anchors (the anchors themselves are the exam's).
      Repeat --baseline / --candidate to give one per-query rows file per
      independently trained seed: the gate compares seed-averaged means with an interval over seeds and
      queries (docs/statistics.md, "Seed replicates").
      Exit 0 = pass, 1 = fail (a rule was not met), 2 = unusable input or usage.
  retrieval-gate gate --rules R --aggregates A [--aggregates A ...] [--markdown F] [--json F] [--format F]
      The same decision from a warehouse's aggregates instead of the rows: A is the result of the
      statement retrieval-gate sql writes for R (Parquet, CSV or JSON Lines; one file per shard, or one
      for all). The report has every check, interval and test; no per-query lists (docs/scale.md).
${INPUTS}`
  },
  sql: {
    options: {
      rules: { type: 'string' },
      dialect: { type: 'string' },
      baseline: { type: 'string' },
      candidate: { type: 'string' },
      'id-field': { type: 'string' },
      shard: { type: 'string' },
      'histograms-only': { type: 'boolean' },
      out: { type: 'string' }
    },
    usage: `  retrieval-gate sql --rules R [--dialect duckdb|spark|bigquery] [--baseline REL] [--candidate REL]
                     [--id-field NAME] [--shard NAME] [--histograms-only] [--out FILE]
      Write the SQL that computes, where the rows are, the sums the gate decides from (Poisson resample
      sums, sign-flip sums, histograms of few-valued metrics, counts and moments per subset and stratum).
      REL is a table or any relation of per-query rows (default baseline / candidate; e.g.
      "read_parquet('base/*.parquet')"). Run it, export the result, then gate --aggregates. --shard names
      this run's rows when the SQL runs once per partition (the gate adds the shards).
      --histograms-only leaves out the Poisson and sign sums (most of the cost): enough when every
      metric takes few values (hit@k, recall@k, nDCG on a grid). docs/scale.md.
`
  },
  metrics: {
    options: {
      qrels: { type: 'string' },
      run: { type: 'string' },
      measure: { type: 'string', short: 'm', multiple: true },
      'per-query': { type: 'boolean' },
      format: { type: 'string' },
      depth: { type: 'string', short: 'M' },
      'no-relevant': { type: 'string' }
    },
    usage: `  retrieval-gate metrics --qrels Q --run R -m MEASURE [-m MEASURE ...] [--per-query] [--format trec|jsonl]
                         [-M DEPTH] [--no-relevant exclude|zero|report]
      Compute ranking metrics from a run (TREC or JSON Lines) and judgments (TREC qrels), as trec_eval -c -q
      does (--no-relevant zero averages over every judged query, exactly as trec_eval -c). -m (--measure)
      takes ir_measures names (nDCG@10, P@5, RR, AP) or trec_eval names (ndcg_cut_10, P_5, recip_rank, map);
      -M (--depth) keeps the top DEPTH documents of each ranking.
`
  },
  init: {
    options: {
      baseline: { type: 'string' },
      candidate: { type: 'string' },
      out: { type: 'string' },
      force: { type: 'boolean' },
      qrels: { type: 'string' },
      'input-format': { type: 'string' },
      'id-field': { type: 'string' }
    },
    usage: `  retrieval-gate init --baseline B --candidate C [--out retrieval-gate.yml] [--force] [--qrels Q]
                      [--input-format F] [--id-field NAME]
      Inspect the two files and write a commented starter rules file to edit before the first PR
      (--force overwrites an existing one).
${INPUTS}`
  },
  validate: {
    options: { dataset: { type: 'string' }, corpus: { type: 'string' }, previous: { type: 'string' } },
    usage: `  retrieval-gate validate --dataset D [--corpus C] [--previous P]
      Check an evaluation set (JSON Lines, rules/dataset.schema.json) against its contract: schema, gold vs
      answerable, unique fact ids, every chunk in the corpus listing C, no silent change against the previous
      copy P. Lists every violation as file:line: [id] rule: message. Exit 0 = valid, 2 = violations.
`
  },
  explain: {
    options: { rules: { type: 'string' } },
    usage: `  retrieval-gate explain --rules R
      Say in plain words what each check of the rules will demand.
`
  }
} as const satisfies Record<string, CommandSpec>

/** The command names, in the order the usage lists them. */
export type CommandName = keyof typeof COMMANDS

/** True for a name {@link COMMANDS} knows. */
export function isCommand(name: string): name is CommandName {
  return Object.prototype.hasOwnProperty.call(COMMANDS, name)
}

/** What `<command> --help` prints: the version line, then that command's usage. */
export function commandUsage(name: CommandName): string {
  return `retrieval-gate ${VERSION}\n\nUsage:\n${COMMANDS[name].usage}  Every command takes --help (-h).\n`
}

/** What `retrieval-gate --help` prints: every command's usage. */
export function fullUsage(): string {
  const inputs = Object.values(COMMANDS)
    .map((c) => c.usage.replace(INPUTS, ''))
    .join('')
  return `retrieval-gate ${VERSION}\n\nUsage:\n${inputs}${INPUTS}  retrieval-gate --version | --help | <command> --help\n`
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

import { InputError } from '../errors.js'
import { aggregateRows, computeRunRows, formatValue, type NoRelevantPolicy } from '../metrics/index.js'
import { quote } from '../util/show.js'
import { jsonLine } from '../util/json-line.js'
import { jsonNumbers } from '../util/json-number.js'
import { lineRuns } from './line-runs.js'

/** Arguments of the `metrics` command, as the CLI parsed them. */
export interface MetricsArgs {
  qrels: string
  run: string
  /** Measure names as given with -m (repeatable); printed exactly as spelled. */
  measures: string[]
  /** Print one line (trec) or record (jsonl) per query before the summary. */
  perQuery: boolean
  format: 'trec' | 'jsonl'
  /** -M: only the top `depth` documents of each ranking count. */
  depth?: number
  /** Default `zero`: judged queries without a relevant document count in the averages, as in trec_eval. */
  noRelevant?: NoRelevantPolicy
  /** -c: a judged query absent from the run scores 0 (trec_eval -c); without it the command stops on one. */
  complete?: boolean
}

/** What the command says beside its output: how its numbers leave trec_eval's, when they do. */
export interface MetricsNotes {
  /** Lines for stderr (stdout stays trec_eval's format). */
  warnings: string[]
}

/**
 * A TREC field is a run of characters other than white space (trec_eval splits its lines on blanks). A query id
 * or measure holding white space, a control character or a line or paragraph separator (a JSON Lines run or a
 * ranx / pytrec_eval file can hold any), or what the log boundary would rewrite inside a line (bidi marks, BOM,
 * `##[`: src/util/show.ts), cannot be written as one: it would print as two fields or two lines, or as another
 * id. Such an id is refused, escaped in the message, with `--format jsonl` (which writes every id as a JSON
 * string) as the way out; so is the id `all`, which a reader of `trec_eval -q` output takes for the summary line.
 */
const NOT_IN_TREC_FIELD = /[\s\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff]/

/** Refuses `text` as a field of `--format trec` output (see {@link NOT_IN_TREC_FIELD}). */
function checkTrecField(text: string, what: 'query id' | 'measure', file: string): void {
  const problem =
    text === ''
      ? 'is empty'
      : NOT_IN_TREC_FIELD.test(text) || text.includes('##[')
        ? 'holds white space, a control character or a line separator, so it cannot be written as one field of a TREC line'
        : what === 'query id' && text === 'all'
          ? 'is "all", which --format trec uses for the summary line'
          : undefined
  if (problem === undefined) return
  const where = what === 'query id' ? { file, queryId: text } : { key: '-m' }
  throw new InputError(
    where,
    `the ${what} ${quote(text)} ${problem}`,
    '--format jsonl writes every id and measure exactly (as JSON strings)'
  )
}

/**
 * `metrics`: a run and judgments in, trec_eval's numbers out. With no option it prints what `trec_eval -q` (10.0)
 * prints: the average is over every judged query, including those without a relevant document, and a judged
 * query the run lacks stops it as it stops trec_eval; `-c` (`complete`) scores such a query 0 as `trec_eval -c`.
 * `--no-relevant exclude | report` leaves trec_eval's numbers, and the returned warnings say how many queries.
 * `--format trec` prints `MEASURE\tQUERY_ID\tVALUE` (per query with --per-query, in trec_eval -q's order:
 * queries in byte order of their ids, each with all its measures) and then `MEASURE\tall\tVALUE`;
 * `--format jsonl` prints `{"query_id", <measure>: value, ...}` per query and then one summary record
 * `{"all": {...}, "coverage": {...}}`. Output goes through `write` in runs of whole lines (lineRuns).
 * Throws InputError for unusable input (the CLI exits 2).
 */
export async function metricsCommand(args: MetricsArgs, write: (text: string) => void): Promise<MetricsNotes> {
  const noRelevant = args.noRelevant ?? 'zero'
  const scored = await computeRunRows({
    runFile: args.run,
    qrelsFile: args.qrels,
    measures: args.measures,
    depth: args.depth,
    noRelevant,
    absentFromRun: args.complete === true ? 'zero' : 'refuse',
    keepRows: true
  })
  const runs = lineRuns(write)
  const out = runs.add
  const { coverage, measures } = scored
  // The rows as scored (kept as objects for this command): each record's fields in its own order, null apart from absent.
  const rows = scored.rows ?? []
  const all = aggregateRows(measures, rows)
  if (args.format === 'trec') {
    for (const m of measures) checkTrecField(m.name, 'measure', args.run)
    if (args.perQuery) for (const row of rows) checkTrecField(row.id, 'query id', args.run)
    if (args.perQuery) {
      for (const row of rows) {
        for (const m of measures) out(`${m.name}\t${row.id}\t${formatValue(m, row.values.get(m.name) ?? 0)}\n`)
      }
    }
    for (let i = 0; i < measures.length; i++) out(`${measures[i].name}\tall\t${formatValue(measures[i], all[i])}\n`)
  } else {
    if (args.perQuery) {
      for (const row of rows) {
        const record: Record<string, unknown> = Object.create(null) as Record<string, unknown>
        record.query_id = row.id
        for (const [key, value] of row.values) record[key] = value
        for (const [key, value] of row.attrs) if (!(key in record)) record[key] = value
        // 12 significant digits, as every JSON output writes numbers (src/util/json-number.ts).
        out(jsonLine(record, jsonNumbers))
      }
    }
    const summary: Record<string, unknown> = { queries: rows.length }
    measures.forEach((m, i) => (summary[m.name] = all[i]))
    out(jsonLine({ all: summary, coverage }, jsonNumbers))
  }
  runs.end()
  const left = coverage.noRelevant.ids.length
  const warnings =
    noRelevant === 'zero' || left === 0
      ? []
      : [
          `${left} judged ${left === 1 ? 'query' : 'queries'} without a relevant document left out of the averages (--no-relevant ${noRelevant}); trec_eval averages over them: leave out --no-relevant for its numbers`
        ]
  return { warnings }
}

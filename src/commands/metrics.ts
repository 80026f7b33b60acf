import { aggregateRows, computeRunRows, formatValue, type NoRelevantPolicy } from '../metrics/index.js'
import { jsonNumbers } from '../util/json-number.js'

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

const CHUNK = 1 << 16

/**
 * `metrics`: a run and judgments in, trec_eval's numbers out. With no option it prints what `trec_eval -q` (10.0)
 * prints: the average is over every judged query, including those without a relevant document, and a judged
 * query the run lacks stops it as it stops trec_eval; `-c` (`complete`) scores such a query 0 as `trec_eval -c`.
 * `--no-relevant exclude | report` leaves trec_eval's numbers, and the returned warnings say how many queries.
 * `--format trec` prints `MEASURE\tQUERY_ID\tVALUE` (per query with --per-query, in trec_eval -q's order:
 * queries in byte order of their ids, each with all its measures) and then `MEASURE\tall\tVALUE`;
 * `--format jsonl` prints `{"query_id", <measure>: value, ...}` per query and then one summary record
 * `{"all": {...}, "coverage": {...}}`. Output goes through `write` in large chunks.
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
  let buffer = ''
  const out = (text: string): void => {
    buffer += text
    if (buffer.length >= CHUNK) {
      write(buffer)
      buffer = ''
    }
  }
  const { coverage, measures } = scored
  // The rows as scored (kept as objects for this command): each record's fields in its own order, null apart from absent.
  const rows = scored.rows ?? []
  const all = aggregateRows(measures, rows)
  if (args.format === 'trec') {
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
        out(JSON.stringify(record, jsonNumbers) + '\n')
      }
    }
    const summary: Record<string, unknown> = { queries: rows.length }
    measures.forEach((m, i) => (summary[m.name] = all[i]))
    out(JSON.stringify({ all: summary, coverage }, jsonNumbers) + '\n')
  }
  if (buffer) write(buffer)
  const left = coverage.noRelevant.ids.length
  const warnings =
    noRelevant === 'zero' || left === 0
      ? []
      : [`${left} judged ${left === 1 ? 'query' : 'queries'} without a relevant document left out of the averages (--no-relevant ${noRelevant}); trec_eval averages over them: leave out --no-relevant for its numbers`]
  return { warnings }
}

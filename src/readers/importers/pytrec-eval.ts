import { InputError } from '../../errors.js'
import type { SideRows } from '../../model/rows.js'
import { RUN_WITHOUT_JUDGMENTS } from '../../util/input-hints.js'
import { readNestedNumbers } from '../json/nested.js'
import { RowsSink } from './rows-sink.js'

/**
 * pytrec_eval's per-query results, dumped with `json.dump(evaluator.evaluate(run), f)`:
 * `{"q1": {"map": 0.5, "ndcg_cut_10": 0.61, "P_5": 0.4}, ...}` (measure names as pytrec_eval spells them).
 * Each query becomes one row whose metric fields are the measures; name them in the rules exactly so
 * (`ndcg_cut_10`, not `nDCG@10`). The same shape is what ir_measures' `calc` results look like once turned
 * into a dict of dicts. Read streaming, with line numbers.
 */
export function readPytrecEvalRows(file: string, metricFields: ReadonlySet<string>): SideRows {
  const sink = new RowsSink(file, metricFields)
  const shape = new InnerKeys(metricFields)
  let row: number | undefined
  readNestedNumbers(
    file,
    {
      outer: (id, line) => {
        row = sink.start(id, line)
        shape.query()
      },
      entry: (measure, value, line) => {
        shape.key(measure)
        if (row === undefined) return
        // a measure twice in a query is refused by the reader (like every repeated JSON key)
        // every measure is a number: a metric when the rules name it, a numeric field otherwise
        sink.value(row, measure, value, { line })
      },
      // null (pandas' to_json) is a missing value; NaN (json.dump) is refused where the rules read it, else not read
      notNumber: (measure, token, line) => {
        shape.key(measure)
        if (row !== undefined) sink.token(row, measure, token, { line })
      }
    },
    {
      what: 'pytrec_eval per-query results',
      example: '{"q1": {"ndcg_cut_10": 0.61, "map": 0.5}}',
      innerKey: 'measure',
      value: 'value'
    }
  )
  const run = shape.runLike()
  if (run !== undefined) {
    throw new InputError(
      { file },
      `this looks like a ranx / pytrec_eval run ({query: {document: score}}: ${run}), not per-query results`,
      RUN_WITHOUT_JUDGMENTS
    )
  }
  return sink.finish('write {"query_id": {"measure": value, ...}, ...}')
}

/** Most distinct inner keys counted (a run may hold millions of document ids; the count only has to pass a bound). */
const MAX_COUNTED_KEYS = 100_000

/**
 * The inner keys of a `{outer: {inner: number}}` file read as per-query results, to tell a run given by mistake
 * (ranx `Run.save`, `json.dump(run)`) from per-query measures: measures repeat in every query, so the distinct
 * inner keys are about as many as one query holds; a run's document ids differ from query to query. Only asked
 * when none of the rules' metrics was found, so a file the gate can read is never refused by this guess.
 */
class InnerKeys {
  private readonly distinct = new Set<string>()
  private queries = 0
  private inQuery = 0
  private most = 0
  private metricSeen = false

  constructor(private readonly metricFields: ReadonlySet<string>) {}

  query(): void {
    this.queries++
    this.inQuery = 0
  }

  key(name: string): void {
    this.inQuery++
    if (this.inQuery > this.most) this.most = this.inQuery
    if (this.metricFields.has(name)) this.metricSeen = true
    if (this.distinct.size < MAX_COUNTED_KEYS) this.distinct.add(name)
  }

  /** How the keys look like a run's ("6000 different keys under 60 queries, at most 100 in one"), or undefined. */
  runLike(): string | undefined {
    if (this.metricFields.size === 0 || this.metricSeen || this.queries < 2 || this.distinct.size <= 2 * this.most)
      return undefined
    const count = this.distinct.size === MAX_COUNTED_KEYS ? `more than ${MAX_COUNTED_KEYS}` : String(this.distinct.size)
    return `${count} different keys under ${this.queries} queries, at most ${this.most} in one`
  }
}

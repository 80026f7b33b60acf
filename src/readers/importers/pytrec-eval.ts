import type { SideRows } from '../../model/rows.js'
import { readNestedNumbers } from './json-object.js'
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
  let row: number | undefined
  readNestedNumbers(
    file,
    {
      outer: (id, line) => {
        row = sink.start(id, line)
      },
      entry: (measure, value, line) => {
        if (row === undefined) return
        // a measure twice in a query is refused by the reader (like every repeated JSON key)
        // every measure is a number: a metric when the rules name it, a numeric field otherwise
        sink.value(row, measure, value, { line })
      },
      // null (pandas' to_json) is a missing value; NaN (json.dump) is refused where the rules read it, else not read
      notNumber: (measure, token, line) => {
        if (row !== undefined) sink.token(row, measure, token, { line })
      }
    },
    { what: 'pytrec_eval per-query results', example: '{"q1": {"ndcg_cut_10": 0.61, "map": 0.5}}', innerKey: 'measure', value: 'value' }
  )
  return sink.finish('write {"query_id": {"measure": value, ...}, ...}')
}

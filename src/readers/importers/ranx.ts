import type { BlockCollector } from '../run-blocks.js'
import { toByteString } from '../../util/order.js'
import type { Qrels } from '../../model/qrels.js'
import { readNestedNumbers } from '../json/nested.js'
import { QrelsBuilder } from './qrels-builder.js'

/**
 * ranx and pytrec_eval runs and judgments: one JSON object `{query_id: {doc_id: value}}`, as written by
 * ranx's `Run.save("run.json")` / `Qrels.save("qrels.json")` (orjson, compact, one line) and by
 * `json.dump(run, f)` of the dicts pytrec_eval and ir_measures take (any indentation). Scores are any
 * finite numbers; grades whole numbers (`1` or `1.0`). Read streaming, with line numbers.
 */

/** Streams a JSON-object run into `collector` (one block per query, in file order). */
export function readRanxRun(file: string, collector: BlockCollector): number {
  const summary = readNestedNumbers(
    file,
    {
      outer: (id, line) => collector.startQuery(id, line),
      entry: (doc, score, line) => collector.add(toByteString(doc), score, line)
    },
    {
      what: 'a ranx / pytrec_eval run',
      example: '{"q1": {"doc7": 12.5, "doc3": 11.0}}',
      innerKey: 'document id',
      value: 'score'
    }
  )
  return summary.entries
}

/** Reads JSON-object judgments (`{query_id: {doc_id: grade}}`). */
export function readRanxQrels(file: string): Qrels {
  const builder = new QrelsBuilder(file)
  let current = ''
  readNestedNumbers(
    file,
    {
      outer: (id, line) => {
        current = id
        builder.query(id, line)
      },
      entry: (doc, grade, line) => builder.add(current, doc, grade, line)
    },
    {
      what: 'ranx / pytrec_eval judgments',
      example: '{"q1": {"doc7": 1, "doc3": 0}}',
      innerKey: 'document id',
      value: 'grade'
    }
  )
  return builder.finish('write {"query_id": {"doc_id": grade, ...}, ...}')
}

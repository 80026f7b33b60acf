import { InputError } from '../../errors.js'
import { quote } from '../../util/show.js'

/**
 * JSON shapes that hold aggregates, or per-query values the wrong way round, and would otherwise be read as
 * per-query rows with made-up "queries" (BEIR's `ndcg`, `map`, ...) or refused with a misleading message.
 * Each is recognised from the first keys of the document and refused by name, saying what to export instead:
 * the gate needs one value per query and system, and recomputes every aggregate itself.
 *
 * A metric-major dump `{metric: {query_id: value}}` (ranx `run.scores`) is refused rather than read
 * transposed: its outer keys are told from query ids only by their names, and a wrong guess would pair
 * metrics as queries; the fix (transpose before dumping) is one line of Python.
 */

/** Keys of ranx `Report.to_dict()` (ranx 0.3 `report.py`, written by `Report.save` with `json.dumps(indent=4)`). */
const RANX_REPORT_KEYS = new Set(['model_names', 'stat_test'])

/** Keys of each model's entry in a ranx Report (`{"bm25": {"scores": {...}, "comparisons": {...}, "win_tie_loss": {...}}}`). */
const RANX_MODEL_KEYS = new Set(['scores', 'comparisons', 'win_tie_loss'])

/** Outer keys of BEIR `util.save_results` (beir `util.py`: `{"ndcg": {...}, "map": ..., "recall": ..., "precision": ..., "mrr": ..., "r_cap": ..., "hole": ...}`). */
const BEIR_KEYS = new Set([
  'ndcg',
  'map',
  'recall',
  'precision',
  'mrr',
  'r_cap',
  'recall_cap',
  'hole',
  'accuracy',
  'top_k_accuracy'
])

/** BEIR's aggregate names: `NDCG@10`, `MAP@100`, `Recall@1`, `P@5`, `MRR@10`, `R_cap@10`, `Hole@10`. */
const BEIR_INNER = /^[A-Za-z_]+@\d+$/

/** Metric names as ranx, ir_measures, pytrec_eval and trec_eval spell them (lower or mixed case, optional @k or _k). */
const METRIC_NAME =
  /^(?:ndcg|ndcg_burges|dcg|dcg_burges|map|mrr|precision|recall|f1|hits|hit_rate|r-precision|rprec|bpref|rbp|ap|rr|p|r|err|judged|recip_rank|p_\d+|recall_\d+|ndcg_cut_\d+|map_cut_\d+|success_\d+|success|accuracy)(?:@\d+)?$/i

/** The first key of a JSON object given as text (`{"a": ...` gives "a"), and the first key of its first value when that is an object. */
function firstKeys(head: string): { outer?: string; inner?: string } {
  const outer = /^\s*\{\s*"((?:[^"\\]|\\.)*)"\s*:\s*/.exec(head)
  if (outer === null) return {}
  const inner = /^\{\s*"((?:[^"\\]|\\.)*)"/.exec(head.slice(outer[0].length))
  return { outer: outer[1], inner: inner?.[1] }
}

/** The aggregate-only JSON shapes recognised (and refused) where per-query rows are read. */
export type NotPerQueryShape = 'ranx-report' | 'beir-results' | 'metric-major'

/** Which of the refused shapes a document is, from its first keys in the head of the file; undefined for any other. */
export function notPerQueryShape(head: string): NotPerQueryShape | undefined {
  const { outer, inner } = firstKeys(head)
  if (outer === undefined) return undefined
  const listFirst = inner === undefined && /^\s*\{\s*"metrics"\s*:\s*\[/.test(head)
  if (RANX_REPORT_KEYS.has(outer) || listFirst || (inner !== undefined && RANX_MODEL_KEYS.has(inner)))
    return 'ranx-report'
  if (inner === undefined) return undefined
  if (BEIR_KEYS.has(outer) && BEIR_INNER.test(inner)) return 'beir-results'
  if (METRIC_NAME.test(outer) && !METRIC_NAME.test(inner)) return 'metric-major'
  return undefined
}

/** The refusal of a document of shape `shape` (see {@link notPerQueryShape}), saying what to export instead. */
export function notPerQueryRefusal(file: string, head: string, shape: NotPerQueryShape): InputError {
  if (shape === 'ranx-report') {
    return new InputError(
      { file, line: 1 },
      'is a ranx Report (Report.save: one aggregate score per model and metric), not per-query data',
      'export per-query scores instead: after ranx.evaluate(qrels, run, ["ndcg@10", ...]) (which fills run.scores), json.dump(pandas.DataFrame(run.scores).to_dict(orient="index"), f) gives {query_id: {metric: value}}; or give the gate the ranx runs and judgments (run.json, qrels.json) to score itself'
    )
  }
  const { outer, inner } = firstKeys(head) as { outer: string; inner: string }
  if (shape === 'beir-results') {
    return new InputError(
      { file, line: 1 },
      `is BEIR save_results output (aggregates only: ${quote(outer)}: {${quote(inner)}: ...}), not per-query data`,
      'give the gate the BEIR run (retriever.retrieve results, json.dump as {query_id: {doc_id: score}}) and qrels/test.tsv to score itself, or dump per-query values with pytrec_eval (evaluator.evaluate(results))'
    )
  }
  return new InputError(
    { file, line: 1 },
    `looks metric-major ({metric: {query_id: value}}: first key ${quote(outer)} is a metric name, its first key ${quote(inner)} a query id), which is not read the other way round`,
    'write one object per query, {query_id: {metric: value}}: e.g. pandas.DataFrame(scores).to_dict(orient="index") of ranx run.scores, or per-query rows in JSON Lines / CSV'
  )
}

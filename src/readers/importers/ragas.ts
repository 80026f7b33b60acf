/**
 * ragas' per-sample exports. ragas' `evaluate(...)` returns a result whose `to_pandas()` has one row per sample:
 * the inputs (`user_input`, `retrieved_contexts`, `response`, `reference`; ragas 0.1: `question`, `contexts`,
 * `answer`, `ground_truth`) and one column per metric (`context_precision`, `context_recall`, `faithfulness`,
 * `answer_relevancy`, ...). ragas itself writes no file; pandas does (`to_csv`, `to_json(orient="records")`,
 * `to_json(orient="records", lines=True)`), and every one of them is read by the generic per-sample records reader
 * (src/readers/importers/records-rows.ts). What is ragas' own is how its exports are recognised: by these column
 * names (src/readers/formats.ts).
 */

/** Column names that mark a ragas export (current and 0.1 names). */
export const RAGAS_COLUMNS: ReadonlySet<string> = new Set([
  'user_input',
  'retrieved_contexts',
  'reference_contexts',
  'response',
  'reference',
  'question',
  'contexts',
  'answer',
  'ground_truth',
  'ground_truths'
])

/** True when the columns look like a ragas export. */
export function looksLikeRagas(columns: Iterable<string>): boolean {
  for (const c of columns) if (RAGAS_COLUMNS.has(c)) return true
  return false
}

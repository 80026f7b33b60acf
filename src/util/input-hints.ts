/**
 * Hints for the mistakes a new user makes with input files, recognised from the first line or the fields
 * read: a CSV under another name, a run given where per-query rows were expected (a file's shape, told from its
 * first line whatever it was given as, is src/readers/shapes.ts). The readers
 * keep their own messages; these only choose the sentence that says what to do, so a refusal names the
 * likely cause ("it looks like a TREC run: name the judgments") instead of only the symptom ("not valid JSON").
 */

/** How much of a first line the guesses look at (a line may be up to 16 MiB; a guess needs a few fields). */
const HEAD_CHARS = 1000

/** Fields that name a document: a file with one of them and repeated query ids is a run, not per-query rows. */
const DOC_FIELDS = [
  'doc_id',
  'docid',
  'docno',
  'doc',
  'document_id',
  'corpus_id',
  'corpus-id',
  'pid',
  'passage_id',
  'chunk_id'
]

/**
 * What to do with a run (what the retriever returned) given where per-query rows were expected: every such
 * refusal says it the same way, in the words of the rules key (the action has no --qrels).
 */
export const RUN_WITHOUT_JUDGMENTS =
  'name the judgments (rules key judgments.qrels, e.g. judgments: { qrels: qrels.txt }) or pass --qrels, and keep the run files as --baseline / --candidate: the gate then computes the measures from the runs'

/** A refusal's problem and hint, for a reader to throw with its own place. */
export interface Mistake {
  problem: string
  hint: string
}

/**
 * The hint for the first line of a JSON Lines rows file that does not parse and is not a TREC line (those are
 * refused by their shape: src/readers/shapes.ts): a CSV header (`query_id,recall@10`). Returns `fallback` otherwise.
 */
export function firstLineHint(text: string, fallback: string): string {
  const head = text.slice(0, HEAD_CHARS).trimStart()
  if (head.startsWith('{') || head.startsWith('[')) return fallback
  if (head.includes(',') || head.includes(';') || head.includes('\t')) {
    return 'this looks like CSV: name the file with a .csv extension or pass --input-format csv (JSON Lines is assumed for any other name)'
  }
  return fallback
}

/** The document field of a rows file with repeated query ids (then a JSON Lines run: one line per document), or undefined. */
export function documentField(fields: Iterable<string>): string | undefined {
  for (const field of fields) if (DOC_FIELDS.includes(field.toLowerCase())) return field
  return undefined
}

/** Query id columns of a run table (ranx's `Run.to_dataframe()` writes `q_id`). */
const RUN_ID_COLUMNS = ['q_id', 'query_id', 'qid']

/**
 * A table (Parquet, CSV header) given as per-query rows that has the columns of a run, one row per retrieved
 * document (a query id, a document and a `score` column) and none of the metrics the rules name: the refusal, or
 * undefined.
 */
export function runTableMistake(
  columns: readonly string[],
  metricFields: ReadonlySet<string>,
  what: string
): Mistake | undefined {
  if (columns.some((c) => metricFields.has(c))) return undefined
  const id = columns.find((c) => RUN_ID_COLUMNS.includes(c))
  const doc = columns.find((c) => DOC_FIELDS.includes(c.toLowerCase()))
  if (id === undefined || doc === undefined || !columns.includes('score')) return undefined
  return {
    problem: `this looks like a run (${what} with columns ${id}, ${doc}, score), not per-query rows`,
    hint: RUN_WITHOUT_JUDGMENTS
  }
}

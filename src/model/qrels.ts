/**
 * Parsed judgments: the shape every judgments reader (TREC qrels, ranx / pytrec_eval JSON, BEIR TSV, an
 * evaluation set) produces and the metrics read. It lives in model/ so readers and metrics share it without
 * importing each other's files.
 */

/** The judgments of one query. */
export interface JudgedQuery {
  /** Query id exactly as written. */
  id: string
  /** Line of its first judgment. */
  line: number
  /** Document id (UTF-8 byte string, see order.ts) → grade as written (may be negative). */
  grades: Map<string, number>
  /** The grades >= 0, highest first: the ideal ranking for nDCG and the counts for rel thresholds. */
  gradesDesc: Int32Array
  /**
   * Key facts (evaluation-set judgments only): per fact, the document ids (byte strings) that support it.
   * FactRecall@k uses them; without them each relevant document counts as its own fact.
   */
  facts?: ReadonlyArray<readonly string[]>
}

/** All judgments of a file. */
export interface Qrels {
  /** The file as the user named it. */
  source: string
  queries: Map<string, JudgedQuery>
  /** Query ids in trec_eval's order (UTF-8 byte order), the order rows are produced and summed in. */
  ids: string[]
  /** Number of judgment lines. */
  judgments: number
}

/** Number of judgments with grade >= rel (trec_eval's num_rel at relevance level rel). */
export function countRelevant(query: JudgedQuery, rel: number): number {
  const g = query.gradesDesc
  let n = 0
  while (n < g.length && g[n] >= rel) n++
  return n
}

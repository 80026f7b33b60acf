/**
 * Hints for the mistakes a new user makes with input files, recognised from the first line or the fields
 * read: a CSV under another name, a run (or judgments) given where per-query rows were expected. The readers
 * keep their own messages; these only choose the sentence that says what to do, so a refusal names the
 * likely cause ("it looks like a TREC run: name the judgments") instead of only the symptom ("not valid JSON").
 */

/** How much of a first line the guesses look at (a line may be up to 16 MiB; a guess needs a few fields). */
const HEAD_CHARS = 1000

/** Fields that name a document: a file with one of them and repeated query ids is a run, not per-query rows. */
const DOC_FIELDS = ['doc_id', 'docid', 'docno', 'doc', 'document_id', 'corpus_id', 'corpus-id', 'pid', 'passage_id', 'chunk_id']

/** What to do with a run that was given without judgments (also used for the judgments-shaped guesses). */
const RUN_WITHOUT_JUDGMENTS =
  'a run (what the retriever returned) is scored against judgments: name them in the rules (judgments: { qrels: qrels.txt }) or pass --qrels, and keep the run files as --baseline / --candidate'

/** The whitespace-separated fields of the head of a line (no regex over the whole line). */
function headFields(text: string): string[] {
  return text
    .slice(0, HEAD_CHARS)
    .trim()
    .split(/[ \t]+/)
}

function isNumber(s: string | undefined): boolean {
  return s !== undefined && s !== '' && Number.isFinite(Number(s))
}

/**
 * The hint for the first line of a JSON Lines rows file that does not parse: a TREC run line
 * (`q1 Q0 doc7 1 12.5 tag`), a TREC qrels line (`q1 0 doc7 1`), or a CSV header (`query_id,recall@10`).
 * Returns `fallback` otherwise.
 */
export function firstLineHint(text: string, fallback: string): string {
  const head = text.slice(0, HEAD_CHARS).trimStart()
  if (head.startsWith('{') || head.startsWith('[')) return fallback
  const f = headFields(head)
  if ((f.length === 5 || f.length === 6) && isNumber(f[3]) && isNumber(f[4])) return `this looks like a TREC run (query Q0 doc rank score tag), not per-query rows: ${RUN_WITHOUT_JUDGMENTS}`
  if (f.length === 4 && isNumber(f[3]) && Number.isInteger(Number(f[3]))) {
    return 'this looks like TREC judgments (query iter doc grade), not per-query rows: pass it with --qrels (or judgments: in the rules) and give the runs as --baseline / --candidate'
  }
  if (head.includes(',') || head.includes(';') || head.includes('\t')) {
    return 'this looks like CSV: name the file with a .csv extension or pass --input-format csv (JSON Lines is assumed for any other name)'
  }
  return fallback
}

/** The hint for repeated query ids: a file with a document field is a JSON Lines run, else `fallback`. */
export function duplicateIdsHint(fields: Iterable<string>, fallback: string): string {
  for (const field of fields) {
    if (DOC_FIELDS.includes(field.toLowerCase())) return `this looks like a run (one line per retrieved document, field "${field}"), not per-query rows: ${RUN_WITHOUT_JUDGMENTS}`
  }
  return fallback
}

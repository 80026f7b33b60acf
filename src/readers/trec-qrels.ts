import { InputError } from '../errors.js'
import { forEachLine } from './lines.js'
import { quote } from '../util/show.js'
import type { Qrels } from '../model/qrels.js'
import { QrelsBuilder } from './importers/qrels-builder.js'

/**
 * TREC judgments (`qid iter docno grade`), read once and shared by the baseline and the candidate run.
 * Grades are kept as written; as in trec_eval, a negative grade marks a document that is in the pool but
 * unjudged: it is neither relevant nor non-relevant (bpref skips it, nDCG gives it no gain) and it never
 * counts as a relevant document of the query.
 */

const WS = /[ \t\v\f\r]+/

/**
 * Reads a TREC qrels file. Refuses a malformed line, a non-integer grade and a document judged twice for
 * the same query, naming the file and line. Blank lines and lines starting with `#` are skipped (as
 * trec_eval does). ranx / pytrec_eval JSON and BEIR TSV judgments are read by src/readers/importers with the
 * same semantics (src/readers/formats.ts tells them apart).
 */
export async function readTrecQrels(file: string): Promise<Qrels> {
  const builder = new QrelsBuilder(file)
  await forEachLine(file, (text, line) => {
    const trimmed = text.trim()
    if (trimmed === '' || trimmed.startsWith('#')) return
    const fields = trimmed.split(WS)
    if (fields.length !== 4) {
      throw new InputError(
        { file, line },
        `a qrels line needs 4 fields "query_id iteration doc_id grade", found ${fields.length}`,
        'fix or remove the line (qrels are whitespace-separated TREC judgments)'
      )
    }
    const [id, , docText, gradeText] = fields
    if (!/^[+-]?[0-9]+$/.test(gradeText) || !Number.isSafeInteger(Number(gradeText))) {
      throw new InputError(
        { file, line, queryId: id },
        `grade ${quote(gradeText)} is not a whole number`,
        'grades are integers such as 0, 1, 2 or 3 (negative = in the pool but unjudged)'
      )
    }
    builder.add(id, docText, Number(gradeText), line)
  })
  return builder.finish('a qrels file has lines "query_id iteration doc_id grade"')
}

import { InputError } from '../errors.js'
import { forEachLine } from './lines.js'
import { compareCodePoints, fromByteString, toByteString } from '../util/order.js'
import { quote } from '../util/show.js'
import type { JudgedQuery, Qrels } from '../model/qrels.js'

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
  const queries = new Map<string, JudgedQuery>()
  const pendingGrades = new Map<string, number[]>()
  const firstLines = new Map<string, Map<string, number>>()
  let judgments = 0
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
    const grade = Number(gradeText)
    const docno = toByteString(docText)
    let query = queries.get(id)
    let lines = firstLines.get(id)
    if (query === undefined || lines === undefined) {
      query = { id, line, grades: new Map(), gradesDesc: new Int32Array(0) }
      lines = new Map()
      queries.set(id, query)
      firstLines.set(id, lines)
      pendingGrades.set(id, [])
    }
    const earlier = lines.get(docno)
    if (earlier !== undefined) {
      throw new InputError(
        { file, line, queryId: id },
        `document ${quote(fromByteString(docno))} is judged twice for query ${quote(id)} (also on line ${earlier})`,
        'keep one judgment per query and document'
      )
    }
    lines.set(docno, line)
    query.grades.set(docno, grade)
    if (grade >= 0) pendingGrades.get(id)!.push(grade)
    judgments++
  })
  if (queries.size === 0) {
    throw new InputError({ file }, 'holds no judgments', 'a qrels file has lines "query_id iteration doc_id grade"')
  }
  for (const [id, query] of queries) {
    const grades = Int32Array.from(pendingGrades.get(id)!)
    grades.sort()
    grades.reverse()
    query.gradesDesc = grades
  }
  const ids = [...queries.keys()].sort(compareCodePoints)
  return { source: file, queries, ids, judgments }
}

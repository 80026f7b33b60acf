import { InputError } from '../../errors.js'
import type { JudgedQuery, Qrels } from '../../model/qrels.js'
import { compareCodePoints, fromByteString, toByteString } from '../../util/order.js'
import { quote } from '../../util/show.js'

/** The largest grade a judgment may have: grades are held as 32-bit integers (Int32Array) for the ideal ranking. */
const MAX_GRADE = 2 ** 31 - 1

/**
 * Builds {@link Qrels} from judgments in every format (TREC qrels, src/readers/trec-qrels.ts; ranx / pytrec_eval
 * JSON, BEIR TSV), so they all have one semantics: grades are whole numbers kept as written
 * (negative = in the pool but unjudged), a document judged twice for a query is refused with both lines,
 * query ids are ordered by UTF-8 bytes as trec_eval orders them.
 */
export class QrelsBuilder {
  private readonly queries = new Map<string, JudgedQuery>()
  private readonly pending = new Map<string, number[]>()
  private readonly lines = new Map<string, Map<string, number>>()
  private judgments = 0

  constructor(private readonly file: string) {}

  /** Declares a query (a JSON query may have no judgments: it is still a judged query, with none relevant). */
  query(id: string, line: number): void {
    if (this.queries.has(id)) return
    this.queries.set(id, { id, line, grades: new Map(), gradesDesc: new Int32Array(0) })
    this.pending.set(id, [])
    this.lines.set(id, new Map())
  }

  /** Adds one judgment; `grade` must already be a number (the importer parsed it). */
  add(id: string, doc: string, grade: number, line: number): void {
    // the grades are kept as 32-bit integers (the ideal ranking): a larger one would wrap, silently
    if (!Number.isSafeInteger(grade) || grade > MAX_GRADE || grade < -MAX_GRADE - 1) {
      throw new InputError(
        { file: this.file, line, queryId: id },
        Number.isSafeInteger(grade)
          ? `grade ${String(grade)} of document ${quote(doc)} is beyond a 32-bit integer`
          : `grade ${String(grade)} of document ${quote(doc)} is not a whole number`,
        'grades are integers such as 0, 1, 2 or 3 (negative = in the pool but unjudged)'
      )
    }
    this.query(id, line)
    const query = this.queries.get(id) as JudgedQuery
    const docLines = this.lines.get(id) as Map<string, number>
    const docno = toByteString(doc)
    const earlier = docLines.get(docno)
    if (earlier !== undefined) {
      throw new InputError(
        { file: this.file, line, queryId: id },
        `document ${quote(fromByteString(docno))} is judged twice for query ${quote(id)} (also on line ${earlier})`,
        'keep one judgment per query and document'
      )
    }
    docLines.set(docno, line)
    query.grades.set(docno, grade)
    if (grade >= 0) (this.pending.get(id) as number[]).push(grade)
    this.judgments++
  }

  /** The judgments, refused when there are none. */
  finish(emptyHint: string): Qrels {
    if (this.queries.size === 0) throw new InputError({ file: this.file }, 'holds no judgments', emptyHint)
    for (const [id, query] of this.queries) query.gradesDesc = descendingGrades(this.pending.get(id) as number[])
    const ids = [...this.queries.keys()].sort(compareCodePoints)
    return { source: this.file, queries: this.queries, ids, judgments: this.judgments }
  }
}

/** A query's judged grades (not negative ones) from the highest down: the ideal ranking of nDCG and its kin. */
export function descendingGrades(grades: readonly number[]): Int32Array {
  const desc = Int32Array.from(grades)
  desc.sort()
  return desc.reverse()
}

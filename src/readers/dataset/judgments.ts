import type { JudgedQuery, Qrels } from '../../model/qrels.js'
import { compareCodePoints, toByteString } from '../../util/order.js'
import type { Dataset, Question, Split } from './types.js'
import { descendingGrades } from '../importers/qrels-builder.js'

/** Which split the gate grades on: one of the dataset's, or every question. */
export type SplitChoice = Split | 'all'

/** The dataset turned into judgments, and every question that was left out of them, by reason. */
export interface DatasetJudgments {
  qrels: Qrels
  split: SplitChoice
  /** Answerable, undisputed questions of the split: the gated queries (sorted). */
  gated: string[]
  /** Questions of the split under review status "disputed": kept in the file, excluded from gated metrics. */
  disputed: string[]
  /** Unanswerable, undisputed questions of the split: never in recall averages, reported on their own. */
  unanswerable: string[]
  /** Questions of other splits (not graded by this gate). */
  otherSplit: number
  /** Attributes the dataset gives each question (category, difficulty), to slice the report by. */
  attrs: Map<string, Map<string, string>>
}

/**
 * The grade of every chunk a question names: `graded_relevance` when given, else 1 for a gold chunk and 0
 * for a distractor. Exported for tests and for the docs' worked example.
 */
function gradesOf(q: Question): Map<string, number> {
  const grades = new Map<string, number>()
  for (const c of q.distractors ?? []) grades.set(c, 0)
  for (const c of q.gold_chunk_ids) grades.set(c, 1)
  const graded = q.graded_relevance ?? {}
  for (const c of Object.keys(graded).sort()) grades.set(c, graded[c])
  return grades
}

/**
 * Gold chunks and graded relevance act as judgments: builds the same {@link Qrels} a TREC qrels file gives,
 * for the answerable, undisputed questions of the chosen split, so every measure is computed exactly as for
 * TREC judgments. Key facts travel along for FactRecall@k. Call only on a dataset without violations.
 */
export function datasetJudgments(dataset: Dataset, split: SplitChoice): DatasetJudgments {
  const queries = new Map<string, JudgedQuery>()
  const disputed: string[] = []
  const unanswerable: string[] = []
  const attrs = new Map<string, Map<string, string>>()
  let otherSplit = 0
  let judgments = 0
  for (const { line, q } of dataset.entries) {
    const a = new Map<string, string>()
    if (q.category !== undefined) a.set('category', q.category)
    if (q.difficulty !== undefined) a.set('difficulty', q.difficulty)
    a.set('split', q.split)
    attrs.set(q.id, a)
    if (split !== 'all' && q.split !== split) {
      otherSplit++
      continue
    }
    if (q.review?.status === 'disputed') {
      disputed.push(q.id)
      continue
    }
    if (!q.answerable) {
      unanswerable.push(q.id)
      continue
    }
    const grades = new Map<string, number>()
    const desc: number[] = []
    for (const [c, g] of gradesOf(q)) {
      grades.set(toByteString(c), g)
      if (g >= 0) desc.push(g)
      judgments++
    }
    const gradesDesc = descendingGrades(desc)
    const facts = (q.key_facts ?? []).map((f) => f.chunk_ids.map(toByteString))
    queries.set(q.id, { id: q.id, line, grades, gradesDesc, facts: facts.length > 0 ? facts : undefined })
  }
  const ids = [...queries.keys()].sort(compareCodePoints)
  disputed.sort(compareCodePoints)
  unanswerable.sort(compareCodePoints)
  return {
    qrels: { source: dataset.file, queries, ids, judgments },
    split,
    gated: ids,
    disputed,
    unanswerable,
    otherSplit,
    attrs
  }
}

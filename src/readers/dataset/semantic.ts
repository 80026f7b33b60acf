import { GUARDED_FIELDS } from './schema.js'
import {
  violation,
  type CorpusListing,
  type Dataset,
  type DatasetEntry,
  type Question,
  type Violation
} from './types.js'
import { bare, quote, sanitizeText } from '../../util/show.js'
import { pushAll } from '../../util/extent.js'

/**
 * The evaluation-set rules a JSON Schema cannot express. Each produces a violation with a stable rule code
 * (docs/trust.md lists them), so `validate` can refuse a dataset with every problem named at once:
 *
 * - `duplicate_id`: two questions share an id.
 * - `answerable_without_gold` / `unanswerable_with_gold`: answerable needs >= 1 gold chunk; an unanswerable
 *   question has no gold chunk, no key fact and no grade above 0.
 * - `duplicate_fact_id`: key fact ids are unique within a question.
 * - `fact_chunk_not_gold`: a chunk that supports a key fact is gold by definition.
 * - `gold_graded_zero`, `distractor_is_gold`: the question contradicts itself.
 * - `unknown_chunk`: every referenced chunk (gold, fact, graded, distractor) is in the frozen corpus listing.
 * - `changed_without_changelog`: against the previous copy, an id whose question, answerable flag, gold,
 *   grades, key facts or distractors changed must carry a new changelog entry naming the field (or get a new id).
 * - `split_changed`, `review_status_changed`, `slice_changed`, `question_removed`: against the previous copy,
 *   every change of which questions are graded or of the slice they fall in, listed one by one (see EXAM_FIELDS).
 */
export function checkDataset(dataset: Dataset, corpus?: CorpusListing, previous?: Dataset): Violation[] {
  const out: Violation[] = []
  const file = dataset.file
  const firstLine = new Map<string, number>()
  for (const { line, q } of dataset.entries) {
    const v = (rule: string, message: string): void => {
      out.push(violation(file, rule, message, { line, id: q.id }))
    }
    const earlier = firstLine.get(q.id)
    if (earlier !== undefined)
      v('duplicate_id', `id ${quote(q.id)} is used twice (also on line ${earlier}); every question needs its own id`)
    else firstLine.set(q.id, line)

    const gold = new Set(q.gold_chunk_ids)
    const grades = q.graded_relevance ?? {}
    const facts = q.key_facts ?? []
    if (q.answerable && gold.size === 0)
      v(
        'answerable_without_gold',
        'answerable is true but gold_chunk_ids is empty; list the chunks that contain the answer, or set answerable: false'
      )
    if (!q.answerable) {
      const positive = Object.keys(grades).filter((c) => grades[c] > 0)
      if (gold.size > 0)
        v(
          'unanswerable_with_gold',
          `answerable is false but gold_chunk_ids lists ${gold.size} chunk(s); an unanswerable question has no gold`
        )
      if (facts.length > 0)
        v('unanswerable_with_gold', `answerable is false but key_facts lists ${facts.length} fact(s)`)
      if (positive.length > 0)
        v(
          'unanswerable_with_gold',
          `answerable is false but graded_relevance grades ${positive.map((c) => quote(c)).join(', ')} above 0`
        )
    }
    const factIds = new Map<string, number>()
    facts.forEach((f, i) => {
      const j = factIds.get(f.id)
      if (j !== undefined)
        v(
          'duplicate_fact_id',
          `key_facts[${i}].id ${quote(f.id)} repeats key_facts[${j}].id; fact ids are unique within a question`
        )
      else factIds.set(f.id, i)
      f.chunk_ids.forEach((c, k) => {
        if (!gold.has(c))
          v(
            'fact_chunk_not_gold',
            `key_facts[${i}].chunk_ids[${k}] ${quote(c)} supports a key fact but is not in gold_chunk_ids; add it to the gold`
          )
      })
    })
    for (const c of Object.keys(grades).sort()) {
      if (grades[c] === 0 && gold.has(c))
        v('gold_graded_zero', `gold chunk ${quote(c)} has graded_relevance 0; a gold chunk is relevant (grade 1..3)`)
    }
    ;(q.distractors ?? []).forEach((c, i) => {
      if (gold.has(c)) v('distractor_is_gold', `distractors[${i}] ${quote(c)} is also a gold chunk`)
      else if ((grades[c] ?? 0) > 0)
        v(
          'distractor_is_gold',
          `distractors[${i}] ${quote(c)} has graded_relevance ${grades[c]}; a distractor is not relevant`
        )
    })
    if (corpus !== undefined) {
      for (const [where, c] of references(q)) {
        if (!corpus.chunks.has(c))
          v(
            'unknown_chunk',
            `${where} ${quote(c)} is not in the corpus listing ${corpus.file}; fix the id or refreeze the corpus`
          )
      }
    }
  }
  if (previous !== undefined) pushAll(out, checkChanges(dataset, previous))
  return out
}

/** Every chunk id a question refers to, with the field path it sits at (in file order). */
function references(q: Question): Array<[string, string]> {
  const refs: Array<[string, string]> = []
  q.gold_chunk_ids.forEach((c, i) => refs.push([`gold_chunk_ids[${i}]`, c]))
  ;(q.key_facts ?? []).forEach((f, i) =>
    f.chunk_ids.forEach((c, k) => refs.push([`key_facts[${i}].chunk_ids[${k}]`, c]))
  )
  for (const c of Object.keys(q.graded_relevance ?? {})) refs.push([`graded_relevance key`, c])
  ;(q.distractors ?? []).forEach((c, i) => refs.push([`distractors[${i}]`, c]))
  return refs
}

/**
 * What defines the exam beyond the judgments: which questions the gate grades (split, review status, presence)
 * and the slices they fall in (category, difficulty). A change here moves questions in or out of a gated set or a
 * protected slice, which is exactly how a regression is hidden, so every one is a violation, listed item by item,
 * even with a changelog entry: it must be made deliberately, in its own reviewed change (a pull request is graded
 * with the base commit's copy anyway). Values as printed: a field a question lacks is `(none)`.
 */
const EXAM_FIELDS: ReadonlyArray<{ field: string; rule: string; value: (q: Question) => string | undefined }> = [
  { field: 'split', rule: 'split_changed', value: (q) => q.split },
  { field: 'review.status', rule: 'review_status_changed', value: (q) => q.review?.status },
  { field: 'category', rule: 'slice_changed', value: (q) => q.category },
  { field: 'difficulty', rule: 'slice_changed', value: (q) => q.difficulty }
]

const EXAM_CHANGE_HINT =
  "an exam change: make it on its own, reviewed, and merge it before the change it would grade (pull requests are graded with the base commit's copy)"

function checkChanges(dataset: Dataset, previous: Dataset): Violation[] {
  const out: Violation[] = []
  const before = new Map<string, DatasetEntry>()
  for (const e of previous.entries) if (!before.has(e.q.id)) before.set(e.q.id, e)
  const now = new Set<string>()
  for (const { line, q } of dataset.entries) {
    now.add(q.id)
    const old = before.get(q.id)
    if (old === undefined) continue
    for (const { field, rule, value } of EXAM_FIELDS) {
      const was = value(old.q)
      const is = value(q)
      if (was === is) continue
      const message = `${field} ${show(was)} -> ${show(is)} (was ${previous.file}:${old.line}); ${EXAM_CHANGE_HINT}`
      out.push(violation(dataset.file, rule, message, { line, id: q.id }))
    }
    const changed = GUARDED_FIELDS.filter((f) => canonical(f, q) !== canonical(f, old.q))
    if (changed.length === 0) continue
    const oldLog = (old.q.changelog ?? []).map((e) => JSON.stringify(e))
    const declared = new Set<string>()
    for (const entry of q.changelog ?? []) {
      if (oldLog.includes(JSON.stringify(entry))) continue
      for (const f of entry.changed) declared.add(f)
    }
    const silent = changed.filter((f) => !declared.has(f))
    for (const f of silent) {
      const message = `${f} differs from ${previous.file}:${old.line} (was ${short(canonical(f, old.q))}, now ${short(canonical(f, q))}) without a new changelog entry; give the question a new id, or add {"changed": ["${f}"], "reason": "..."} to its changelog`
      out.push(violation(dataset.file, 'changed_without_changelog', message, { line, id: q.id }))
    }
  }
  for (const [id, old] of before) {
    if (now.has(id)) continue
    const message = `is gone from ${dataset.file} (split ${show(old.q.split)}); removing a question takes it out of the graded set; ${EXAM_CHANGE_HINT}`
    out.push(violation(previous.file, 'question_removed', message, { line: old.line, id }))
  }
  return out
}

/** A value as the change list prints it. */
function show(value: string | undefined): string {
  return value === undefined ? '(none)' : JSON.stringify(value)
}

/** A field in a form where order that carries no meaning (gold set, grade map) does not count as a change. */
function canonical(field: (typeof GUARDED_FIELDS)[number], q: Question): string {
  switch (field) {
    case 'question':
    case 'answerable':
      return JSON.stringify(q[field])
    case 'gold_chunk_ids':
      return JSON.stringify([...q.gold_chunk_ids].sort())
    case 'graded_relevance': {
      const g = q.graded_relevance ?? {}
      return JSON.stringify(
        Object.keys(g)
          .sort()
          .map((k) => [k, g[k]])
      )
    }
    case 'key_facts':
      // what FactRecall@k counts: each fact's id and supporting chunks (its text is for reviewers)
      return JSON.stringify(
        (q.key_facts ?? [])
          .map((f) => [f.id, [...f.chunk_ids].sort()])
          .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
      )
    case 'distractors':
      // judged grade 0: a judgment like any other (Judged@k, bpref, the unjudged share)
      return JSON.stringify([...(q.distractors ?? [])].sort())
  }
}

function short(text: string): string {
  return text.length > 80 ? `${text.slice(0, 77)}...` : text
}

/** Longest file name a violation shows (as a refusal's place, src/errors.ts). */
const MAX_PLACE_CHARS = 240
/** Longest id a violation shows: the schema's cap on an id (a longer one is the violation, shown cut). */
const MAX_ID_CHARS = 200

/**
 * `file:line: [id] rule: message`, the one shape every violation is printed in, one line each: the id is shown
 * bare when clean and quoted with its line breaks and control characters escaped otherwise (`["q\n1"]`), and the
 * file name is escaped, so no id can print as two violations. (Messages quote the values they show.)
 */
export function formatViolation(v: Violation): string {
  const file = sanitizeText(v.file, MAX_PLACE_CHARS)
  const place = v.line === null ? file : `${file}:${v.line}`
  const id = v.id === null ? '' : ` [${bare(v.id, MAX_ID_CHARS)}]`
  return `${place}:${id} ${v.rule}: ${v.message}`
}

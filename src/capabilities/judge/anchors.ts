import { InputError } from '../../errors.js'
import { compareCodePoints } from '../../util/order.js'
import { quote } from '../../util/show.js'
import { checkAttributeLength, checkQueryIdLength } from '../../readers/field-caps.js'
import { forEachRecord } from '../../readers/read.js'

/**
 * Judge anchors: items a human labelled, with the LLM judge's label for the same item. They are part of the
 * exam (written before the results, read at the base commit in a pull request), so they are read strictly: one
 * layout for the whole file, every label present, an item scored more than once keeps one human label and
 * one set of attributes. Labels are text; a number written as 2, 2.0 or "2" is the same label.
 */

/** The judge's labels of one scoring of an item, per side (the same value on both when one judge serves both). */
export interface AnchorScoring {
  line: number
  baseline: string
  candidate: string
  /** The label with the two answers shown the other way round (pairwise judges), or null when not scored so. */
  baselineSwapped: string | null
  candidateSwapped: string | null
}

/** One anchor item: its human label, attributes, and every time the judge scored it (repeats: same id again). */
export interface AnchorItem {
  id: string
  /** Line of its first record. */
  line: number
  human: string
  attrs: ReadonlyMap<string, string>
  scorings: AnchorScoring[]
}

export interface JudgeAnchors {
  /** The file as shown (the rules' name, or `path@commit` for a base-commit copy). */
  source: string
  /** The candidate judge's labels as shown (an answer input), or null when one judge serves both sides. */
  candidateSource: string | null
  /** True when one judge serves both sides (no candidate labels were given); false once they are merged in. */
  sameJudge: boolean
  /** Items sorted by id (code points): the same file in any record order gives the same result. */
  items: AnchorItem[]
  /** Every distinct label (human and judge, swapped included). */
  labels: Set<string>
}

/** Most distinct labels: kappa builds a k x k table, and more labels than this are free text, not a scale. */
export const MAX_ANCHOR_LABELS = 100

const KNOWN = new Set(['id', 'human', 'judge', 'baseline_judge', 'judge_swapped', 'baseline_judge_swapped'])
const RECORD_HINT =
  'each record: {"id": "a1", "human": 2, "judge": 2, "task": "qa"} (judge: the baseline judge\'s label; baseline_judge is the same column)'
/** Columns that hold the candidate judge's labels: the candidate's answers, never part of the exam file. */
const CANDIDATE_COLUMNS = ['candidate_judge', 'candidate_judge_swapped']
/** A plain decimal number (no backtracking: each part is a single run of one character class). */
const DECIMAL = /^-?[0-9]+(?:\.[0-9]+)?$/

/** A record's id (a string, or a whole number written as one), within the query id cap; `hint` says what a record holds. */
function recordId(record: Map<string, unknown>, where: { file: string; line: number }, hint: string): string {
  const rawId = record.get('id')
  if (typeof rawId !== 'string' && !(typeof rawId === 'number' && Number.isInteger(rawId)))
    throw new InputError({ ...where, key: 'id' }, 'the record has no id (a string)', hint)
  const id = String(rawId)
  checkQueryIdLength(id, where)
  return id
}

/** A label as text: numbers in one spelling (2, 2.0 and "2" are one label), strings as written. */
function labelText(value: unknown, where: { file: string; line: number }, key: string): string | null {
  if (value === undefined || value === null || value === '') return null
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new InputError({ ...where, key }, `${key} is not a finite number`, RECORD_HINT)
    return String(value)
  }
  if (typeof value !== 'string')
    throw new InputError({ ...where, key }, `${key} is neither a label string nor a number`, RECORD_HINT)
  if (value.length > 200)
    throw new InputError(
      { ...where, key },
      `${key} is ${value.length} characters long; a label is a short word or a grade`,
      RECORD_HINT
    )
  return DECIMAL.test(value) ? String(Number(value)) : value
}

/**
 * Reads an anchor file (the exam: items, human labels, attributes and the baseline judge's labels): JSON Lines, or
 * CSV with a header when its name ends in `.csv`. Refuses, with the line: a record without id, human or judge
 * label, a candidate judge column (the candidate's labels are an answer: {@link readCandidateJudgeLabels}), a
 * repeated id whose human label or attributes differ, a missing `per_slice` attribute, more than
 * {@link MAX_ANCHOR_LABELS} labels, and an empty file.
 */
export async function readAnchors(file: string, name: string, perSlice: string | undefined): Promise<JudgeAnchors> {
  const byId = new Map<string, AnchorItem>()
  const labels = new Set<string>()
  const onRecord = (record: Map<string, unknown>, line: number): void => {
    const where = { file: name, line }
    const id = recordId(record, where, RECORD_HINT)
    if (id === '') throw new InputError({ ...where, key: 'id' }, 'the id is empty', RECORD_HINT)
    const human = labelText(record.get('human'), where, 'human')
    if (human === null)
      throw new InputError({ ...where, queryId: id, key: 'human' }, 'the record has no human label', RECORD_HINT)
    const candidateColumn = CANDIDATE_COLUMNS.find((k) => record.has(k))
    if (candidateColumn !== undefined) {
      throw new InputError(
        { ...where, queryId: id, key: candidateColumn },
        `the anchor file carries ${candidateColumn}: the candidate judge's labels are the candidate's answers, not part of the exam`,
        'keep id, human, judge (the baseline judge\'s label) and attributes in the anchor file; give the candidate judge\'s labels ({"id", "judge"} per scoring) with --candidate-judge-labels FILE (action input candidate-judge-labels)'
      )
    }
    const key =
      record.has('judge') && record.get('judge') !== '' && record.get('judge') !== null ? 'judge' : 'baseline_judge'
    if (key === 'judge' && record.has('baseline_judge')) {
      throw new InputError(
        { ...where, queryId: id },
        'the record has judge and also baseline_judge',
        "write the baseline judge's label once, as judge"
      )
    }
    const baseline = labelText(record.get(key), where, key)
    if (baseline === null)
      throw new InputError({ ...where, queryId: id, key: 'judge' }, 'the record has no judge label', RECORD_HINT)
    const swappedKey = key === 'judge' ? 'judge_swapped' : 'baseline_judge_swapped'
    const baselineSwapped = labelText(record.get(swappedKey), where, swappedKey)
    // Without the candidate's own labels one judge serves both sides (readCandidateJudgeLabels fills them in).
    const candidate = baseline
    const candidateSwapped = baselineSwapped
    for (const l of [human, baseline, candidate, baselineSwapped, candidateSwapped]) if (l !== null) labels.add(l)
    if (labels.size > MAX_ANCHOR_LABELS) {
      throw new InputError(
        where,
        `more than ${MAX_ANCHOR_LABELS} distinct labels`,
        'labels are a short scale (0-3, pass/fail, A/B/tie), not free text'
      )
    }
    const attrs = new Map<string, string>()
    for (const [key, value] of record) {
      if (KNOWN.has(key) || typeof value !== 'string' || value === '') continue
      checkAttributeLength(key, value, where)
      attrs.set(key, value)
    }
    if (perSlice !== undefined && !attrs.has(perSlice)) {
      throw new InputError(
        { ...where, queryId: id, key: perSlice },
        `the record has no "${perSlice}" (judge.per_slice)`,
        `give every anchor its ${perSlice}, or drop judge.per_slice`
      )
    }
    const scoring: AnchorScoring = { line, baseline, candidate, baselineSwapped, candidateSwapped }
    const known = byId.get(id)
    if (known === undefined) {
      byId.set(id, { id, line, human, attrs, scorings: [scoring] })
      return
    }
    // The same id again is the judge scoring the item again (repeatability): the item itself must not change.
    if (known.human !== human) {
      throw new InputError(
        { ...where, queryId: id, key: 'human' },
        `item ${quote(id)} has human label ${quote(human)} here but ${quote(known.human)} at line ${known.line}`,
        'an item scored again keeps its human label'
      )
    }
    const differs = [...new Set([...attrs.keys(), ...known.attrs.keys()])]
      .sort(compareCodePoints)
      .find((k) => attrs.get(k) !== known.attrs.get(k))
    if (differs !== undefined) {
      throw new InputError(
        { ...where, queryId: id, key: differs },
        `item ${quote(id)} has ${differs} = ${quote(attrs.get(differs) ?? '')} here but ${quote(known.attrs.get(differs) ?? '')} at line ${known.line}`,
        'an item scored again keeps its attributes'
      )
    }
    known.scorings.push(scoring)
  }
  await forEachRecord(file, name, onRecord, RECORD_HINT)
  if (byId.size === 0) throw new InputError({ file: name }, 'the anchor file has no items', RECORD_HINT)
  const items = [...byId.values()].sort((a, b) => compareCodePoints(a.id, b.id))
  return { source: name, candidateSource: null, sameJudge: true, items, labels }
}

const LABELS_HINT =
  'each record: {"id": "a1", "judge": 2} (the candidate judge\'s label of anchor a1; judge_swapped for the other order), every anchor item as often as the anchor file scores it'
const LABEL_KEYS = new Set(['id', 'judge', 'judge_swapped'])

/**
 * The candidate judge's labels of the anchors (an answer input, from the pull request): read and merged into the
 * exam's items. The anchors (items, human labels, attributes, how often each item is scored) are the exam's; the
 * answer only fills in the candidate's label of each scoring, so it must give every anchor item exactly as many
 * scorings as the anchor file does, in the same order, and nothing else: an item left out, an item the anchors do
 * not have, another number of scorings, a human label or an attribute in it are refused with the line. A judge
 * that leaves items out chooses which items its agreement is measured on.
 */
export async function readCandidateJudgeLabels(
  file: string,
  name: string,
  anchors: JudgeAnchors
): Promise<JudgeAnchors> {
  const byId = new Map(anchors.items.map((item) => [item.id, item]))
  const given = new Map<string, Array<{ label: string; swapped: string | null; line: number }>>()
  const labels = new Set(anchors.labels)
  await forEachRecord(
    file,
    name,
    (record, line) => {
      const where = { file: name, line }
      const id = recordId(record, where, LABELS_HINT)
      for (const key of record.keys()) {
        if (LABEL_KEYS.has(key)) continue
        if (key === 'human' || key.endsWith('_judge') || key.endsWith('_judge_swapped')) {
          throw new InputError(
            { ...where, queryId: id, key },
            `the candidate judge's labels carry ${quote(key)}, which is not the candidate's to give`,
            "human labels and the baseline judge's labels are the exam's (the anchor file at the base commit): give only id, judge and judge_swapped"
          )
        }
      }
      const item = byId.get(id)
      if (item === undefined)
        throw new InputError(
          { ...where, queryId: id },
          `${quote(id)} is not an anchor item of ${anchors.source}`,
          "label the anchor file's items only: the exam decides which items the judge is checked on"
        )
      const label = labelText(record.get('judge'), where, 'judge')
      if (label === null)
        throw new InputError({ ...where, queryId: id, key: 'judge' }, 'the record has no judge label', LABELS_HINT)
      const swapped = labelText(record.get('judge_swapped'), where, 'judge_swapped')
      for (const l of [label, swapped]) if (l !== null) labels.add(l)
      if (labels.size > MAX_ANCHOR_LABELS)
        throw new InputError(
          where,
          `more than ${MAX_ANCHOR_LABELS} distinct labels`,
          'labels are a short scale (0-3, pass/fail, A/B/tie), not free text'
        )
      const list = given.get(id) ?? []
      list.push({ label, swapped, line })
      if (list.length > item.scorings.length) {
        throw new InputError(
          { ...where, queryId: id },
          `item ${quote(id)} is labelled ${list.length} times, but ${anchors.source} scores it ${item.scorings.length} ${item.scorings.length === 1 ? 'time' : 'times'}`,
          'score every anchor item as often as the anchor file does (its repeats are part of the exam)'
        )
      }
      given.set(id, list)
    },
    LABELS_HINT
  )
  const items = anchors.items.map((item): AnchorItem => {
    const list = given.get(item.id) ?? []
    if (list.length !== item.scorings.length) {
      throw new InputError(
        { file: name, queryId: item.id },
        list.length === 0
          ? `anchor item ${quote(item.id)} (${anchors.source}:${item.line}) has no candidate judge label`
          : `anchor item ${quote(item.id)} is labelled ${list.length} times, but ${anchors.source} scores it ${item.scorings.length} times`,
        'label every anchor item, as often as the anchor file scores it: a judge that leaves items out chooses what its agreement is measured on'
      )
    }
    return {
      ...item,
      scorings: item.scorings.map((s, t) => ({ ...s, candidate: list[t].label, candidateSwapped: list[t].swapped }))
    }
  })
  return { source: anchors.source, candidateSource: name, sameJudge: false, items, labels }
}

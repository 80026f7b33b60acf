import { InputError } from '../errors.js'
import { compareCodePoints } from '../util/order.js'
import { quote } from '../util/show.js'
import { forEachCsvRecord } from './csv.js'
import { checkAttributeLength, checkQueryIdLength } from './field-caps.js'
import { readObjectLine } from './json-line.js'
import { forEachLine } from './lines.js'
import { guessRowsFormat } from './sniff.js'

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
  /** True when one `judge` column serves both sides; false with `baseline_judge` and `candidate_judge`. */
  sameJudge: boolean
  /** Items sorted by id (code points): the same file in any record order gives the same result. */
  items: AnchorItem[]
  /** Every distinct label (human and judge, swapped included). */
  labels: Set<string>
}

/** Most distinct labels: kappa builds a k x k table, and more labels than this are free text, not a scale. */
export const MAX_ANCHOR_LABELS = 100

const KNOWN = new Set(['id', 'human', 'judge', 'baseline_judge', 'candidate_judge', 'judge_swapped', 'baseline_judge_swapped', 'candidate_judge_swapped'])
const RECORD_HINT = 'each record: {"id": "a1", "human": 2, "judge": 2, "task": "qa"} (or baseline_judge and candidate_judge instead of judge)'
/** A plain decimal number (no backtracking: each part is a single run of one character class). */
const DECIMAL = /^-?[0-9]+(?:\.[0-9]+)?$/

/** A label as text: numbers in one spelling (2, 2.0 and "2" are one label), strings as written. */
function labelText(value: unknown, where: { file: string; line: number }, key: string): string | null {
  if (value === undefined || value === null || value === '') return null
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new InputError({ ...where, key }, `${key} is not a finite number`, RECORD_HINT)
    return String(value)
  }
  if (typeof value !== 'string') throw new InputError({ ...where, key }, `${key} is neither a label string nor a number`, RECORD_HINT)
  if (value.length > 200) throw new InputError({ ...where, key }, `${key} is ${value.length} characters long; a label is a short word or a grade`, RECORD_HINT)
  return DECIMAL.test(value) ? String(Number(value)) : value
}

/**
 * Reads an anchor file: JSON Lines, or CSV with a header when its name ends in `.csv`. Refuses, with the line:
 * a record without id or human label, a file mixing `judge` with `baseline_judge`/`candidate_judge`, a repeated id whose human label or attributes differ, a missing `per_slice`
 * attribute, more than {@link MAX_ANCHOR_LABELS} labels, and an empty file.
 */
export async function readAnchors(file: string, name: string, perSlice: string | undefined): Promise<JudgeAnchors> {
  const byId = new Map<string, AnchorItem>()
  const labels = new Set<string>()
  let layout: { same: boolean; line: number } | undefined
  const onRecord = (record: Map<string, unknown>, line: number): void => {
    const where = { file: name, line }
    const rawId = record.get('id')
    if (typeof rawId !== 'string' && !(typeof rawId === 'number' && Number.isInteger(rawId))) throw new InputError({ ...where, key: 'id' }, 'the record has no id (a string)', RECORD_HINT)
    const id = String(rawId)
    if (id === '') throw new InputError({ ...where, key: 'id' }, 'the id is empty', RECORD_HINT)
    checkQueryIdLength(id, where)
    const human = labelText(record.get('human'), where, 'human')
    if (human === null) throw new InputError({ ...where, queryId: id, key: 'human' }, 'the record has no human label', RECORD_HINT)
    const same = record.has('judge') && record.get('judge') !== '' && record.get('judge') !== null
    const split = record.has('baseline_judge') || record.has('candidate_judge')
    if (same === split) {
      throw new InputError(
        { ...where, queryId: id },
        same ? 'the record has judge and also baseline_judge/candidate_judge' : 'the record has no judge label',
        'write judge when one judge scores both sides, or baseline_judge and candidate_judge when they differ (the same layout on every record)'
      )
    }
    if (layout === undefined) layout = { same, line }
    else if (layout.same !== same) {
      throw new InputError(
        { ...where, queryId: id },
        `this record uses ${same ? 'judge' : 'baseline_judge/candidate_judge'}, but line ${layout.line} uses ${layout.same ? 'judge' : 'baseline_judge/candidate_judge'}`,
        'one layout for the whole file: the same judge on both sides, or one column per side'
      )
    }
    const side = (key: string): string => {
      const v = labelText(record.get(key), where, key)
      if (v === null) throw new InputError({ ...where, queryId: id, key }, `the record has no ${key} label`, RECORD_HINT)
      return v
    }
    const baseline = side(same ? 'judge' : 'baseline_judge')
    const candidate = same ? baseline : side('candidate_judge')
    const baselineSwapped = labelText(record.get(same ? 'judge_swapped' : 'baseline_judge_swapped'), where, same ? 'judge_swapped' : 'baseline_judge_swapped')
    const candidateSwapped = same ? baselineSwapped : labelText(record.get('candidate_judge_swapped'), where, 'candidate_judge_swapped')
    for (const l of [human, baseline, candidate, baselineSwapped, candidateSwapped]) if (l !== null) labels.add(l)
    if (labels.size > MAX_ANCHOR_LABELS) {
      throw new InputError(where, `more than ${MAX_ANCHOR_LABELS} distinct labels`, 'labels are a short scale (0-3, pass/fail, A/B/tie), not free text')
    }
    const attrs = new Map<string, string>()
    for (const [key, value] of record) {
      if (KNOWN.has(key) || typeof value !== 'string' || value === '') continue
      checkAttributeLength(key, value, where)
      attrs.set(key, value)
    }
    if (perSlice !== undefined && !attrs.has(perSlice)) {
      throw new InputError({ ...where, queryId: id, key: perSlice }, `the record has no "${perSlice}" (judge.per_slice)`, `give every anchor its ${perSlice}, or drop judge.per_slice`)
    }
    const scoring: AnchorScoring = { line, baseline, candidate, baselineSwapped, candidateSwapped }
    const known = byId.get(id)
    if (known === undefined) {
      byId.set(id, { id, line, human, attrs, scorings: [scoring] })
      return
    }
    // The same id again is the judge scoring the item again (repeatability): the item itself must not change.
    if (known.human !== human) {
      throw new InputError({ ...where, queryId: id, key: 'human' }, `item ${quote(id)} has human label ${quote(human)} here but ${quote(known.human)} at line ${known.line}`, 'an item scored again keeps its human label')
    }
    const differs = [...new Set([...attrs.keys(), ...known.attrs.keys()])].sort(compareCodePoints).find((k) => attrs.get(k) !== known.attrs.get(k))
    if (differs !== undefined) {
      throw new InputError(
        { ...where, queryId: id, key: differs },
        `item ${quote(id)} has ${differs} = ${quote(attrs.get(differs) ?? '')} here but ${quote(known.attrs.get(differs) ?? '')} at line ${known.line}`,
        'an item scored again keeps its attributes'
      )
    }
    known.scorings.push(scoring)
  }
  if (guessRowsFormat(file) === 'csv') {
    let header: string[] | undefined
    await forEachCsvRecord(file, (fields, line) => {
      if (header === undefined) {
        header = fields.map((f) => f.trim())
        const twice = header.find((h, i) => header?.indexOf(h) !== i)
        if (twice !== undefined) throw new InputError({ file: name, line, key: twice }, `the header names ${quote(twice)} twice`, 'name every column once')
        return
      }
      if (fields.length === 1 && fields[0].trim() === '') return
      if (fields.length !== header.length) throw new InputError({ file: name, line }, `${fields.length} fields, but the header has ${header.length}`, 'every record has one field per header column')
      const record = new Map<string, unknown>()
      header.forEach((h, i) => record.set(h, fields[i]))
      onRecord(record, line)
    })
  } else {
    await forEachLine(file, (text, line) => {
      if (text.trim() === '') return
      onRecord(new Map(Object.entries(readObjectLine(text, name, line, RECORD_HINT))), line)
    })
  }
  if (byId.size === 0) throw new InputError({ file: name }, 'the anchor file has no items', RECORD_HINT)
  const items = [...byId.values()].sort((a, b) => compareCodePoints(a.id, b.id))
  return { source: name, sameJudge: layout?.same ?? true, items, labels }
}

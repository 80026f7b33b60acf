import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv'
import { parseObjectLine } from '../json/lines.js'
import { quote } from '../../util/show.js'
import { forEachLine } from '../lines.js'
import { DATASET_SCHEMA } from './schema.js'
import {
  violation,
  type CorpusListing,
  type Dataset,
  type DatasetEntry,
  type Question,
  type Violation
} from './types.js'

/** Compiled on first use, not at load: compiling costs ~45 ms, which every `gate` run without a dataset would pay. */
let compiled: ValidateFunction | undefined
const questionValidator = (): ValidateFunction =>
  (compiled ??= new Ajv({ allErrors: true, strict: false }).compile(DATASET_SCHEMA))

/**
 * Reads an evaluation set (JSON Lines, one question per line). Unlike a run, a dataset is read to the end
 * even when lines are broken: `validate` must list every violation at once, not the first one, so a
 * curator fixes the file in one pass. Lines that fail the schema are reported and left out of `entries`.
 * Blank lines are skipped; a missing file is an InputError from the line reader.
 */
export async function readDataset(file: string): Promise<Dataset> {
  const entries: DatasetEntry[] = []
  const violations: Violation[] = []
  await forEachLine(file, (text, line) => {
    if (text.trim() === '') return
    const parsed = parseObjectLine(text)
    if (parsed.problem !== undefined) {
      violations.push(
        violation(file, 'json', `${parsed.problem}; each line is one JSON object, each field once`, { line })
      )
      return
    }
    const record = parsed.record
    const id = typeof record.id === 'string' && record.id !== '' ? record.id : null
    const validateQuestion = questionValidator()
    if (!validateQuestion(record)) {
      for (const e of usefulErrors(validateQuestion.errors ?? [])) {
        violations.push(violation(file, 'schema', describe(e), { line, id }))
      }
      return
    }
    entries.push({ line, q: record as unknown as Question })
  })
  return { file, entries, violations }
}

/**
 * Reads a frozen corpus listing: either one chunk id per line (blank lines and `#` comments skipped), or
 * JSON Lines with a `chunk_id` string per line (other fields ignored), detected by a leading `{`.
 */
export async function readCorpusListing(file: string): Promise<CorpusListing> {
  const chunks = new Set<string>()
  const firstLine = new Map<string, number>()
  const violations: Violation[] = []
  await forEachLine(file, (text, line) => {
    const t = text.trim()
    if (t === '' || t.startsWith('#')) return
    let id: string
    if (t.startsWith('{')) {
      const parsed = parseObjectLine(t)
      if (parsed.problem !== undefined) {
        violations.push(violation(file, 'corpus_line', parsed.problem, { line }))
        return
      }
      const c = parsed.record.chunk_id
      if (typeof c !== 'string' || c === '') {
        const message = 'has no "chunk_id" string; a JSON Lines corpus listing has {"chunk_id": "..."} per line'
        violations.push(violation(file, 'corpus_line', message, { line }))
        return
      }
      id = c
    } else id = t
    const earlier = firstLine.get(id)
    if (earlier !== undefined) {
      violations.push(
        violation(file, 'corpus_duplicate', `chunk ${quote(id)} is listed twice (also on line ${earlier})`, { line })
      )
      return
    }
    firstLine.set(id, line)
    chunks.add(id)
  })
  if (chunks.size === 0 && violations.length === 0) {
    violations.push(
      violation(file, 'corpus_empty', 'lists no chunk; write one chunk id per line (or {"chunk_id": "..."} per line)')
    )
  }
  return { file, chunks, violations }
}

/** ajv repeats itself for oneOf branches; keep the errors a person can act on, in a fixed order. */
function usefulErrors(errors: ErrorObject[]): ErrorObject[] {
  const seen = new Set<string>()
  const out: ErrorObject[] = []
  for (const e of errors) {
    if (e.keyword === 'oneOf' || e.keyword === 'anyOf' || e.keyword === 'if') continue
    const key = `${e.instancePath} ${e.keyword} ${JSON.stringify(e.params)}`
    if (seen.has(key)) continue
    seen.add(key)
    out.push(e)
  }
  return out.length > 0 ? out : errors.slice(0, 1)
}

function describe(e: ErrorObject): string {
  const at = e.instancePath === '' ? 'the record' : e.instancePath.slice(1).replace(/\//g, '.')
  const p = e.params as Record<string, unknown>
  switch (e.keyword) {
    case 'required':
      return `missing required field "${String(p.missingProperty)}"`
    case 'additionalProperties':
      return `unknown field "${String(p.additionalProperty)}" in ${at} (put your own fields under "meta")`
    case 'enum':
      return `${at} must be one of ${(p.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`
    case 'type':
      return `${at} must be ${String(p.type)}`
    case 'minimum':
    case 'maximum':
      return `${at} must be ${e.keyword === 'minimum' ? '>=' : '<='} ${String(p.limit)} (grades are integers 0..3)`
    case 'uniqueItems':
      return `${at} lists the same value twice (items ${String(p.j)} and ${String(p.i)})`
    default:
      return `${at} ${e.message ?? 'is not valid'}`
  }
}

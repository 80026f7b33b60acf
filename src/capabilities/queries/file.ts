import { InputError } from '../../errors.js'
import { quote } from '../../util/show.js'
import { checkAttributeLength, checkQueryIdLength } from '../../readers/field-caps.js'
import { forEachRecord } from '../../readers/read.js'

/**
 * The queries file (rules `queries.file`): what each query of the exam is, its text and its attributes (segment,
 * family, user), kept beside the judgments by teams whose runs carry no attributes (TREC runs, ranx runs,
 * Parquet runs). It is part of the exam, read at the trusted source: its attributes define the slices and
 * clusters, never the candidate's.
 */

/** One query of the file. */
export interface QueryEntry {
  line: number
  /** The query's text (null when the file gives none), cut to {@link MAX_QUERY_TEXT_CHARS}. */
  text: string | null
  /** The attributes the rules use, as written. */
  attrs: ReadonlyMap<string, string>
}

export interface QueriesFile {
  source: string
  byId: ReadonlyMap<string, QueryEntry>
  /** Attribute names found on any record that the rules use (in the file's order of first use). */
  attributes: string[]
  /**
   * Every other field name of the records (neither the id nor the text), at most {@link MAX_FIELD_NAMES} in order of
   * first use: what a misspelt attribute in the rules is compared with ("did you mean"), though only the used ones
   * are kept.
   */
  fields: string[]
}

/** Most field names kept for "did you mean" (a queries file has a few; a hostile one is not listed whole). */
export const MAX_FIELD_NAMES = 200

/** Longest query text kept: a question, a prompt; reports show it cut shorter still. */
export const MAX_QUERY_TEXT_CHARS = 4000

const HINT =
  'one record per query: {"query_id": "q1", "text": "how do I reset my password", "segment": "new"} (JSON Lines), or a CSV with a header'
const ID_KEYS = ['query_id', 'qid', 'id']
const TEXT_KEYS = ['text', 'query', 'question', 'title']

/** Keep every attribute of the file whose value is a string, a number or a boolean (init proposes slices from them). */
export const EVERY_ATTRIBUTE = 'every attribute'

/**
 * Reads a queries file: JSON Lines, or CSV with a header when its name ends in `.csv`. Keeps the text and the
 * attributes in `keep` (the ones the rules use; or {@link EVERY_ATTRIBUTE}, but the id and the text). Refuses, with the line: a record without an id, a repeated
 * id, an id or attribute over the field caps, a non-string attribute the rules use, and an empty file.
 */
export async function readQueriesFile(
  path: string,
  name: string,
  keep: ReadonlySet<string> | typeof EVERY_ATTRIBUTE
): Promise<QueriesFile> {
  const byId = new Map<string, QueryEntry>()
  const attributes: string[] = []
  const fields = new Set<string>()
  const onRecord = (record: Map<string, unknown>, line: number): void => {
    const where = { file: name, line }
    const idKey = ID_KEYS.find((k) => record.has(k))
    const rawId = idKey === undefined ? undefined : record.get(idKey)
    if (typeof rawId !== 'string' && !(typeof rawId === 'number' && Number.isInteger(rawId)))
      throw new InputError({ ...where, key: 'query_id' }, 'the record has no query_id (a string)', HINT)
    const id = String(rawId)
    if (id === '') throw new InputError({ ...where, key: 'query_id' }, 'the query_id is empty', HINT)
    checkQueryIdLength(id, where)
    const known = byId.get(id)
    if (known !== undefined)
      throw new InputError(
        { ...where, queryId: id },
        `query ${quote(id)} is listed twice (first at line ${known.line})`,
        'list every query once: its text and attributes are the exam'
      )
    const textKey = TEXT_KEYS.find((k) => record.has(k))
    for (const key of record.keys())
      if (fields.size < MAX_FIELD_NAMES && key !== idKey && key !== textKey) fields.add(key)
    const rawText = textKey === undefined ? undefined : record.get(textKey)
    const text = typeof rawText === 'string' && rawText !== '' ? rawText.slice(0, MAX_QUERY_TEXT_CHARS) : null
    const attrs = new Map<string, string>()
    const keys =
      keep === EVERY_ATTRIBUTE
        ? [...record.keys()].filter((k) => k !== idKey && k !== textKey && isAttribute(record.get(k)))
        : keep
    for (const key of keys) {
      if (!record.has(key)) continue
      const value = record.get(key)
      if (value === null || value === '') continue
      if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') {
        throw new InputError(
          { ...where, queryId: id, key },
          `attribute ${quote(key)} is not a string`,
          'write attributes as strings (or numbers), e.g. "segment": "new"'
        )
      }
      const v = String(value)
      checkAttributeLength(key, v, where)
      attrs.set(key, v)
      if (!attributes.includes(key)) attributes.push(key)
    }
    byId.set(id, { line, text, attrs })
  }
  await forEachRecord(path, name, onRecord, HINT)
  if (byId.size === 0) throw new InputError({ file: name }, 'the queries file lists no query', HINT)
  return { source: name, byId, attributes, fields: [...fields] }
}

/** A value that can be an attribute (a nested object or list is left out when every attribute is kept). */
function isAttribute(value: unknown): boolean {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
}

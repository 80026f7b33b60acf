import { InputError, type Where } from '../errors.js'

/**
 * Longest query id, in characters (UTF-16 code units). An id is a key, kept once per query and side and
 * printed in reports; even a question text used as the id (`--id-field user_input`) fits. A longer one is a
 * whole document in the id column, or a file built to make every kept id cost megabytes.
 */
export const MAX_QUERY_ID_CHARS = 1024

/**
 * Longest value of an attribute the rules use (slices, where, per_slice, cluster, weights.by), in
 * characters. These are labels (a segment, a category, a user id), kept per query and printed as slice
 * names. Attributes the rules do not use are not kept at all, so they have no cap beyond the line's.
 */
export const MAX_ATTRIBUTE_CHARS = 256

/**
 * How many distinct field names a rows reader remembers beyond the metrics and the attributes it keeps.
 * They only feed hints ("did you mean", `init`); a file whose every line invents new field names must not
 * make that list grow with the file.
 */
export const MAX_HINT_FIELDS = 1000

/** Refuses a query id longer than {@link MAX_QUERY_ID_CHARS}, showing only its beginning. */
export function checkQueryIdLength(id: string, where: Where): void {
  if (id.length > MAX_QUERY_ID_CHARS) {
    throw new InputError(
      where,
      `the query id ${JSON.stringify(id.slice(0, 40))}… is ${id.length} characters long; the limit is ${MAX_QUERY_ID_CHARS}`,
      'query ids are short keys: write an id column (query_id) instead of the question or document text'
    )
  }
}

/** Refuses a kept attribute value longer than {@link MAX_ATTRIBUTE_CHARS}, naming the attribute. */
export function checkAttributeLength(name: string, value: string, where: Where): void {
  if (value.length > MAX_ATTRIBUTE_CHARS) {
    throw new InputError(
      where,
      `attribute "${name.slice(0, 80)}" is ${value.length} characters long (${JSON.stringify(value.slice(0, 40))}…); the limit for an attribute the rules use is ${MAX_ATTRIBUTE_CHARS}`,
      'slice, cluster and weight attributes are short labels (a segment, a category, a user id)'
    )
  }
}

/**
 * Longest field name kept for hints, in characters. A hint names a field a person would type; a longer name is
 * a broken export or a file built so that each remembered name costs megabytes (a 16 MiB line can hold one
 * 16 MiB key, and {@link MAX_HINT_FIELDS} of them would be kept).
 */
export const MAX_HINT_FIELD_CHARS = 256

/** Adds a field name to a hints-only set while it has fewer than {@link MAX_HINT_FIELDS} names; longer names than {@link MAX_HINT_FIELD_CHARS} are not kept. */
export function rememberField(names: Set<string>, name: string): void {
  if (name.length > MAX_HINT_FIELD_CHARS) return
  if (names.size < MAX_HINT_FIELDS || names.has(name)) names.add(name)
}

/**
 * Longest document id in a run, in bytes. Ids are kept for every document of the query being scored (and,
 * for a run not grouped by query, for the whole run); TREC and MS MARCO ids are tens of bytes, URLs a few
 * hundred. A longer one is a broken line or a file built to make each kept id cost megabytes.
 */
const MAX_DOC_ID_BYTES = 1024

/** Refuses a run's document id (a byte string) longer than {@link MAX_DOC_ID_BYTES}. */
export function checkDocIdLength(docno: string, where: Where): void {
  if (docno.length > MAX_DOC_ID_BYTES) {
    throw new InputError(
      where,
      `a document id is ${docno.length} bytes long; the limit is ${MAX_DOC_ID_BYTES}`,
      'document ids are short keys; the line is probably broken (missing separators)'
    )
  }
}

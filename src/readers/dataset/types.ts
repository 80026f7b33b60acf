import type { SchemaType } from '../../config/schema-type.js'
import type { DATASET_SCHEMA } from './schema.js'

/** Typed shapes of an evaluation set (see schema.ts for the file format). */

/** One question as written in the file (validated against the schema): the schema's type, so it is declared once. */
export type Question = SchemaType<typeof DATASET_SCHEMA>

/** The splits a question may be in. */
export type Split = Question['split']

/** A question with the line it was read from. */
export interface DatasetEntry {
  line: number
  q: Question
}

/** One broken contract rule: where (file, line, question id), which rule, and what to do. */
export interface Violation {
  file: string
  line: number | null
  id: string | null
  /** Stable rule code, e.g. `answerable_without_gold` (listed in docs/trust.md). */
  rule: string
  message: string
}

/** A violation of rule `rule` in `file`, at a line and of a question when `at` says (else null). */
export function violation(
  file: string,
  rule: string,
  message: string,
  at: { line?: number | null; id?: string | null } = {}
): Violation {
  return { file, line: at.line ?? null, id: at.id ?? null, rule, message }
}

/** An evaluation set read from JSON Lines: the well-formed questions, and every violation found reading it. */
export interface Dataset {
  file: string
  entries: DatasetEntry[]
  violations: Violation[]
}

/** The frozen corpus listing: the chunk ids that exist. */
export interface CorpusListing {
  file: string
  chunks: Set<string>
  violations: Violation[]
}

/** Typed shapes of an evaluation set (see schema.ts for the file format). */

export type Split = 'dev' | 'holdout'
export type ReviewStatus = 'pending' | 'accepted' | 'disputed'

export interface KeyFact {
  id: string
  text?: string
  chunk_ids: string[]
}

export interface ChangelogEntry {
  changed: string[]
  reason: string
  by?: string
  date?: string
}

/** One question as written in the file (validated against the schema). */
export interface Question {
  id: string
  question: string
  answerable: boolean
  gold_chunk_ids: string[]
  key_facts?: KeyFact[]
  graded_relevance?: Record<string, number>
  distractors?: string[]
  category?: string
  tags?: string[]
  difficulty?: 'easy' | 'medium' | 'hard'
  split: Split
  answer?: string
  review?: { by?: string | string[]; method?: string; status: ReviewStatus; note?: string }
  changelog?: ChangelogEntry[]
  meta?: Record<string, unknown>
}

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

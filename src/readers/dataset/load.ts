import { InputError } from '../../errors.js'
import { readCorpusListing, readDataset } from './read.js'
import { checkDataset, formatViolation } from './semantic.js'
import { violation, type Dataset, type Violation } from './types.js'
import { pushAll } from '../../util/extent.js'

/** How many violations an error message lists before "and N more" (`validate` lists them all). */
const LIST_LIMIT = 30

/** A dataset read and checked: its questions and every violation (schema, semantic, corpus, changes). */
export interface CheckedDataset {
  dataset: Dataset
  violations: Violation[]
  /** Chunks in the corpus listing, or null when none was given (existence not checked). */
  corpusChunks: number | null
  /** Ids in the previous copy that are gone from this one (reported, not a violation). */
  removed: string[]
}

/**
 * Reads an evaluation set, the corpus listing and the previous copy when given, and runs every contract
 * rule. Violations are returned, not thrown: `validate` prints them all, the gate refuses with them.
 */
export async function loadCheckedDataset(
  file: string,
  corpusFile?: string,
  previousFile?: string
): Promise<CheckedDataset> {
  const dataset = await readDataset(file)
  const corpus = corpusFile === undefined ? undefined : await readCorpusListing(corpusFile)
  const previous = previousFile === undefined ? undefined : await readDataset(previousFile)
  const violations = [...dataset.violations, ...(corpus?.violations ?? [])]
  if (previous !== undefined)
    pushAll(
      violations,
      previous.violations.map((v) => ({ ...v, message: `(previous copy) ${v.message}` }))
    )
  pushAll(violations, checkDataset(dataset, corpus, previous))
  if (dataset.entries.length === 0 && dataset.violations.length === 0) {
    violations.push(
      violation(file, 'empty', 'holds no question; write one JSON object per line (rules/dataset.schema.json)')
    )
  }
  // file by file (dataset, corpus, previous) in line order; stable, so a line's violations keep their order
  const fileOrder = [file, corpusFile, previousFile]
  violations.sort((a, b) => fileOrder.indexOf(a.file) - fileOrder.indexOf(b.file) || (a.line ?? 0) - (b.line ?? 0))
  const now = new Set(dataset.entries.map((e) => e.q.id))
  const removed =
    previous === undefined ? [] : [...new Set(previous.entries.map((e) => e.q.id))].filter((id) => !now.has(id)).sort()
  return { dataset, violations, corpusChunks: corpus === undefined ? null : corpus.chunks.size, removed }
}

/** The refusal the gate raises for a dataset that breaks its contract: every violation, up to a limit. */
export function datasetRefusal(file: string, violations: readonly Violation[]): InputError {
  const shown = violations.slice(0, LIST_LIMIT).map((v) => `  ${formatViolation(v)}`)
  const more = violations.length > LIST_LIMIT ? [`  ... and ${violations.length - LIST_LIMIT} more`] : []
  return new InputError(
    { file },
    `the evaluation set breaks its contract (${violations.length} ${violations.length === 1 ? 'violation' : 'violations'}):\n${[...shown, ...more].join('\n')}\n`,
    `run \`retrieval-gate validate --dataset ${file}\` (\`node dist/cli.js validate ...\` from a clone) for the full list, fix the file, and rerun`
  )
}

import type { Rules } from '../config/types.js'
import { datasetJudgments, type DatasetJudgments } from '../readers/dataset/judgments.js'
import { datasetRefusal, loadCheckedDataset } from '../readers/dataset/load.js'
import { attrAt, setAttrAt, type SideRows } from '../model/rows.js'
import { readWholeText } from '../readers/whole-file.js'
import { InputError, isInputError } from '../errors.js'
import type { MetricCoverage } from '../metrics/evaluate.js'
import type { Qrels } from '../model/qrels.js'
import { readQrels } from '../readers/read.js'
import { readFetched, renamed, type FetchedFile } from '../readers/fetched.js'
import { readCandidates, type SideEvidence } from './evidence.js'
import { parseManifest, type Manifest } from '../readers/manifest.js'
import { DEFAULT_POOL_DEPTH } from '../config/trust-rules.js'

/**
 * The reading side of the trust checks (files in, typed evidence out), called by load.ts so that the
 * checks themselves stay pure.
 */

/** Largest manifest read: a manifest is a page of JSON. */
const MAX_MANIFEST_BYTES = 1024 * 1024

/** Reads one snapshot manifest (null when none was fetched), named by its shown name. */
export async function readManifest(file: FetchedFile | undefined): Promise<Manifest | null> {
  if (file === undefined) return null
  return readFetched(file, async (path, name) => {
    const text = await readWholeText(path, {
      limit: MAX_MANIFEST_BYTES,
      what: 'a manifest',
      hint: 'a manifest is a page of JSON'
    })
    return parseManifest(text, name)
  })
}

/**
 * Reads and checks the rules' evaluation set (and its corpus listing), as fetched; refuses it (every violation
 * listed) when it breaks its contract. Refusals name both files by their shown names.
 */
export async function loadDatasetJudgments(
  rules: Rules,
  dataset: FetchedFile,
  corpus: FetchedFile | undefined
): Promise<DatasetJudgments> {
  const d = rules.dataset as NonNullable<Rules['dataset']>
  const files = corpus === undefined ? [dataset] : [dataset, corpus]
  try {
    const checked = await loadCheckedDataset(dataset.path, corpus?.path)
    if (checked.violations.length > 0) throw datasetRefusal(dataset.path, checked.violations)
    return datasetJudgments({ ...checked.dataset, file: dataset.name }, d.split)
  } catch (error) {
    throw isInputError(error) ? renamed(error, files) : error
  }
}

/** Reads the judgments file the rules name, as fetched, under the name it is shown by. */
export async function readRulesQrels(file: FetchedFile): Promise<Qrels> {
  return readFetched(file, async (path, name) => ({ ...(await readQrels(path)), source: name }))
}

/** How many top documents per query the evidence keeps: the deepest the trust checks look. */
export function evidenceDepth(rules: Rules): number {
  return Math.max(
    rules.pooling?.depth ?? DEFAULT_POOL_DEPTH,
    rules.maxZeroHitShare?.depth ?? 0,
    rules.twoStage?.k ?? DEFAULT_POOL_DEPTH
  )
}

/** One side's run as computeRunRows scored it: its rows and what the metrics reader saw (format, skipped fields). */
interface ScoredSide {
  side: SideRows
  coverage: MetricCoverage
}

/**
 * After a run was scored: reads its first-stage candidates when it has them (the metrics reader skips
 * array fields and names them), gives every row the dataset's attributes (category, difficulty, split:
 * slices for the report; the dataset's value is the exam's, set on the baseline's rows only, and a run of
 * either side that contradicts it is refused), and notes
 * what the dataset left out.
 */
export async function finishSide(
  scored: ScoredSide,
  evidence: SideEvidence,
  dataset: DatasetJudgments | null,
  role: 'baseline' | 'candidate' = 'baseline'
): Promise<void> {
  const { side, coverage } = scored
  if (coverage.runFormat === 'jsonl' && coverage.skippedFields.includes('candidates')) {
    evidence.candidates = await readCandidates(side.source)
    side.notes.push(`first-stage candidates of ${evidence.candidates.size} queries read for the two-stage diagnostics`)
  }
  if (dataset === null) return
  for (let row = 0; row < side.ids.length; row++) {
    const id = side.ids[row]
    const attrs = dataset.attrs.get(id)
    if (attrs === undefined) continue
    for (const [key, value] of attrs) {
      // The evaluation set is the exam: its attribute wins, and a run that names another value is refused
      // (a candidate run cannot move a query to another slice by labelling it itself).
      const own = attrAt(side, key, row)
      if (own !== undefined && own !== value) {
        throw new InputError(
          { file: side.source, line: side.lines[row], key, queryId: id },
          `the run says ${key} = ${JSON.stringify(own)}, but the evaluation set ${dataset.qrels.source} says ${JSON.stringify(value)}`,
          `the evaluation set's attributes are the exam's: drop "${key}" from the run's records, or write the same value`
        )
      }
      // Only the baseline carries the exam's attributes into the pairing; copying them onto the candidate
      // too would let the report call them "checked on both sides" when nothing of the candidate's was.
      if (role === 'candidate') continue
      setAttrAt(side, key, row, value)
      side.attributeFields.add(key)
    }
  }
}

/** Notes on what the dataset kept out of the gated metrics (each counted, never silent). */
export function datasetNotes(d: DatasetJudgments): string[] {
  const notes = [`dataset ${d.qrels.source}: ${d.gated.length} answerable questions of split ${d.split} gated`]
  if (d.otherSplit > 0)
    notes.push(
      `dataset: ${d.otherSplit} questions of other splits not gated (their run queries are counted as without judgments)`
    )
  if (d.disputed.length > 0)
    notes.push(
      `dataset: ${d.disputed.length} disputed questions kept in the file but excluded from the gated metrics: ${d.disputed.slice(0, 20).join(', ')}${d.disputed.length > 20 ? ', ...' : ''}`
    )
  if (d.unanswerable.length > 0)
    notes.push(
      `dataset: ${d.unanswerable.length} unanswerable questions reported on their own (abstention), never in recall averages`
    )
  return notes
}

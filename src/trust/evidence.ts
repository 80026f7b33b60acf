import { InputError } from '../errors.js'
import { forEachLine } from '../readers/lines.js'
import { parseObjectLine } from '../readers/json/lines.js'
import { computeQuery, NOT_JUDGED } from '../metrics/compute.js'
import type { RankedView, RunObserver } from '../metrics/evaluate.js'
import type { ParsedMeasure } from '../config/measures.js'
import { toByteString } from '../util/order.js'
import type { RunBlock } from '../readers/run-blocks.js'

/**
 * What the trust checks need from one run, gathered while the metrics read it (no second read): the top
 * documents of each judged query with their grades, the judged-only ("condensed") value of each measure,
 * and the run-only queries (unanswerable questions) with their abstention flag.
 */

/** One judged query of one run. */
export interface QueryEvidence {
  /** The top documents (byte strings) after the depth cut, at most `keep`, in rank order. */
  top: string[]
  /** Their grades (NOT_JUDGED = no judgment line, POOLED_UNJUDGED = negative grade). */
  topGrades: Int32Array
  /** Documents retrieved (after the depth cut). */
  numRet: number
  /** Each measure on the condensed ranking (documents without a judgment removed, as trec_eval -J). */
  condensed: Float64Array
  abstained: boolean
}

/** A run query that has no judgments (for a dataset: an unanswerable, disputed or other-split question). */
export interface UnjudgedEvidence {
  numRet: number
  abstained: boolean
}

/** Everything gathered from one run. */
export interface SideEvidence {
  source: string
  queries: Map<string, QueryEvidence>
  unjudged: Map<string, UnjudgedEvidence>
  /** First-stage candidates per query (two-stage runs), or null when the run carries none. */
  candidates: Map<string, string[]> | null
}

/** True when a per-query record marks abstention (`"abstained": true`). */
function abstainedOf(block: RunBlock): boolean {
  return block.attrs?.get('abstained') === 'true'
}

/**
 * An observer for computeRunRows that fills a {@link SideEvidence}. `keep` is how many top documents are
 * kept per query (the pooling depth, or more for two-stage diagnostics); `measures` are the measures whose
 * condensed values are computed.
 */
export function collectEvidence(
  source: string,
  keep: number,
  measures: readonly ParsedMeasure[]
): { observer: RunObserver; evidence: SideEvidence } {
  const evidence: SideEvidence = { source, queries: new Map(), unjudged: new Map(), candidates: null }
  let condensedGrades = new Int32Array(1024)
  let condensedOrder = new Uint32Array(1024)
  const observer: RunObserver = {
    ranked(view: RankedView): void {
      const limit = Math.min(view.n, keep)
      const top: string[] = []
      for (let i = 0; i < limit; i++) top.push(view.docnos[view.order[i]])
      if (condensedGrades.length < view.n) {
        condensedGrades = new Int32Array(view.n * 2)
        condensedOrder = new Uint32Array(view.n * 2)
      }
      let m = 0
      for (let i = 0; i < view.n; i++) {
        if (view.grades[i] === NOT_JUDGED) continue
        condensedGrades[m] = view.grades[i]
        condensedOrder[m++] = view.order[i]
      }
      const condensed = new Float64Array(measures.length)
      computeQuery(
        measures,
        { grades: condensedGrades, n: m, docs: { docnos: view.docnos, order: condensedOrder } },
        view.judged,
        condensed
      )
      evidence.queries.set(view.id, {
        top,
        topGrades: view.grades.slice(0, limit),
        numRet: view.n,
        condensed,
        abstained: abstainedOf(view.block)
      })
    },
    unjudged(block: RunBlock): void {
      evidence.unjudged.set(block.id, { numRet: block.count, abstained: abstainedOf(block) })
    },
    restart(): void {
      evidence.queries.clear()
      evidence.unjudged.clear()
    }
  }
  return { observer, evidence }
}

/**
 * Reads the first-stage candidates of a JSON Lines run: per-query records with `"candidates": [...]`, each
 * a document id string or an object with `doc_id`. The metrics reader skips array fields, so this is a
 * second, light pass made only when the run has them. Refuses a malformed list with file, line and query.
 */
export async function readCandidates(file: string): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>()
  await forEachLine(file, (text, line) => {
    if (!text.includes('"candidates"')) return
    const parsed = parseObjectLine(text)
    if (parsed.problem !== undefined) return // the metrics reader already refused this line (invalid JSON, a repeated key)
    const record = parsed.record
    const list = record.candidates
    const id = record.query_id
    if (typeof id !== 'string' || list === undefined) return
    if (!Array.isArray(list))
      throw new InputError(
        { file, line, queryId: id, key: 'candidates' },
        '"candidates" is not an array',
        'write "candidates": ["doc-1", "doc-2", ...] (the first-stage pool, before reranking)'
      )
    const docs: string[] = []
    list.forEach((c, i) => {
      const doc =
        typeof c === 'string'
          ? c
          : c !== null && typeof c === 'object'
            ? (c as Record<string, unknown>).doc_id
            : undefined
      if (typeof doc !== 'string' || doc === '') {
        throw new InputError(
          { file, line, queryId: id, key: `candidates[${i}]` },
          `candidates[${i}] is neither a document id string nor an object with "doc_id"`,
          'list the first-stage documents as ids or {"doc_id": ...}'
        )
      }
      docs.push(toByteString(doc))
    })
    out.set(id, docs)
  })
  return out
}

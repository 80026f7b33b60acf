import { InputError } from '../errors.js'
import { SideRowsBuilder, type QueryRow, type SideRows } from '../model/rows.js'
import type { RunBlock } from '../readers/run-blocks.js'
import { computeQuery } from './compute.js'
import { parseMeasures, type ParsedMeasure } from '../config/measures.js'
import { countRelevant, type JudgedQuery, type Qrels } from '../model/qrels.js'
import { readQrels, readRun } from '../readers/read.js'
import { rankGrades } from './rank.js'
import { quote, quoteList } from '../util/show.js'

/**
 * Run + judgments → per-query metric rows for the gate. The query set is the judgments' (trec_eval `-c`):
 * a judged query missing from the run scores 0 and is counted; a run-only query is ignored and counted;
 * a judged query with no relevant document follows the `noRelevant` policy. Every such decision is in the
 * returned coverage, so the report can say what was done.
 */

/** What to do with judged queries that have no relevant judgment (no grade >= 1). */
export type NoRelevantPolicy = 'exclude' | 'zero' | 'report'

/** Options of {@link computeRunRows}. */
export interface RunRowsOptions {
  runFile: string
  /** The judgments file, or judgments already read with readQrels (read once, used for both sides). */
  qrelsFile?: string
  qrels?: Qrels
  /** Measure names as the user spelled them (keys of the row values). */
  measures: readonly string[]
  /** Depth cut M (trec_eval -M): only the top M documents of each ranking count. */
  depth?: number
  /**
   * Judged queries without a relevant document: `exclude` (default) leaves them out of the rows and lists
   * them; `zero` keeps them with 0 for every measure (this is what trec_eval -c averages over);
   * `report` leaves them out of the rows and returns their rows separately.
   */
  noRelevant?: NoRelevantPolicy
  /**
   * A judged query the run has no ranking for: `zero` (default; trec_eval -c) scores it 0 and counts it;
   * `refuse` stops with the queries named, as trec_eval 10.0 without -c stops (the metrics command's default).
   */
  absentFromRun?: 'zero' | 'refuse'
  /** Sees every query as it is scored (the trust checks: pooling, condensed lists, abstention). */
  observer?: RunObserver
  /**
   * Also return the rows as objects (`rows`), each with its fields in the run record's order and an absent
   * field told from a null one: what the metrics command prints. The gate reads the columns only.
   */
  keepRows?: boolean
}

/** One judged query's ranking after the depth cut, as scored. Buffers are valid during the call only. */
export interface RankedView {
  id: string
  /** Grade at rank i+1 (NOT_JUDGED / POOLED_UNJUDGED when it has none), for i < n. */
  grades: Int32Array
  n: number
  /** The document at rank i+1 is docnos[order[i]] (byte strings). */
  docnos: readonly string[]
  order: Uint32Array
  judged: JudgedQuery
  /** The run's block (passthrough attributes such as `abstained`). */
  block: RunBlock
}

/** Hooks that let a caller look at the rankings without reading the run a second time. */
export interface RunObserver {
  ranked?(view: RankedView): void
  /** A run query without judgments (ignored by the metrics), e.g. an unanswerable question. */
  unjudged?(block: RunBlock): void
  /** The run was not grouped by query and is read again: forget everything seen so far. */
  restart?(): void
}

/** How the query sets of the run and the judgments met, and what was done about each difference. */
export interface MetricCoverage {
  /** The run's format, by its name in the registry (src/readers/formats.ts: trec, jsonl, json, parquet). */
  runFormat: string
  /** False when the run was not grouped by query and was buffered whole (memory grew with the run). */
  runGrouped: boolean
  runLines: number
  /** Queries in the judgments / in the run. */
  judgedQueries: number
  runQueries: number
  /** Queries in the rows. */
  scoredQueries: number
  /** Judged queries (with a relevant document) absent from the run: in the rows with 0 for every measure. */
  absentFromRun: string[]
  /** Judged queries without a relevant document, and what was done with them. */
  noRelevant: { policy: NoRelevantPolicy; ids: string[] }
  /** Queries in the run but not in the judgments: ignored. `runOnlyIds` holds the first 20. */
  runOnly: number
  runOnlyIds: string[]
  depth: number | null
  /** Passthrough JSONL fields skipped because they were objects or arrays. */
  skippedFields: string[]
}

/** Result of {@link computeRunRows}. */
export interface RunRowsResult {
  side: SideRows
  coverage: MetricCoverage
  measures: ParsedMeasure[]
  /** With `noRelevant: 'report'`: the rows of the judged queries without relevant documents. */
  noRelevantRows: QueryRow[]
  /** With `keepRows`: the rows of `side` as objects, in the same order; otherwise null. */
  rows: QueryRow[] | null
}

interface Scored {
  line: number
  values: Float64Array
  numRet: number
  passValues: Map<string, number | null> | null
  passAttrs: Map<string, string> | null
}

/**
 * Computes one side's per-query rows from a run file and judgments. Values are keyed by the measure names
 * as given, plus passthrough numeric fields of per-query JSONL records; `attrs` carries passthrough
 * strings. Rows come in trec_eval's query order (UTF-8 byte order of the ids).
 */
export async function computeRunRows(options: RunRowsOptions): Promise<RunRowsResult> {
  const measures = parseMeasures(options.measures)
  const depth = options.depth
  if (depth !== undefined && (!Number.isSafeInteger(depth) || depth < 1)) {
    throw new InputError({ key: 'depth' }, `depth ${depth} must be a whole number >= 1`, 'e.g. -M 1000')
  }
  const policy: NoRelevantPolicy = options.noRelevant ?? 'exclude'
  let qrels = options.qrels
  if (qrels === undefined) {
    if (options.qrelsFile === undefined) throw new InputError({}, 'no judgments given', 'name the qrels file')
    qrels = await readQrels(options.qrelsFile)
  }
  const run = await scoreRun(options, { measures, qrels })
  if (options.absentFromRun === 'refuse') refuseAbsentQueries(qrels, run.scored, policy, options.runFile)
  const built = rowsOf(run, { options, measures, qrels, policy })
  const coverage: MetricCoverage = {
    runFormat: run.info.format.name,
    runGrouped: run.info.grouped,
    runLines: run.runLines,
    judgedQueries: qrels.ids.length,
    runQueries: run.runQueries,
    scoredQueries: built.rows.size,
    absentFromRun: built.absentFromRun,
    noRelevant: { policy, ids: built.noRelevantIds },
    runOnly: run.runOnly,
    runOnlyIds: run.runOnlyIds,
    depth: depth ?? null,
    skippedFields: run.info.skippedFields
  }
  const notes = runNotes(coverage, run.info)
  const side = built.rows.build({ numericFields: built.numericFields, attributeFields: built.attributeFields, notes })
  side.format = run.info.format
  side.run = {
    queries: run.runQueries,
    absentScoredZero: built.absentFromRun.length,
    withoutJudgmentsIgnored: run.runOnly
  }
  return {
    side,
    coverage,
    measures,
    noRelevantRows: built.noRelevantRows,
    rows: options.keepRows === true ? built.objects : null
  }
}

/** A run read and scored: each judged query's measures, and what the run held besides. */
interface RunScores {
  scored: Map<string, Scored>
  runOnlyIds: string[]
  runOnly: number
  runQueries: number
  runLines: number
  info: Awaited<ReturnType<typeof readRun>>
}

/** Reads the run and scores each judged query it ranks (a run read again from the start restarts the counts). */
async function scoreRun(options: RunRowsOptions, on: { measures: ParsedMeasure[]; qrels: Qrels }): Promise<RunScores> {
  const { measures, qrels } = on
  const judged = qrels.queries
  let r: Omit<RunScores, 'info'> = { scored: new Map(), runOnlyIds: [], runOnly: 0, runQueries: 0, runLines: 0 }
  const onBlock = (block: RunBlock): void => {
    r.runQueries++
    r.runLines += block.count
    const query = judged.get(block.id)
    if (query === undefined) {
      options.observer?.unjudged?.(block)
      r.runOnly++
      if (r.runOnlyIds.length < 20) r.runOnlyIds.push(block.id)
      return
    }
    const { grades, n, order } = rankGrades(block, query, options.depth)
    const values = new Float64Array(measures.length)
    computeQuery(measures, { grades, n, docs: { docnos: block.docnos, order } }, query, values)
    options.observer?.ranked?.({ id: block.id, grades, n, docnos: block.docnos, order, judged: query, block })
    r.scored.set(block.id, { line: block.line, values, numRet: n, passValues: block.values, passAttrs: block.attrs })
  }
  const info = await readRun(options.runFile, onBlock, () => {
    r = { scored: new Map(), runOnlyIds: [], runOnly: 0, runQueries: 0, runLines: 0 }
    options.observer?.restart?.()
  })
  if (r.runQueries === 0) {
    // An empty run would score every judged query 0: a broken build must not look like a (bad) system.
    throw new InputError(
      { file: options.runFile },
      'holds no results (the file is empty or blank)',
      'the run was probably not written or was truncated (a JSON Lines run can list a query with "results": [])'
    )
  }
  return { ...r, info }
}

/** What rowsOf reads: the options, the measures, the judgments and the policy for queries without relevant documents. */
interface RowsPlan {
  options: RunRowsOptions
  measures: ParsedMeasure[]
  qrels: Qrels
  policy: NoRelevantPolicy
}

/** The side's rows in trec_eval's query order, a judged query absent from the run scored 0, and what was left out. */
function rowsOf(run: RunScores, plan: RowsPlan) {
  const { options, measures, qrels, policy } = plan
  const runFile = options.runFile
  const measureNames = new Set(measures.map((m) => m.name))
  const numericFields = new Set<string>(measureNames)
  const attributeFields = new Set<string>()
  const rows = new SideRowsBuilder(runFile)
  const noRelevantRows: QueryRow[] = []
  const objects: QueryRow[] = []
  const absentFromRun: string[] = []
  const noRelevantIds: string[] = []
  const empty = new Int32Array(0)
  for (const id of qrels.ids) {
    const query = qrels.queries.get(id)!
    let s = run.scored.get(id)
    const hasRelevant = countRelevant(query, 1) > 0
    if (s === undefined) {
      const values = new Float64Array(measures.length)
      computeQuery(measures, { grades: empty, n: 0 }, query, values)
      s = { line: 0, values, numRet: 0, passValues: null, passAttrs: null }
      if (hasRelevant || policy === 'zero') absentFromRun.push(id)
    }
    const kept = hasRelevant || policy === 'zero'
    const scoredQuery = s
    // Every field of the query to `value` / `attr` (a passthrough field named like a measure is refused for every judged query).
    const fields = (value: (key: string, v: number | null) => void, attr: (key: string, v: string) => void): void => {
      for (let m = 0; m < measures.length; m++) value(measures[m].name, scoredQuery.values[m])
      for (const [key, v] of scoredQuery.passValues ?? []) {
        if (measureNames.has(key)) {
          throw new InputError(
            { file: runFile, line: scoredQuery.line, key, queryId: id },
            `the run's field ${quote(key)} has the name of a requested measure`,
            'rename the field or the measure'
          )
        }
        value(key, v)
        numericFields.add(key)
      }
      for (const [key, v] of scoredQuery.passAttrs ?? []) {
        attr(key, v)
        attributeFields.add(key)
      }
    }
    // The columns directly; an object only where one is returned (keepRows, or a reported query without relevant documents).
    const asObject = (kept && options.keepRows === true) || (!hasRelevant && policy === 'report')
    const object: QueryRow | null = asObject ? { id, line: s.line, values: new Map(), attrs: new Map() } : null
    const r = kept ? rows.add(id, s.line) : -1
    fields(
      (key, v) => {
        if (r >= 0) rows.setValue(r, key, v)
        object?.values.set(key, v)
      },
      (key, v) => {
        if (r >= 0) rows.setAttr(r, key, v)
        object?.attrs.set(key, v)
      }
    )
    if (object !== null && kept) objects.push(object)
    if (!hasRelevant) {
      noRelevantIds.push(id)
      if (policy === 'report' && object !== null) noRelevantRows.push(object)
    }
  }
  return { rows, numericFields, attributeFields, noRelevantRows, objects, absentFromRun, noRelevantIds }
}

/** The side's notes: every query absent, left out or ignored, counted; how the run was read. */
function runNotes(coverage: MetricCoverage, info: RunScores['info']): string[] {
  const notes: string[] = []
  const absent = coverage.absentFromRun.length
  if (absent)
    notes.push(`${absent} judged ${plural(absent, 'query', 'queries')} absent from the run scored 0 for every measure`)
  const { policy, ids } = coverage.noRelevant
  if (ids.length) {
    const what =
      policy === 'zero'
        ? 'kept with 0 for every measure'
        : policy === 'report'
          ? 'left out of the rows and reported separately'
          : 'left out of the rows'
    notes.push(`${ids.length} judged ${plural(ids.length, 'query', 'queries')} without a relevant document ${what}`)
  }
  const runOnly = coverage.runOnly
  if (runOnly) notes.push(`${runOnly} run ${plural(runOnly, 'query', 'queries')} without judgments ignored`)
  if (!info.grouped) notes.push('the run is not grouped by query, so it was held in memory whole')
  if (coverage.depth !== null) notes.push(`rankings cut at depth ${coverage.depth}`)
  if (info.skippedFields.length) notes.push(`fields skipped (objects or arrays): ${info.skippedFields.join(', ')}`)
  return notes
}

/** How many absent query ids a refusal lists. */
const ABSENT_SHOWN = 5

/**
 * Stops on the judged queries the run has no ranking for, as trec_eval 10.0 does without -c (it exits 4 with
 * "result qid 'X' not found in qrels"). A query the no-relevant policy leaves out anyway is not asked for.
 */
function refuseAbsentQueries(
  qrels: Qrels,
  scored: ReadonlyMap<string, unknown>,
  policy: NoRelevantPolicy,
  runFile: string
): void {
  const absent = qrels.ids.filter(
    (id) => !scored.has(id) && (policy === 'zero' || countRelevant(qrels.queries.get(id)!, 1) > 0)
  )
  if (absent.length === 0) return
  const shown = quoteList(absent, ABSENT_SHOWN)
  const more = absent.length > ABSENT_SHOWN ? `, ... ${absent.length - ABSENT_SHOWN} more` : ''
  throw new InputError(
    { file: runFile },
    `has no ranking for ${absent.length} judged ${plural(absent.length, 'query', 'queries')} (${shown}${more}); trec_eval without -c stops here too`,
    'pass -c to score them 0, as trec_eval -c does, or evaluate the run on every judged query'
  )
}

function plural(n: number, one: string, many: string): string {
  return n === 1 ? one : many
}

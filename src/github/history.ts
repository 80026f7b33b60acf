import type { HistoryInput, PastReport, PastValue, SkipReason } from '../model/history.js'
import { parseStrictJson } from '../readers/json/document.js'
import { TOOL_NAME, VERSION } from '../version.js'
import { downloadFailure, type ArtifactDownloader } from './artifact-download.js'
import { namedArtifacts, successfulRuns, type ApiRun } from './baseline-artifact.js'
import type { GateContext } from './context.js'
import { describeApiError, repoOf, type GitHubClient } from './octokit.js'
import { isOnRef, resolveRef, type ResolvedRef } from './refs.js'
import { readZip, ZipRefusal } from './zip.js'
import { quote } from '../util/show.js'

/** Largest report artifact read (compressed, and the report unpacked): a report is kilobytes to a few megabytes. */
const REPORT_MAX_BYTES = 32 * 1024 * 1024
/** Most files a report artifact may hold (a push workflow uploads one, report.json). */
const REPORT_MAX_ENTRIES = 16
/** The report's file name inside the artifact (report-dir/report.json). */
const REPORT_FILE = 'report.json'
/** Most gated values taken from one past report (series beyond the report's reach are not drawn anyway). */
const MAX_VALUES = 2000

const DAY_MS = 86400 * 1000

export interface HistoryOptions {
  /** history.runs */
  runs: number
  /** history.max_age_days: an older run is stale. */
  maxAgeDays: number
  /** The default branch, whose push runs are read. */
  branch: string
  /** The report artifact's name (retrieval-gate-report, suffixed with the comment-name, or history.artifact). */
  artifactName: string
  /** history.workflow: the recording workflow's file name; undefined: this run's workflow. */
  workflow?: string
  now: Date
  download: ArtifactDownloader
  maxBytes?: number
}

const emptySkips = (): Record<SkipReason, number> => ({
  missing: 0,
  expired: 0,
  unreadable: 0,
  wrong_version: 0,
  stale: 0
})

/** A reason a past run gave no point, with the note's words. */
class Skip extends Error {
  constructor(
    readonly reason: SkipReason,
    message: string
  ) {
    super(message)
  }
}

/** `call`, its failure a run skipped as unreadable, said by `words` (history never fails). */
async function unreadableOn<T>(words: (error: unknown) => string, call: () => Promise<T>): Promise<T> {
  try {
    return await call()
  } catch (error) {
    throw new Skip('unreadable', words(error))
  }
}

/**
 * The JSON reports of the last `runs` successful push runs of this workflow on the default branch (the reports
 * push workflows upload under output history-artifact, src/github/report-artifact.ts), reduced to their gated
 * values with the run's commit and date. Never throws: history is context, not evidence, so a run whose artifact is missing, expired,
 * too old (stale), unreadable or from another report version is counted and named in a note, and an API
 * failure leaves the history empty with a note saying why.
 */
export async function fetchHistory(
  client: GitHubClient,
  ctx: GateContext,
  options: HistoryOptions
): Promise<HistoryInput> {
  const history: HistoryInput = {
    branch: options.branch,
    requested: options.runs,
    reports: [],
    skipped: emptySkips(),
    notes: []
  }
  let main: ResolvedRef
  try {
    // the branch by its full name: a tag named like it has runs "on" it that are not (src/github/refs.ts)
    main = await resolveRef(client, ctx, { ref: `refs/heads/${options.branch}`, where: {}, accept: ['branch'] })
  } catch (error) {
    history.notes.push(`History could not be read: ${(error as Error).message}.`)
    return history
  }
  let runs: ApiRun[]
  try {
    let workflowId: number | string | undefined = options.workflow
    if (workflowId === undefined) {
      if (ctx.runId === undefined) throw new Error('GITHUB_RUN_ID is not set, so the workflow is unknown')
      workflowId = (await client.rest.actions.getWorkflowRun({ ...repoOf(ctx), run_id: ctx.runId })).data.workflow_id
    }
    const perPage = Math.min(100, options.runs * 2 + 5)
    runs = await successfulRuns(client, ctx, { workflow: workflowId, branch: options.branch, event: 'push', perPage })
  } catch (error) {
    history.notes.push(
      `History could not be listed (${describeApiError(error, 'listing the push runs of this workflow')}); the workflow needs permissions: actions: read.`
    )
    return history
  }
  const eligible = runs.filter((r) => r.event === 'push').slice(0, options.runs)
  const read: PastReport[] = []
  let offRef = 0
  for (const run of eligible) {
    try {
      // a comparison that fails skips the run
      const onBranch = await unreadableOn(
        (e) => `its commit could not be compared with ${main.full} (${describeApiError(e, 'comparing commits')})`,
        () => isOnRef(client, ctx, main, run.head_sha)
      )
      if (!onBranch) {
        offRef++
        continue
      }
      read.push(await readRun(client, ctx, run, options))
    } catch (error) {
      if (!(error instanceof Skip)) throw error
      history.skipped[error.reason]++
      history.notes.push(`Run ${run.id} (commit ${run.head_sha.slice(0, 7)}): ${error.message}.`)
    }
  }
  if (offRef > 0) {
    history.notes.push(
      `${offRef} ${offRef === 1 ? 'run' : 'runs'} named ${options.branch} whose commit is not on ${main.full} (a tag or branch of the same name) left out.`
    )
  }
  // The API lists newest first; the chart reads left to right, oldest first.
  history.reports = read.reverse()
  return history
}

async function readRun(
  client: GitHubClient,
  ctx: GateContext,
  run: ApiRun,
  options: HistoryOptions
): Promise<PastReport> {
  const maxBytes = options.maxBytes ?? REPORT_MAX_BYTES
  const named = await unreadableOn(
    (e) => `its artifacts could not be listed (${describeApiError(e, 'listing artifacts')})`,
    () => namedArtifacts(client, ctx, run.id, options.artifactName)
  )
  if (named.length === 0) throw new Skip('missing', `no artifact ${quote(options.artifactName)}`)
  const artifact = named.find((a) => !a.expired)
  if (!artifact) throw new Skip('expired', `artifact ${quote(options.artifactName)} has expired`)
  const date = artifact.created_at ?? run.created_at
  const age = options.now.getTime() - Date.parse(date)
  if (!(age <= options.maxAgeDays * DAY_MS))
    throw new Skip('stale', `the report is older than history.max_age_days (${options.maxAgeDays})`)
  if (artifact.size_in_bytes > maxBytes)
    throw new Skip('unreadable', `the artifact is ${artifact.size_in_bytes} bytes; the cap is ${maxBytes}`)
  const text = await download(artifact.id, options, maxBytes)
  return { runId: run.id, runUrl: run.html_url, commit: run.head_sha, date, ...parseReport(text) }
}

/** Longest one past report's download may take (a report is at most a few MiB; the baseline's allows 5 minutes). */
const REPORT_DEADLINE_MS = 60_000

/** Downloads the artifact and returns its report.json as text, size-capped and strictly UTF-8. */
async function download(artifactId: number, options: HistoryOptions, maxBytes: number): Promise<string> {
  // a report is small: a minute, not the baseline's five, so 50 runs cannot hold the job for hours
  const archive = await unreadableOn(
    (e) => `the download failed (${downloadFailure(e, artifactId)})`,
    () => options.download(artifactId, { maxBytes, deadlineMs: REPORT_DEADLINE_MS })
  )
  let bytes: Uint8Array
  try {
    const files = readZip(archive, { maxTotalBytes: maxBytes, maxEntries: REPORT_MAX_ENTRIES })
    const report = files.find((f) => f.name === REPORT_FILE) ?? (files.length === 1 ? files[0] : undefined)
    if (!report) throw new Skip('unreadable', `the artifact holds no ${REPORT_FILE}`)
    bytes = report.read()
  } catch (error) {
    if (error instanceof ZipRefusal) throw new Skip('unreadable', `the archive ${error.message}`)
    throw error
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch {
    throw new Skip('unreadable', `${REPORT_FILE} is not UTF-8 text`)
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

/** A slice object of a report ({"segment": "new"}) as sorted pairs, or undefined when it is not one. */
function sliceOf(v: unknown): Array<[string, string]> | undefined {
  if (!isObject(v)) return undefined
  const pairs: Array<[string, string]> = []
  for (const [k, x] of Object.entries(v)) {
    if (typeof x !== 'string') return undefined
    pairs.push([k, x])
  }
  return pairs.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
}

/**
 * The gated values of a past JSON report: each metric's candidate mean over all queries (`comparisons` with an
 * empty slice) and each check unit's (`checks[].units[].comparison`). A report of another tool or another
 * major version is `wrong_version`; text that is not strict JSON of the report's shape is `unreadable`.
 */
function parseReport(text: string): { values: PastValue[]; holdoutLooks: number | null } {
  const parsed = parseStrictJson(text)
  if (parsed.problem !== undefined) throw new Skip('unreadable', `${REPORT_FILE} ${parsed.problem}`)
  const report = parsed.value
  if (!isObject(report) || !isObject(report.tool)) throw new Skip('unreadable', `${REPORT_FILE} is not a gate report`)
  const major = (v: unknown): string => (typeof v === 'string' ? v.split('.')[0] : '')
  if (report.tool.name !== TOOL_NAME || major(report.tool.version) !== major(VERSION)) {
    throw new Skip(
      'wrong_version',
      `the report was written by ${quote(String(report.tool.name))} ${quote(String(report.tool.version))}, not ${TOOL_NAME} ${major(VERSION)}.x`
    )
  }
  if (!Array.isArray(report.comparisons) || !Array.isArray(report.checks))
    throw new Skip('unreadable', `${REPORT_FILE} has no comparisons or checks`)
  const values: PastValue[] = []
  const add = (metric: unknown, slice: unknown, value: unknown): void => {
    const s = sliceOf(slice)
    if (
      values.length < MAX_VALUES &&
      typeof metric === 'string' &&
      s &&
      typeof value === 'number' &&
      Number.isFinite(value)
    )
      values.push({ metric, slice: s, value })
  }
  for (const c of report.comparisons)
    if (isObject(c) && isObject(c.slice) && Object.keys(c.slice).length === 0) add(c.metric, c.slice, c.candidate)
  for (const check of report.checks) {
    if (!isObject(check) || !Array.isArray(check.units)) continue
    for (const u of check.units)
      if (isObject(u) && isObject(u.comparison)) add(check.metric, u.slice, u.comparison.candidate)
  }
  const looks = isObject(report.holdout) && isObject(report.holdout.looks) ? report.holdout.looks.this_run : undefined
  return { values, holdoutLooks: looks === 0 || looks === 1 ? looks : null }
}

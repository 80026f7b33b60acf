import { mkdtemp, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { InputError, type Where } from '../errors.js'
import type { BaselineProvenance } from '../model/provenance.js'
import { formatAge } from '../report/provenance.js'
import { downloadFailure, downloadHint, type ArtifactDownloader } from './artifact-download.js'
import { isForkHead, type GateContext, type PullRequestRef } from './context.js'
import { apiErrorHint, apiRefusal, describeApiError, repoOf, type GitHubClient } from './octokit.js'
import { isOnRef, type ResolvedRef } from './refs.js'
import { checkName, readZip, ZipRefusal } from './zip.js'
import { quote } from '../util/show.js'

/** Largest artifact (compressed, and unpacked) the gate accepts: per-query rows are megabytes, not gigabytes. */
const ARTIFACT_MAX_BYTES = 200 * 1024 * 1024
/** Most files an artifact may hold. */
const ARTIFACT_MAX_ENTRIES = 10000
/** How many recent successful runs are searched for the artifact. */
const RUNS_SEARCHED = 20
/**
 * Most pages of runs (100 a page) read to find them: runs that do not count are listed among them (every run of a
 * fork's pull request from its own `main` is "on main"), and must not push the baseline out of the first page.
 */
const MAX_RUN_PAGES = 5
/**
 * The events whose runs may hold a baseline when the caller names none: those only someone who may write to the
 * repository starts (a push, the default branch's own schedule, a manual dispatch). GitHub runs workflow_run,
 * issue_comment, pull_request_review and the like on the default branch too (head_branch main, head_sha its tip),
 * but a pull request's run or anyone who comments starts them, and what they upload may be the PR's rows.
 */
const BASELINE_EVENTS: readonly string[] = ['push', 'schedule', 'workflow_dispatch', 'repository_dispatch']

export interface BaselineArtifactOptions {
  /** Artifact name (input baseline-artifact). */
  name: string
  /** The file inside the artifact (input baseline); empty: the artifact's only file. */
  fileInArtifact: string
  /**
   * The branch or tag whose push runs are searched (the PR's base branch, else the input or default branch; a
   * reference's tag), resolved: a run counts only if its commit is the tag's or on the branch's history.
   */
  ref: ResolvedRef
  /** The key that names the file inside the artifact, for the refusal when it holds several (default `baseline`). */
  fileKey?: string
  /**
   * Runs that are the pull request's own, never searched: its head commit, and pushes to its head branch in
   * this repository (a push to a PR branch runs that branch's workflow files, which may upload anything).
   */
  notFrom?: { sha: string; branch?: string }
  /** Workflow id or file name whose runs are searched; default: the triggering (workflow_run) or this workflow. */
  workflow?: string | number
  /**
   * The events whose runs may hold it (default: push, schedule and manual dispatches, {@link BASELINE_EVENTS}). The
   * exam (a reference) takes push runs only: a dispatched or scheduled run may run on any ref with any inputs.
   */
  events?: readonly string[]
  /** How messages name it (default `baseline-artifact "NAME"`, the name quoted), and where a refusal points (default: that label). */
  label?: string
  where?: { file: string; key: string }
  /** What to do when no run holds it (default: the baseline's fix). */
  uploadHint?: string
  /** Warn when the artifact is older than this many seconds (undefined: never). */
  maxAgeSeconds?: number
  /** A fresh folder of our own to write the chosen file into. */
  tmpDir: string
  now: Date
  download: ArtifactDownloader
  maxBytes?: number
}

export interface BaselineFromArtifact {
  /** The extracted rows file to read. */
  file: string
  provenance: BaselineProvenance
  warnings: string[]
}

/** The fields of a workflow run (GET /actions/workflows/{id}/runs) the artifact searches read. */
export interface ApiRun {
  id: number
  head_sha: string
  head_branch: string | null
  event: string
  html_url: string
  created_at: string
  head_repository?: { full_name: string } | null
}

/** The fields of a run's artifact (GET /actions/runs/{id}/artifacts) the artifact searches read. */
export interface ApiArtifact {
  id: number
  name: string
  size_in_bytes: number
  expired: boolean
  created_at: string | null
}

/**
 * The successful runs of `workflow` on `branch` (a tag's runs name it there too) as the API lists them (of `event`
 * when given), less this run and the runs of another repository (a fork's): where every artifact search starts.
 * With `keep`, only the runs it keeps, read page after page until `want` of them are found (at most
 * {@link MAX_RUN_PAGES} pages); without, the first page.
 */
export async function successfulRuns(
  client: GitHubClient,
  ctx: GateContext,
  query: {
    workflow: number | string
    branch: string
    event?: string
    perPage: number
    keep?: { run: (r: ApiRun) => boolean; want: number }
  }
): Promise<ApiRun[]> {
  const fullName = `${ctx.owner}/${ctx.repo}`
  const found: ApiRun[] = []
  for (let page = 1; page <= (query.keep === undefined ? 1 : MAX_RUN_PAGES); page++) {
    const { data } = await client.rest.actions.listWorkflowRuns({
      ...repoOf(ctx),
      workflow_id: query.workflow,
      branch: query.branch,
      ...(query.event === undefined ? {} : { event: query.event }),
      status: 'success',
      per_page: query.perPage,
      ...(page === 1 ? {} : { page })
    })
    // a run without a head repository (a deleted fork's, as GitHub shows it) is not this repository's
    const runs = data.workflow_runs.filter(
      (r) => r.id !== ctx.runId && r.head_branch === query.branch && !isForkHead(r.head_repository?.full_name, fullName)
    )
    found.push(...(query.keep === undefined ? runs : runs.filter(query.keep.run)))
    if (data.workflow_runs.length < query.perPage || found.length >= (query.keep?.want ?? 0)) break
  }
  return found
}

/** The artifacts of run `runId` named `name` (the API's filter by name, checked again), expired ones included. */
export async function namedArtifacts(
  client: GitHubClient,
  ctx: GateContext,
  runId: number,
  name: string
): Promise<ApiArtifact[]> {
  const { data } = await client.rest.actions.listWorkflowRunArtifacts({
    ...repoOf(ctx),
    run_id: runId,
    name,
    per_page: 100
  })
  return data.artifacts.filter((a) => a.name === name)
}

/**
 * The baseline rows from artifact `name` of the latest successful run of the same workflow on the base branch,
 * with where it came from (run, commit, age) and warnings when it is older than allowed or was not built from
 * the PR's merge base or base commit. Runs triggered by pull requests (including fork PRs whose branch happens
 * to share the base branch's name) are never used: a baseline must come from the base branch itself. Nor is a run
 * whose commit is not on the ref (src/github/refs.ts): GitHub names a tag's runs like a branch's, so a tag called
 * `main` on a contributor's commit has runs "on main" that are not.
 */
export async function fetchBaselineArtifact(
  client: GitHubClient,
  ctx: GateContext,
  pr: PullRequestRef | undefined,
  options: BaselineArtifactOptions
): Promise<BaselineFromArtifact> {
  const label = options.label ?? `baseline-artifact ${quote(options.name)}`
  const at = options.where ?? { file: label }
  const maxBytes = options.maxBytes ?? ARTIFACT_MAX_BYTES
  const workflow = options.workflow ?? ctx.workflowRun?.workflowId ?? (await thisWorkflowId(client, ctx))
  const search: Search = { client, ctx, options, label, at, workflow }
  const { run, artifact } = await findArtifact(search, await eligibleRuns(search))
  if (artifact.size_in_bytes > maxBytes)
    throw new InputError(
      at,
      `${options.where === undefined ? '' : `${label} `}is ${artifact.size_in_bytes} bytes; the cap is ${maxBytes}`,
      'upload only the per-query rows'
    )
  let archive: Uint8Array
  try {
    archive = await options.download(artifact.id, { maxBytes })
  } catch (error) {
    throw new InputError(
      at,
      `${options.where === undefined ? '' : `${label}: `}download of artifact ${artifact.id} from run ${run.id} failed: ${downloadFailure(error, artifact.id)}`,
      downloadHint(error, apiErrorHint(error, 'the workflow needs permissions: actions: read'))
    )
  }
  const file = await extractOne(archive, options, label, maxBytes)
  const createdAt = artifact.created_at ?? run.created_at
  const ageSeconds = Math.max(0, Math.floor((options.now.getTime() - Date.parse(createdAt)) / 1000))
  const provenance: BaselineProvenance = {
    from: 'artifact',
    file: file.inArtifact,
    artifact: {
      name: options.name,
      id: artifact.id,
      runId: run.id,
      runUrl: run.html_url,
      branch: options.ref.name,
      commit: run.head_sha,
      createdAt,
      ageSeconds
    }
  }
  const warnings: string[] = []
  // an unreadable date is no proof of freshness: it is warned about as too old would be
  if (options.maxAgeSeconds !== undefined && !Number.isFinite(ageSeconds))
    warnings.push(
      `The baseline's age is unknown (the artifact's date ${quote(createdAt)} cannot be read), so baseline-max-age cannot be checked: re-run the baseline workflow on ${options.ref.name}.`
    )
  else if (options.maxAgeSeconds !== undefined && ageSeconds > options.maxAgeSeconds) {
    warnings.push(
      `The baseline is ${formatAge(ageSeconds)} old, older than baseline-max-age (${formatAge(options.maxAgeSeconds)}): re-run the baseline workflow on ${options.ref.name}.`
    )
  }
  if (pr) warnings.push(...(await commitWarnings(client, ctx, pr, run.head_sha)))
  return { file: file.path, provenance, warnings }
}

/** What the search for the artifact reads: the API, the options, the label refusals name, the workflow searched. */
interface Search {
  client: GitHubClient
  ctx: GateContext
  options: BaselineArtifactOptions
  label: string
  at: Where
  workflow: number | string
}

/** An API call, its failure refused with what was being done and the permission it needs. */
async function api<T>(search: Search, what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call()
  } catch (error) {
    const permission = 'the workflow needs permissions: actions: read to find and download artifacts of other runs'
    throw apiRefusal(error, search.at, what, { permission })
  }
}

/**
 * The successful runs of the workflow on the ref that may hold the artifact: not this run, not triggered by a pull
 * request, of the events asked, from this repository, on the tag's commit, not of the commit or branch excluded.
 */
async function eligibleRuns(search: Search): Promise<ApiRun[]> {
  const { client, ctx, options, workflow } = search
  const ref = options.ref
  const events = options.events ?? BASELINE_EVENTS
  const eligible = (r: ApiRun): boolean =>
    (ref.kind !== 'tag' || r.head_sha === ref.sha) &&
    !r.event.startsWith('pull_request') &&
    events.includes(r.event) &&
    (options.notFrom === undefined ||
      (r.head_sha !== options.notFrom.sha &&
        (options.notFrom.branch === undefined || r.head_branch !== options.notFrom.branch)))
  const runs = await api(search, `listing successful runs of workflow ${workflow} on ${ref.full}`, () =>
    successfulRuns(client, ctx, {
      workflow,
      branch: ref.name,
      // one event (the exam's push runs) is asked of GitHub, so other runs are not even listed
      ...(events.length === 1 ? { event: events[0] } : {}),
      perPage: 100,
      keep: { run: eligible, want: RUNS_SEARCHED }
    })
  )
  return runs.slice(0, RUNS_SEARCHED)
}

/** The newest eligible run whose commit is on the ref holding one live artifact of the name; refused when none does. */
async function findArtifact(search: Search, eligible: ApiRun[]): Promise<{ run: ApiRun; artifact: ApiArtifact }> {
  const { client, ctx, options, label, at, workflow } = search
  const ref = options.ref
  let offRef = 0
  for (const run of eligible) {
    const artifacts = await api(search, `listing the artifacts of run ${run.id}`, () =>
      namedArtifacts(client, ctx, run.id, options.name)
    )
    const live = artifacts.filter((a) => !a.expired)
    if (live.length > 1) {
      throw new InputError(
        at,
        `${label}: run ${run.id} holds ${live.length} artifacts named ${quote(options.name)}, so which one is meant is ambiguous`,
        'upload the rows once per run under this name (one actions/upload-artifact step), or give each artifact its own name'
      )
    }
    const artifact = live[0]
    if (artifact === undefined) continue
    // a run of a tag or branch that only shares the name: its commit is not on the ref
    if (
      !(await api(search, `checking that run ${run.id} is on ${ref.full}`, () =>
        isOnRef(client, ctx, ref, run.head_sha)
      ))
    ) {
      offRef++
      continue
    }
    return { run, artifact }
  }
  const runsWord = options.events === undefined ? 'non-PR runs' : `${options.events.join(' or ')} runs`
  const skipped =
    offRef === 0
      ? ''
      : `; ${offRef} ${offRef === 1 ? 'run holds it whose commit is' : 'runs hold it whose commits are'} not on ${ref.full} (a ref of the same name), never taken`
  throw new InputError(
    at,
    `${options.where === undefined ? '' : `${label}: `}not found in the last ${eligible.length} successful ${runsWord} of workflow ${workflow} on ${ref.full} (expired artifacts do not count${skipped})`,
    options.uploadHint ??
      `upload it on pushes to ${ref.name} (actions/upload-artifact with name: ${quote(options.name)}), or give baseline a file instead`
  )
}

async function thisWorkflowId(client: GitHubClient, ctx: GateContext): Promise<number> {
  if (ctx.runId === undefined)
    throw new InputError(
      { key: 'baseline-artifact' },
      'cannot tell which workflow to search: GITHUB_RUN_ID is not set',
      'set baseline-workflow'
    )
  try {
    const { data } = await client.rest.actions.getWorkflowRun({ ...repoOf(ctx), run_id: ctx.runId })
    return data.workflow_id
  } catch (error) {
    const permission = 'the workflow needs permissions: actions: read, or set baseline-workflow'
    throw apiRefusal(error, { key: 'baseline-artifact' }, `reading run ${ctx.runId}`, { permission })
  }
}

/** The baseline should be the PR's merge base (what the PR branched from) or its base commit. */
async function commitWarnings(
  client: GitHubClient,
  ctx: GateContext,
  pr: PullRequestRef,
  commit: string
): Promise<string[]> {
  if (commit === pr.baseSha) return []
  let mergeBase: string | undefined
  try {
    const { data } = await client.rest.repos.compareCommitsWithBasehead({
      ...repoOf(ctx),
      basehead: `${pr.baseSha}...${pr.runHeadSha}`,
      per_page: 1
    })
    mergeBase = data.merge_base_commit?.sha
  } catch (error) {
    return [
      `Could not check that the baseline commit ${commit.slice(0, 12)} is the PR's merge base (${describeApiError(error, 'comparing commits')}); it is not the base commit ${pr.baseSha.slice(0, 12)}.`
    ]
  }
  if (commit === mergeBase) return []
  return [
    `The baseline was built from commit ${commit.slice(0, 12)}, which is neither the PR's merge base (${(mergeBase ?? 'unknown').slice(0, 12)}) nor its base commit (${pr.baseSha.slice(0, 12)}): the difference may include changes that are not this PR's. Re-run the baseline workflow on ${pr.baseRef || 'the base branch'} or update the PR branch.`
  ]
}

async function extractOne(
  archive: Uint8Array,
  options: BaselineArtifactOptions,
  label: string,
  maxBytes: number
): Promise<{ path: string; inArtifact: string }> {
  try {
    const files = readZip(archive, { maxTotalBytes: maxBytes, maxEntries: ARTIFACT_MAX_ENTRIES })
    const wanted = options.fileInArtifact.replace(/^\.\//, '')
    const fileKey = options.fileKey ?? 'baseline'
    if (wanted) checkName(wanted)
    const chosen = wanted ? files.find((f) => f.name === wanted) : files.length === 1 ? files[0] : undefined
    if (!chosen) {
      const list =
        files
          .slice(0, 20)
          .map((f) => f.name)
          .join(', ') + (files.length > 20 ? `, and ${files.length - 20} more` : '')
      throw new InputError(
        { file: label },
        wanted
          ? `holds no file ${quote(wanted)} (it holds: ${list || 'nothing'})`
          : `holds ${files.length} files (${list || 'none'}), so ${fileKey} must name the one to use`,
        `set ${fileKey} to the file's path inside the artifact`
      )
    }
    const outDir = await mkdtemp(path.join(options.tmpDir, 'baseline-'))
    const target = path.join(outDir, path.posix.basename(chosen.name))
    await writeFile(target, chosen.read(), { flag: 'wx' })
    return { path: target, inArtifact: chosen.name }
  } catch (error) {
    if (error instanceof ZipRefusal)
      throw new InputError(
        { file: label },
        `refused: the archive ${error.message}`,
        'the gate only reads plain files from artifacts; upload the per-query rows as they are'
      )
    throw error
  }
}

import { readFileSync } from 'node:fs'

/**
 * The facts about the run the gate needs, as a plain object. Built once from the environment and the event
 * file by {@link contextFromEnv}; every src/github function takes it as an argument, so tests pass a literal
 * instead of setting up the environment before importing @actions/github (whose own `context` is frozen at
 * import time).
 */
export interface GateContext {
  eventName: string
  owner: string
  repo: string
  /** REST API root (GITHUB_API_URL). */
  apiUrl: string
  /** Web root (GITHUB_SERVER_URL), for links in the report. */
  serverUrl: string
  /** This workflow run (GITHUB_RUN_ID); absent outside Actions. */
  runId?: number
  /** Which attempt of the run this is (GITHUB_RUN_ATTEMPT: 1, then 2 for a re-run); absent outside Actions. */
  runAttempt?: number
  /** The commit this run checked out (GITHUB_SHA: in pull_request events the test merge commit). */
  sha: string
  /** The repository's default branch, when the event says. */
  defaultBranch?: string
  /** The pull request as the event describes it (pull_request events; workflow_run with a same-repo PR). */
  pullRequest?: PullRequestRef
  /** The triggering run in workflow_run events (the two-workflow fork pattern). */
  workflowRun?: TriggeringRun
  /** The checked-out repository (GITHUB_WORKSPACE, or the working directory). */
  workspace: string
}

/** This run's page (the target of the commit status and of the ledger's statuses), when the run id is known. */
export function runUrlOf(ctx: GateContext): string | undefined {
  return ctx.runId === undefined
    ? undefined
    : `${ctx.serverUrl.replace(/\/+$/, '')}/${ctx.owner}/${ctx.repo}/actions/runs/${ctx.runId}`
}

/** A pull request and the commit this run evaluated. */
export interface PullRequestRef {
  number: number
  /** The PR head this run evaluated: the event's head sha (not the merge commit). */
  runHeadSha: string
  baseSha: string
  baseRef: string
  /** owner/name of the head repository; differs from the base repository for forks. */
  headRepo?: string
  /** The PR's head branch (in `headRepo`), when known: runs on it are the PR's own, never exam-side. */
  headRef?: string
  isFork: boolean
}

export interface TriggeringRun {
  id: number
  workflowId: number
  headSha: string
  headBranch: string
  /**
   * owner/name of the repository the run's commit came from (a fork's, for fork PRs); undefined when the event
   * names none (a deleted fork): then no pull request is looked up by it, and one listed in the event is a fork's.
   */
  headRepo?: string
  event: string
  conclusion: string | null
}

/**
 * Whether a pull request's head is a fork of `repository`: a head repository other than it, or none (GitHub shows a
 * deleted fork's as null; a same-repository head always exists while the run does). Fork is the safe reading: a
 * fork's branch names are never taken for this repository's branches. The one rule for the event's payload and
 * the REST API's pull request.
 */
export function isForkHead(headRepo: string | undefined, repository: string): boolean {
  return headRepo === undefined || headRepo.toLowerCase() !== repository.toLowerCase()
}

type Json = Record<string, unknown>
const obj = (v: unknown): Json => (v !== null && typeof v === 'object' ? (v as Json) : {})
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined)
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined)

/** Reads GITHUB_* variables and the event file (missing or unreadable event file: an empty payload). */
export function contextFromEnv(
  env: Record<string, string | undefined>,
  readEvent: (file: string) => string = (f) => readFileSync(f, 'utf8')
): GateContext {
  let payload: Json = {}
  const eventPath = env.GITHUB_EVENT_PATH
  if (eventPath) {
    try {
      payload = obj(JSON.parse(readEvent(eventPath)))
    } catch {
      payload = {}
    }
  }
  return contextFromPayload(env, payload)
}

/** The pure part of {@link contextFromEnv}: environment variables plus the parsed event payload. */
export function contextFromPayload(env: Record<string, string | undefined>, payload: Json): GateContext {
  const [envOwner, envRepo] = (env.GITHUB_REPOSITORY ?? '/').split('/')
  const repository = obj(payload.repository)
  const owner = str(obj(repository.owner).login) ?? envOwner ?? ''
  const repo = str(repository.name) ?? envRepo ?? ''
  const fullName = `${owner}/${repo}`
  const eventName = env.GITHUB_EVENT_NAME ?? ''
  const runId = Number(env.GITHUB_RUN_ID)
  const runAttempt = Number(env.GITHUB_RUN_ATTEMPT)
  const ctx: GateContext = {
    eventName,
    owner,
    repo,
    apiUrl: env.GITHUB_API_URL || 'https://api.github.com',
    serverUrl: env.GITHUB_SERVER_URL || 'https://github.com',
    runId: Number.isSafeInteger(runId) && runId > 0 ? runId : undefined,
    ...(Number.isSafeInteger(runAttempt) && runAttempt > 0 ? { runAttempt } : {}),
    sha: env.GITHUB_SHA ?? '',
    defaultBranch: str(repository.default_branch),
    workspace: env.GITHUB_WORKSPACE || process.cwd()
  }
  const pr = obj(payload.pull_request)
  if (num(pr.number) !== undefined) {
    const headRepo = str(obj(obj(pr.head).repo).full_name)
    ctx.pullRequest = {
      number: num(pr.number) as number,
      runHeadSha: str(obj(pr.head).sha) ?? ctx.sha,
      baseSha: str(obj(pr.base).sha) ?? '',
      baseRef: str(obj(pr.base).ref) ?? '',
      headRepo,
      headRef: str(obj(pr.head).ref),
      isFork: isForkHead(headRepo, fullName)
    }
  }
  const run = obj(payload.workflow_run)
  if (eventName === 'workflow_run' && num(run.id) !== undefined) {
    ctx.workflowRun = {
      id: num(run.id) as number,
      workflowId: num(run.workflow_id) ?? 0,
      headSha: str(run.head_sha) ?? '',
      headBranch: str(run.head_branch) ?? '',
      headRepo: str(obj(run.head_repository).full_name),
      event: str(run.event) ?? '',
      conclusion: str(run.conclusion) ?? null
    }
    // GitHub lists the PR here only when the head branch is in this repository (never for forks). Several listed
    // (one head branch into two bases) are not taken in order: the lookup by head branch refuses them as ambiguous.
    const listed = Array.isArray(run.pull_requests) ? run.pull_requests : []
    const first = listed.length === 1 ? obj(listed[0]) : {}
    if (num(first.number) !== undefined) {
      ctx.pullRequest = {
        number: num(first.number) as number,
        runHeadSha: ctx.workflowRun.headSha,
        baseSha: str(obj(first.base).sha) ?? '',
        baseRef: str(obj(first.base).ref) ?? '',
        headRepo: ctx.workflowRun.headRepo,
        headRef: ctx.workflowRun.headBranch || undefined,
        isFork: isForkHead(ctx.workflowRun.headRepo, fullName)
      }
    }
  }
  return ctx
}

/** True for the events that carry a pull request's code (where rules default to the base commit). */
export function isPullRequestEvent(eventName: string): boolean {
  return eventName === 'pull_request' || eventName === 'pull_request_target' || eventName === 'workflow_run'
}

import { runUrlOf, type GateContext, type PullRequestRef } from './context.js'
import { describeApiError, repoOf, statusOf, type GitHubClient } from './octokit.js'
import { SHA } from './refs.js'
import { statusDescription, type StatusSubject } from './status-description.js'

/**
 * Input `commit-status`: `auto` posts in workflow_run events about a pull request (the fork pattern, where the
 * gate's own check is attached to the default branch and no rule could require it); `true` whenever a PR head
 * commit is known; `false` never.
 */
export type CommitStatusMode = 'auto' | 'true' | 'false'

export const COMMIT_STATUS_MODES: readonly CommitStatusMode[] = ['auto', 'true', 'false']

/** The context of the default gate: what a ruleset or branch protection names as the required check. */
export const STATUS_CONTEXT = 'retrieval-gate'

/** The comment name that keeps the plain context (input comment-name's default). */
const DEFAULT_NAME = 'default'

/** The events whose runs are about a pull request's head commit. */
const PR_EVENTS = new Set(['pull_request', 'pull_request_target'])

/**
 * The status context: `retrieval-gate`, or `retrieval-gate / NAME` when input comment-name names one of several
 * gates (each keeps its own required check, as each keeps its own comment). The name is already checked to
 * letters, digits, `.`, `_` and `-`.
 */
export function statusContext(commentName: string): string {
  return commentName === DEFAULT_NAME ? STATUS_CONTEXT : `${STATUS_CONTEXT} / ${commentName}`
}

/**
 * The commit the status goes on, or why there is none. It is the PR's head commit that this run evaluated,
 * never GITHUB_SHA (in workflow_run events that is the default branch's head, where a required check is never
 * looked for). In workflow_run events it is the triggering run's `head_sha`: the fork's commit, which GitHub
 * lists on the PR even though `workflow_run.pull_requests` is empty for forks; the PR found from the head
 * repository and branch (src/github/pull-request.ts) carries the same sha.
 */
export function statusTarget(
  mode: CommitStatusMode,
  ctx: GateContext,
  pr: PullRequestRef | undefined
): { sha: string } | { skipped: string } {
  if (mode === 'false') return { skipped: 'commit-status: false' }
  const run = ctx.workflowRun
  const runAboutPr =
    run !== undefined && (PR_EVENTS.has(run.event) || pr !== undefined || ctx.pullRequest !== undefined)
  if (mode === 'auto' && !(ctx.eventName === 'workflow_run' && runAboutPr))
    return { skipped: 'commit-status: auto posts only in workflow_run events about a pull request' }
  const sha =
    (ctx.eventName === 'workflow_run' && runAboutPr ? run?.headSha : undefined) ??
    pr?.runHeadSha ??
    ctx.pullRequest?.runHeadSha
  if (sha === undefined || sha === '') return { skipped: 'no pull request head commit is known for this run' }
  if (!SHA.test(sha)) return { skipped: 'the head commit in the event is not a commit sha' }
  return { sha }
}

export type CommitStatusOutcome =
  | { status: 'created'; sha: string; state: 'success' | 'failure' | 'error'; context: string }
  | { status: 'skipped'; reason: string }
  | { status: 'failed'; reason: string; httpStatus?: number }

/**
 * Creates the commit status (POST /repos/{owner}/{repo}/statuses/{sha}): success on pass, failure on fail,
 * error when no verdict was reached, with the run's URL as its link. Never throws: the verdict decides the
 * step, so an API failure comes back as a `failed` outcome whose reason names what to do (a 403 names the
 * `statuses: write` permission).
 */
async function postCommitStatus(
  client: GitHubClient,
  ctx: GateContext,
  sha: string,
  req: { commentName: string; subject: StatusSubject }
): Promise<CommitStatusOutcome> {
  const state = req.subject.verdict === 'pass' ? 'success' : req.subject.verdict === 'fail' ? 'failure' : 'error'
  const context = statusContext(req.commentName)
  const targetUrl = runUrlOf(ctx)
  try {
    await client.rest.repos.createCommitStatus({
      ...repoOf(ctx),
      sha,
      state,
      context,
      description: statusDescription(req.subject),
      ...(targetUrl ? { target_url: targetUrl } : {})
    })
    return { status: 'created', sha, state, context }
  } catch (error) {
    const httpStatus = statusOf(error)
    const reason = describeApiError(error, `creating the commit status on ${sha.slice(0, 12)}`)
    const hint =
      httpStatus === 403 && !/rate limit/i.test(reason)
        ? " — grant `statuses: write` in the workflow's permissions: block (the token needs it to create a commit status)"
        : ''
    return { status: 'failed', reason: reason + hint, httpStatus }
  }
}

/** What a commit status needs to know about the run; the error path builds it from the raw inputs. */
export interface StatusRoute {
  client: GitHubClient | undefined
  ctx: GateContext
  pr: PullRequestRef | undefined
  mode: CommitStatusMode
  commentName: string
}

/**
 * The commit status for this run's outcome, when one is due (see {@link statusTarget}): created, skipped with
 * the reason, or failed with what to do. Never throws.
 */
export async function reportCommitStatus(route: StatusRoute, subject: StatusSubject): Promise<CommitStatusOutcome> {
  const target = statusTarget(route.mode, route.ctx, route.pr)
  if ('skipped' in target) return { status: 'skipped', reason: target.skipped }
  if (!route.client)
    return { status: 'failed', reason: 'no github-token was given, so no commit status could be created' }
  return postCommitStatus(route.client, route.ctx, target.sha, { commentName: route.commentName, subject })
}

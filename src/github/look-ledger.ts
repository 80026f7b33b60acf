import type { PriorLooks } from '../decide/holdout.js'
import type { GateContext, PullRequestRef } from './context.js'
import { describeApiError, statusOf, type GitHubClient } from './octokit.js'

/**
 * The holdout look ledger: where the action counts the runs that graded the holdout, kept where a pull request
 * cannot reset it. A look is a commit status (context `retrieval-gate holdout look[ / NAME]`) created on the PR's
 * head commit before the report is published, and, with a release named, one more on the release's commit. A
 * commit status can be created but never edited or deleted through the API, by anyone: deleting a comment,
 * cancelling a run, rerunning on a stale commit or reopening the branch as a new PR does not lower the count.
 *
 * - This PR's looks: the statuses of that context on every commit of the PR (its history; a branch reopened as a
 *   new PR brings its commits, and their looks, along). A PR whose history is rewritten (force-push) leaves its
 *   old commits behind: the per-release count, kept on one commit, is the one no rewrite escapes.
 * - This release's looks (dataset.holdout_looks.release): the statuses on the release commit.
 *
 * Fail closed: when the ledger cannot be read, or this run's look cannot be written (a read-only token, as fork
 * PRs have; no `statuses: write`), the count is unknown, never 0, and the checks on holdout queries are
 * inconclusive with that reason.
 */

/** Most commits of a PR the API lists (GET /pulls/{n}/commits stops at 250). */
const MAX_PR_COMMITS = 250
/** GitHub keeps at most 1,000 statuses per commit and context: past that a look could not be recorded. */
const MAX_STATUSES_PER_CONTEXT = 1000

export function lookContext(commentName: string): string {
  return commentName === 'default' ? 'retrieval-gate holdout look' : `retrieval-gate holdout look / ${commentName}`
}

const releaseContext = (commentName: string): string => `${lookContext(commentName)} (release)`

export interface LedgerOptions {
  commentName: string
  /** The commit the release's looks are kept on (resolved from dataset.holdout_looks.release), or undefined. */
  releaseCommit?: string
  /** Whether this run grades the holdout (then its look is written before anything is published). */
  grades: boolean
  runUrl?: string
}

/**
 * Counts the looks before this run and, when this run grades the holdout, records its look. Returns the prior
 * counts with `unknown` set (and a warning) when either step failed. Never throws.
 */
export async function readAndRecordLooks(
  client: GitHubClient | undefined,
  ctx: GateContext,
  pr: PullRequestRef | undefined,
  options: LedgerOptions
): Promise<{ prior: PriorLooks; release: number | null; warning?: string }> {
  if (pr === undefined) return { prior: { thisPr: null }, release: null }
  if (client === undefined) return unknown('no github-token was given, so the looks cannot be counted')
  let step = "listing the PR's commits"
  try {
    const commits = (await client.paginate(client.rest.pulls.listCommits, {
      owner: ctx.owner,
      repo: ctx.repo,
      pull_number: pr.number,
      per_page: 100
    })) as Array<{ sha: string }>
    if (commits.length >= MAX_PR_COMMITS)
      return unknown(
        `the PR has ${MAX_PR_COMMITS} or more commits, more than the API lists, so its looks cannot all be counted`
      )
    const shas = [...new Set([...commits.map((c) => c.sha), pr.runHeadSha])]
    const context = lookContext(options.commentName)
    let thisPr = 0
    for (const sha of shas) {
      step = `listing the statuses of ${sha.slice(0, 12)}`
      thisPr += await countStatuses(client, ctx, sha, context)
    }
    let release: number | null = null
    if (options.releaseCommit !== undefined) {
      step = `listing the statuses of the release commit ${options.releaseCommit.slice(0, 12)}`
      release = await countStatuses(client, ctx, options.releaseCommit, releaseContext(options.commentName))
    }
    if (options.grades) {
      if (thisPr + 1 >= MAX_STATUSES_PER_CONTEXT || (release ?? 0) + 1 >= MAX_STATUSES_PER_CONTEXT)
        return unknown(`the ledger is full (GitHub keeps ${MAX_STATUSES_PER_CONTEXT} statuses per commit and context)`)
      step = `recording this look on ${pr.runHeadSha.slice(0, 12)}`
      await record(client, ctx, {
        sha: pr.runHeadSha,
        context,
        description: `look ${thisPr + 1} at the holdout in PR #${pr.number}`,
        url: options.runUrl
      })
      if (options.releaseCommit !== undefined) {
        step = `recording this look on the release commit ${options.releaseCommit.slice(0, 12)}`
        const description = `look ${(release ?? 0) + 1} at the holdout (PR #${pr.number})`
        await record(client, ctx, {
          sha: options.releaseCommit,
          context: releaseContext(options.commentName),
          description,
          url: options.runUrl
        })
      }
    }
    return { prior: { thisPr }, release }
  } catch (error) {
    const permission =
      statusOf(error) === 403 || statusOf(error) === 404
        ? " (the workflow needs permissions: statuses: write; a fork PR's token is read-only: use the two-workflow pattern of docs/github.md)"
        : ''
    return unknown(`${describeApiError(error, step)}${permission}`)
  }
}

/**
 * The looks at a regression budget over a release (rules `reference.looks`): one commit status (context
 * `retrieval-gate budget look[ / NAME]`) per PR run on the reference's commit, which every PR of the release
 * shares. Counts the looks before this run, records this one, and returns this run's look (1 = the first). Outside
 * a pull request this run is the one look; a ledger that cannot be read or written gives null with the reason.
 */
export async function readAndRecordBudgetLook(
  client: GitHubClient | undefined,
  ctx: GateContext,
  pr: PullRequestRef | undefined,
  options: { commentName: string; commit: string | undefined; runUrl?: string }
): Promise<{ thisLook: number | null; unknown: string | null; warning?: string }> {
  if (pr === undefined) return { thisLook: 1, unknown: null }
  const fail = (reason: string): { thisLook: null; unknown: string; warning: string } => ({
    thisLook: null,
    unknown: reason,
    warning: `retrieval-gate: the looks at the regression budget could not be counted: ${reason}; the budgets are inconclusive unless shown spent`
  })
  if (client === undefined) return fail('no github-token was given')
  if (options.commit === undefined) return fail("the reference's commit is unknown")
  const context =
    options.commentName === 'default'
      ? 'retrieval-gate budget look'
      : `retrieval-gate budget look / ${options.commentName}`
  let step = `listing the statuses of the reference commit ${options.commit.slice(0, 12)}`
  try {
    const prior = await countStatuses(client, ctx, options.commit, context)
    if (prior + 1 >= MAX_STATUSES_PER_CONTEXT)
      return fail(`the ledger is full (GitHub keeps ${MAX_STATUSES_PER_CONTEXT} statuses per commit and context)`)
    step = `recording this look on the reference commit ${options.commit.slice(0, 12)}`
    await record(client, ctx, {
      sha: options.commit,
      context,
      description: `look ${prior + 1} at the budget (PR #${pr.number})`,
      url: options.runUrl
    })
    return { thisLook: prior + 1, unknown: null }
  } catch (error) {
    const permission =
      statusOf(error) === 403 || statusOf(error) === 404 ? ' (the workflow needs permissions: statuses: write)' : ''
    return fail(`${describeApiError(error, step)}${permission}`)
  }
}

function unknown(reason: string): { prior: PriorLooks; release: null; warning: string } {
  return {
    prior: { thisPr: null, unknown: reason },
    release: null,
    warning: `retrieval-gate: the holdout looks could not be counted: ${reason}; the checks on holdout queries are inconclusive`
  }
}

async function countStatuses(client: GitHubClient, ctx: GateContext, sha: string, context: string): Promise<number> {
  const statuses = (await client.paginate(client.rest.repos.listCommitStatusesForRef, {
    owner: ctx.owner,
    repo: ctx.repo,
    ref: sha,
    per_page: 100
  })) as Array<{ context: string }>
  let n = 0
  for (const s of statuses) if (s.context === context) n++
  return n
}

/** One look as a ledger writes it: a success status on a commit (the PR's head, a release's or reference's), in the ledger's context. */
interface LookStatus {
  sha: string
  context: string
  description: string
  /** This run's page, when known. */
  url: string | undefined
}

async function record(client: GitHubClient, ctx: GateContext, look: LookStatus): Promise<void> {
  const { sha, context, description, url } = look
  await client.rest.repos.createCommitStatus({
    owner: ctx.owner,
    repo: ctx.repo,
    sha,
    state: 'success',
    context,
    description,
    ...(url ? { target_url: url } : {})
  })
}

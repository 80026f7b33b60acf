import type { PriorLooks } from '../decide/holdout.js'
import type { GateContext, PullRequestRef } from './context.js'
import { listRecords, looksIn, placeOf, runMark, writeRecord, type ListedStatus } from './ledger.js'
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
 * Record, then count (src/github/ledger.ts): this run's look is written first and then every look is listed, its
 * own included, so runs that start together see each other. Fail closed: when the ledger cannot be read, or this
 * run's look cannot be written (a read-only token, as fork PRs have; no `statuses: write`) or is not in the
 * listing, the count is unknown, never 0, and the checks on holdout queries are inconclusive with that reason.
 */

/** Most commits of a PR the API lists (GET /pulls/{n}/commits stops at 250). */
const MAX_PR_COMMITS = 250

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
 * Records this run's look (when it grades the holdout) and counts the looks before it, this PR's and the
 * release's. Returns the prior counts with `unknown` set (and a warning) when a step failed. Never throws.
 */
export async function readAndRecordLooks(
  client: GitHubClient | undefined,
  ctx: GateContext,
  pr: PullRequestRef | undefined,
  options: LedgerOptions
): Promise<{ prior: PriorLooks; release: number | null; warning?: string }> {
  if (pr === undefined) return { prior: { thisPr: null }, release: null }
  if (client === undefined) return unknown('no github-token was given, so the looks cannot be counted')
  const context = lookContext(options.commentName)
  const release = options.releaseCommit
  const mark = runMark(ctx)
  let step = `recording this look on ${pr.runHeadSha.slice(0, 12)}`
  try {
    let own: { head: number; release?: number } | undefined
    if (options.grades) {
      const description = `${mark}: a look at the holdout in PR #${pr.number}`
      own = { head: await writeRecord(client, ctx, { sha: pr.runHeadSha, context, description, url: options.runUrl }) }
      if (release !== undefined) {
        step = `recording this look on the release commit ${release.slice(0, 12)}`
        own.release = await writeRecord(client, ctx, {
          sha: release,
          context: releaseContext(options.commentName),
          description: `${mark}: a look at the holdout (PR #${pr.number})`,
          url: options.runUrl
        })
      }
    }
    step = "listing the PR's commits"
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
    const prStatuses: ListedStatus[] = []
    for (const sha of new Set([...commits.map((c) => c.sha), pr.runHeadSha])) {
      step = `listing the statuses of ${sha.slice(0, 12)}`
      prStatuses.push(...(await listRecords(client, ctx, sha)))
    }
    const isLook = (c: string): boolean => c === context
    const thisPr = own === undefined ? looksIn(prStatuses, isLook) : placeOf(prStatuses, isLook, { id: own.head, mark })
    let releaseLooks: number | undefined
    if (release !== undefined) {
      step = `listing the statuses of the release commit ${release.slice(0, 12)}`
      const statuses = await listRecords(client, ctx, release)
      const isRelease = (c: string): boolean => c === releaseContext(options.commentName)
      releaseLooks =
        own?.release === undefined
          ? looksIn(statuses, isRelease)
          : placeOf(statuses, isRelease, { id: own.release, mark })
    }
    if (thisPr === undefined || (release !== undefined && releaseLooks === undefined))
      return unknown("this run's look was recorded but is not in the ledger's listing")
    // the counts before this run: its own look is the one the decision adds
    const before = (n: number): number => (own === undefined ? n : n - 1)
    return {
      prior: { thisPr: before(thisPr) },
      release: releaseLooks === undefined ? null : before(releaseLooks)
    }
  } catch (error) {
    return unknown(`${describeApiError(error, step)}${permissionHint(error, true)}`)
  }
}

/**
 * The looks at a regression budget over a release (rules `reference.looks`): one commit status (context
 * `retrieval-gate budget look[ / NAME]`) per PR run on the reference's commit, which every PR of the release
 * shares. Records this run's look, then counts every look there, and returns this run's place (1 = the first).
 * Outside a pull request this run is the one look; a ledger that cannot be written or read gives null with the
 * reason.
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
  const commit = options.commit
  const mark = runMark(ctx)
  let step = `recording this look on the reference commit ${commit.slice(0, 12)}`
  try {
    const description = `${mark}: a look at the budget (PR #${pr.number})`
    const id = await writeRecord(client, ctx, { sha: commit, context, description, url: options.runUrl })
    step = `listing the statuses of the reference commit ${commit.slice(0, 12)}`
    const place = placeOf(await listRecords(client, ctx, commit), (c) => c === context, { id, mark })
    if (place === undefined) return fail("this run's look was recorded but is not in the ledger's listing")
    return { thisLook: place, unknown: null }
  } catch (error) {
    return fail(`${describeApiError(error, step)}${permissionHint(error, false)}`)
  }
}

/** What to grant when the ledger refused (403/404), and what a full one means (422). */
function permissionHint(error: unknown, fork: boolean): string {
  const status = statusOf(error)
  if (status === 403 || status === 404)
    return fork
      ? " (the workflow needs permissions: statuses: write; a fork PR's token is read-only: use the two-workflow pattern of docs/github.md)"
      : ' (the workflow needs permissions: statuses: write)'
  return status === 422 ? ' (GitHub keeps at most 1,000 statuses per commit and context: this ledger is full)' : ''
}

function unknown(reason: string): { prior: PriorLooks; release: null; warning: string } {
  return {
    prior: { thisPr: null, unknown: reason },
    release: null,
    warning: `retrieval-gate: the holdout looks could not be counted: ${reason}; the checks on holdout queries are inconclusive`
  }
}

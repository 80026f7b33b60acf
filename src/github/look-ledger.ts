import { createHash } from 'node:crypto'
import type { LookCount, LookRequest } from '../capabilities/contract.js'
import type { GateContext, PullRequestRef } from './context.js'
import { listRecords, looksIn, placeOf, runMark, writeRecord } from './ledger.js'
import { describeApiError, statusOf, type GitHubClient } from './octokit.js'

/**
 * The look ledgers: where the action counts the runs that looked at something (the holdout, a regression budget),
 * kept where a pull request cannot reset them, on a commit that does not move for what they count. A look is one
 * commit status on that commit (a tag's, peeled, or a full sha; never a branch), in the ledger's context:
 * `retrieval-gate budget look` (`retrieval-gate budget look / NAME` with comment-name NAME); counted per pull
 * request head as well (the holdout), `retrieval-gate holdout look (release) / branch <hash>`, the hash naming the
 * head repository and branch. A commit status can be created but never edited or deleted through the API, by
 * anyone, and the tag's commit stays where it is:
 *
 * - This PR's looks: the looks in its head branch's context. A force-push, a rebase, a re-run on a stale commit or
 *   the branch reopened as a new PR keeps the branch, so the count goes on (keyed on the PR's commits, as before, a
 *   force-push left them behind). A new branch is a new count: the per-release cap is the one nothing restarts.
 * - This release's looks: every look on the release commit, of every PR (and the single-context looks written before).
 *
 * Record, then count (src/github/ledger.ts): this run's look is written first and then every look is listed, its
 * own included, so runs that start together see each other. Fail closed: when the ledger cannot be read, or this
 * run's look cannot be written (a read-only token, as fork PRs have; no `statuses: write`) or is not in the
 * listing, the count is unknown, never 0, and what depends on it is inconclusive with that reason.
 */

function ledgerContext(commentName: string, ledger: string): string {
  return commentName === 'default' ? `retrieval-gate ${ledger}` : `retrieval-gate ${ledger} / ${commentName}`
}

/**
 * The context of one PR head's looks in a ledger counted per head: the ledger's `(release)` context, then a hash
 * of the head repository and branch (a branch name is the PR author's text and may be long; the hash is 12 hex
 * digits), or the PR number when the head is unknown.
 */
function headContext(all: string, pr: PullRequestRef): string {
  const head = pr.headRef === undefined ? undefined : `${(pr.headRepo ?? '').toLowerCase()}:${pr.headRef}`
  const key =
    head === undefined ? `PR #${pr.number}` : `branch ${createHash('sha256').update(head).digest('hex').slice(0, 12)}`
  return `${all} / ${key}`
}

/** Where a look goes: the run, its pull request, the comment-name that names the ledgers, the run's page. */
export interface LookSite {
  client: GitHubClient
  ctx: GateContext
  pr: PullRequestRef
  commentName: string
  runUrl?: string
}

/**
 * Records this run's look (when it looks) on the ledger's commit, then counts the looks before it: this head's
 * (counted per head) and all of them. A step that fails gives the reason, never a count. Never throws.
 */
export async function recordLook(site: LookSite, request: LookRequest & { commit: string }): Promise<LookCount> {
  const { client, ctx, pr } = site
  const { commit } = request
  const base = ledgerContext(site.commentName, request.ledger)
  // a ledger counted per head keeps every head's looks under its `(release)` context (and the older single one)
  const all = request.perHead ? `${base} (release)` : base
  const mine = request.perHead ? headContext(all, pr) : base
  const ofAll = (c: string): boolean => c === all || (request.perHead && c.startsWith(`${all} / `))
  const ofHead = (c: string): boolean => c === mine
  const mark = runMark(ctx)
  let step = `recording this look on the commit ${commit.slice(0, 12)}`
  try {
    const description = `${mark}: a look at ${request.what} in PR #${pr.number}`
    const id = request.record
      ? await writeRecord(client, ctx, { sha: commit, context: mine, description, url: site.runUrl })
      : undefined
    step = `listing the statuses of the commit ${commit.slice(0, 12)}`
    const statuses = await listRecords(client, ctx, commit)
    const head = request.perHead
      ? id === undefined
        ? looksIn(statuses, ofHead)
        : placeOf(statuses, ofHead, { id, mark })
      : null
    const every = id === undefined ? looksIn(statuses, ofAll) : placeOf(statuses, ofAll, { id, mark })
    if (head === undefined || every === undefined)
      return { unknown: "this run's look was recorded but is not in the ledger's listing" }
    // the counts before this run: its own look is the one the decision adds
    const before = id === undefined ? 0 : 1
    return { head: head === null ? null : head - before, all: every - before }
  } catch (error) {
    return { unknown: `${describeApiError(error, step)}${permissionHint(error)}` }
  }
}

/** What to grant when the ledger refused (403/404), and what a full one means (422). */
function permissionHint(error: unknown): string {
  const status = statusOf(error)
  if (status === 403 || status === 404)
    return " (the workflow needs permissions: statuses: write; a fork PR's token is read-only: use the two-workflow pattern of docs/github.md)"
  return status === 422 ? ' (GitHub keeps at most 1,000 statuses per commit and context: this ledger is full)' : ''
}

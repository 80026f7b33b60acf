import { createHash } from 'node:crypto'
import type { PriorLooks } from '../decide/holdout.js'
import type { GateContext, PullRequestRef } from './context.js'
import { listRecords, looksIn, placeOf, runMark, writeRecord } from './ledger.js'
import { describeApiError, statusOf, type GitHubClient } from './octokit.js'

/**
 * The holdout look ledger: where the action counts the runs that graded the holdout, kept where a pull request
 * cannot reset it, on a commit that does not move for what it counts. A look is one commit status on the release's
 * commit (dataset.holdout_looks.release: a tag, peeled, or a full sha; never a branch), in a context of its own per
 * pull request head: `retrieval-gate holdout look (release) / branch <hash>` (`retrieval-gate holdout look / NAME
 * (release) / …` with comment-name NAME), the hash naming the head repository and branch. A commit status can be
 * created but never edited or deleted through the API, by anyone, and the tag's commit stays where it is:
 *
 * - This PR's looks: the looks in its head branch's context. A force-push, a rebase, a re-run on a stale commit or
 *   the branch reopened as a new PR keeps the branch, so the count goes on (keyed on the PR's commits, as before, a
 *   force-push left them behind). A new branch is a new count: the per-release cap is the one nothing restarts.
 * - This release's looks: every look on the release commit, of every PR (and the single-context looks written before).
 *
 * Without a release named there is no ledger: nothing to keep the looks on that does not move, so the rules refuse
 * a cap without one (src/config/trust-rules.ts) and the report counts this run's look alone.
 *
 * Record, then count (src/github/ledger.ts): this run's look is written first and then every look is listed, its
 * own included, so runs that start together see each other. Fail closed: when the ledger cannot be read, or this
 * run's look cannot be written (a read-only token, as fork PRs have; no `statuses: write`) or is not in the
 * listing, the count is unknown, never 0, and the checks on holdout queries are inconclusive with that reason.
 */

function lookContext(commentName: string): string {
  return commentName === 'default' ? 'retrieval-gate holdout look' : `retrieval-gate holdout look / ${commentName}`
}

/** The context of every look at the release (the only one, before looks were kept per head branch). */
const releaseContext = (commentName: string): string => `${lookContext(commentName)} (release)`

/**
 * The context of one PR head's looks: the release's, then a hash of the head repository and branch (a branch name
 * is the PR author's text and may be long; the hash is 12 hex digits), or the PR number when the head is unknown.
 */
function headContext(commentName: string, pr: PullRequestRef): string {
  const head = pr.headRef === undefined ? undefined : `${(pr.headRepo ?? '').toLowerCase()}:${pr.headRef}`
  const key =
    head === undefined ? `PR #${pr.number}` : `branch ${createHash('sha256').update(head).digest('hex').slice(0, 12)}`
  return `${releaseContext(commentName)} / ${key}`
}

/** What the holdout ledger says: the looks before this run, or why they are unknown (with the step's warning). */
export interface HoldoutLedgerRead {
  prior: PriorLooks
  release: number | null
  warning?: string
}

export interface LedgerOptions {
  commentName: string
  /** The commit the looks are kept on (dataset.holdout_looks.release, resolved to a tag's commit or a sha). */
  releaseCommit: string
  /** Whether this run grades the holdout (then its look is written before anything is published). */
  grades: boolean
  runUrl?: string
}

/**
 * Records this run's look (when it grades the holdout) on the release commit and counts the looks before it, this
 * PR's and the release's. Returns the prior counts with `unknown` set (and a warning) when a step failed. Never
 * throws.
 */
export async function readAndRecordLooks(
  client: GitHubClient,
  ctx: GateContext,
  pr: PullRequestRef,
  options: LedgerOptions
): Promise<HoldoutLedgerRead> {
  const commit = options.releaseCommit
  const mine = headContext(options.commentName, pr)
  const release = releaseContext(options.commentName)
  const ofRelease = (c: string): boolean => c === release || c.startsWith(`${release} / `)
  const ofThisPr = (c: string): boolean => c === mine
  const mark = runMark(ctx)
  let step = `recording this look on the release commit ${commit.slice(0, 12)}`
  try {
    const description = `${mark}: a look at the holdout in PR #${pr.number}`
    const id = options.grades
      ? await writeRecord(client, ctx, { sha: commit, context: mine, description, url: options.runUrl })
      : undefined
    step = `listing the statuses of the release commit ${commit.slice(0, 12)}`
    const statuses = await listRecords(client, ctx, commit)
    if (id === undefined)
      return { prior: { thisPr: looksIn(statuses, ofThisPr) }, release: looksIn(statuses, ofRelease) }
    const thisPr = placeOf(statuses, ofThisPr, { id, mark })
    const thisRelease = placeOf(statuses, ofRelease, { id, mark })
    if (thisPr === undefined || thisRelease === undefined)
      return unknownLooks("this run's look was recorded but is not in the ledger's listing")
    // the counts before this run: its own look is the one the decision adds
    return { prior: { thisPr: thisPr - 1 }, release: thisRelease - 1 }
  } catch (error) {
    return unknownLooks(`${describeApiError(error, step)}${permissionHint(error, true)}`)
  }
}

/**
 * The looks at a regression budget over a release (rules `reference.looks`): one commit status (context
 * `retrieval-gate budget look[ / NAME]`) per PR run on the reference's commit, which every PR of the release
 * shares and which does not move: a tag's commit or a full sha (the rules refuse looks on a reference without one,
 * src/config/reference-rules.ts; the action refuses a ref that turns out to be a branch). Records this run's look, then counts every look there, and returns this run's place (1 = the first).
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

/** The holdout looks could not be counted, and why: never 0, so the checks on holdout queries are inconclusive. */
export function unknownLooks(reason: string): HoldoutLedgerRead {
  return {
    prior: { thisPr: null, unknown: reason },
    release: null,
    warning: `retrieval-gate: the holdout looks could not be counted: ${reason}; the checks on holdout queries are inconclusive`
  }
}

import { fitMarkdown, sizeOf } from '../report/fit.js'
import type { GateContext, PullRequestRef } from './context.js'
import { describeApiError, listAll, repoOf, statusOf, type GitHubClient } from './octokit.js'
import { currentHeadSha } from './pull-request.js'

/** GitHub refuses an issue comment body over 65,536 characters; we count UTF-8 bytes, which is stricter. */
const COMMENT_LIMIT = 65536

/** The login comments made with the Actions GITHUB_TOKEN carry (GET /user is forbidden for that token). */
export const ACTIONS_BOT_LOGIN = 'github-actions[bot]'

export type CommentMode = 'always' | 'on-failure' | 'never'

export interface CommentRequest {
  /** Marker name (input comment-name): several gates on one PR keep one comment each. */
  name: string
  mode: CommentMode
  verdict: 'pass' | 'fail'
  markdown: string
  /** This run's id, stored in the hidden metadata (a later run on the same commit wins). */
  runId?: number
  /** Login to look for instead of asking the API (input comment-author). */
  author?: string
  /** Where the full report is, for the "shortened" note. */
  whereFull: string
}

export type CommentOutcome =
  | { status: 'created' | 'updated'; id: number; url: string; author: string; dropped: string[] }
  | { status: 'skipped'; reason: string }
  | { status: 'failed'; reason: string; httpStatus?: number }

/** Hidden first line of the sticky comment: `<!-- retrieval-gate:NAME -->`. */
export function markerFor(name: string): string {
  return `<!-- retrieval-gate:${name} -->`
}

/** What the hidden metadata line records about the run that wrote the comment. */
export interface CommentMetadata {
  head_sha: string
  run_id: number | null
  verdict: string
}

const META_PREFIX = '<!-- retrieval-gate-meta '

/** Second hidden line: JSON metadata (head commit, run, verdict) so a stale run can tell it is stale. */
export function metadataLine(meta: CommentMetadata): string {
  // `--` cannot occur in the JSON of these fields (hex sha, integer, word), so the comment cannot be closed early
  return `${META_PREFIX}${JSON.stringify({ head_sha: meta.head_sha.replace(/[^0-9a-f]/gi, ''), run_id: meta.run_id, verdict: meta.verdict.replace(/[^a-z]/g, '') })} -->`
}

/** Reads the metadata line back (undefined when absent or malformed). */
export function parseMetadata(body: string): CommentMetadata | undefined {
  const line = body.split('\n', 3).find((l) => l.startsWith(META_PREFIX))
  if (!line || !line.endsWith(' -->')) return undefined
  try {
    const v = JSON.parse(line.slice(META_PREFIX.length, -4)) as Record<string, unknown>
    if (typeof v.head_sha !== 'string') return undefined
    return {
      head_sha: v.head_sha,
      run_id: typeof v.run_id === 'number' ? v.run_id : null,
      verdict: typeof v.verdict === 'string' ? v.verdict : ''
    }
  } catch {
    return undefined
  }
}

/**
 * The login whose comments the gate may edit. A personal access token can ask GET /user; the Actions
 * GITHUB_TOKEN (an app installation token) gets 403 there, and its comments are written by
 * `github-actions[bot]`, which is the fallback. A token of another GitHub App writes as `<app-slug>[bot]`:
 * name it with the input comment-author.
 */
async function ownLogin(client: GitHubClient, override?: string): Promise<{ login: string; how: string }> {
  if (override) return { login: override, how: 'input comment-author' }
  try {
    const { data } = await client.rest.users.getAuthenticated()
    if (typeof data?.login === 'string' && data.login) return { login: data.login, how: 'GET /user' }
  } catch (error) {
    const s = statusOf(error)
    if (s !== 401 && s !== 403 && s !== 404) throw error
  }
  return { login: ACTIONS_BOT_LOGIN, how: 'GET /user not allowed for this token; assumed the Actions token' }
}

interface ApiComment {
  id: number
  body?: string
  html_url: string
  user: { login: string } | null
}

/** Which comment is the gate's: on PR `number`, with the marker of comment-name `name`, written by `login`. */
interface StickyCommentKey {
  number: number
  name: string
  login: string
}

/**
 * The first comment on the PR that starts with this gate's marker AND was written by `login`, reading every
 * page. A marker planted by someone else (in a comment, or quoted in text) is never matched.
 */
async function findStickyComment(
  client: GitHubClient,
  ctx: GateContext,
  wanted: StickyCommentKey
): Promise<ApiComment | undefined> {
  const { number, name, login } = wanted
  const marker = markerFor(name)
  const endpoint = client.rest.issues.listComments
  const comments = await listAll<ApiComment>(client, ctx, { endpoint, params: { issue_number: number } })
  return comments.find(
    (c) => (c.body ?? '').startsWith(marker) && (c.user?.login ?? '').toLowerCase() === login.toLowerCase()
  )
}

/**
 * Creates or updates the gate's one comment on the PR. Never throws: every API failure comes back as a
 * `failed` outcome with a plain message, because the verdict must not depend on whether a comment could be
 * written. A run whose commit is no longer the PR's head does not write (the newer run will), and neither does
 * a run older than the one that wrote the comment for the current head.
 */
export async function upsertStickyComment(
  client: GitHubClient,
  ctx: GateContext,
  pr: PullRequestRef,
  req: CommentRequest
): Promise<CommentOutcome> {
  if (req.mode === 'never') return { status: 'skipped', reason: 'comment: never' }
  let step = 'reading the pull request'
  try {
    const head = await currentHeadSha(client, ctx, pr.number)
    if (head !== pr.runHeadSha) {
      return {
        status: 'skipped',
        reason: `stale run: this run evaluated ${pr.runHeadSha.slice(0, 12)} but the PR's head is now ${head.slice(0, 12)}; the newer run writes the comment`
      }
    }
    step = "finding the token's user"
    const { login } = await ownLogin(client, req.author)
    step = 'listing the PR comments'
    const existing = await findStickyComment(client, ctx, { number: pr.number, name: req.name, login })
    const meta = existing ? parseMetadata(existing.body ?? '') : undefined
    if (meta && meta.head_sha === head && meta.run_id !== null && req.runId !== undefined && meta.run_id > req.runId) {
      return {
        status: 'skipped',
        reason: `run ${meta.run_id} already reported on ${head.slice(0, 12)} and is newer than this run (${req.runId})`
      }
    }
    if (!existing && req.mode === 'on-failure' && req.verdict === 'pass')
      return { status: 'skipped', reason: 'comment: on-failure and the gate passed' }
    const prefix = `${markerFor(req.name)}\n${metadataLine({ head_sha: pr.runHeadSha, run_id: req.runId ?? null, verdict: req.verdict })}\n`
    const fitted = fitMarkdown(req.markdown, COMMENT_LIMIT - sizeOf(prefix) - 64, req.whereFull)
    const body = prefix + fitted.text
    step = existing ? `updating comment ${existing.id}` : 'creating the comment'
    const { data } = existing
      ? await client.rest.issues.updateComment({ ...repoOf(ctx), comment_id: existing.id, body })
      : await client.rest.issues.createComment({ ...repoOf(ctx), issue_number: pr.number, body })
    const status = existing ? 'updated' : 'created'
    return { status, id: data.id, url: data.html_url, author: login, dropped: fitted.dropped }
  } catch (error) {
    const fork =
      pr.isFork && statusOf(error) === 403
        ? ' (this PR comes from a fork, whose GITHUB_TOKEN is read-only: use the two-workflow pattern in docs/github.md to comment)'
        : ''
    return { status: 'failed', reason: describeApiError(error, step) + fork, httpStatus: statusOf(error) }
  }
}

import { randomBytes } from 'node:crypto'
import type { GateContext } from './context.js'
import { listAll, repoOf, type GitHubClient } from './octokit.js'

/**
 * A ledger kept in commit statuses, which anyone with `statuses: write` can create and nobody can edit or delete.
 * Count, then record, is a race: runs that start together (a re-run and a push, two workflows) would each list the
 * same looks and each count itself next. So a run records its look first and then lists every record, its own
 * included, and takes its place among them in creation order (GitHub's ids): of two runs that record at once, the
 * later one sees the earlier one and counts past it, and a cap fails closed for it.
 *
 * Each record carries this run attempt's mark (`run 900.1`, from GITHUB_RUN_ID and GITHUB_RUN_ATTEMPT): a write
 * retried after its answer was lost leaves two records of one look, counted once. A record whose mark is this
 * run's own is never counted against it, and every other mark counts once, so records others write can only raise
 * a count, never lower it.
 */

/** One record as a ledger writes it: a success status on a commit, in the ledger's context. */
export interface LedgerEntry {
  sha: string
  context: string
  /** What the record says; starts with this run's mark (see {@link runMark}). */
  description: string
  /** This run's page, when known. */
  url: string | undefined
}

/** A status as the listing gives it (the fields a ledger reads). */
export interface ListedStatus {
  id: number
  context: string
  description: string | null
}

/** `run 900.1` from GITHUB_RUN_ID and GITHUB_RUN_ATTEMPT; outside Actions a random one, unique to this process. */
export function runMark(ctx: GateContext): string {
  return ctx.runId === undefined
    ? `run ~${(unknownRun ??= randomBytes(6).toString('hex'))}`
    : `run ${ctx.runId}.${ctx.runAttempt ?? 1}`
}
let unknownRun: string | undefined

/** The mark a record starts with (`run 900.1`, `run ~3fa2…`), or undefined for a record without one. */
function markOf(description: string | null): string | undefined {
  return /^run (?:\d+\.\d+|~[0-9a-f]+)(?=[:\s]|$)/.exec(description ?? '')?.[0]
}

/** Writes one record and returns its id (POST /repos/{owner}/{repo}/statuses/{sha}). */
export async function writeRecord(client: GitHubClient, ctx: GateContext, entry: LedgerEntry): Promise<number> {
  const { data } = await client.rest.repos.createCommitStatus({
    ...repoOf(ctx),
    sha: entry.sha,
    state: 'success',
    context: entry.context,
    description: entry.description,
    ...(entry.url ? { target_url: entry.url } : {})
  })
  return data.id
}

/** Every status of a commit, all pages (GET /repos/{owner}/{repo}/commits/{sha}/statuses). */
export async function listRecords(client: GitHubClient, ctx: GateContext, sha: string): Promise<ListedStatus[]> {
  return listAll(client, ctx, { endpoint: client.rest.repos.listCommitStatusesForRef, params: { ref: sha } })
}

/**
 * This run's place among the looks `counts` selects: 1 + the distinct looks recorded before its own record
 * (`ownId`), each other mark once and each unmarked record on its own; undefined when its own record is not in
 * the listing (then the count is unknown, never a guess).
 */
export function placeOf(
  statuses: readonly ListedStatus[],
  counts: (context: string) => boolean,
  own: { id: number; mark: string }
): number | undefined {
  if (!statuses.some((s) => s.id === own.id && counts(s.context))) return undefined
  const before = new Set<string>()
  for (const s of statuses) {
    if (s.id >= own.id || !counts(s.context)) continue
    const mark = markOf(s.description)
    if (mark !== own.mark) before.add(mark ?? `#${s.id}`)
  }
  return before.size + 1
}

/** How many distinct looks `counts` selects (a run that only reads the ledger: it records none). */
export function looksIn(statuses: readonly ListedStatus[], counts: (context: string) => boolean): number {
  const looks = new Set<string>()
  for (const s of statuses) if (counts(s.context)) looks.add(markOf(s.description) ?? `#${s.id}`)
  return looks.size
}

import { InputError, type Where } from '../errors.js'
import { quote } from '../util/show.js'
import type { GateContext } from './context.js'
import { apiRefusal, repoOf, statusOf, type GitHubClient } from './octokit.js'

/**
 * A name is not a ref. GitHub writes a tag's name into a workflow run's `head_branch` as it writes a branch's, and a
 * bare `v1.4` may be a tag or a branch someone pushed later: a contributor who may push a tag or a branch (not the
 * default branch) could otherwise name one like the default branch, or like the release tag, and have its run's
 * artifact taken as the trusted side. So the gate trusts a ref only by its full name (`refs/heads/…`,
 * `refs/tags/…`) resolved to a commit through the git refs API, and a run only when its commit is that tag's commit
 * or lies on that branch's history ({@link isOnRef}). A bare name is read as the one of the two that exists; a
 * bare name that is both is refused with the rules key that wrote it. A full sha, where a commit is accepted, is the
 * commit itself, whatever refs are named like it.
 */

/** What a ref names: a branch (its tip moves with every push), a tag, or a commit given by its full sha. */
export type RefKind = 'branch' | 'tag' | 'commit'

export interface ResolvedRef {
  kind: RefKind
  /** `main`, `v1.4` (what a run's head_branch holds), or the commit's sha. */
  name: string
  /** `refs/heads/main`, `refs/tags/v1.4`, or the commit's sha: how messages name it. */
  full: string
  /** The commit: the branch's tip now, the tag's commit (annotated tags peeled), or the sha itself. */
  sha: string
}

/** A commit sha as GitHub writes it: 40 hex digits (SHA-1) or 64 (SHA-256 repositories). */
export const SHA = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/

/** Most tag objects peeled in a row (a tag of a tag ...) before the chain is refused. */
const MAX_TAG_DEPTH = 8

export interface RefRequest {
  /** As written: `refs/heads/NAME`, `refs/tags/NAME`, a bare name, or (when commits are accepted) a full sha. */
  ref: string
  /** Where refusals point: the rules file and key (`reference.ref`) or the action input. */
  where: Where
  /** The kinds the caller accepts (a file read at a commit: all three; the runs of an artifact: a branch or a tag). */
  accept: readonly RefKind[]
  /** How a bare name is read: `either` (a branch or a tag, refused when both exist) or `branch` (refs/heads/NAME). */
  bare?: 'either' | 'branch'
}

/**
 * Resolves a ref to its commit through the git refs API (GET /git/ref/heads/NAME, /git/ref/tags/NAME, peeling
 * annotated tags through GET /git/tags/SHA; a full sha is checked with GET /git/commits/SHA). Refuses, naming
 * `request.where`: a ref that does not exist, a bare name that is both a branch and a tag, a kind the caller does
 * not accept, and any API error (fail closed: a trusted source that cannot be resolved is not trusted).
 */
export async function resolveRef(client: GitHubClient, ctx: GateContext, request: RefRequest): Promise<ResolvedRef> {
  const { ref, where } = request
  const repo = `${ctx.owner}/${ctx.repo}`
  let resolved: ResolvedRef | undefined
  if (ref.startsWith('refs/heads/') || ref.startsWith('refs/tags/')) {
    const kind: RefKind = ref.startsWith('refs/heads/') ? 'branch' : 'tag'
    const name = ref.slice(kind === 'branch' ? 'refs/heads/'.length : 'refs/tags/'.length)
    resolved = await lookUp(client, ctx, { kind, name, where })
    if (resolved === undefined)
      throw new InputError(where, `${quote(ref)}: ${repo} has no ${kind} ${quote(name)}`, `name a ${kind} that exists`)
  } else if (ref.startsWith('refs/')) {
    throw new InputError(
      where,
      `${quote(ref)} is neither refs/heads/… (a branch) nor refs/tags/… (a tag)`,
      'write refs/heads/NAME or refs/tags/NAME'
    )
  } else if (SHA.test(ref) && request.accept.includes('commit')) {
    // a full sha is that commit, as git reads it: a branch or tag anyone names like it (a contributor may push one
    // named like the release commit) is not looked up, so it can neither stand in for the commit nor refuse it
    resolved = { kind: 'commit', name: ref, full: ref, sha: await existingCommit(client, ctx, ref, where) }
  } else if (request.bare === 'branch') {
    resolved = await lookUp(client, ctx, { kind: 'branch', name: ref, where })
    if (resolved === undefined)
      throw new InputError(where, `${repo} has no branch ${quote(ref)}`, 'name a branch that exists')
  } else {
    const [branch, tag] = await Promise.all([
      lookUp(client, ctx, { kind: 'branch', name: ref, where }),
      lookUp(client, ctx, { kind: 'tag', name: ref, where })
    ])
    if (branch !== undefined && tag !== undefined)
      throw new InputError(
        where,
        `${quote(ref)} is both a branch and a tag of ${repo}, so which commit it names depends on who pushed which`,
        `write the full ref: refs/tags/${ref} (the tag) or refs/heads/${ref} (the branch)`
      )
    resolved = branch ?? tag
    if (resolved === undefined)
      throw new InputError(
        where,
        `${quote(ref)} is not a ${request.accept.includes('commit') ? 'branch, tag or full commit sha' : 'branch or tag'} of ${repo}`,
        'name the tag of the last release (e.g. refs/tags/v1.4) as it is in the repository'
      )
  }
  if (!request.accept.includes(resolved.kind))
    throw new InputError(
      where,
      `${quote(ref)} is a ${resolved.kind}, and this key takes a ${request.accept.join(' or ')}`,
      resolved.kind === 'branch'
        ? "a branch's commit moves with every push: name a tag (refs/tags/NAME) or a full commit sha"
        : 'name a branch (refs/heads/NAME) or a tag (refs/tags/NAME)'
    )
  return resolved
}

/**
 * Whether a run's commit belongs to the ref: for a tag or a commit, it is that commit; for a branch, it is the
 * branch's tip or one of its ancestors (GET /compare/{tip}...{sha}: `identical`, or `behind` with nothing ahead).
 * A commit GitHub cannot compare with the tip (404: another repository's, unrelated history) is not on it; any
 * other API error is thrown for the caller to report.
 */
export async function isOnRef(client: GitHubClient, ctx: GateContext, ref: ResolvedRef, sha: string): Promise<boolean> {
  if (sha === ref.sha) return true
  if (ref.kind !== 'branch' || !SHA.test(sha)) return false
  try {
    const { data } = await client.rest.repos.compareCommitsWithBasehead({
      ...repoOf(ctx),
      basehead: `${ref.sha}...${sha}`,
      per_page: 1
    })
    return data.status === 'identical' || (data.status === 'behind' && data.ahead_by === 0)
  } catch (error) {
    if (statusOf(error) === 404) return false
    throw error
  }
}

/** The committer date of a commit (GET /git/commits/{sha}), or undefined when GitHub gives none. */
export async function commitDate(
  client: GitHubClient,
  ctx: GateContext,
  sha: string,
  where: Where
): Promise<string | undefined> {
  try {
    const { data } = await client.rest.git.getCommit({ ...repoOf(ctx), commit_sha: sha })
    return data.committer?.date ?? data.author?.date ?? undefined
  } catch (error) {
    throw refRefusal(error, `reading commit ${sha.slice(0, 12)}`, where)
  }
}

/** A branch's tip or a tag's commit, or undefined when there is no such ref (404). */
async function lookUp(
  client: GitHubClient,
  ctx: GateContext,
  want: { kind: 'branch' | 'tag'; name: string; where: Where }
): Promise<ResolvedRef | undefined> {
  const { kind, name, where } = want
  const full = `refs/${kind === 'branch' ? 'heads' : 'tags'}/${name}`
  let object: { sha: string; type: string }
  try {
    const { data } = await client.rest.git.getRef({ ...repoOf(ctx), ref: full.slice('refs/'.length) })
    // an answer for another ref (an old prefix match) or a list of refs is not this ref
    if (Array.isArray(data) || data.ref !== full) return undefined
    object = data.object
  } catch (error) {
    if (statusOf(error) === 404) return undefined
    throw refRefusal(error, `resolving ${full}`, where)
  }
  for (let depth = 0; object.type === 'tag'; depth++) {
    if (depth >= MAX_TAG_DEPTH)
      throw new InputError(where, `${full} is a chain of more than ${MAX_TAG_DEPTH} tags`, 'tag the commit itself')
    try {
      const { data } = await client.rest.git.getTag({ ...repoOf(ctx), tag_sha: object.sha })
      object = data.object
    } catch (error) {
      throw refRefusal(error, `peeling the annotated tag ${full}`, where)
    }
  }
  if (object.type !== 'commit')
    throw new InputError(where, `${full} names a ${object.type}, not a commit`, 'tag a commit')
  return { kind, name, full, sha: object.sha }
}

async function existingCommit(client: GitHubClient, ctx: GateContext, sha: string, where: Where): Promise<string> {
  try {
    await client.rest.git.getCommit({ ...repoOf(ctx), commit_sha: sha })
    return sha
  } catch (error) {
    if (statusOf(error) === 404 || statusOf(error) === 422)
      throw new InputError(
        where,
        `${quote(sha)} is not a commit of ${ctx.owner}/${ctx.repo}`,
        'name a commit of this repository'
      )
    throw refRefusal(error, `reading commit ${sha.slice(0, 12)}`, where)
  }
}

function refRefusal(error: unknown, what: string, where: Where): InputError {
  const lead = 'the ref could not be resolved, so the gate fails closed; '
  return apiRefusal(error, where, what, { lead, permission: 'the workflow needs permissions: contents: read' })
}

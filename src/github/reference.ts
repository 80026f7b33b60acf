import { mkdir, mkdtemp, open } from 'node:fs/promises'
import path from 'node:path'
import type { Rules } from '../config/types.js'
import { InputError } from '../errors.js'
import type { ReferenceProvenance } from '../model/provenance.js'
import { fetchBaselineArtifact, type ArtifactDownloader } from './baseline-artifact.js'
import type { GateContext, PullRequestRef } from './context.js'
import { MAX_EXAM_FILE_BYTES } from './exam-files.js'
import { apiErrorHint, describeApiError, statusOf, type GitHubClient } from './octokit.js'
import { readAtCommit, repositoryPath } from './read-at-commit.js'
import { quote } from '../util/show.js'

/** The reference rows as the action read them: a local copy, its name for the report, and where it came from. */
export interface ReferenceCopy {
  file: string
  /** `path@commit12` (ref) or the file inside the artifact. */
  name: string
  provenance: ReferenceProvenance
}

export interface ReferenceOptions {
  /** Parent of the private folder the copy is written to (RUNNER_TEMP). */
  tmpRoot: string
  now: Date
  download: ArtifactDownloader
  /** Size cap (default: an exam file's). */
  limit?: number
}

/**
 * Reads the rules' reference the way the exam is read: `path` at `ref` (a tag such as v1.4; default the PR's
 * base commit, else this run's commit) through the contents API, streamed and capped, after resolving `ref`
 * to its commit (whose date gives the reference's age); or the artifact `name` of the latest successful
 * non-PR run of `workflow` on any branch or tag, as the baseline artifact is found. Fails closed, with what to
 * do, when the ref does not exist, the file is not at it, or the artifact is not found: a budget is never
 * skipped because its reference could not be read.
 */
export async function readReferenceRows(client: GitHubClient | undefined, ctx: GateContext, pr: PullRequestRef | undefined, rules: Rules, options: ReferenceOptions): Promise<ReferenceCopy> {
  const r = rules.reference
  if (r === undefined) throw new Error('readReferenceRows needs rules with a reference')
  if (client === undefined) throw new InputError({ file: rules.source.file, key: 'reference' }, 'needs github-token to read the reference', 'pass github-token (contents: read; actions: read for an artifact)')
  const dir = await mkdtemp(path.join(options.tmpRoot, 'retrieval-gate-reference-'))
  if (r.artifact !== undefined) {
    const fetched = await fetchBaselineArtifact(client, ctx, undefined, {
      name: r.artifact.name,
      fileInArtifact: r.artifact.file ?? '',
      workflow: r.artifact.workflow,
      // any branch or tag is searched, but never the PR's own pushes: the PR must not supply its reference
      notFrom: pr && { sha: pr.runHeadSha, branch: pr.isFork ? undefined : pr.headRef },
      tmpDir: dir,
      now: options.now,
      download: options.download
    })
    const a = fetched.provenance.artifact as NonNullable<typeof fetched.provenance.artifact>
    return {
      file: fetched.file,
      name: fetched.provenance.file,
      provenance: { from: 'artifact', file: fetched.provenance.file, commit: a.commit, date: a.createdAt, ageSeconds: a.ageSeconds, artifact: { name: a.name, id: a.id, runId: a.runId, runUrl: a.runUrl } }
    }
  }
  const repoPath = repositoryPath(r.path as string, 'the reference path', 'name the rows file by its path in the repository, e.g. eval/release/rows.csv')
  const ref = r.ref ?? pr?.baseSha ?? ctx.sha
  const commit = await resolveCommit(client, ctx, ref, rules)
  const shown = r.ref === undefined ? `commit ${commit.sha.slice(0, 12)}` : `${r.ref} (commit ${commit.sha.slice(0, 12)})`
  const local = path.join(dir, path.posix.basename(repoPath))
  await mkdir(dir, { recursive: true })
  const handle = await open(local, 'wx', 0o600)
  try {
    // readAtCommit names where it read through `at`; the PR (or a stand-in outside PRs) is not used for the ref.
    const target = pr ?? { number: 0, runHeadSha: ctx.sha, baseSha: commit.sha, baseRef: '', isFork: false }
    await readAtCommit(client, ctx, target, repoPath, {
      file: r.path as string,
      what: 'the reference rows',
      limit: options.limit ?? MAX_EXAM_FILE_BYTES,
      tooLargeHint: 'the contents API serves files up to 100 MiB; keep the per-query rows only',
      at: { sha: commit.sha, label: shown },
      missing: {
        message: `is not at ${shown}, so the budget against the reference ${quote(r.label)} cannot be computed`,
        hint: `commit the release's per-query rows at ${r.ref ?? 'the base commit'}, or point reference.ref at the tag that has them`
      },
      onChunk: async (chunk) => {
        await handle.write(chunk)
      }
    })
  } finally {
    await handle.close()
  }
  const ageSeconds = commit.date === undefined ? undefined : Math.max(0, Math.floor((options.now.getTime() - Date.parse(commit.date)) / 1000))
  return {
    file: local,
    name: `${repoPath}@${commit.sha.slice(0, 12)}`,
    provenance: { from: 'ref', file: repoPath, ref: r.ref ?? 'the base commit', commit: commit.sha, ...(commit.date === undefined ? {} : { date: commit.date, ageSeconds }) }
  }
}

/** The commit a tag, branch or sha names, with its committer date (GET /repos/{owner}/{repo}/commits/{ref}). */
async function resolveCommit(client: GitHubClient, ctx: GateContext, ref: string, rules: Rules): Promise<{ sha: string; date: string | undefined }> {
  try {
    const { data } = await client.rest.repos.getCommit({ owner: ctx.owner, repo: ctx.repo, ref, per_page: 1 })
    return { sha: data.sha, date: data.commit.committer?.date ?? data.commit.author?.date ?? undefined }
  } catch (error) {
    const where = { file: rules.source.file, key: 'reference.ref' }
    if (statusOf(error) === 404 || statusOf(error) === 422)
      throw new InputError(where, `${quote(ref)} is not a tag, branch or commit of ${ctx.owner}/${ctx.repo}`, 'name the tag of the last release (e.g. v1.4), as it is in the repository')
    throw new InputError(
      where,
      describeApiError(error, `resolving the reference ref ${quote(ref)}`),
      `the reference could not be read, so the gate fails closed; ${apiErrorHint(error, 'the workflow needs permissions: contents: read')}`
    )
  }
}

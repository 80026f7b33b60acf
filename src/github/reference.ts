import { mkdir, mkdtemp } from 'node:fs/promises'
import path from 'node:path'
import type { FetchedFile } from '../readers/fetched.js'
import type { ReferenceProvenance } from '../model/provenance.js'
import type { ArtifactDownloader } from './artifact-download.js'
import { fetchBaselineArtifact } from './baseline-artifact.js'
import type { GateContext, PullRequestRef } from './context.js'
import { MAX_EXAM_FILE_BYTES } from './exam-files.js'
import type { GitHubClient } from './octokit.js'
import { readAtCommitInto, repositoryPath } from './read-at-commit.js'
import { commitDate, type ResolvedRef } from './refs.js'
import { quote } from '../util/show.js'

/** An exam file the action fetched from a ref or an artifact: the local copy, its shown name, and where it came from. */
export interface FetchedAtSource {
  file: FetchedFile
  provenance: ReferenceProvenance
}

/** Where the private copy of a fetched exam file goes, and the time its age is measured at. */
interface AtRefOptions {
  /** Parent of the private folder the copy is written to (RUNNER_TEMP). */
  tmpRoot: string
  now: Date
  /** Size cap (default: an exam file's). */
  limit?: number
}

/** An exam file at a ref, as the rules name it, and where its copy goes. */
export interface AtRefRequest extends AtRefOptions {
  /** The file's path in the repository. */
  path: string
  /** The tag, branch or commit to read it at (e.g. the release tag v1.4), resolved (src/github/refs.ts). */
  ref: ResolvedRef
  /** The ref as messages and the provenance name it ("the base commit"); default the ref as the rules wrote it. */
  shown?: string
  /** The ref as the rules wrote it (`v1.4`, `refs/tags/v1.4`). */
  written: string
  /** The rules key that names the ref: refusals point at it. */
  key: string
  rulesFile: string
  /** The reference's name in messages (a file missing at the ref cannot give its budget). */
  label: string
}

/**
 * Reads an exam file at a tag, branch or commit (`request.ref`, e.g. the release tag v1.4, already resolved to its
 * commit) through the contents API, streamed and capped; the commit's date gives the file's age. Fails closed,
 * with what to do, when the file is not at it: a budget is never skipped because its reference could not be read.
 */
export async function readAtRef(
  client: GitHubClient,
  ctx: GateContext,
  pr: PullRequestRef | undefined,
  request: AtRefRequest
): Promise<FetchedAtSource> {
  const repoPath = repositoryPath(
    request.path,
    'the reference path',
    'name the rows file by its path in the repository, e.g. eval/release/rows.csv'
  )
  const where = { file: request.rulesFile, key: request.key }
  const commit = { sha: request.ref.sha, date: await commitDate(client, ctx, request.ref.sha, where) }
  const written = request.shown ?? request.written
  const shown =
    request.shown === undefined
      ? `${request.written} (commit ${commit.sha.slice(0, 12)})`
      : `commit ${commit.sha.slice(0, 12)}`
  const dir = await mkdtemp(path.join(request.tmpRoot, 'retrieval-gate-reference-'))
  const local = path.join(dir, path.posix.basename(repoPath))
  await mkdir(dir, { recursive: true })
  // readAtCommit names where it read through `at`; the PR (or a stand-in outside PRs) is not used for the ref.
  const target = pr ?? { number: 0, runHeadSha: ctx.sha, baseSha: commit.sha, baseRef: '', isFork: false }
  await readAtCommitInto(client, ctx, target, {
    local,
    file: request.path,
    repoPath,
    what: 'the reference rows',
    limit: request.limit ?? MAX_EXAM_FILE_BYTES,
    tooLargeHint: 'the contents API serves files up to 100 MiB; keep the per-query rows only',
    at: { sha: commit.sha, label: shown },
    missing: {
      message: `is not at ${shown}, so the budget against the reference ${quote(request.label)} cannot be computed`,
      hint: `commit the release's per-query rows at ${written}, or point reference.ref at the tag that has them`
    }
  })
  const ageSeconds =
    commit.date === undefined
      ? undefined
      : Math.max(0, Math.floor((request.now.getTime() - Date.parse(commit.date)) / 1000))
  return {
    file: { path: local, name: `${repoPath}@${commit.sha.slice(0, 12)}` },
    provenance: {
      from: 'ref',
      file: repoPath,
      ref: written,
      commit: commit.sha,
      ...(commit.date === undefined ? {} : { date: commit.date, ageSeconds })
    }
  }
}

/** An exam file in an artifact, as the rules name it, the run it may come from, and where its copy goes. */
export interface TrustedArtifactRequest extends AtRefOptions {
  /** The artifact's name. */
  artifact: string
  /** Workflow id or file name whose runs may hold it (default: the triggering workflow_run's, else this one). */
  workflow?: string
  /** The file inside the artifact (default: its only file). */
  file?: string
  /** The rules key that names the artifact: refusals point at it. */
  key: string
  rulesFile: string
  download: ArtifactDownloader
  /** The branch (or tag) whose push runs may hold it: the rules' ref, else the default branch, resolved. */
  ref: ResolvedRef
}

/**
 * An exam file from an artifact of a trusted run: the latest successful **push** run of `workflow` on `ref`
 * (the default branch, or the ref the rules name) in this repository whose commit is the tag's or on the branch's
 * history. A run of another branch, of a tag or branch that only shares the name, a dispatched or scheduled run, a
 * fork's, a pull request's own pushes, or anything a pull request triggered is never used: a contributor who can
 * push a branch or a tag must not be able to upload the exam. Refusals name the rules key.
 */
export async function trustedArtifact(
  client: GitHubClient,
  ctx: GateContext,
  pr: PullRequestRef | undefined,
  request: TrustedArtifactRequest
): Promise<FetchedAtSource> {
  const dir = await mkdtemp(path.join(request.tmpRoot, 'retrieval-gate-reference-'))
  const fetched = await fetchBaselineArtifact(client, ctx, undefined, {
    name: request.artifact,
    fileInArtifact: request.file ?? '',
    workflow: request.workflow,
    ref: request.ref,
    fileKey: `${request.key}.file`,
    events: ['push'],
    label: `${request.key} “${request.artifact}”`,
    where: { file: request.rulesFile, key: request.key },
    uploadHint: `upload it from a workflow run on push to ${request.ref.full} (actions/upload-artifact with name: ${request.artifact}), or name the rows by path and ref instead`,
    // never the PR's own pushes: the PR must not supply its exam
    notFrom: pr && { sha: pr.runHeadSha, branch: pr.isFork ? undefined : pr.headRef },
    tmpDir: dir,
    now: request.now,
    download: request.download
  })
  const a = fetched.provenance.artifact as NonNullable<typeof fetched.provenance.artifact>
  return {
    file: { path: fetched.file, name: fetched.provenance.file },
    provenance: {
      from: 'artifact',
      file: fetched.provenance.file,
      commit: a.commit,
      date: a.createdAt,
      ageSeconds: a.ageSeconds,
      artifact: { name: a.name, id: a.id, runId: a.runId, runUrl: a.runUrl }
    }
  }
}

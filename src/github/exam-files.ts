import { createHash } from 'node:crypto'
import { createReadStream } from 'node:fs'
import { mkdir, mkdtemp, stat } from 'node:fs/promises'
import path from 'node:path'
import type { FetchedFile } from '../readers/fetched.js'
import type { ExamFileProvenance } from '../model/provenance.js'
import type { GateContext, PullRequestRef } from './context.js'
import type { GitHubClient } from './octokit.js'
import { describeBase, readAtCommitInto, repositoryPath } from './read-at-commit.js'

/**
 * Largest exam file read at the base commit: 100 MiB, the largest file GitHub stores in a repository outside
 * Git LFS, and the size up to which the contents API serves a file with the raw media type. A larger file is
 * refused (not truncated): the gate fails closed.
 */
export const MAX_EXAM_FILE_BYTES = 100 * 1024 * 1024

export interface ExamAtBaseOptions {
  /** Parent of the private folder the copies are written to (RUNNER_TEMP, emptied by the runner after the job). */
  tmpRoot: string
  /** The checked-out repository, to say whether the PR's copy of each file differs. */
  workspace: string
  /** Size cap per file (default {@link MAX_EXAM_FILE_BYTES}; tests use a small one). */
  limit?: number
}

/** Reads exam files at the PR's base commit, one at a time, each once, remembering what the report says of each. */
export interface ExamAtBase {
  read(file: string): Promise<FetchedFile>
  provenance(): ExamFileProvenance[]
}

/**
 * Reads exam files at the PR's base commit (contents API, streamed, capped) into a fresh private folder (mkdtemp,
 * mode 0700): the copies the gate reads instead of the workspace's. Fails closed, with the file and what to do,
 * when a file is not in the repository, not at the base commit (a PR cannot bring its own exam: merge it
 * first), a directory, an LFS pointer, unreadable or over the cap. When the workspace copy differs, the
 * provenance carries both sha256 sums: the report says the base copy graded this PR and the PR's change applies
 * after merge. Names shown for the copies are `path@commit12`. The same file named twice (`./a` and `a`) is read
 * once.
 */
export function examAtBase(
  client: GitHubClient,
  ctx: GateContext,
  pr: PullRequestRef,
  options: ExamAtBaseOptions
): ExamAtBase {
  const byRepoPath = new Map<string, Promise<FetchedFile>>()
  const provenance: ExamFileProvenance[] = []
  let dir: Promise<string> | undefined
  const base = describeBase(pr)
  const fetchOne = async (file: string, repoPath: string): Promise<FetchedFile> => {
    dir ??= mkdtemp(path.join(options.tmpRoot, 'retrieval-gate-exam-'))
    const local = path.join(await dir, ...repoPath.split('/'))
    await mkdir(path.dirname(local), { recursive: true, mode: 0o700 })
    const read = await readAtCommitInto(client, ctx, pr, {
      local,
      file,
      repoPath,
      what: 'an exam file',
      limit: options.limit ?? MAX_EXAM_FILE_BYTES,
      tooLargeHint: `the contents API serves files up to 100 MiB; keep judgments, evaluation sets and corpus listings under that (split them, or list chunk ids only)`,
      missing: {
        message: `is not at ${base}: the gate fails closed, because an exam (judgments, evaluation set, corpus listing, manifest, anchors) that a pull request brings with it was not written before its results were seen`,
        hint: `merge the file into ${pr.baseRef || 'the base branch'} first (in its own reviewed PR), then re-run; or, outside pull requests, use rules-from: workspace`
      }
    })
    const workspace = await hashLocalFile(path.resolve(options.workspace, file), options.limit)
    const entry: ExamFileProvenance = { file: repoPath, commit: pr.baseSha, sha256: read.sha256, bytes: read.bytes }
    if (workspace !== undefined && workspace !== read.sha256) entry.workspaceSha256 = workspace
    provenance.push(entry)
    return { path: local, name: `${repoPath}@${pr.baseSha.slice(0, 12)}`, sha256: read.sha256 }
  }
  return {
    read(file) {
      const repoPath = repositoryPath(
        file,
        'every exam file the rules name (judgments, dataset, corpus, manifest, anchors)',
        'commit the file and name it by its path in the repository, so that it can be read at the base commit'
      )
      let copy = byRepoPath.get(repoPath)
      if (copy === undefined) {
        copy = fetchOne(file, repoPath)
        byRepoPath.set(repoPath, copy)
      }
      return copy
    },
    provenance: () => [...provenance]
  }
}

/**
 * sha256 of a workspace file, streamed (judgments can be large). Undefined when there is nothing to compare: not
 * checked out, unreadable, not a regular file (a PR can commit a symbolic link to /dev/zero or a FIFO, which
 * would never end), or over `limit` bytes (never the base copy, which is at most that).
 */
async function hashLocalFile(file: string, limit = MAX_EXAM_FILE_BYTES): Promise<string | undefined> {
  try {
    const info = await stat(file)
    if (!info.isFile() || info.size > limit) return undefined
    const hash = createHash('sha256')
    let bytes = 0
    for await (const chunk of createReadStream(file, { end: limit })) {
      bytes += (chunk as Buffer).length
      hash.update(chunk as Buffer)
    }
    return bytes > limit ? undefined : hash.digest('hex')
  } catch {
    return undefined
  }
}

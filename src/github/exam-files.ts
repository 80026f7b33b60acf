import { createHash } from 'node:crypto'
import { createReadStream } from 'node:fs'
import { mkdir, mkdtemp, open, stat } from 'node:fs/promises'
import path from 'node:path'
import type { ExamCopies, ExamCopy } from '../readers/exam-copies.js'
import type { Rules } from '../config/types.js'
import type { ExamFileProvenance } from '../model/provenance.js'
import type { GateContext, PullRequestRef } from './context.js'
import type { GitHubClient } from './octokit.js'
import { describeBase, readAtCommit, repositoryPath } from './read-at-commit.js'

/**
 * Largest exam file read at the base commit: 100 MiB, the largest file GitHub stores in a repository outside
 * Git LFS, and the size up to which the contents API serves a file with the raw media type. A larger file is
 * refused (not truncated): the gate fails closed.
 */
export const MAX_EXAM_FILE_BYTES = 100 * 1024 * 1024

/**
 * The files the rules name that define the exam: judgments, the evaluation set, its corpus listing, its
 * snapshot manifest and the judge anchors (human labels the judge is checked against). In a pull request the PR under judgment must not be able to edit them (re-split the
 * evaluation set, dispute the questions it regresses, relabel the judgments), so with `rules-from: base` they
 * are read at the base commit like the rules. In the order the rules list them, each once.
 */
export function examFiles(rules: Rules): string[] {
  const files = [rules.judgments?.qrels, rules.dataset?.file, rules.dataset?.corpus, rules.dataset?.manifest, rules.judge?.anchors].filter((f): f is string => typeof f === 'string' && f !== '')
  return [...new Set(files)]
}

/** The exam as the base commit has it: local copies for the readers, and what the report says about each. */
export interface ExamAtBase {
  copies: ExamCopies
  provenance: ExamFileProvenance[]
}

export interface ExamAtBaseOptions {
  /** Parent of the private folder the copies are written to (RUNNER_TEMP, emptied by the runner after the job). */
  tmpRoot: string
  /** The checked-out repository, to say whether the PR's copy of each file differs. */
  workspace: string
  /** Size cap per file (default {@link MAX_EXAM_FILE_BYTES}; tests use a small one). */
  limit?: number
}

/**
 * Reads every exam file at the PR's base commit (contents API, streamed, capped) into a fresh private folder
 * (mkdtemp, mode 0700) and returns the copies the gate must read instead of the workspace's. Fails closed, with
 * the file and what to do, when a file is not in the repository, not at the base commit (a PR cannot bring its
 * own exam: merge it first), a directory, an LFS pointer, unreadable or over the cap. When the workspace copy
 * differs, the provenance carries both sha256 sums: the report says the base copy graded this PR and the PR's
 * change applies after merge. Names shown for the copies are `path@commit12`.
 */
export async function readExamAtBase(client: GitHubClient, ctx: GateContext, pr: PullRequestRef, files: string[], options: ExamAtBaseOptions): Promise<ExamAtBase> {
  const copies = new Map<string, ExamCopy>()
  const provenance: ExamFileProvenance[] = []
  if (files.length === 0) return { copies, provenance }
  const dir = await mkdtemp(path.join(options.tmpRoot, 'retrieval-gate-exam-'))
  const base = describeBase(pr)
  const byRepoPath = new Map<string, ExamCopy>()
  for (const file of files) {
    const repoPath = repositoryPath(file, 'every exam file the rules name (judgments, dataset, corpus, manifest)', 'commit the file and name it by its path in the repository, so that it can be read at the base commit')
    const done = byRepoPath.get(repoPath)
    if (done !== undefined) {
      copies.set(file, done) // the same file named twice (`./a` and `a`): read once
      continue
    }
    const local = path.join(dir, ...repoPath.split('/'))
    await mkdir(path.dirname(local), { recursive: true, mode: 0o700 })
    const handle = await open(local, 'wx', 0o600)
    let read: { bytes: number; sha256: string }
    try {
      read = await readAtCommit(client, ctx, pr, repoPath, {
        file,
        what: 'an exam file',
        limit: options.limit ?? MAX_EXAM_FILE_BYTES,
        tooLargeHint: `the contents API serves files up to 100 MiB; keep judgments, evaluation sets and corpus listings under that (split them, or list chunk ids only)`,
        missing: {
          message: `is not at ${base}: the gate fails closed, because an exam (judgments, evaluation set, corpus listing, manifest) that a pull request brings with it was not written before its results were seen`,
          hint: `merge the file into ${pr.baseRef || 'the base branch'} first (in its own reviewed PR), then re-run; or, outside pull requests, use rules-from: workspace`
        },
        onChunk: async (chunk) => {
          await handle.write(chunk)
        }
      })
    } finally {
      await handle.close()
    }
    const copy = { path: local, name: `${repoPath}@${pr.baseSha.slice(0, 12)}` }
    copies.set(file, copy)
    byRepoPath.set(repoPath, copy)
    const workspace = await hashLocalFile(path.resolve(options.workspace, file), options.limit)
    const entry: ExamFileProvenance = { file: repoPath, commit: pr.baseSha, sha256: read.sha256, bytes: read.bytes }
    if (workspace !== undefined && workspace !== read.sha256) entry.workspaceSha256 = workspace
    provenance.push(entry)
  }
  return { copies, provenance }
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

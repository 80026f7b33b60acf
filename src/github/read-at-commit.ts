import { createHash } from 'node:crypto'
import { open } from 'node:fs/promises'
import path from 'node:path'
import { InputError } from '../errors.js'
import type { GateContext, PullRequestRef } from './context.js'
import { apiRefusal, repoOf, statusOf, type GitHubClient } from './octokit.js'

/** What a file read at the base commit is, for messages and for what to do when it is not there. */
export interface ReadAtCommitOptions {
  /** The file as the user named it (the rules path input, or the path the rules give). */
  file: string
  /** The same file as a path in the repository (repositoryPath(file)): what the contents API is asked for. */
  repoPath: string
  /** "the rules file", "the exam file": the subject of the messages. */
  what: string
  /** Largest size accepted, in bytes; a larger file is refused before or while it streams. */
  limit: number
  /** What to do about a file over the limit. */
  tooLargeHint: string
  /** The refusal when the base commit has no such file (the gate fails closed); the message names the commit. */
  missing: { message: string; hint: string }
  /** Read at this commit instead of the PR's base commit, named `label` in messages (a reference read at its tag). */
  at?: { sha: string; label: string }
  /** Receives the file's bytes in order as they arrive (written to a file, or collected). */
  onChunk: (chunk: Uint8Array) => void | Promise<void>
}

/** What was read: its size and sha256 (hashed while streaming, so the caller never rereads it). */
export interface ReadAtCommitResult {
  bytes: number
  sha256: string
}

/** First line of a Git LFS pointer: the contents API serves the pointer, not the file it stands for. */
const LFS_POINTER = 'version https://git-lfs.github.com/spec/v1'
/** A pointer is ~130 bytes; anything this long is a real file that happens to start with the same words. */
const LFS_POINTER_MAX_BYTES = 1024

/**
 * The one way the gate reads a file at the PR's base commit: the contents API with the raw media type,
 * streamed (the body is not parsed or buffered by octokit), capped at `options.limit` (refused from the
 * Content-Length before anything is read, and again while streaming when the length is not sent), and hashed
 * on the way. Fails closed with the file and what to do when the base commit has no such file, when the API
 * refuses, when the path is a directory (GitHub then answers with a JSON listing), when it is a Git LFS pointer,
 * or when it is over the limit. The rules and every exam file go through here, so they are refused alike.
 */
export async function readAtCommit(
  client: GitHubClient,
  ctx: GateContext,
  pr: PullRequestRef,
  options: ReadAtCommitOptions
): Promise<ReadAtCommitResult> {
  const { file, repoPath, what, limit } = options
  const base = options.at?.label ?? describeBase(pr)
  let response: { data: unknown; headers: Record<string, string | number | undefined> }
  try {
    response = await client.rest.repos.getContent({
      ...repoOf(ctx),
      path: repoPath,
      ref: options.at?.sha ?? pr.baseSha,
      mediaType: { format: 'raw' },
      request: { parseSuccessResponseBody: false }
    })
  } catch (error) {
    if (statusOf(error) === 404) throw new InputError({ file }, options.missing.message, options.missing.hint)
    throw apiRefusal(error, { file }, `reading ${what} at ${base}`, {
      lead: `${what} could not be read, so the gate fails closed; `,
      permission: 'the workflow needs permissions: contents: read'
    })
  }
  const contentType = String(response.headers['content-type'] ?? '')
  if (/^application\/json\b/i.test(contentType) || !isBody(response.data)) {
    await cancel(response.data)
    throw new InputError(
      { file },
      `is not a file at ${base} (GitHub answered with a listing: a directory, a submodule or a link out of the repository?)`,
      `name the file itself, as a path in the repository`
    )
  }
  const tooLarge = (size: string): InputError =>
    new InputError({ file }, `is ${size} at ${base}; the limit for ${what} is ${limit} bytes`, options.tooLargeHint)
  const declared = Number(response.headers['content-length'])
  if (Number.isFinite(declared) && declared > limit) {
    await cancel(response.data)
    throw tooLarge(`${declared} bytes`)
  }
  const hash = createHash('sha256')
  let bytes = 0
  let head = ''
  for await (const chunk of chunksOf(response.data)) {
    bytes += chunk.byteLength
    if (bytes > limit) throw tooLarge(`over ${limit} bytes`) // leaving the loop cancels the stream: nothing more is read
    if (head.length < LFS_POINTER.length) head += Buffer.from(chunk.subarray(0, LFS_POINTER.length)).toString('latin1')
    hash.update(chunk)
    await options.onChunk(chunk)
  }
  if (bytes <= LFS_POINTER_MAX_BYTES && head.startsWith(LFS_POINTER)) {
    throw new InputError(
      { file },
      `is a Git LFS pointer at ${base}, not the file itself (the contents API serves the pointer)`,
      `keep ${what} in plain git, outside LFS`
    )
  }
  return { bytes, sha256: hash.digest('hex') }
}

/** {@link readAtCommit} into a new file of the gate's own at `local` (mode 0600; never over a file already there). */
export async function readAtCommitInto(
  client: GitHubClient,
  ctx: GateContext,
  pr: PullRequestRef,
  options: Omit<ReadAtCommitOptions, 'onChunk'> & { local: string }
): Promise<ReadAtCommitResult> {
  const handle = await open(options.local, 'wx', 0o600)
  try {
    return await readAtCommit(client, ctx, pr, {
      ...options,
      onChunk: async (chunk) => {
        await handle.write(chunk)
      }
    })
  } finally {
    await handle.close()
  }
}

/** "the PR's base commit 0123456789ab (main)": how every message names where a file was read. */
export function describeBase(pr: PullRequestRef): string {
  return `the PR's base commit ${pr.baseSha.slice(0, 12)}${pr.baseRef ? ` (${pr.baseRef})` : ''}`
}

/**
 * `./rules/gate.yml` -> `rules/gate.yml`: a path as the contents API wants it. Refuses paths that leave the
 * repository (absolute, drive letters, `..`): nothing outside the repository exists at a commit.
 */
export function repositoryPath(
  file: string,
  what = 'the rules path',
  hint = 'write it as in the repository, e.g. .github/retrieval-gate.yml'
): string {
  const p = path.posix.normalize(file.replace(/\\/g, '/'))
  if (p.startsWith('/') || /^[A-Za-z]:/.test(p) || p === '..' || p.startsWith('../') || p === '.' || p === '') {
    throw new InputError(
      { file },
      `with rules-from: base ${what} must be inside the repository, relative to its root`,
      hint
    )
  }
  return p.replace(/^\.\//, '')
}

/**
 * A file's body: a web ReadableStream (fetch, `parseSuccessResponseBody: false`), an empty body (null), or,
 * from a client that parsed it anyway, a string or bytes. A parsed object or array is a directory listing.
 */
function isBody(data: unknown): boolean {
  return (
    data === null ||
    data === undefined ||
    typeof data === 'string' ||
    data instanceof ArrayBuffer ||
    data instanceof Uint8Array ||
    (data !== null && typeof data === 'object' && Symbol.asyncIterator in data)
  )
}

/** The body as byte chunks, in order (see {@link isBody}). */
async function* chunksOf(data: unknown): AsyncGenerator<Uint8Array> {
  if (typeof data === 'string') yield Buffer.from(data, 'utf8')
  else if (data instanceof ArrayBuffer) yield new Uint8Array(data)
  else if (data instanceof Uint8Array) yield data
  else if (data !== null && typeof data === 'object') {
    for await (const chunk of data as AsyncIterable<Uint8Array | string>)
      yield typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk
  }
}

/** Lets go of a body that will not be read, so the connection is not held open. */
async function cancel(data: unknown): Promise<void> {
  const stream = data as { cancel?: () => Promise<void> } | null
  if (stream && typeof stream.cancel === 'function') await stream.cancel().catch(() => undefined)
}

import { getProxyUrl } from '@actions/http-client/lib/proxy'
import { fetch as undiciFetch, ProxyAgent } from 'undici'
import type { GateContext } from './context.js'
import { describeApiError, repoOf, type GitHubClient } from './octokit.js'

/**
 * Longest wait for the next chunk of an artifact before the download is abandoned: the storage host answering
 * slowly is a stall, not a large file (the 30 s per chunk the artifact SDK used before allowed).
 */
const STALL_MS = 30_000
/** Longest a whole artifact download may take: 200 MiB at a slow runner's 2 MiB/s, with room to spare. */
const DEADLINE_MS = 5 * 60_000

/** Limits of one artifact download (tests shrink the times). */
export interface DownloadLimits {
  /** Most bytes read: refused from the Content-Length before reading, and again while the body streams. */
  maxBytes: number
  stallMs?: number
  deadlineMs?: number
}

/** Downloads artifact `artifactId` (the ZIP archive GitHub stores) into memory, within `limits`. */
export type ArtifactDownloader = (artifactId: number, limits: DownloadLimits) => Promise<Uint8Array>

/** Why a download stopped: too large (trim the upload), or the host slow, absent or refusing (re-run). */
export class DownloadRefusal extends Error {
  override name = 'DownloadRefusal'
  readonly tooLarge: boolean
  constructor(message: string, tooLarge = false) {
    super(message)
    this.tooLarge = tooLarge
  }
}

/** What a failed download says: the refusal, else the API's error in one capped line (describeApiError). */
export function downloadFailure(error: unknown, artifactId: number): string {
  return error instanceof DownloadRefusal
    ? error.message
    : describeApiError(error, `downloading artifact ${artifactId}`)
}

/** What to do about a failed download: trim the upload when it was too large, else re-run, else the API's hint. */
export function downloadHint(error: unknown, apiHint: string): string {
  if (!(error instanceof DownloadRefusal)) return apiHint
  return error.tooLarge
    ? 'upload only the per-query rows'
    : 're-run the job: the signed address may have expired or the storage host was slow or unreachable'
}

/**
 * The real downloader, through the REST API the octokit already speaks (no artifact SDK in the bundle):
 * `GET /repos/{owner}/{repo}/actions/artifacts/{id}/zip` answers 302 with a short-lived signed URL, which is
 * fetched without the token (the storage host is not GitHub and must not see it), through the proxy the runner sets
 * for that host (storageFetch). The archive is held in memory
 * under `maxBytes` (the caller caps it at a few hundred MiB) and read by the capped ZIP reader, zip.ts; the
 * download stops after `stallMs` without a chunk or `deadlineMs` in all.
 */
export function restArtifactDownloader(
  client: GitHubClient,
  ctx: GateContext,
  times: { stallMs?: number; deadlineMs?: number } = {}
): ArtifactDownloader {
  return async (artifactId, limits) => {
    // the API's answer too is bounded in time: no request here waits longer than a stall
    const { headers, status } = await client.rest.actions.downloadArtifact({
      ...repoOf(ctx),
      artifact_id: artifactId,
      archive_format: 'zip',
      request: { redirect: 'manual', signal: AbortSignal.timeout(limits.stallMs ?? times.stallMs ?? STALL_MS) }
    })
    const location = headers.location
    if (status !== 302 || typeof location !== 'string' || location === '')
      throw new DownloadRefusal(`GitHub answered ${status} without a download address`)
    return fetchCapped(storageFetch(location), location, { ...times, ...limits })
  }
}

/**
 * The fetch for the storage address, through the proxy the runner sets for *that* host (https_proxy, no_proxy), as
 * @actions/http-client's getProxyUrl decides it: the API host may be exempt where the storage host is not, or the other way round.
 */
function storageFetch(url: string): typeof fetch {
  const proxy = getProxyUrl(new URL(url))
  if (proxy === undefined || proxy.hostname === '') return fetch
  // as @actions/http-client builds it: credentials in the proxy's address go as Basic authentication
  const token =
    proxy.username || proxy.password
      ? { token: `Basic ${Buffer.from(`${proxy.username}:${proxy.password}`).toString('base64')}` }
      : {}
  const dispatcher = new ProxyAgent({ uri: proxy.href, pipelining: 0, ...token })
  return ((input: string, init?: RequestInit) =>
    undiciFetch(input, { ...(init as object), dispatcher })) as typeof fetch
}

/** The body of `url` as bytes, refused over `maxBytes`, after a stall or past the deadline. */
async function fetchCapped(get: typeof fetch, url: string, limits: DownloadLimits): Promise<Uint8Array> {
  const stallMs = limits.stallMs ?? STALL_MS
  const deadlineMs = limits.deadlineMs ?? DEADLINE_MS
  const abort = new AbortController()
  let why = ''
  const stop = (reason: string): void => {
    why = reason
    abort.abort()
  }
  const deadline = setTimeout(() => stop(`took longer than ${deadlineMs} ms`), deadlineMs)
  let stall = setTimeout(() => stop(`sent nothing for ${stallMs} ms`), stallMs)
  try {
    // no Authorization header: the signed address is the credential, and the storage host is not GitHub
    const response = await get(url, { signal: abort.signal, redirect: 'follow' })
    if (response.status !== 200) {
      await response.body?.cancel().catch(() => undefined)
      throw new DownloadRefusal(`the storage host answered HTTP ${response.status}`)
    }
    const declared = Number(response.headers.get('content-length'))
    if (Number.isFinite(declared) && declared > limits.maxBytes) {
      await response.body?.cancel().catch(() => undefined)
      throw new DownloadRefusal(`the archive is ${declared} bytes; the cap is ${limits.maxBytes}`, true)
    }
    const chunks: Uint8Array[] = []
    let bytes = 0
    for await (const chunk of (response.body ?? []) as AsyncIterable<Uint8Array>) {
      clearTimeout(stall)
      stall = setTimeout(() => stop(`sent nothing for ${stallMs} ms`), stallMs)
      bytes += chunk.byteLength
      // leaving the loop cancels the body: nothing more is read
      if (bytes > limits.maxBytes)
        throw new DownloadRefusal(`the archive is over the cap of ${limits.maxBytes} bytes`, true)
      chunks.push(chunk)
    }
    return Buffer.concat(chunks, bytes)
  } catch (error) {
    if (why !== '') throw new DownloadRefusal(`the storage host ${why}`)
    if (error instanceof DownloadRefusal) throw error
    // the storage host is not GitHub: a network failure there is said as such, in one line
    const code = (error as { cause?: { code?: unknown } }).cause?.code
    throw new DownloadRefusal(`the storage host could not be reached${typeof code === 'string' ? ` (${code})` : ''}`)
  } finally {
    clearTimeout(deadline)
    clearTimeout(stall)
  }
}

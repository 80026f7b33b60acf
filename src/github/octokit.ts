import { getOctokit } from '@actions/github'
import { retry } from '@octokit/plugin-retry'
import { throttling } from '@octokit/plugin-throttling'
import { InputError, type Where } from '../errors.js'

/** The REST client every src/github function takes as an argument (tests pass one aimed at a local fake). */
export type GitHubClient = ReturnType<typeof getOctokit>

export interface ClientOptions {
  /** REST API root: `GITHUB_API_URL` on Actions (GitHub Enterprise has its own), a 127.0.0.1 fake in tests. */
  baseUrl: string
  /** Where retries are reported (the action passes core.info). */
  log?: (message: string) => void
  /** Retries of one request after a rate limit or a 5xx (default 3). */
  maxRetries?: number
  /** The longest single wait the gate accepts before giving up on a rate limit (default 120 s). */
  maxWaitSeconds?: number
  /** Milliseconds per "second" of retry-after: 1000 in production; tests shrink it. */
  secondMs?: number
  /**
   * Key of the throttling plugin's write spacing (writes 1 s apart, comment writes 3 s apart, per key in the
   * process). One run has one client, so the default is fine; tests give each client its own key.
   */
  throttleId?: string
}

/** Statuses that plugin-retry must not retry: permissions, missing things and invalid requests do not heal. */
const DO_NOT_RETRY = [400, 401, 403, 404, 410, 422, 429, 451]

/**
 * An authenticated client that survives GitHub's limits: the throttling plugin waits out primary and secondary
 * rate limits (403/429 with the rate-limit headers or the "secondary rate limit" message), the retry plugin
 * retries 5xx and network errors with backoff, and a small hook retries a bare 429 after its `retry-after`
 * (plugin-retry would ignore that header). 401/403/404/422 that are not rate limits are not retried: they are
 * answers, reported plainly by the caller (see describeApiError).
 */
export function createClient(token: string, options: ClientOptions): GitHubClient {
  const log = options.log ?? (() => undefined)
  const maxRetries = options.maxRetries ?? 3
  const maxWait = options.maxWaitSeconds ?? 120
  const unit = options.secondMs ?? 1000
  const decide =
    (kind: string) =>
    (retryAfter: number, request: { method: string; url: string }, _octokit: unknown, retryCount: number): boolean => {
      const ok = retryCount < maxRetries && retryAfter <= maxWait
      log(
        `GitHub ${kind} on ${request.method} ${request.url}: ${ok ? `retrying in ${retryAfter} s (retry ${retryCount + 1} of ${maxRetries})` : `giving up (waited ${retryCount} times; next wait ${retryAfter} s)`}`
      )
      return ok
    }
  const octokit = getOctokit(
    token,
    {
      baseUrl: options.baseUrl.replace(/\/+$/, ''),
      retry: { retries: maxRetries, doNotRetry: DO_NOT_RETRY, retryAfterBaseValue: unit },
      throttle: {
        id: options.throttleId ?? 'retrieval-gate',
        retryAfterBaseValue: unit,
        fallbackSecondaryRateRetryAfter: 60,
        onRateLimit: decide('rate limit'),
        onSecondaryRateLimit: decide('secondary rate limit')
      }
    },
    retry,
    throttling
  )
  octokit.hook.wrap('request', async (request, requestOptions) => {
    for (let attempt = 0; ; attempt++) {
      try {
        return await request(requestOptions)
      } catch (error) {
        const e = error as {
          status?: number
          message?: string
          response?: { headers?: Record<string, string | undefined> }
        }
        if (e.status !== 429 || handledByThrottling(e) || attempt >= maxRetries) throw error
        const wait = retryAfterSeconds(e.response?.headers?.['retry-after'], attempt)
        if (wait > maxWait) throw error
        log(
          `GitHub answered 429 (too many requests) on ${requestOptions.method} ${requestOptions.url}: retrying in ${wait} s (retry ${attempt + 1} of ${maxRetries})`
        )
        await new Promise((resolve) => setTimeout(resolve, wait * unit))
      }
    }
  })
  return octokit
}

function handledByThrottling(e: {
  message?: string
  response?: { headers?: Record<string, string | undefined> }
}): boolean {
  return /\bsecondary rate\b/i.test(e.message ?? '') || e.response?.headers?.['x-ratelimit-remaining'] === '0'
}

/** `retry-after` is whole seconds or an HTTP date; without it, 1, 2, 4... seconds. */
export function retryAfterSeconds(header: string | undefined, attempt: number, now = Date.now()): number {
  if (header !== undefined && header.trim() !== '') {
    const n = Number(header)
    if (Number.isFinite(n) && n >= 0) return Math.ceil(n)
    const at = Date.parse(header)
    if (Number.isFinite(at)) return Math.max(0, Math.ceil((at - now) / 1000))
  }
  return 2 ** attempt
}

/** An errno-style code: ECONNREFUSED, ETIMEDOUT, ENOTFOUND, EAI_AGAIN, or undici's UND_ERR_CONNECT_TIMEOUT. */
const NETWORK_CODE = /^(E[A-Z_]{2,30}|UND_ERR_[A-Z_]{1,40})$/

/**
 * The network error code when a request got no answer from GitHub at all (connection refused, timed out, name not
 * resolved), else undefined. Octokit reports such a failure as a made-up HTTP 500 whose `cause` chain
 * (fetch's TypeError, then the socket error) holds the code; a real 500 has a response and no such code.
 */
function networkErrorCode(error: unknown): string | undefined {
  let e = error as { code?: unknown; cause?: unknown; response?: unknown } | undefined
  if (e && typeof e === 'object' && e.response !== undefined) return undefined
  for (let depth = 0; depth < 5 && e && typeof e === 'object'; depth++) {
    if (typeof e.code === 'string' && NETWORK_CODE.test(e.code)) return e.code
    const errors = (e as { errors?: unknown }).errors // AggregateError: one per address tried
    if (Array.isArray(errors) && errors.length > 0) {
      const inner = networkErrorCode(errors[0])
      if (inner) return inner
    }
    e = e.cause as typeof e
  }
  return undefined
}

/**
 * The hint for an InputError built from an API error: `permissionHint` (the permission the call needs) when GitHub
 * answered, but a network hint when GitHub was never reached: a permission would not help then.
 */
export function apiErrorHint(error: unknown, permissionHint: string): string {
  return networkErrorCode(error)
    ? 'GitHub could not be reached from the runner: check its network (proxy, firewall, GITHUB_API_URL) and re-run'
    : permissionHint
}

/**
 * What an API error means for the user, in one line: status, GitHub's message, and what to do. A request that
 * never reached GitHub is called a network error with its code (ECONNREFUSED...), not an HTTP status it never had.
 */
export function describeApiError(error: unknown, action: string): string {
  const code = networkErrorCode(error)
  if (code) {
    const message = (error as { message?: unknown })?.message
    const detail = (typeof message === 'string' ? message : '').split('\n')[0].slice(0, 300)
    return `${action} failed: network error ${code}, GitHub did not answer${detail ? ` (${detail})` : ''}`
  }
  const e = error as { status?: number; message?: string; response?: { data?: { message?: string } } }
  const status = typeof e?.status === 'number' ? e.status : undefined
  const message = (e?.response?.data?.message ?? e?.message ?? String(error)).split('\n')[0].slice(0, 300)
  const hint =
    status === 401
      ? 'the token is missing, expired or revoked'
      : status === 403
        ? /rate limit/i.test(message)
          ? 'GitHub rate limit; retried with backoff and still refused'
          : "the token lacks a permission: pull requests from forks get a read-only GITHUB_TOKEN; otherwise grant it in the workflow's permissions: block"
        : status === 404
          ? 'not found, or the token cannot see it (private repository, or a permission such as contents: read or actions: read is missing)'
          : status === 422
            ? 'GitHub refused the request as invalid'
            : status === 429
              ? 'too many requests; retried and still refused'
              : undefined
  return `${action} failed${status ? ` (HTTP ${status})` : ''}: ${message}${hint ? ` — ${hint}` : ''}`
}

/** The `owner` and `repo` parameters of every REST call about the run's repository. */
export const repoOf = (ctx: { owner: string; repo: string }): { owner: string; repo: string } => ({
  owner: ctx.owner,
  repo: ctx.repo
})

/**
 * Every page of a list about the run's repository, 100 items a page (octokit's paginate): `list` is the endpoint
 * (client.rest.issues.listComments ...), `params` its parameters besides owner, repo and per_page.
 */
export async function listAll<T>(
  client: GitHubClient,
  ctx: { owner: string; repo: string },
  list: { endpoint: unknown; params: Record<string, unknown> }
): Promise<T[]> {
  const paginate = client.paginate as (endpoint: unknown, params: Record<string, unknown>) => Promise<T[]>
  return paginate(list.endpoint, { ...repoOf(ctx), ...list.params, per_page: 100 })
}

/**
 * An API call's failure refused as unusable input at `where`: what was being done ({@link describeApiError}), and
 * the hint: `hint.permission` the call needs, or the network hint when GitHub was not reached, after `hint.lead`.
 */
export function apiRefusal(
  error: unknown,
  where: Where,
  what: string,
  hint: { permission: string; lead?: string }
): InputError {
  return new InputError(
    where,
    describeApiError(error, what),
    `${hint.lead ?? ''}${apiErrorHint(error, hint.permission)}`
  )
}

/** The HTTP status of an octokit error, if it has one. */
export function statusOf(error: unknown): number | undefined {
  const s = (error as { status?: unknown })?.status
  return typeof s === 'number' ? s : undefined
}

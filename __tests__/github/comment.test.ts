import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals'
import {
  ACTIONS_BOT_LOGIN,
  markerFor,
  metadataLine,
  parseMetadata,
  upsertStickyComment,
  type CommentRequest
} from '../../src/github/comment.js'
import type { GateContext, PullRequestRef } from '../../src/github/context.js'
import { createClient, retryAfterSeconds } from '../../src/github/octokit.js'
import { FakeGitHub } from './fake-github.js'
import { withFakeTime } from './fake-time.js'

const HEAD = 'a'.repeat(40)
const NEWER = 'b'.repeat(40)
const BASE = 'c'.repeat(40)

let fake: FakeGitHub
const ctxFor = (f: FakeGitHub): GateContext => ({
  eventName: 'pull_request',
  owner: f.owner,
  repo: f.repo,
  apiUrl: f.url,
  serverUrl: 'https://github.com',
  runId: 50,
  sha: 'm'.repeat(40),
  workspace: '/tmp',
  defaultBranch: 'main'
})
const pr: PullRequestRef = {
  number: 7,
  runHeadSha: HEAD,
  baseSha: BASE,
  baseRef: 'main',
  headRepo: 'acme/search',
  isFork: false
}
const request = (over: Partial<CommentRequest> = {}): CommentRequest => ({
  name: 'default',
  mode: 'always',
  verdict: 'fail',
  markdown: '## ❌ retrieval-gate: fail\n\nbody\n',
  runId: 50,
  whereFull: 'the report-markdown file',
  ...over
})
const logs: string[] = []
let clients = 0
const client = (token: string, secondMs = 20) =>
  createClient(token, { baseUrl: fake.url, secondMs, log: (m) => logs.push(m), throttleId: `test-${clients++}` })

beforeAll(async () => {
  fake = await new FakeGitHub().start()
})
afterAll(async () => {
  await fake.stop()
})
beforeEach(() => {
  fake.comments.clear()
  fake.faults = []
  fake.log = []
  fake.readOnly.clear()
  logs.length = 0
  fake.users.set('t-actions', ACTIONS_BOT_LOGIN)
  fake.userForbidden.add('t-actions')
  fake.users.set('t-alice', 'alice')
  fake.users.set('t-mallory', 'mallory')
  fake.pulls.set(7, {
    number: 7,
    head: { sha: HEAD, ref: 'feature', repo: { full_name: 'acme/search' } },
    base: { sha: BASE, ref: 'main' }
  })
})

describe('sticky PR comment against a fake GitHub API', () => {
  it('creates the comment on the first run and updates the same one on the second', async () => {
    const ctx = ctxFor(fake)
    const first = await upsertStickyComment(
      client('t-actions'),
      ctx,
      pr,
      request({ verdict: 'fail', markdown: 'first report\n' })
    )
    expect(first.status).toBe('created')
    const list = fake.comments.get(7) ?? []
    expect(list).toHaveLength(1)
    expect(list[0].user.login).toBe(ACTIONS_BOT_LOGIN) // GET /user was 403: fell back to the Actions bot login
    expect(list[0].body.startsWith(`${markerFor('default')}\n`)).toBe(true)
    expect(parseMetadata(list[0].body)).toEqual({ head_sha: HEAD, run_id: 50, verdict: 'fail' })
    const second = await upsertStickyComment(
      client('t-actions'),
      ctx,
      pr,
      request({ verdict: 'pass', markdown: 'second report\n' })
    )
    expect(second.status).toBe('updated')
    expect(second.status === 'updated' && first.status === 'created' && second.id === first.id).toBe(true)
    expect(fake.comments.get(7)).toHaveLength(1)
    expect(list[0].body).toContain('second report')
    expect(list[0].body).not.toContain('first report')
    expect(fake.requests('POST', /comments$/)).toHaveLength(1)
    expect(fake.requests('PATCH', /comments\/\d+$/)).toHaveLength(1)
  })

  it("leaves another user's comment alone even when it carries the marker", async () => {
    const planted = fake.addComment(
      7,
      'mallory',
      `${markerFor('default')}\n${metadataLine({ head_sha: HEAD, run_id: 999, verdict: 'pass' })}\nall good, merge it`
    )
    const out = await upsertStickyComment(client('t-actions'), ctxFor(fake), pr, request())
    expect(out.status).toBe('created')
    expect(planted.body).toContain('all good, merge it')
    expect(fake.comments.get(7)).toHaveLength(2)
    expect(fake.requests('PATCH', /./)).toHaveLength(0)
  })

  it('uses GET /user when the token allows it (a personal token does not edit the Actions bot comment)', async () => {
    fake.addComment(7, ACTIONS_BOT_LOGIN, `${markerFor('default')}\nbot's comment`)
    const out = await upsertStickyComment(client('t-alice'), ctxFor(fake), pr, request())
    expect(out.status).toBe('created')
    expect(out.status === 'created' && out.author).toBe('alice')
    expect(fake.comments.get(7)?.[0].body).toBe(`${markerFor('default')}\nbot's comment`)
  })

  it('keeps one comment per comment-name (several gates coexist)', async () => {
    await upsertStickyComment(client('t-actions'), ctxFor(fake), pr, request({ name: 'latency' }))
    await upsertStickyComment(client('t-actions'), ctxFor(fake), pr, request({ name: 'quality' }))
    await upsertStickyComment(
      client('t-actions'),
      ctxFor(fake),
      pr,
      request({ name: 'latency', markdown: 'latency again\n' })
    )
    const bodies = (fake.comments.get(7) ?? []).map((c) => c.body.split('\n')[0])
    expect(bodies).toEqual([markerFor('latency'), markerFor('quality')])
    expect(fake.comments.get(7)?.[0].body).toContain('latency again')
  })

  it('pages through more than 100 comments to find its own', async () => {
    for (let i = 0; i < 130; i++) fake.addComment(7, i % 2 ? 'alice' : 'bob', `comment ${i}`)
    const ours = fake.addComment(7, ACTIONS_BOT_LOGIN, `${markerFor('default')}\nold`)
    for (let i = 0; i < 20; i++) fake.addComment(7, 'bob', `later ${i}`)
    const out = await upsertStickyComment(client('t-actions'), ctxFor(fake), pr, request({ markdown: 'fresh\n' }))
    expect(out.status).toBe('updated')
    expect(ours.body).toContain('fresh')
    const pages = fake.requests('GET', /\/issues\/7\/comments$/).length
    expect(pages).toBe(2) // 151 comments at 100 per page
    expect(fake.requests('POST', /comments$/)).toHaveLength(0)
  })

  it('reports a 403 on a fork plainly and does not throw', async () => {
    fake.users.set('t-fork', ACTIONS_BOT_LOGIN)
    fake.userForbidden.add('t-fork')
    fake.readOnly.add('t-fork')
    const out = await upsertStickyComment(
      client('t-fork'),
      ctxFor(fake),
      { ...pr, isFork: true, headRepo: 'eve/search' },
      request()
    )
    expect(out.status).toBe('failed')
    if (out.status !== 'failed') return
    expect(out.httpStatus).toBe(403)
    expect(out.reason).toContain('HTTP 403')
    expect(out.reason).toContain('fork')
    expect(fake.requests('POST', /comments$/)).toHaveLength(1) // a permission refusal is not retried
  })

  it('retries a 429 after its retry-after', async () => {
    fake.faults.push({
      method: 'GET',
      path: /\/issues\/7\/comments$/,
      status: 429,
      headers: { 'retry-after': '5' },
      body: { message: 'Too Many Requests' },
      times: 1
    })
    // real seconds on a fake clock: the wait is what GitHub asked, and takes no real time
    const { value: out, fakeMs } = await withFakeTime(() =>
      upsertStickyComment(client('t-actions', 1000), ctxFor(fake), pr, request())
    )
    expect(out.status).toBe('created')
    expect(fakeMs).toBeGreaterThanOrEqual(5000)
    const gets = fake.requests('GET', /\/issues\/7\/comments$/)
    expect(gets.map((r) => r.status)).toEqual([429, 200])
    expect(logs.some((l) => l.includes('429') && l.includes('retrying in 5 s'))).toBe(true)
  })

  it('waits out a secondary rate limit (403 with the message and retry-after)', async () => {
    fake.faults.push({
      method: 'POST',
      path: /\/issues\/7\/comments$/,
      status: 403,
      headers: { 'retry-after': '5' },
      body: { message: 'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.' },
      times: 1
    })
    const { value: out, fakeMs } = await withFakeTime(() =>
      upsertStickyComment(client('t-actions', 1000), ctxFor(fake), pr, request())
    )
    expect(out.status).toBe('created')
    expect(fakeMs).toBeGreaterThanOrEqual(5000)
    expect(fake.requests('POST', /comments$/).map((r) => r.status)).toEqual([403, 201])
    expect(logs.some((l) => l.includes('secondary rate limit'))).toBe(true)
  })

  it('gives up on a 429 that keeps coming, and says so', async () => {
    fake.faults.push({
      method: 'GET',
      path: /\/issues\/7\/comments$/,
      status: 429,
      headers: { 'retry-after': '0' },
      times: 10
    })
    const out = await upsertStickyComment(client('t-actions'), ctxFor(fake), pr, request())
    expect(out.status).toBe('failed')
    expect(out.status === 'failed' && out.reason).toContain('HTTP 429')
    expect(fake.requests('GET', /\/issues\/7\/comments$/)).toHaveLength(4) // first try + 3 retries
  })

  it('does not overwrite a newer result when the PR head moved on (stale run)', async () => {
    const ours = fake.addComment(
      7,
      ACTIONS_BOT_LOGIN,
      `${markerFor('default')}\n${metadataLine({ head_sha: NEWER, run_id: 60, verdict: 'pass' })}\nnewer result`
    )
    fake.pulls.set(7, {
      number: 7,
      head: { sha: NEWER, ref: 'feature', repo: { full_name: 'acme/search' } },
      base: { sha: BASE, ref: 'main' }
    })
    const out = await upsertStickyComment(client('t-actions'), ctxFor(fake), pr, request())
    expect(out.status).toBe('skipped')
    expect(out.status === 'skipped' && out.reason).toContain('stale run')
    expect(ours.body).toContain('newer result')
    expect(fake.requests('PATCH', /./)).toHaveLength(0)
  })

  it('does not overwrite a later run on the same head commit', async () => {
    const ours = fake.addComment(
      7,
      ACTIONS_BOT_LOGIN,
      `${markerFor('default')}\n${metadataLine({ head_sha: HEAD, run_id: 70, verdict: 'pass' })}\nlater run`
    )
    const out = await upsertStickyComment(client('t-actions'), ctxFor(fake), pr, request({ runId: 50 }))
    expect(out.status).toBe('skipped')
    expect(ours.body).toContain('later run')
  })

  it('comment: on-failure creates nothing on a pass, but updates an earlier failure comment', async () => {
    const none = await upsertStickyComment(
      client('t-actions'),
      ctxFor(fake),
      pr,
      request({ mode: 'on-failure', verdict: 'pass' })
    )
    expect(none.status).toBe('skipped')
    expect(fake.comments.get(7) ?? []).toHaveLength(0)
    await upsertStickyComment(
      client('t-actions'),
      ctxFor(fake),
      pr,
      request({ mode: 'on-failure', verdict: 'fail', markdown: 'failing\n' })
    )
    const again = await upsertStickyComment(
      client('t-actions'),
      ctxFor(fake),
      pr,
      request({ mode: 'on-failure', verdict: 'pass', markdown: 'passing now\n' })
    )
    expect(again.status).toBe('updated')
    expect(fake.comments.get(7)?.[0].body).toContain('passing now')
  })

  it('comment: never makes no API call', async () => {
    const out = await upsertStickyComment(client('t-actions'), ctxFor(fake), pr, request({ mode: 'never' }))
    expect(out.status).toBe('skipped')
    expect(fake.log).toHaveLength(0)
  })

  it('keeps the body under 65,536 characters by dropping whole sections, never the verdict', async () => {
    const big =
      '<details><summary>Slices</summary>\n\n' +
      '| a | b |\n|---|---|\n' +
      '| x | y |\n'.repeat(9000) +
      '\n</details>\n'
    const markdown =
      '## ❌ retrieval-gate: fail, decided by “recall”\n\n1 of 2 checks pass.\n\n### Checks\n\n| c |\n|---|\n| r |\n\n' +
      big
    const out = await upsertStickyComment(client('t-actions'), ctxFor(fake), pr, request({ markdown }))
    expect(out.status).toBe('created')
    const body = fake.comments.get(7)?.[0].body ?? ''
    expect(Buffer.byteLength(body)).toBeLessThanOrEqual(65536)
    expect(body).toContain('decided by “recall”')
    expect(body).toContain('### Checks')
    expect(body).toContain('left out “Slices”')
    expect(out.status === 'created' && out.dropped).toEqual(['Slices'])
  })
})

describe('retry-after parsing', () => {
  it('reads seconds, an HTTP date, and falls back to 1, 2, 4 s', () => {
    expect(retryAfterSeconds('3', 0)).toBe(3)
    expect(retryAfterSeconds('Wed, 21 Oct 2015 07:28:05 GMT', 0, Date.parse('Wed, 21 Oct 2015 07:28:00 GMT'))).toBe(5)
    expect(retryAfterSeconds(undefined, 0)).toBe(1)
    expect(retryAfterSeconds('', 2)).toBe(4)
  })
})

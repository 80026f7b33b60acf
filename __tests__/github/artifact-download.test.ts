/**
 * The artifact download through the REST API (src/github/artifact-download.ts), against the local fake: the 302 of
 * GET .../actions/artifacts/{id}/zip is followed without the token, and the archive is refused over the byte cap
 * (declared or streamed), after a stall, or past the deadline. Each refusal test fails with its cap removed.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals'
import { createServer, type IncomingMessage } from 'node:http'
import { connect, type AddressInfo, type Socket } from 'node:net'
import { FakeGitHub, makeZip, type FakeArtifact } from './fake-github.js'
import { createClient } from '../../src/github/octokit.js'
import { DownloadRefusal, restArtifactDownloader } from '../../src/github/artifact-download.js'
import type { GateContext } from '../../src/github/context.js'

let fake: FakeGitHub
let ctx: GateContext
const ZIP = makeZip([{ name: 'rows.jsonl', data: '{"query_id":"q1","recall":1}\n'.repeat(200), deflate: false }])

beforeAll(async () => {
  fake = await new FakeGitHub().start()
  fake.users.set('t', 'github-actions[bot]')
  ctx = {
    eventName: 'pull_request',
    owner: fake.owner,
    repo: fake.repo,
    apiUrl: fake.url,
    serverUrl: 'https://github.com',
    runId: 900,
    sha: 'm'.repeat(40),
    workspace: '/tmp'
  }
})
afterAll(() => fake.stop())
beforeEach(() => {
  fake.log = []
  fake.faults = []
  fake.artifacts = []
})

const artifact = (over: Partial<FakeArtifact> = {}): void => {
  fake.artifacts.push({
    id: 5,
    name: 'rows',
    size_in_bytes: ZIP.length,
    expired: false,
    created_at: '2025-06-09T12:00:00Z',
    runId: 850,
    zip: ZIP,
    ...over
  })
}
const download = (limits: Parameters<ReturnType<typeof restArtifactDownloader>>[1]) =>
  restArtifactDownloader(createClient('t', { baseUrl: fake.url, maxRetries: 0 }), ctx)(5, limits)

describe('an artifact downloaded through the REST API', () => {
  it('follows the redirect to the storage host without the token and returns the archive as it is', async () => {
    artifact()
    const bytes = await download({ maxBytes: ZIP.length })
    expect(Buffer.from(bytes).equals(ZIP)).toBe(true)
    expect(fake.requests('GET', /\/actions\/artifacts\/5\/zip$/).map((r) => [r.status, r.token])).toEqual([[302, 't']])
    // the signed address is not GitHub's: it never sees the token
    expect(fake.requests('GET', /^\/blobs\/5\.zip$/).map((r) => r.token)).toEqual([undefined])
  })

  it("reaches the storage host through the proxy the runner sets for that host, not the API host's choice", async () => {
    // The API host (loopback) goes direct; the storage host resolves nowhere and is reachable only through
    // https_proxy/http_proxy: a CONNECT proxy that tunnels to the fake. Deciding the proxy by the API host (the
    // octokit's own fetch) tries the storage host directly and fails.
    const tunnels: string[] = []
    const proxy = createServer().on('connect', (req: IncomingMessage, socket: Socket, head: Buffer) => {
      tunnels.push(req.url ?? '')
      const port = Number(new URL(fake.url).port)
      const upstream = connect(port, '127.0.0.1', () => {
        socket.write('HTTP/1.1 200 Connection Established\r\n\r\n')
        upstream.write(head)
        upstream.pipe(socket)
        socket.pipe(upstream)
      })
      upstream.on('error', () => socket.destroy())
      socket.on('error', () => upstream.destroy())
    })
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve))
    const saved = { http: process.env.http_proxy, no: process.env.no_proxy }
    process.env.http_proxy = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`
    process.env.no_proxy = new URL(fake.url).hostname
    fake.storageUrl = 'http://storage.invalid'
    try {
      artifact()
      const bytes = await download({ maxBytes: ZIP.length })
      expect(Buffer.from(bytes).equals(ZIP)).toBe(true)
      expect(tunnels).toEqual(['storage.invalid:80'])
    } finally {
      fake.storageUrl = undefined
      for (const [k, v] of [
        ['http_proxy', saved.http],
        ['no_proxy', saved.no]
      ] as const)
        if (v === undefined) delete process.env[k]
        else process.env[k] = v
      await new Promise((resolve) => proxy.close(resolve))
    }
  })

  it('refuses an archive whose Content-Length is over the cap before reading it', async () => {
    artifact({ size_in_bytes: 10 }) // the listing may understate it: the cap holds on what arrives
    await expect(download({ maxBytes: ZIP.length - 1 })).rejects.toThrow(
      new DownloadRefusal(`the archive is ${ZIP.length} bytes; the cap is ${ZIP.length - 1}`)
    )
  })

  it('refuses an archive sent without a length as soon as it passes the cap', async () => {
    artifact({ serve: 'unsized' })
    await expect(download({ maxBytes: 100 })).rejects.toThrow('the archive is over the cap of 100 bytes')
    artifact({ id: 6, serve: 'unsized' })
    expect((await download({ maxBytes: ZIP.length })).length).toBe(ZIP.length)
  })

  it('gives up on a storage host that stops sending', async () => {
    artifact({ serve: 'stall' })
    const started = Date.now()
    await expect(download({ maxBytes: ZIP.length, stallMs: 200 })).rejects.toThrow(
      'the storage host sent nothing for 200 ms'
    )
    expect(Date.now() - started).toBeLessThan(5000)
  }, 10000)

  it('gives up past the deadline on a host that sends a byte now and then forever', async () => {
    artifact({ serve: 'drip' })
    await expect(download({ maxBytes: 1_000_000, stallMs: 5000, deadlineMs: 300 })).rejects.toThrow(
      'the storage host took longer than 300 ms'
    )
  }, 10000)

  it('names the status when the storage host refuses, and GitHub’s answer when the artifact is gone', async () => {
    artifact()
    fake.faults.push({ method: 'GET', path: /^\/blobs\//, status: 403, times: 1 })
    await expect(download({ maxBytes: ZIP.length })).rejects.toThrow('the storage host answered HTTP 403')
    fake.artifacts = []
    await expect(download({ maxBytes: ZIP.length })).rejects.toMatchObject({ status: 404 })
  })
})

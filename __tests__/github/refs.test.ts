/**
 * A name is not a ref (issue 33, item 1): src/github/refs.ts against the fake GitHub's git refs, tag objects and
 * compare API. Every expected commit is the one the fake's refs were given here.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals'
import { FakeGitHub } from './fake-github.js'
import { createClient, type GitHubClient } from '../../src/github/octokit.js'
import { isOnRef, resolveRef, type RefKind } from '../../src/github/refs.js'
import type { GateContext } from '../../src/github/context.js'

const A = 'a'.repeat(40)
const B = 'b'.repeat(40)
const C = 'c'.repeat(40)
const X = '9'.repeat(40)
let fake: FakeGitHub
let client: GitHubClient
let ctx: GateContext
const where = { file: 'gate.yml', key: 'reference.ref' }
const all: RefKind[] = ['branch', 'tag', 'commit']

beforeAll(async () => {
  fake = await new FakeGitHub().start()
  fake.users.set('t', 'github-actions[bot]')
  client = createClient('t', { baseUrl: fake.url, throttleId: 'refs-test' })
  ctx = {
    eventName: 'pull_request',
    owner: 'acme',
    repo: 'search',
    apiUrl: fake.url,
    serverUrl: '',
    sha: C,
    workspace: '/tmp'
  }
})
afterAll(async () => {
  await fake.stop()
})
beforeEach(() => {
  fake.branches.clear()
  fake.tags.clear()
  fake.parents.clear()
  fake.commits.clear()
  fake.branch('main', [A, B, C]) // main: A <- B <- C (the tip)
  fake.parents.set(X, [A]) // another line of history, off main
})

describe('resolveRef', () => {
  it('resolves refs/heads/ and refs/tags/ through the git refs API, peeling an annotated tag', async () => {
    fake.tag('v1', B)
    fake.tag('v2', C, { annotated: true })
    expect(await resolveRef(client, ctx, { ref: 'refs/heads/main', where, accept: all })).toEqual({
      kind: 'branch',
      name: 'main',
      full: 'refs/heads/main',
      sha: C
    })
    expect(await resolveRef(client, ctx, { ref: 'refs/tags/v1', where, accept: all })).toMatchObject({
      kind: 'tag',
      sha: B
    })
    expect(await resolveRef(client, ctx, { ref: 'refs/tags/v2', where, accept: all })).toMatchObject({
      kind: 'tag',
      sha: C
    })
    expect(fake.requests('GET', /\/git\/tags\//)).toHaveLength(1) // only the annotated one needed peeling
  })

  it('reads a bare name as the branch or the tag that exists, and refuses one that is both, naming the key', async () => {
    fake.tag('v1', B)
    expect(await resolveRef(client, ctx, { ref: 'v1', where, accept: all })).toMatchObject({
      kind: 'tag',
      full: 'refs/tags/v1'
    })
    expect(await resolveRef(client, ctx, { ref: 'main', where, accept: all })).toMatchObject({ kind: 'branch' })
    fake.tag('main', X) // a contributor's tag named like the default branch
    await expect(resolveRef(client, ctx, { ref: 'main', where, accept: all })).rejects.toThrow(
      'gate.yml (reference.ref): "main" is both a branch and a tag of acme/search'
    )
    // with bare: branch, the name is the branch whatever tags exist
    expect(await resolveRef(client, ctx, { ref: 'main', where, accept: ['branch'], bare: 'branch' })).toMatchObject({
      kind: 'branch',
      sha: C
    })
  })

  it('takes a full commit sha only where commits are accepted, and a branch only where it is', async () => {
    fake.commits.set(B, { sha: B, date: '2025-01-01T00:00:00Z' })
    expect(await resolveRef(client, ctx, { ref: B, where, accept: all })).toEqual({
      kind: 'commit',
      name: B,
      full: B,
      sha: B
    })
    await expect(resolveRef(client, ctx, { ref: B, where, accept: ['branch', 'tag'] })).rejects.toThrow(
      `"${B}" is not a branch or tag of acme/search`
    )
    await expect(resolveRef(client, ctx, { ref: 'refs/heads/main', where, accept: ['tag', 'commit'] })).rejects.toThrow(
      "is a branch, and this key takes a tag or commit. a branch's commit moves with every push"
    )
  })

  it('refuses what does not exist, and refs outside refs/heads and refs/tags', async () => {
    await expect(resolveRef(client, ctx, { ref: 'refs/tags/v9', where, accept: all })).rejects.toThrow(
      '"refs/tags/v9": acme/search has no tag "v9"'
    )
    await expect(resolveRef(client, ctx, { ref: 'v9', where, accept: all })).rejects.toThrow(
      '"v9" is not a branch, tag or full commit sha of acme/search'
    )
    await expect(resolveRef(client, ctx, { ref: 'refs/pull/7/head', where, accept: all })).rejects.toThrow(
      'is neither refs/heads/… (a branch) nor refs/tags/… (a tag)'
    )
  })

  it('fails closed when the API refuses (a 403)', async () => {
    fake.faults.push({ method: 'GET', path: /\/git\/ref\//, status: 403, times: 2 })
    await expect(resolveRef(client, ctx, { ref: 'v1', where, accept: all })).rejects.toThrow(/fails closed/)
    fake.faults = []
  })
})

describe('isOnRef', () => {
  const main = { kind: 'branch' as const, name: 'main', full: 'refs/heads/main', sha: C }
  it("a branch's tip and its ancestors are on it; another line of history is not", async () => {
    expect(await isOnRef(client, ctx, main, C)).toBe(true)
    expect(await isOnRef(client, ctx, main, A)).toBe(true) // compare C...A: behind
    expect(await isOnRef(client, ctx, main, X)).toBe(false) // compare C...X: diverged
    expect(await isOnRef(client, ctx, main, 'f'.repeat(40))).toBe(false) // unknown to GitHub: 404
  })
  it("a tag's run is its commit's only", async () => {
    const tag = { kind: 'tag' as const, name: 'v1', full: 'refs/tags/v1', sha: B }
    expect(await isOnRef(client, ctx, tag, B)).toBe(true)
    expect(await isOnRef(client, ctx, tag, A)).toBe(false) // an ancestor of the tag is not the tag
  })
})

describe('a full commit sha is that commit, never a ref of the same name', () => {
  it('reads a sha as the commit although a branch or a tag is named like it (a contributor may push one)', async () => {
    fake.commits.set(B, { sha: B, date: '2025-01-01T00:00:00Z' })
    fake.branches.set(B, X) // a branch named like the release commit, on another line of history
    expect(await resolveRef(client, ctx, { ref: B, where, accept: all })).toEqual({
      kind: 'commit',
      name: B,
      full: B,
      sha: B
    })
    fake.branches.delete(B)
    fake.tag(B, X) // a tag named like it: the ledger kept on its commit would restart
    expect(await resolveRef(client, ctx, { ref: B, where, accept: ['tag', 'commit'] })).toMatchObject({
      kind: 'commit',
      sha: B
    })
    fake.branches.set(B, X) // both: still the commit, not a refusal a contributor could cause
    expect(await resolveRef(client, ctx, { ref: B, where, accept: all })).toMatchObject({ kind: 'commit', sha: B })
  })
})

import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals'
import { createHash } from 'node:crypto'
import net from 'node:net'
import { InputError } from '../../src/errors.js'
import type { GateContext, PullRequestRef } from '../../src/github/context.js'
import { createClient } from '../../src/github/octokit.js'
import { readRulesText } from '../../src/github/rules-source.js'
import { repositoryPath } from '../../src/github/read-at-commit.js'
import { FakeGitHub } from './fake-github.js'

const BASE = 'c'.repeat(40)
const BASE_RULES = 'version: 1\n# base rules\n'
const PR_RULES = 'version: 1\n# loosened by the PR\n'
const hash = (t: string): string => createHash('sha256').update(t).digest('hex')

let fake: FakeGitHub
let ctx: GateContext
const pr: PullRequestRef = { number: 7, runHeadSha: 'a'.repeat(40), baseSha: BASE, baseRef: 'main', isFork: false }
const local =
  (text: string | undefined) =>
  async (file: string): Promise<string> => {
    if (text === undefined) throw new InputError({ file }, 'file not found')
    return text
  }

beforeAll(async () => {
  fake = await new FakeGitHub().start()
  fake.users.set('t', 'github-actions[bot]')
  ctx = {
    eventName: 'pull_request',
    owner: fake.owner,
    repo: fake.repo,
    apiUrl: fake.url,
    serverUrl: 'https://github.com',
    sha: 'm'.repeat(40),
    workspace: '/tmp'
  }
})
afterAll(async () => fake.stop())
beforeEach(() => {
  fake.files.clear()
  fake.log = []
})

describe('rules from the base commit', () => {
  it('reads the rules at the base sha through the contents API, not the checked-out copy', async () => {
    fake.files.set(`${BASE}:.github/gate.yml`, BASE_RULES)
    const out = await readRulesText(createClient('t', { baseUrl: fake.url }), ctx, pr, {
      file: './.github/gate.yml',
      from: 'base',
      chosenBy: 'default',
      readLocal: local(BASE_RULES)
    })
    expect(out.text).toBe(BASE_RULES)
    expect(out.provenance).toEqual({
      from: 'base',
      chosenBy: 'default',
      file: './.github/gate.yml',
      sha256: hash(BASE_RULES),
      commit: BASE
    })
    expect(fake.log[0].path).toBe(`/repos/acme/search/contents/.github%2Fgate.yml?ref=${BASE}`)
  })

  it('enforces the base rules when the PR edits them, and records both sha256 sums', async () => {
    fake.files.set(`${BASE}:gate.yml`, BASE_RULES)
    const out = await readRulesText(createClient('t', { baseUrl: fake.url }), ctx, pr, {
      file: 'gate.yml',
      from: 'base',
      chosenBy: 'default',
      readLocal: local(PR_RULES)
    })
    expect(out.text).toBe(BASE_RULES)
    expect(out.provenance.sha256).toBe(hash(BASE_RULES))
    expect(out.provenance.workspaceSha256).toBe(hash(PR_RULES))
  })

  it('fails closed when the base commit has no rules file', async () => {
    const call = readRulesText(createClient('t', { baseUrl: fake.url }), ctx, pr, {
      file: 'gate.yml',
      from: 'base',
      chosenBy: 'default',
      readLocal: local(PR_RULES)
    })
    await expect(call).rejects.toThrow(InputError)
    await expect(
      readRulesText(createClient('t', { baseUrl: fake.url }), ctx, pr, {
        file: 'gate.yml',
        from: 'base',
        chosenBy: 'default',
        readLocal: local(PR_RULES)
      })
    ).rejects.toThrow(
      /gate\.yml: no rules file at the PR's base commit cccccccccccc \(main\): the gate fails closed.*merge the rules file into main first/
    )
  })

  it('fails closed, plainly, when the API refuses (no contents: read)', async () => {
    fake.faults.push({
      method: 'GET',
      path: /\/contents\//,
      status: 403,
      body: { message: 'Resource not accessible by integration' },
      times: 1
    })
    await expect(
      readRulesText(createClient('t', { baseUrl: fake.url }), ctx, pr, {
        file: 'gate.yml',
        from: 'base',
        chosenBy: 'input',
        readLocal: local(PR_RULES)
      })
    ).rejects.toThrow(/HTTP 403.*fails closed/)
  })

  it('a network error is called one, with its code, and gets no permission hint', async () => {
    // a port nothing listens on: the request never reaches GitHub (octokit reports it as a made-up HTTP 500)
    const server = net.createServer()
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const port = (server.address() as net.AddressInfo).port
    await new Promise<void>((resolve) => server.close(() => resolve()))
    const client = createClient('t', { baseUrl: `http://127.0.0.1:${port}`, maxRetries: 0 })
    const error = await readRulesText(client, ctx, pr, {
      file: 'gate.yml',
      from: 'base',
      chosenBy: 'input',
      readLocal: local(PR_RULES)
    }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(InputError)
    const message = (error as InputError).message
    expect(message).toMatch(
      /^gate\.yml: reading the rules file at the PR's base commit cccccccccccc \(main\) failed: network error ECONNREFUSED, GitHub did not answer/
    )
    expect(message).toContain('GitHub could not be reached from the runner')
    expect(message).not.toMatch(/HTTP 500|permissions/)
  })

  it('a real HTTP 500 from GitHub keeps its status and the permission hint', async () => {
    fake.faults.push({ method: 'GET', path: /\/contents\//, status: 500, body: { message: 'Server Error' }, times: 5 })
    const client = createClient('t', { baseUrl: fake.url, maxRetries: 0 })
    await expect(
      readRulesText(client, ctx, pr, { file: 'gate.yml', from: 'base', chosenBy: 'input', readLocal: local(PR_RULES) })
    ).rejects.toThrow(/failed \(HTTP 500\): Server Error.*contents: read/)
  })

  it('reads the workspace file with rules-from: workspace', async () => {
    const out = await readRulesText(undefined, { ...ctx, eventName: 'push' }, undefined, {
      file: 'gate.yml',
      from: 'workspace',
      chosenBy: 'default',
      readLocal: local(PR_RULES)
    })
    expect(out.text).toBe(PR_RULES)
    expect(out.provenance).toEqual({ from: 'workspace', chosenBy: 'default', file: 'gate.yml', sha256: hash(PR_RULES) })
    expect(fake.log).toHaveLength(0)
  })

  it('refuses rules-from: base without a pull request, and paths outside the repository', async () => {
    await expect(
      readRulesText(undefined, { ...ctx, eventName: 'push' }, undefined, {
        file: 'gate.yml',
        from: 'base',
        chosenBy: 'input',
        readLocal: local(PR_RULES)
      })
    ).rejects.toThrow(/needs a pull request.*rules-from: workspace/)
    expect(() => repositoryPath('../outside.yml')).toThrow(InputError)
    expect(() => repositoryPath('/etc/passwd')).toThrow(InputError)
    expect(repositoryPath('./a/../rules.yml')).toBe('rules.yml')
  })
})

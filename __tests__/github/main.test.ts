import { afterAll, beforeAll, beforeEach, describe, expect, it, jest } from '@jest/globals'
import { createHash } from 'node:crypto'
import { mkdtemp, readFile, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { FakeGitHub, makeZip } from './fake-github.js'

/**
 * The action end to end: environment variables, an event file and INPUT_* variables as GitHub sets them, a
 * fake GitHub API on 127.0.0.1, and run() from src/main.ts. What is checked is what a user sees: outputs,
 * job summary, annotations (workflow commands on stdout), the PR comment, and the step's exit code.
 */
const BASE = 'c'.repeat(40)
const HEAD = 'a'.repeat(40)
const RULES = 'gate.yml'
const repoRoot = path.resolve(import.meta.dirname, '../..')

let fake: FakeGitHub
let dir: string
let baseRules: string
let run: typeof import('../../src/main.js').run
const saved = { ...process.env }
let stdout: string[] = []

const sha = (t: string): string => createHash('sha256').update(t).digest('hex')

async function setup(event: Record<string, unknown>, inputs: Record<string, string>, token = 't-actions', envOver: Record<string, string> = {}): Promise<void> {
  const eventPath = path.join(dir, 'event.json')
  await writeFile(eventPath, JSON.stringify(event))
  await writeFile(path.join(dir, 'output.txt'), '')
  await writeFile(path.join(dir, 'summary.md'), '')
  for (const k of Object.keys(process.env)) if (k.startsWith('INPUT_') || k.startsWith('GITHUB_')) delete process.env[k]
  Object.assign(process.env, {
    GITHUB_EVENT_NAME: 'pull_request',
    GITHUB_EVENT_PATH: eventPath,
    GITHUB_REPOSITORY: 'acme/search',
    GITHUB_API_URL: fake.url,
    GITHUB_RUN_ID: '900',
    GITHUB_SHA: 'm'.repeat(40),
    GITHUB_WORKSPACE: dir,
    GITHUB_OUTPUT: path.join(dir, 'output.txt'),
    GITHUB_STEP_SUMMARY: path.join(dir, 'summary.md'),
    RUNNER_TEMP: dir,
    'INPUT_GITHUB-TOKEN': token,
    INPUT_RULES: RULES,
    INPUT_BASELINE: path.join(dir, 'baseline.jsonl'),
    INPUT_CANDIDATE: path.join(dir, 'candidate.jsonl'),
    'INPUT_REPORT-DIR': path.join(dir, 'report'),
    ...Object.fromEntries(Object.entries(inputs).map(([k, v]) => [`INPUT_${k.toUpperCase()}`, v])),
    ...envOver
  })
}

const prEvent = (fork = false): Record<string, unknown> => ({
  repository: { name: 'search', owner: { login: 'acme' }, default_branch: 'main' },
  pull_request: {
    number: 7,
    head: { sha: HEAD, ref: 'feature', repo: { full_name: fork ? 'eve/search' : 'acme/search' } },
    base: { sha: BASE, ref: 'main', repo: { full_name: 'acme/search' } }
  }
})

async function outputs(): Promise<Record<string, string>> {
  const text = await readFile(path.join(dir, 'output.txt'), 'utf8')
  const out: Record<string, string> = {}
  for (const m of text.matchAll(/^([\w-]+)<<(ghadelimiter_[\w-]+)\n([\s\S]*?)\n\2$/gm)) out[m[1]] = m[3]
  return out
}

async function runAction(): Promise<number> {
  process.exitCode = undefined
  stdout = []
  const spy = jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stdout.push(String(chunk))
    return true
  })
  try {
    await run(process.env, () => new Date('2025-06-10T12:00:00Z'))
  } finally {
    spy.mockRestore()
  }
  const code = Number(process.exitCode ?? 0)
  process.exitCode = undefined
  return code
}

beforeAll(async () => {
  fake = await new FakeGitHub().start()
  dir = await mkdtemp(path.join(os.tmpdir(), 'rg-main-test-'))
  // the example scenario with fewer resamples (the statistics are tested elsewhere; this is about the plumbing)
  baseRules = (await readFile(path.join(repoRoot, 'examples/rules.yml'), 'utf8')).replace('resamples: 10000', 'resamples: 1000')
  await writeFile(path.join(dir, 'baseline.jsonl'), await readFile(path.join(repoRoot, 'examples/baseline.jsonl')))
  await writeFile(path.join(dir, 'candidate.jsonl'), await readFile(path.join(repoRoot, 'examples/candidate.jsonl')))
  // @actions/artifact's download builds its octokit from GITHUB_API_URL when @actions/github is first imported
  process.env.GITHUB_API_URL = fake.url
  delete process.env.GITHUB_SERVER_URL
  ;({ run } = await import('../../src/main.js'))
})
afterAll(async () => {
  await fake.stop()
  process.env = saved
})
beforeEach(async () => {
  fake.comments.clear()
  fake.files.clear()
  fake.faults = []
  fake.log = []
  fake.users.set('t-actions', 'github-actions[bot]')
  fake.userForbidden.add('t-actions')
  fake.users.set('t-fork', 'github-actions[bot]')
  fake.userForbidden.add('t-fork')
  fake.readOnly.add('t-fork')
  fake.pulls.set(7, { number: 7, head: { sha: HEAD, ref: 'feature', repo: { full_name: 'acme/search' } }, base: { sha: BASE, ref: 'main' } })
  fake.files.set(`${BASE}:${RULES}`, baseRules)
  await writeFile(path.join(dir, RULES), baseRules)
})

describe('the action, end to end against a fake GitHub', () => {
  it('same-repo PR: base rules, report files, outputs, annotation on the failed check, summary and one sticky comment', async () => {
    await setup(prEvent(), {})
    expect(await runAction()).toBe(1) // the example candidate fails "new users are protected"
    const out = await outputs()
    expect(out.verdict).toBe('fail')
    expect(out['comment-status']).toBe('created')
    const report = JSON.parse(await readFile(out['report-json'], 'utf8')) as Record<string, any>
    expect(report.verdict).toBe('fail')
    expect(report.provenance.rules).toEqual({ from: 'base', chosen_by: 'default', file: RULES, sha256: sha(baseRules), commit: BASE, changed_in_pr: false, workspace_sha256: null })
    expect(report.provenance.baseline.from).toBe('file')
    const md = await readFile(out['report-markdown'], 'utf8')
    expect(md).toContain("read from the PR's base commit `cccccccccccc` (rules-from: base, the default for this event)")
    const checkLine = baseRules.split('\n').findIndex((l) => l.includes('name: new users are protected')) + 1
    expect(stdout.join('')).toContain(`::error title=retrieval-gate%3A check “new users are protected” fail,file=${RULES},line=${checkLine}::`)
    expect(await readFile(path.join(dir, 'summary.md'), 'utf8')).toContain('retrieval-gate: fail')
    const comments = fake.comments.get(7) ?? []
    expect(comments).toHaveLength(1)
    expect(comments[0].body.startsWith('<!-- retrieval-gate:default -->\n<!-- retrieval-gate-meta {"head_sha":"' + HEAD)).toBe(true)
    // second run: the same comment is updated
    await setup(prEvent(), {})
    expect(await runAction()).toBe(1)
    expect((await outputs())['comment-status']).toBe('updated')
    expect(fake.comments.get(7)).toHaveLength(1)
  })

  it('fork PR with a read-only token: a warning and the summary; verdict and exit status unchanged', async () => {
    await setup(prEvent(true), {}, 't-fork')
    expect(await runAction()).toBe(1)
    const out = await outputs()
    expect(out.verdict).toBe('fail')
    expect(out['comment-status']).toBe('failed')
    const log = stdout.join('')
    expect(log).toMatch(/::warning::retrieval-gate: the PR comment was not written: creating the comment failed \(HTTP 403\)/)
    expect(log).toContain('fork')
    const summary = await readFile(path.join(dir, 'summary.md'), 'utf8')
    expect(summary).toContain('The PR comment could not be written')
    expect(summary).toContain('retrieval-gate: fail')
    expect(fake.comments.get(7) ?? []).toHaveLength(0)
  })

  it('a PR that loosens the rules file: the base rules are enforced and the report says so with both sums', async () => {
    const loosened = baseRules.replace(/ {2}- name: new users are protected[\s\S]*?margin: 0\.02 \}\n/, '')
    expect(loosened).not.toBe(baseRules)
    await writeFile(path.join(dir, RULES), loosened)
    await setup(prEvent(), {})
    expect(await runAction()).toBe(1)
    const out = await outputs()
    expect(out.verdict).toBe('fail')
    const md = await readFile(out['report-markdown'], 'utf8')
    expect(md).toContain(`This pull request changes ${RULES}: base rules enforced; the PR's change takes effect after merge (base sha256 \`${sha(baseRules)}\`, PR sha256 \`${sha(loosened)}\`)`)
    // with rules-from: workspace the loosened rules would have passed: proof the base copy was the one enforced
    await setup(prEvent(), { 'rules-from': 'workspace', comment: 'never' })
    expect(await runAction()).toBe(0)
    expect((await outputs()).verdict).toBe('pass')
    expect(await readFile((await outputs())['report-markdown'], 'utf8')).toContain('read from the workspace (rules-from: workspace)')
  })

  it('base commit without a rules file: fails closed with a clear message and no verdict', async () => {
    fake.files.clear()
    await setup(prEvent(), {})
    expect(await runAction()).toBe(1)
    const log = stdout.join('')
    expect(log).toMatch(/::error::retrieval-gate: gate\.yml: no rules file at the PR's base commit cccccccccccc \(main\): the gate fails closed/)
    expect((await outputs()).verdict).toBeUndefined()
    expect(fake.comments.get(7) ?? []).toHaveLength(0)
  })

  it('a stale run (the PR head moved on) keeps its verdict but leaves the comment to the newer run', async () => {
    fake.pulls.set(7, { number: 7, head: { sha: 'b'.repeat(40), ref: 'feature', repo: { full_name: 'acme/search' } }, base: { sha: BASE, ref: 'main' } })
    await setup(prEvent(), {})
    expect(await runAction()).toBe(1)
    const out = await outputs()
    expect(out['comment-status']).toBe('skipped')
    expect(stdout.join('')).toContain('PR comment skipped: stale run')
    expect(fake.requests('POST', /comments$/)).toHaveLength(0)
  })

  it('fork pattern (workflow_run): finds the fork PR, reads base rules and the baseline artifact, comments; nothing checked out', async () => {
    const empty = await mkdtemp(path.join(os.tmpdir(), 'rg-main-empty-'))
    fake.pulls.set(7, { number: 7, head: { sha: HEAD, ref: 'patch-1', repo: { full_name: 'eve/search' } }, base: { sha: BASE, ref: 'main' } })
    const common = { workflow_id: 11, status: 'completed', conclusion: 'success', created_at: '2025-06-09T12:00:00Z', html_url: 'https://github.com/acme/search/actions/runs/850' }
    fake.runs = [
      { ...common, id: 850, head_sha: BASE, head_branch: 'main', event: 'push', head_repository: { full_name: 'acme/search' } },
      { ...common, id: 880, head_sha: HEAD, head_branch: 'patch-1', event: 'pull_request', head_repository: { full_name: 'eve/search' } }
    ]
    const rows = await readFile(path.join(dir, 'baseline.jsonl'))
    fake.artifacts = [{ id: 31, name: 'baseline-rows', size_in_bytes: rows.length, expired: false, created_at: '2025-06-09T12:00:00Z', runId: 850, zip: makeZip([{ name: 'rows.jsonl', data: rows, deflate: true }]) }]
    const event = {
      repository: { name: 'search', owner: { login: 'acme' }, default_branch: 'main' },
      workflow_run: { id: 880, workflow_id: 11, head_sha: HEAD, head_branch: 'patch-1', head_repository: { full_name: 'eve/search' }, event: 'pull_request', conclusion: 'success', pull_requests: [] }
    }
    await setup(event, { baseline: '', 'baseline-artifact': 'baseline-rows' }, 't-actions', { GITHUB_EVENT_NAME: 'workflow_run', GITHUB_WORKSPACE: empty })
    expect(await runAction()).toBe(1)
    const out = await outputs()
    expect(out['comment-status']).toBe('created')
    const report = JSON.parse(await readFile(out['report-json'], 'utf8')) as Record<string, any>
    expect(report.provenance.rules).toMatchObject({ from: 'base', commit: BASE, changed_in_pr: false })
    expect(report.provenance.baseline).toEqual({
      from: 'artifact',
      file: 'rows.jsonl',
      artifact: { name: 'baseline-rows', id: 31, run_id: 850, run_url: 'https://github.com/acme/search/actions/runs/850', branch: 'main', commit: BASE, created_at: '2025-06-09T12:00:00Z', age_seconds: 86400 }
    })
    expect(report.provenance.warnings).toEqual([])
    expect(fake.comments.get(7)?.[0].body).toContain('Baseline: artifact “baseline-rows” (rows.jsonl) from run [850]')
  })

  it('refuses an invalid input by name', async () => {
    await setup(prEvent(), { comment: 'sometimes' })
    expect(await runAction()).toBe(1)
    expect(stdout.join('')).toContain('::error::retrieval-gate: input comment: "sometimes" is not one of always, on-failure, never')
  })

  it('input text in a refusal reaches the log escaped: no ##[ command, no line starting with ::, short', async () => {
    const hostile = 'q ##[warning]INJECTED\n::warning::INJECTED ' + 'x'.repeat(1_000_000)
    const candidate = path.join(dir, 'hostile-candidate.jsonl')
    await writeFile(candidate, [hostile, hostile].map((id) => JSON.stringify({ query_id: id, 'recall@10': 0.5 })).join('\n') + '\n')
    await setup(prEvent(), { candidate })
    expect(await runAction()).toBe(1)
    const log = stdout.join('')
    expect(log).toMatch(/^::error::retrieval-gate: .*hostile-candidate\.jsonl/m)
    expect(log).not.toContain('##[')
    expect(log).not.toMatch(/^\s*::warning::INJECTED/m)
    for (const line of log.split('\n')) expect(line.length).toBeLessThan(4200)
  })

  it('a report-dir that cannot be created fails the step by input name, without a stack trace', async () => {
    await setup(prEvent(), { 'report-dir': path.join(dir, RULES, 'report') }) // below a regular file
    expect(await runAction()).toBe(1)
    const log = stdout.join('')
    expect(log).toContain(`::error::retrieval-gate: input report-dir: cannot create the folder ${path.join(dir, RULES, 'report')} (ENOTDIR)`)
    expect(log).not.toContain('internal error')
  })
})

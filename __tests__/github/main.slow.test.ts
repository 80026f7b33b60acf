import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals'
import { createHash } from 'node:crypto'
import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { FakeGitHub, makeZip } from './fake-github.js'
import { runCaptured, readOutputs } from './action-run.js'

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

async function setup(
  event: Record<string, unknown>,
  inputs: Record<string, string>,
  token = 't-actions',
  envOver: Record<string, string> = {}
): Promise<void> {
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
  return readOutputs(path.join(dir, 'output.txt'))
}

async function runAction(): Promise<number> {
  let code: number
  ;({ code, stdout } = await runCaptured(run))
  return code
}

beforeAll(async () => {
  fake = await new FakeGitHub().start()
  dir = await mkdtemp(path.join(os.tmpdir(), 'rg-main-test-'))
  // the example scenario with fewer resamples (the statistics are tested elsewhere; this is about the plumbing)
  baseRules = (await readFile(path.join(repoRoot, 'examples/rules.yml'), 'utf8')).replace(
    'resamples: 10000',
    'resamples: 1000'
  )
  await writeFile(path.join(dir, 'baseline.jsonl'), await readFile(path.join(repoRoot, 'examples/baseline.jsonl')))
  await writeFile(path.join(dir, 'candidate.jsonl'), await readFile(path.join(repoRoot, 'examples/candidate.jsonl')))
  // src/main.js is imported with GITHUB_API_URL aimed at the fake, so nothing built at import time reaches the real API
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
  fake.parents.clear()
  fake.branch('main', [BASE]) // the base branch: its tip is the PR's base commit
  fake.faults = []
  fake.log = []
  fake.statuses = []
  fake.users.set('t-actions', 'github-actions[bot]')
  fake.userForbidden.add('t-actions')
  fake.users.set('t-fork', 'github-actions[bot]')
  fake.userForbidden.add('t-fork')
  fake.readOnly.add('t-fork')
  fake.pulls.set(7, {
    number: 7,
    head: { sha: HEAD, ref: 'feature', repo: { full_name: 'acme/search' } },
    base: { sha: BASE, ref: 'main' }
  })
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
    expect(report.provenance.rules).toEqual({
      from: 'base',
      chosen_by: 'default',
      file: RULES,
      sha256: sha(baseRules),
      commit: BASE,
      changed_in_pr: false,
      workspace_sha256: null
    })
    expect(report.provenance.baseline.from).toBe('file')
    const md = await readFile(out['report-markdown'], 'utf8')
    expect(md).toContain("read from the PR's base commit `cccccccccccc` (rules-from: base, the default for this event)")
    const checkLine = baseRules.split('\n').findIndex((l) => l.includes('name: new users are protected')) + 1
    expect(stdout.join('')).toContain(
      `::error title=retrieval-gate%3A check “new users are protected” fail,file=${RULES},line=${checkLine}::`
    )
    expect(await readFile(path.join(dir, 'summary.md'), 'utf8')).toContain('retrieval-gate: fail')
    const comments = fake.comments.get(7) ?? []
    expect(comments).toHaveLength(1)
    expect(
      comments[0].body.startsWith('<!-- retrieval-gate:default -->\n<!-- retrieval-gate-meta {"head_sha":"' + HEAD)
    ).toBe(true)
    // The HTML page: written into report-dir, an output, and named in the comment and the job summary.
    expect(path.basename(out['report-html'])).toBe('report.html')
    expect((await readFile(out['report-html'], 'utf8')).startsWith('<!DOCTYPE html>')).toBe(true)
    expect(comments[0].body).toContain('is report.html in the report artifact (report-dir ')
    expect(await readFile(path.join(dir, 'summary.md'), 'utf8')).toContain(
      'is report.html in the report artifact (report-dir '
    )
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
    expect(log).toMatch(
      /::warning::retrieval-gate: the PR comment was not written: creating the comment failed \(HTTP 403\)/
    )
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
    expect(md).toContain(
      `This pull request changes ${RULES}: base rules enforced; the PR's change takes effect after merge (base sha256 \`${sha(baseRules)}\`, PR sha256 \`${sha(loosened)}\`)`
    )
    // with rules-from: workspace the loosened rules would have passed: proof the base copy was the one enforced
    await setup(prEvent(), { 'rules-from': 'workspace', comment: 'never' })
    expect(await runAction()).toBe(0)
    expect((await outputs()).verdict).toBe('pass')
    expect(await readFile((await outputs())['report-markdown'], 'utf8')).toContain(
      'read from the workspace (rules-from: workspace)'
    )
  })

  it('any run about a pull request reads the base rules by default: pull_request_review, or a pr-number', async () => {
    // pull_request_review runs check out the PR's merge commit, as pull_request does; a dispatch names its PR by number
    const loosened = baseRules.replace(/ {2}- name: new users are protected[\s\S]*?margin: 0\.02 \}\n/, '')
    await writeFile(path.join(dir, RULES), loosened)
    for (const [event, inputs] of [
      ['pull_request_review', {}],
      ['workflow_dispatch', { 'pr-number': '7' }]
    ] as const) {
      await setup(event === 'pull_request_review' ? prEvent() : { repository: prEvent().repository }, {
        ...inputs,
        comment: 'never'
      })
      process.env.GITHUB_EVENT_NAME = event
      expect(await runAction()).toBe(1)
      const out = await outputs()
      expect(out.verdict).toBe('fail')
      const report = JSON.parse(await readFile(out['report-json'], 'utf8')) as Record<string, any>
      expect(report.provenance.rules).toMatchObject({ from: 'base', chosen_by: 'default', commit: BASE })
    }
  })

  it('base commit without a rules file: fails closed with a clear message and no verdict', async () => {
    fake.files.clear()
    await setup(prEvent(), {})
    expect(await runAction()).toBe(1)
    const log = stdout.join('')
    expect(log).toMatch(
      /::error::retrieval-gate: gate\.yml: no rules file at the PR's base commit cccccccccccc \(main\): the gate fails closed/
    )
    expect((await outputs()).verdict).toBe('error') // no verdict was reached
    expect(fake.comments.get(7) ?? []).toHaveLength(0)
  })

  it('a stale run (the PR head moved on) keeps its verdict but leaves the comment to the newer run', async () => {
    fake.pulls.set(7, {
      number: 7,
      head: { sha: 'b'.repeat(40), ref: 'feature', repo: { full_name: 'acme/search' } },
      base: { sha: BASE, ref: 'main' }
    })
    await setup(prEvent(), {})
    expect(await runAction()).toBe(1)
    const out = await outputs()
    expect(out['comment-status']).toBe('skipped')
    expect(stdout.join('')).toContain('PR comment skipped: stale run')
    expect(fake.requests('POST', /comments$/)).toHaveLength(0)
  })

  it('fork pattern (workflow_run): finds the fork PR, reads base rules and the baseline artifact, comments; nothing checked out', async () => {
    const empty = await mkdtemp(path.join(os.tmpdir(), 'rg-main-empty-'))
    fake.pulls.set(7, {
      number: 7,
      head: { sha: HEAD, ref: 'patch-1', repo: { full_name: 'eve/search' } },
      base: { sha: BASE, ref: 'main' }
    })
    const common = {
      workflow_id: 11,
      status: 'completed',
      conclusion: 'success',
      created_at: '2025-06-09T12:00:00Z',
      html_url: 'https://github.com/acme/search/actions/runs/850'
    }
    fake.runs = [
      {
        ...common,
        id: 850,
        head_sha: BASE,
        head_branch: 'main',
        event: 'push',
        head_repository: { full_name: 'acme/search' }
      },
      {
        ...common,
        id: 880,
        head_sha: HEAD,
        head_branch: 'patch-1',
        event: 'pull_request',
        head_repository: { full_name: 'eve/search' }
      }
    ]
    const rows = await readFile(path.join(dir, 'baseline.jsonl'))
    fake.artifacts = [
      {
        id: 31,
        name: 'baseline-rows',
        size_in_bytes: rows.length,
        expired: false,
        created_at: '2025-06-09T12:00:00Z',
        runId: 850,
        zip: makeZip([{ name: 'rows.jsonl', data: rows, deflate: true }])
      }
    ]
    const event = {
      repository: { name: 'search', owner: { login: 'acme' }, default_branch: 'main' },
      workflow_run: {
        id: 880,
        workflow_id: 11,
        head_sha: HEAD,
        head_branch: 'patch-1',
        head_repository: { full_name: 'eve/search' },
        event: 'pull_request',
        conclusion: 'success',
        pull_requests: []
      }
    }
    await setup(event, { baseline: '', 'baseline-artifact': 'baseline-rows' }, 't-actions', {
      GITHUB_EVENT_NAME: 'workflow_run',
      GITHUB_WORKSPACE: empty
    })
    expect(await runAction()).toBe(1)
    const out = await outputs()
    expect(out['comment-status']).toBe('created')
    const report = JSON.parse(await readFile(out['report-json'], 'utf8')) as Record<string, any>
    expect(report.provenance.rules).toMatchObject({ from: 'base', commit: BASE, changed_in_pr: false })
    expect(report.provenance.baseline).toEqual({
      from: 'artifact',
      file: 'rows.jsonl',
      artifact: {
        name: 'baseline-rows',
        id: 31,
        run_id: 850,
        run_url: 'https://github.com/acme/search/actions/runs/850',
        branch: 'main',
        commit: BASE,
        created_at: '2025-06-09T12:00:00Z',
        age_seconds: 86400
      }
    })
    expect(report.provenance.warnings).toEqual([])
    expect(fake.comments.get(7)?.[0].body).toContain('Baseline: artifact “baseline-rows” (rows.jsonl) from run [850]')
  })

  it('seed replicates: baseline and candidate name one file per line, and the report carries the seeds', async () => {
    const mcnemar = '  - name: hit rate improves\n    metric: hit@10\n    superior: { test: mcnemar, alpha: 0.05 }\n'
    expect(baseRules).toContain(mcnemar)
    // McNemar is refused with several seeds (a seed-averaged hit is a share): the base rules without that check, and
    // declaring the seeds each side gives (statistics.seeds: the design is the rules', never the number of files).
    fake.files.set(
      `${BASE}:${RULES}`,
      baseRules.replace(mcnemar, '').replace('resamples: 1000', 'resamples: 1000, seeds: { baseline: 2, candidate: 3 }')
    )
    // Each seed its own values (one query's hit flipped per seed): the same file twice would be one seed, refused.
    const seedOf = async (file: string, k: number): Promise<string> => {
      if (k === 0) return file
      const lines = (await readFile(file, 'utf8')).trim().split('\n')
      const row = JSON.parse(lines[k]) as Record<string, unknown>
      row['hit@10'] = 1 - (row['hit@10'] as number)
      lines[k] = JSON.stringify(row)
      const out = file.replace(/\.jsonl$/, `-seed${k}.jsonl`)
      await writeFile(out, lines.join('\n') + '\n')
      return out
    }
    const bs = [await seedOf(path.join(dir, 'baseline.jsonl'), 0), await seedOf(path.join(dir, 'baseline.jsonl'), 1)]
    const cs = [
      await seedOf(path.join(dir, 'candidate.jsonl'), 0),
      await seedOf(path.join(dir, 'candidate.jsonl'), 1),
      await seedOf(path.join(dir, 'candidate.jsonl'), 2)
    ]
    await setup(prEvent(), { baseline: `${bs.join('\n')}\n`, candidate: cs.join('\n'), comment: 'never' })
    await runAction()
    const report = JSON.parse(await readFile((await outputs())['report-json'], 'utf8')) as {
      seeds: { baseline_files: string[]; candidate_files: string[]; interval: string }
    }
    expect(report.seeds.baseline_files).toEqual(bs)
    expect(report.seeds.candidate_files).toEqual(cs)
    expect(report.seeds.interval).toBe(
      't over seeds and queries: seed-mean variance per side plus query variance, Satterthwaite degrees of freedom'
    )
  })

  it('refuses an invalid input by name', async () => {
    await setup(prEvent(), { comment: 'sometimes' })
    expect(await runAction()).toBe(1)
    expect(stdout.join('')).toContain(
      '::error::retrieval-gate: input comment: "sometimes" is not one of always, on-failure, never'
    )
  })

  it('input text in a refusal reaches the log escaped: no ##[ command, no line starting with ::, short', async () => {
    const hostile = 'q ##[warning]INJECTED\n::warning::INJECTED ' + 'x'.repeat(1_000_000)
    const candidate = path.join(dir, 'hostile-candidate.jsonl')
    await writeFile(
      candidate,
      [hostile, hostile].map((id) => JSON.stringify({ query_id: id, 'recall@10': 0.5 })).join('\n') + '\n'
    )
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
    expect(log).toContain(
      `::error::retrieval-gate: input report-dir: cannot create the folder ${path.join(dir, RULES, 'report')} (ENOTDIR)`
    )
    expect(log).not.toContain('internal error')
  })
})

/**
 * Commit status on the PR's head (issue 16 item 1). In the fork pattern the gate runs in a workflow_run event
 * whose GITHUB_SHA is the default branch's head: a check there is never on the PR, so no rule could require it.
 * The status goes on the fork's head commit, which the event carries as workflow_run.head_sha while
 * workflow_run.pull_requests is empty (as GitHub sends it for forks).
 */
describe('commit status on the pull request head', () => {
  const MAIN_HEAD = 'd'.repeat(40)
  const forkRunEvent = (): Record<string, unknown> => ({
    repository: { name: 'search', owner: { login: 'acme' }, default_branch: 'main' },
    workflow_run: {
      id: 880,
      workflow_id: 11,
      head_sha: HEAD,
      head_branch: 'patch-1',
      head_repository: { full_name: 'eve/search' },
      event: 'pull_request',
      conclusion: 'success',
      pull_requests: []
    }
  })
  /** The fork pattern's gate run: base rules through the API, the baseline as a file, GITHUB_SHA on main. */
  async function forkGate(inputs: Record<string, string> = {}, envOver: Record<string, string> = {}): Promise<number> {
    fake.pulls.set(7, {
      number: 7,
      head: { sha: HEAD, ref: 'patch-1', repo: { full_name: 'eve/search' } },
      base: { sha: BASE, ref: 'main' }
    })
    await setup(forkRunEvent(), { comment: 'never', ...inputs }, 't-actions', {
      GITHUB_EVENT_NAME: 'workflow_run',
      GITHUB_SHA: MAIN_HEAD,
      GITHUB_SERVER_URL: 'https://ghe.example.com',
      ...envOver
    })
    return runAction()
  }
  const loosened = (): string => baseRules.replace(/ {2}- name: new users are protected[\s\S]*?margin: 0\.02 \}\n/, '')

  it('fork PR via workflow_run, fail: a failure status on the fork head sha (not main), linked to this run', async () => {
    expect(await forkGate()).toBe(1)
    expect((await outputs())['commit-status-outcome']).toBe('created')
    expect(fake.statuses).toEqual([
      {
        sha: HEAD,
        state: 'failure',
        context: 'retrieval-gate',
        description: 'fail: "new users are protected" not met (1 of 5 checks failed)',
        target_url: 'https://ghe.example.com/acme/search/actions/runs/900'
      }
    ])
    expect(fake.requests('POST', /\/statuses\//).map((r) => r.path)).toEqual([`/repos/acme/search/statuses/${HEAD}`])
    expect(stdout.join('')).toContain(`retrieval-gate: commit status failure created on ${HEAD} (retrieval-gate)`)
  })

  // Issue 33, item 4: any workflow's GITHUB_TOKEN with statuses: write can post "success" as the GitHub Actions app;
  // a status created with a GitHub App's token is one branch protection can pin to that app.
  it('status-token creates the commit status with its own token (a GitHub App), everything else with github-token', async () => {
    fake.users.set('t-app', 'retrieval-gate-status[bot]')
    expect(await forkGate({ 'status-token': 't-app' })).toBe(1)
    expect(fake.statuses.map((x) => [x.sha, x.state, x.context])).toEqual([[HEAD, 'failure', 'retrieval-gate']])
    expect(fake.requests('POST', /\/statuses\//).map((r) => r.token)).toEqual(['t-app'])
    // the rules at the base commit were read with github-token
    expect(new Set(fake.requests('GET', /\/contents\//).map((r) => r.token))).toEqual(new Set(['t-actions']))
  })

  it('the error path posts with status-token too', async () => {
    fake.users.set('t-app', 'retrieval-gate-status[bot]')
    expect(await forkGate({ 'status-token': 't-app', 'commit-status': 'auto', comment: 'bogus' })).toBe(1)
    expect(fake.statuses.map((x) => x.state)).toEqual(['error'])
    expect(fake.requests('POST', /\/statuses\//).map((r) => r.token)).toEqual(['t-app'])
  })

  it('fork PR via workflow_run, pass: a success status', async () => {
    fake.files.set(`${BASE}:${RULES}`, loosened())
    expect(await forkGate()).toBe(0)
    expect((await outputs()).verdict).toBe('pass')
    expect(fake.statuses.map((x) => [x.sha, x.state, x.description])).toEqual([
      [HEAD, 'success', 'pass: 4 of 4 checks passed']
    ])
  })

  // Issue 24, item 2: two open PRs from one head branch (into different bases) share its head commit; the gate
  // graded one of them and posted its status on the shared commit, speaking for the other.
  it('two open PRs from the same fork branch: no verdict, an error status, and the ambiguity named', async () => {
    fake.pulls.set(9, {
      number: 9,
      head: { sha: HEAD, ref: 'patch-1', repo: { full_name: 'eve/search' } },
      base: { sha: 'f'.repeat(40), ref: 'release' }
    })
    try {
      expect(await forkGate()).toBe(1)
      const out = await outputs()
      expect(out.verdict).toBe('error')
      expect(stdout.join('')).toContain(
        '2 open pull requests come from "eve/search":"patch-1" (#7 into "main", #9 into "release"), so which one this run grades is ambiguous'
      )
      expect(fake.statuses.map((x) => [x.sha, x.state])).toEqual([[HEAD, 'error']])
    } finally {
      fake.pulls.delete(9)
    }
  })

  it('pr-number must name the PR the triggering run built', async () => {
    fake.pulls.set(9, {
      number: 9,
      head: { sha: 'e'.repeat(40), ref: 'other', repo: { full_name: 'acme/search' } },
      base: { sha: BASE, ref: 'main' }
    })
    try {
      expect(await forkGate({ 'pr-number': '9' })).toBe(1)
      expect((await outputs()).verdict).toBe('error')
      expect(stdout.join('')).toContain(
        'pull request #9 has head "acme/search":"other", not the branch the triggering run built ("eve/search":"patch-1")'
      )
    } finally {
      fake.pulls.delete(9)
    }
  })

  it('no verdict (a broken base rules file): an error status that names the file and line', async () => {
    const bad = baseRules.replace('margin: 0.005', 'margin: "much"')
    fake.files.set(`${BASE}:${RULES}`, bad)
    expect(await forkGate()).toBe(1)
    expect((await outputs()).verdict).toBe('error')
    const line = bad.split('\n').findIndex((l) => l.includes('"much"')) + 1
    expect(fake.statuses.map((x) => [x.sha, x.state, x.description])).toEqual([
      [
        HEAD,
        'error',
        `error: no verdict, unusable input in "gate.yml" line ${line} key "checks[0].non_inferior.margin"; see the run`
      ]
    ])
  })

  it('an unusable action input still reports error on the head, so a required check does not wait forever', async () => {
    expect(await forkGate({ comment: 'sometimes' })).toBe(1)
    expect((await outputs()).verdict).toBe('error')
    expect(fake.statuses.map((x) => [x.sha, x.state, x.description])).toEqual([
      [HEAD, 'error', 'error: no verdict, unusable input in key "input comment"; see the run']
    ])
  })

  it('403 on statuses: a warning naming statuses: write; the verdict and the exit code are unchanged', async () => {
    fake.faults.push({
      method: 'POST',
      path: /\/statuses\//,
      status: 403,
      body: { message: 'Resource not accessible by integration' },
      times: 5
    })
    expect(await forkGate()).toBe(1)
    expect((await outputs()).verdict).toBe('fail')
    expect((await outputs())['commit-status-outcome']).toBe('failed')
    const warnings = stdout
      .join('')
      .split('\n')
      .filter((l) => l.startsWith('::warning::retrieval-gate: the commit status was not created'))
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toContain('(HTTP 403)')
    expect(warnings[0]).toContain('`statuses: write`')
    expect(fake.requests('POST', /\/statuses\//)).toHaveLength(1) // a 403 is an answer, not retried
    // a passing gate stays green
    fake.files.set(`${BASE}:${RULES}`, loosened())
    fake.faults.push({
      method: 'POST',
      path: /\/statuses\//,
      status: 403,
      body: { message: 'Resource not accessible by integration' },
      times: 5
    })
    expect(await forkGate()).toBe(0)
    expect((await outputs()).verdict).toBe('pass')
  })

  it('another API error (422) is a warning too, never the step result', async () => {
    fake.files.set(`${BASE}:${RULES}`, loosened())
    fake.faults.push({
      method: 'POST',
      path: /\/statuses\//,
      status: 422,
      body: { message: 'No commit found for SHA' },
      times: 5
    })
    expect(await forkGate()).toBe(0)
    expect(stdout.join('')).toMatch(
      /::warning::retrieval-gate: the commit status was not created: creating the commit status on aaaaaaaaaaaa failed \(HTTP 422\): No commit found for SHA/
    )
  })

  it('plain pull_request: no status unless commit-status: true, which posts on the head sha (not the merge commit)', async () => {
    await setup(prEvent(), { comment: 'never' })
    expect(await runAction()).toBe(1)
    expect(fake.statuses).toEqual([])
    expect((await outputs())['commit-status-outcome']).toBe('skipped')
    expect(fake.requests('POST', /\/statuses\//)).toHaveLength(0)
    await setup(prEvent(), { comment: 'never', 'commit-status': 'true' })
    expect(await runAction()).toBe(1)
    expect(fake.statuses.map((x) => [x.sha, x.state, x.target_url])).toEqual([
      [HEAD, 'failure', 'https://github.com/acme/search/actions/runs/900']
    ])
  })

  it('commit-status: false posts nothing, even in workflow_run; an invalid value is refused by name', async () => {
    expect(await forkGate({ 'commit-status': 'false' })).toBe(1)
    expect(fake.statuses).toEqual([])
    expect(await forkGate({ 'commit-status': 'yes' })).toBe(1)
    expect(stdout.join('')).toContain(
      '::error::retrieval-gate: input commit-status: "yes" is not one of auto, true, false'
    )
    expect(fake.statuses).toEqual([]) // its wish is unknown: no status
  })

  it('a workflow_run about a push (not a pull request) posts nothing under auto', async () => {
    const event = forkRunEvent()
    Object.assign(event.workflow_run as Record<string, unknown>, {
      event: 'push',
      head_branch: 'main',
      head_repository: { full_name: 'acme/search' },
      head_sha: MAIN_HEAD
    })
    await setup(event, { comment: 'never', 'rules-from': 'workspace' }, 't-actions', {
      GITHUB_EVENT_NAME: 'workflow_run'
    })
    expect(await runAction()).toBe(1)
    expect(fake.statuses).toEqual([])
  })

  it('comment-name NAME gives the context "retrieval-gate / NAME"', async () => {
    expect(await forkGate({ 'comment-name': 'nightly' })).toBe(1)
    expect(fake.statuses.map((x) => x.context)).toEqual(['retrieval-gate / nightly'])
  })

  it('the description is at most 140 characters, starts with the verdict and carries no raw control or bidi character', async () => {
    const hostile = 'new users\\u202e are protected\\n::warning::INJECTED ' + '\\u0007'.repeat(80)
    fake.files.set(`${BASE}:${RULES}`, baseRules.replace('name: new users are protected', `name: "${hostile}"`))
    expect(await forkGate()).toBe(1)
    expect(fake.statuses).toHaveLength(1)
    const d = fake.statuses[0].description ?? ''
    expect(d.length).toBeLessThanOrEqual(140)
    expect(d.startsWith('fail: "new users\\u202e are protected\\n::warning::INJECTED ')).toBe(true)
    expect(d.endsWith('…')).toBe(true)
    expect(d).not.toMatch(/[\u0000-\u001f\u202a-\u202e]/)
  })
})

/**
 * The exam the rules name is read at the base commit (issue 12 item 3): a PR that re-splits the evaluation set,
 * disputes the questions it regresses or edits the judgments is still graded with the base commit's copy, so a
 * fail stays a fail; the report says the PR changes the exam, with both sha256 sums. 30 holdout questions; the
 * candidate loses the gold chunk on q01..q10 (10 regressions, the rule allows 3).
 */
describe('the exam is read at the base commit, like the rules', () => {
  const ids = Array.from({ length: 30 }, (_, i) => `q${String(i + 1).padStart(2, '0')}`)
  const regressed = new Set(ids.slice(0, 10))
  const question = (id: string, over: Record<string, unknown> = {}): string =>
    JSON.stringify({
      id,
      question: `question ${id}?`,
      answerable: true,
      gold_chunk_ids: [`g-${id}`],
      split: 'holdout',
      review: { status: 'accepted' },
      ...over
    })
  const baseDataset = ids.map((id) => question(id)).join('\n') + '\n'
  const baseQrels = ids.map((id) => `${id} 0 g-${id} 1`).join('\n') + '\n'
  const run = (candidate: boolean): string =>
    ids
      .map((id) =>
        JSON.stringify({
          query_id: id,
          results: [
            { doc_id: candidate && regressed.has(id) ? `y-${id}` : `g-${id}`, score: 2 },
            { doc_id: `x-${id}`, score: 1 }
          ]
        })
      )
      .join('\n') + '\n'
  const rules = (exam: string): string =>
    `version: 1\n${exam}\nmetrics:\n  nDCG@3: { better: higher, range: [0, 1] }\nstatistics: { resamples: 1000, seed: 1 }\nchecks:\n  - name: few regressions\n    metric: nDCG@3\n    max_regressions: { count: 3 }\n`
  const datasetRules = rules('dataset: { file: eval/questions.jsonl, split: holdout }')
  const qrelsRules = rules('judgments: { qrels: eval/qrels.txt }')

  /** Base commit: rules + exam; workspace: the same rules and the PR's copy of the exam file. */
  async function scenario(rulesText: string, file: string, base: string | undefined, pr: string): Promise<void> {
    fake.files.set(`${BASE}:${RULES}`, rulesText)
    if (base !== undefined) fake.files.set(`${BASE}:${file}`, base)
    await writeFile(path.join(dir, RULES), rulesText)
    await mkdir(path.join(dir, 'eval'), { recursive: true })
    await writeFile(path.join(dir, file), pr)
    await writeFile(path.join(dir, 'runs-base.jsonl'), run(false))
    await writeFile(path.join(dir, 'runs-cand.jsonl'), run(true))
  }
  const runInputs = (over: Record<string, string> = {}): Record<string, string> => ({
    baseline: path.join(dir, 'runs-base.jsonl'),
    candidate: path.join(dir, 'runs-cand.jsonl'),
    comment: 'never',
    ...over
  })

  /** The same gate over the PR's copy, read from the workspace: what the PR's edit would have earned. */
  async function verdictWithPrCopy(rulesText: string, file: string): Promise<string | undefined> {
    await writeFile(path.join(dir, 'gate-ws.yml'), rulesText.replace(file, path.join(dir, file)))
    await setup(prEvent(), runInputs({ rules: 'gate-ws.yml', 'rules-from': 'workspace' }))
    await runAction()
    return (await outputs()).verdict
  }

  async function expectBaseCopyGraded(rulesText: string, file: string, base: string, pr: string): Promise<void> {
    await scenario(rulesText, file, base, pr)
    await setup(prEvent(), runInputs())
    expect(await runAction()).toBe(1)
    const out = await outputs()
    expect(out.verdict).toBe('fail')
    const report = JSON.parse(await readFile(out['report-json'], 'utf8')) as Record<string, any>
    expect(report.provenance.exam_files).toEqual([
      {
        file,
        commit: BASE,
        sha256: sha(base),
        bytes: Buffer.byteLength(base),
        changed_in_pr: true,
        workspace_sha256: sha(pr)
      }
    ])
    expect(report.provenance.warnings).toEqual([])
    const md = await readFile(out['report-markdown'], 'utf8')
    expect(md).toContain(
      `This pull request changes ${file}, part of the exam that grades it: the base commit's copy graded this PR; the PR's change takes effect after merge (base sha256 \`${sha(base)}\`, PR sha256 \`${sha(pr)}\`)`
    )
    expect(md).not.toContain('retrieval-gate-exam-') // the private copy is never named, only path@commit
    expect(JSON.stringify(report)).not.toContain('retrieval-gate-exam-')
    if (file.endsWith('.jsonl'))
      expect(md).toContain(`Evaluation set \`${file}@cccccccccccc\`: split holdout, 30 answerable questions gated`) // @ in a code span: not a mention, and copies as written
    expect(fake.requests('GET', new RegExp(`/contents/${encodeURIComponent(file)}$`))).toHaveLength(1)
    // proof that the edit mattered: graded with the PR's own copy, the same change passes
    expect(await verdictWithPrCopy(rulesText, file)).toBe('pass')
  }

  it('a PR that moves its regressed holdout questions to split: dev is graded with the base split: the fail stays', async () => {
    const resplit = ids.map((id) => question(id, regressed.has(id) ? { split: 'dev' } : {})).join('\n') + '\n'
    await expectBaseCopyGraded(datasetRules, 'eval/questions.jsonl', baseDataset, resplit)
  })

  it('a PR that marks its regressed questions review.status: disputed is graded with the base copy: the fail stays', async () => {
    const disputed =
      ids.map((id) => question(id, regressed.has(id) ? { review: { status: 'disputed' } } : {})).join('\n') + '\n'
    await expectBaseCopyGraded(datasetRules, 'eval/questions.jsonl', baseDataset, disputed)
  })

  it('a PR that edits the qrels to call its own documents relevant is graded with the base judgments: the fail stays', async () => {
    const relabelled = baseQrels + [...regressed].map((id) => `${id} 0 y-${id} 1`).join('\n') + '\n'
    await expectBaseCopyGraded(qrelsRules, 'eval/qrels.txt', baseQrels, relabelled)
  })

  it('an unchanged exam: one provenance line per file, nothing flagged', async () => {
    await scenario(datasetRules, 'eval/questions.jsonl', baseDataset, baseDataset)
    await setup(prEvent(), runInputs())
    expect(await runAction()).toBe(1)
    const out = await outputs()
    const report = JSON.parse(await readFile(out['report-json'], 'utf8')) as Record<string, any>
    expect(report.provenance.exam_files).toEqual([
      {
        file: 'eval/questions.jsonl',
        commit: BASE,
        sha256: sha(baseDataset),
        bytes: Buffer.byteLength(baseDataset),
        changed_in_pr: false,
        workspace_sha256: null
      }
    ])
    expect(await readFile(out['report-markdown'], 'utf8')).toContain(
      `- Exam file eval/questions.jsonl read from the PR's base commit \`cccccccccccc\`; sha256 \`${sha(baseDataset)}\`.`
    )
  })

  it('the corpus listing and the dataset manifest the rules name are read at the base commit too', async () => {
    const corpus = ids.flatMap((id) => [`g-${id}`, `x-${id}`, `y-${id}`]).join('\n') + '\n'
    const manifest = JSON.stringify({ corpus: { documents: 90, content_hash: 'sha256:1111' } }) + '\n'
    const withAll = rules(
      'dataset: { file: eval/questions.jsonl, corpus: eval/corpus.txt, manifest: eval/manifest.json, split: holdout }'
    )
    await scenario(withAll, 'eval/questions.jsonl', baseDataset, baseDataset)
    fake.files.set(`${BASE}:eval/corpus.txt`, corpus)
    // the PR drops its own documents from the corpus listing's copy in the workspace: not what is read
    await writeFile(path.join(dir, 'eval/corpus.txt'), 'nothing\n')
    await setup(prEvent(), runInputs())
    expect(await runAction()).toBe(1)
    expect(stdout.join('')).toContain(
      "::error::retrieval-gate: eval/manifest.json: is not at the PR's base commit cccccccccccc (main): the gate fails closed"
    )
    fake.files.set(`${BASE}:eval/manifest.json`, manifest)
    await writeFile(path.join(dir, 'eval/manifest.json'), manifest)
    await setup(prEvent(), runInputs())
    expect(await runAction()).toBe(1)
    const report = JSON.parse(await readFile((await outputs())['report-json'], 'utf8')) as Record<string, any>
    expect(report.verdict).toBe('fail')
    expect(report.provenance.exam_files.map((e: Record<string, unknown>) => [e.file, e.changed_in_pr])).toEqual([
      ['eval/questions.jsonl', false],
      ['eval/corpus.txt', true],
      ['eval/manifest.json', false]
    ])
  })

  it('an exam file the base commit does not have fails the step closed, with the file and what to do', async () => {
    await scenario(datasetRules, 'eval/questions.jsonl', undefined, baseDataset)
    await setup(prEvent(), runInputs())
    expect(await runAction()).toBe(1)
    const log = stdout.join('')
    expect(log).toContain(
      "::error::retrieval-gate: eval/questions.jsonl: is not at the PR's base commit cccccccccccc (main): the gate fails closed"
    )
    expect(log).toContain('merge the file into main first (in its own reviewed PR), then re-run')
    expect((await outputs()).verdict).toBe('error')
  })

  it('a broken base copy is refused under its repository name and commit, with the line', async () => {
    await scenario(
      datasetRules,
      'eval/questions.jsonl',
      baseDataset.replace(question('q03'), '{"id": "q03"'),
      baseDataset
    )
    await setup(prEvent(), runInputs())
    expect(await runAction()).toBe(1)
    const log = stdout.join('')
    expect(log).toContain('eval/questions.jsonl@cccccccccccc:3: json:')
    expect(log).not.toContain('retrieval-gate-exam-')
  })

  it('an exam file over the cap at the base commit is refused, not truncated', async () => {
    const { MAX_EXAM_FILE_BYTES } = await import('../../src/github/exam-files.js')
    await scenario(qrelsRules, 'eval/qrels.txt', undefined, baseQrels)
    fake.files.set(`${BASE}:eval/qrels.txt`, Buffer.alloc(MAX_EXAM_FILE_BYTES + 1, 0x20))
    await setup(prEvent(), runInputs())
    expect(await runAction()).toBe(1)
    expect(stdout.join('')).toContain(
      `::error::retrieval-gate: eval/qrels.txt: is ${MAX_EXAM_FILE_BYTES + 1} bytes at the PR's base commit cccccccccccc (main); the limit for an exam file is ${MAX_EXAM_FILE_BYTES} bytes`
    )
    fake.files.clear()
  })

  it('rules-from: workspace is unchanged: the exam is read where the rules say, nothing is asked of the API', async () => {
    const resplit = ids.map((id) => question(id, regressed.has(id) ? { split: 'dev' } : {})).join('\n') + '\n'
    await scenario(datasetRules, 'eval/questions.jsonl', baseDataset, resplit)
    fake.log = []
    expect(await verdictWithPrCopy(datasetRules, 'eval/questions.jsonl')).toBe('pass')
    expect(fake.requests('GET', /\/contents\//)).toHaveLength(0)
    const report = JSON.parse(await readFile((await outputs())['report-json'], 'utf8')) as Record<string, any>
    expect(report.provenance.exam_files).toBeNull()
  })
})

/** `extra` more copies of check 2 ("new users are protected", which fails on the example data), appended to the rules. */
const withCopies = (rules: string, extra: number): string =>
  rules.replace(/\n*$/, '\n') +
  Array.from(
    { length: extra },
    (_, i) =>
      `  - name: new users are protected ${i + 2}\n    metric: recall@10\n    where: { segment: new }\n    non_inferior: { margin: 0.02 }\n`
  ).join('')
const commandsOf = (kind: string): string[] =>
  stdout
    .join('')
    .split('\n')
    .filter((l) => l.startsWith(`::${kind} `) || l.startsWith(`::${kind}::`))

describe('annotations: GitHub shows 10 of each kind per step, and every one the step writes counts', () => {
  it('10 failing checks: the failure message keeps its place, 9 check errors, a notice saying exactly 1 was left out', async () => {
    const rules = withCopies(baseRules, 9)
    fake.files.set(`${BASE}:${RULES}`, rules)
    await setup(prEvent(), { comment: 'never' })
    expect(await runAction()).toBe(1)
    const errors = commandsOf('error')
    expect(errors).toHaveLength(10)
    expect(errors.at(-1)).toMatch(/^::error::retrieval-gate: fail, decided by "new users are protected"/)
    expect(errors.filter((l) => l.includes('title=retrieval-gate%3A check'))).toHaveLength(9)
    expect(commandsOf('notice')).toEqual([
      expect.stringContaining('::1 more error not shown as annotations (GitHub shows at most 10 of each kind per step)')
    ])
  })

  it('12 failing checks: the notice counts the 3 check errors that did not fit', async () => {
    fake.files.set(`${BASE}:${RULES}`, withCopies(baseRules, 11))
    await setup(prEvent(), { comment: 'never' })
    expect(await runAction()).toBe(1)
    expect(commandsOf('error')).toHaveLength(10)
    expect(commandsOf('notice')).toEqual([expect.stringContaining('::3 more errors not shown as annotations')])
  })

  it('fork PR, 10 check warnings: the comment warning keeps its place and the notice counts the check warning it displaced', async () => {
    // every statistical check inconclusive (fewer than 1000 queries; max_regressions still passes), and
    // inconclusive passes: 10 check warnings, verdict pass. The superior check becomes a non_inferior one: a
    // superior check with too few queries is not shown better, which fails whatever on_too_few says.
    const rules = withCopies(baseRules, 6)
      .replace('superior: { test: mcnemar, alpha: 0.05 }', 'non_inferior: { margin: 0.02 }')
      .replace('min_per_slice: 30', 'min_per_slice: 1000')
      .replace('on_inconclusive: fail', 'on_inconclusive: pass')
    fake.files.set(`${BASE}:${RULES}`, rules)
    await setup(prEvent(true), {}, 't-fork')
    expect(await runAction()).toBe(0)
    expect((await outputs()).verdict).toBe('pass')
    const warnings = commandsOf('warning')
    expect(warnings).toHaveLength(10)
    expect(
      warnings.filter((l) => l.startsWith('::warning::retrieval-gate: the PR comment was not written'))
    ).toHaveLength(1)
    expect(warnings.filter((l) => l.includes('title=retrieval-gate%3A check'))).toHaveLength(9)
    expect(commandsOf('error')).toHaveLength(0)
    expect(commandsOf('notice')).toEqual([expect.stringContaining('::1 more warning not shown as annotations')])
  })
})

describe('no verdict: unusable input is not a failed rule', () => {
  it('a bad rules file: verdict "error", a job summary with the file, line, problem and what to do, and a failed step', async () => {
    const bad = baseRules.replace('margin: 0.005', 'margin: "much"')
    fake.files.set(`${BASE}:${RULES}`, bad)
    await setup(prEvent(), {})
    expect(await runAction()).toBe(1)
    expect((await outputs()).verdict).toBe('error')
    const log = stdout.join('')
    const failed = log.split('\n').filter((l) => l.startsWith('::error::retrieval-gate: gate.yml:'))
    expect(failed).toHaveLength(1)
    const summary = await readFile(path.join(dir, 'summary.md'), 'utf8')
    expect(summary).toContain('## ⚠️ retrieval-gate: error, no verdict (unusable input)')
    expect(summary).toContain('The output `verdict` is `error`')
    const line = bad.split('\n').findIndex((l) => l.includes('"much"')) + 1
    expect(summary).toContain(`- **Where:** gate.yml, line ${line}`)
    expect(summary).toMatch(/- \*\*What is wrong:\*\* .+/)
    expect(summary).toMatch(/- \*\*What to do:\*\* .+[^.], then re-run the job\./)
    expect(fake.comments.get(7) ?? []).toHaveLength(0)
  })

  it('a candidate file that does not exist: the summary names it and escapes it', async () => {
    await setup(prEvent(), { candidate: path.join(dir, 'no such <b>file</b>.jsonl') })
    expect(await runAction()).toBe(1)
    expect((await outputs()).verdict).toBe('error')
    const summary = await readFile(path.join(dir, 'summary.md'), 'utf8')
    expect(summary).toContain('no such &lt;b&gt;file&lt;/b&gt;.jsonl')
    expect(summary).not.toContain('<b>')
  })
})

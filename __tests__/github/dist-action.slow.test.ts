/**
 * The built action, dist/index.js, run as GitHub runs it (a node process, INPUT_* variables, an event file) against
 * the fake GitHub API: the baseline artifact comes through the REST download (the 302 to the storage host) with the
 * bundle's own undici (scripts/undici-lean.cjs), and the run comments and writes its outputs. The in-process tests
 * (main.slow.test.ts) run src/; this one is what ships. Slow (a child node process): `npm run test:slow`.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { spawn } from 'node:child_process'
import { readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { FakeGitHub, makeZip } from './fake-github.js'
import { readOutputs } from './action-run.js'
import { tempDir } from '../helpers.js'

const BASE = 'c'.repeat(40)
const HEAD = 'a'.repeat(40)
const root = path.resolve(import.meta.dirname, '../..')
let fake: FakeGitHub

beforeAll(async () => {
  fake = await new FakeGitHub().start()
})
afterAll(() => fake.stop())

/** Runs dist/index.js with `env` (asynchronously: the fake answers from this process). */
function runDist(env: Record<string, string>): Promise<{ code: number; out: string }> {
  const child = spawn(process.execPath, [path.join(root, 'dist/index.js')], { env: { PATH: process.env.PATH, ...env } })
  const out: string[] = []
  child.stdout.on('data', (d: Buffer) => out.push(d.toString('utf8')))
  child.stderr.on('data', (d: Buffer) => out.push(d.toString('utf8')))
  return new Promise((resolve) => child.on('close', (code) => resolve({ code: code ?? -1, out: out.join('') })))
}

describe('dist/index.js against the fake GitHub', () => {
  it('downloads the baseline artifact through the REST API, gates, comments and writes its outputs', async () => {
    const dir = tempDir('rg-dist-action-')
    const rules = await readFile(path.join(root, 'examples/rules.yml'), 'utf8')
    const rows = await readFile(path.join(root, 'examples/baseline.jsonl'))
    await writeFile(path.join(dir, 'candidate.jsonl'), await readFile(path.join(root, 'examples/candidate.jsonl')))
    const event = {
      repository: { name: 'search', owner: { login: 'acme' }, default_branch: 'main' },
      pull_request: {
        number: 7,
        head: { sha: HEAD, ref: 'feature', repo: { full_name: 'acme/search' } },
        base: { sha: BASE, ref: 'main', repo: { full_name: 'acme/search' } }
      }
    }
    await writeFile(path.join(dir, 'event.json'), JSON.stringify(event))
    await writeFile(path.join(dir, 'output.txt'), '')
    fake.users.set('t', 'github-actions[bot]')
    fake.userForbidden.add('t')
    fake.branch('main', [BASE])
    fake.files.set(`${BASE}:gate.yml`, rules.replace('resamples: 10000', 'resamples: 1000'))
    fake.pulls.set(7, event.pull_request)
    fake.runs = [
      {
        id: 850,
        workflow_id: 11,
        head_sha: BASE,
        head_branch: 'main',
        event: 'push',
        status: 'completed',
        conclusion: 'success',
        created_at: '2025-06-09T12:00:00Z',
        html_url: 'https://github.com/acme/search/actions/runs/850',
        head_repository: { full_name: 'acme/search' }
      }
    ]
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
    const { code, out } = await runDist({
      GITHUB_EVENT_NAME: 'pull_request',
      GITHUB_EVENT_PATH: path.join(dir, 'event.json'),
      GITHUB_REPOSITORY: 'acme/search',
      GITHUB_API_URL: fake.url,
      GITHUB_RUN_ID: '900',
      GITHUB_SHA: 'm'.repeat(40),
      GITHUB_WORKSPACE: dir,
      GITHUB_OUTPUT: path.join(dir, 'output.txt'),
      RUNNER_TEMP: dir,
      'INPUT_GITHUB-TOKEN': 't',
      INPUT_RULES: 'gate.yml',
      'INPUT_BASELINE-ARTIFACT': 'baseline-rows',
      'INPUT_BASELINE-WORKFLOW': '11',
      INPUT_CANDIDATE: path.join(dir, 'candidate.jsonl'),
      'INPUT_REPORT-DIR': path.join(dir, 'report'),
      'INPUT_COMMIT-STATUS': 'false'
    })
    expect({ code, tail: code === 1 ? '' : out.slice(-2000) }).toEqual({ code: 1, tail: '' }) // the example fails
    const outputs = await readOutputs(path.join(dir, 'output.txt'))
    expect(outputs).toMatchObject({
      verdict: 'fail',
      'comment-status': 'created',
      'history-artifact': 'retrieval-gate-report'
    })
    const report = JSON.parse(await readFile(outputs['report-json'], 'utf8')) as {
      provenance: { baseline: { from: string; artifact: { id: number; run_id: number } } }
    }
    expect(report.provenance.baseline).toMatchObject({ from: 'artifact', artifact: { id: 31, run_id: 850 } })
    expect(fake.requests('GET', /\/actions\/artifacts\/31\/zip$/).map((r) => r.status)).toEqual([302])
    expect(fake.requests('GET', /^\/blobs\/31\.zip$/).map((r) => r.token)).toEqual([undefined])
  }, 120000)
})

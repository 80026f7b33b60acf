/**
 * History from the local fake GitHub API (src/github/history.ts): the JSON reports of the last N successful
 * push runs of this workflow on the default branch, downloaded through the REST API (GET .../artifacts/{id}/zip and its redirect), parsed strictly and
 * reduced to their gated values; every run that gives no report (missing, expired, stale, unreadable, wrong
 * version) is counted with a note and never fails.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals'
import { FakeGitHub, makeZip, type FakeRun } from './fake-github.js'
import { historyLooks } from '../../src/capabilities/holdout/looks.js'

// The modules under test are imported after the fake is started and GITHUB_API_URL aimed at it, so that nothing
// they build at import time could reach the real API.
let fake: FakeGitHub
let mod: typeof import('../../src/github/history.js')
let artifact: typeof import('../../src/github/artifact-download.js')
let octo: typeof import('../../src/github/octokit.js')
let ctx: import('../../src/github/context.js').GateContext

const NOW = new Date('2025-06-10T12:00:00Z')
const WF = 11

beforeAll(async () => {
  fake = await new FakeGitHub().start()
  process.env.GITHUB_API_URL = fake.url
  delete process.env.GITHUB_SERVER_URL
  mod = await import('../../src/github/history.js')
  artifact = await import('../../src/github/artifact-download.js')
  octo = await import('../../src/github/octokit.js')
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
afterAll(async () => {
  await fake.stop()
})

const run = (id: number, over: Partial<FakeRun> = {}): FakeRun => ({
  id,
  workflow_id: WF,
  head_sha: String(id % 10).repeat(40),
  head_branch: 'main',
  event: 'push',
  status: 'completed',
  conclusion: 'success',
  created_at: `2025-06-0${id % 10}T12:00:00Z`,
  html_url: `https://github.com/acme/search/actions/runs/${id}`,
  head_repository: { full_name: 'acme/search' },
  ...over
})

/** A past gate report as the action writes it (only the fields history reads, plus a few others). */
const report = (recall: number, over: Record<string, unknown> = {}): string =>
  JSON.stringify({
    tool: { name: 'retrieval-gate', version: '0.1.0' },
    verdict: 'pass',
    checks: [
      {
        rule: 'recall does not drop',
        metric: 'recall@10',
        units: [{ slice: {}, comparison: { metric: 'recall@10', slice: {}, candidate: recall } }]
      }
    ],
    comparisons: [
      { metric: 'recall@10', slice: {}, candidate: recall },
      { metric: 'recall@10', slice: { segment: 'new' }, candidate: 0.1 }
    ],
    holdout: { looks: { this_run: 1 } },
    ...over
  }) + '\n'

let nextArtifact = 1
function upload(runId: number, zip: Buffer, over: Partial<import('./fake-github.js').FakeArtifact> = {}): void {
  fake.artifacts.push({
    id: nextArtifact++,
    name: 'retrieval-gate-report',
    size_in_bytes: zip.length,
    expired: false,
    created_at: `2025-06-0${runId % 10}T12:05:00Z`,
    runId,
    zip,
    ...over
  })
}
const zipOf = (text: string): Buffer => makeZip([{ name: 'report.json', data: text, deflate: true }])

/** main's history: the commits the push runs name ('0' x 40 .. '9' x 40, as run(id) gives them), '9' x 40 its tip. */
const MAIN_HISTORY = Array.from({ length: 10 }, (_, d) => String(d).repeat(40))

beforeEach(() => {
  fake.parents.clear()
  fake.branch('main', MAIN_HISTORY)
  fake.log = []
  fake.faults = []
  fake.artifacts = []
  fake.runs = [run(900, { event: 'pull_request', head_branch: 'feature', conclusion: '' })]
})

const fetch = async (runs: number, over: Partial<import('../../src/github/history.js').HistoryOptions> = {}) =>
  mod.fetchHistory(octo.createClient('t', { baseUrl: fake.url }), ctx, {
    runs,
    maxAgeDays: 90,
    branch: 'main',
    artifactName: 'retrieval-gate-report',
    now: NOW,
    download: artifact.restArtifactDownloader(octo.createClient('t', { baseUrl: fake.url }), ctx),
    ...over
  })

describe('history of the default branch', () => {
  it('reads the last N push runs, oldest first, with commit, date and gated values', async () => {
    for (const id of [801, 802, 803, 804]) {
      fake.runs.push(run(id))
      upload(id, zipOf(report([0, 0.69, 0.68, 0.67, 0.66][id - 800])))
    }
    // a PR run, a push to another branch and a failed run are never history
    fake.runs.push(
      run(805, { event: 'pull_request' }),
      run(806, { head_branch: 'dev' }),
      run(807, { conclusion: 'failure' })
    )
    upload(805, zipOf(report(0.99)))
    const h = await mod.fetchHistory(octo.createClient('t', { baseUrl: fake.url }), ctx, {
      runs: 3,
      maxAgeDays: 90,
      branch: 'main',
      artifactName: 'retrieval-gate-report',
      now: NOW,
      download: artifact.restArtifactDownloader(octo.createClient('t', { baseUrl: fake.url }), ctx)
    })
    expect(h.reports.map((r) => r.runId)).toEqual([802, 803, 804])
    expect(h.reports[0]).toEqual({
      runId: 802,
      runUrl: 'https://github.com/acme/search/actions/runs/802',
      commit: '2'.repeat(40),
      date: '2025-06-02T12:05:00Z',
      values: [
        { metric: 'recall@10', slice: [], value: 0.68 },
        { metric: 'recall@10', slice: [], value: 0.68 }
      ],
      holdoutLooks: 1
    })
    expect(h.skipped).toEqual({ missing: 0, expired: 0, unreadable: 0, wrong_version: 0, stale: 0 })
    expect(historyLooks(h)).toEqual({ looks: 3, reports: 3 })
    // only the runs of this run's workflow, on main, pushes, successful
    const listing = fake.requests('GET', /\/actions\/workflows\/11\/runs$/)[0].path
    expect(listing).toContain('branch=main')
    expect(listing).toContain('event=push')
    expect(listing).toContain('status=success')
  })

  it('history.workflow reads the reports another workflow recorded (the release recipe)', async () => {
    // the recording workflow (main-history.yml copied as retrieval-history.yml) is not the gating one (WF)
    for (const id of [811, 812]) {
      fake.runs.push(run(id, { workflow_id: 77, path: '.github/workflows/retrieval-history.yml' }))
      upload(id, zipOf(report(0.6 + id / 10000)), { name: 'retrieval-gate-report' })
    }
    const other = await fetch(5, { workflow: 'retrieval-history.yml' })
    expect(other.reports.map((r) => r.runId)).toEqual([811, 812])
    expect(fake.requests('GET', /\/actions\/workflows\/retrieval-history\.yml\/runs$/)).toHaveLength(1)
    // without it, this run's own workflow is listed, and its push runs hold none of them
    const own = await fetch(5)
    expect(own.reports).toEqual([])
  })

  it('missing, expired, stale, unreadable and wrong-version reports are counted notes, never failures', async () => {
    fake.runs.push(run(811), run(812), run(813), run(814), run(815), run(816), run(817), run(818))
    upload(811, zipOf(report(0.6)))
    // 812: no artifact
    upload(813, zipOf(report(0.6)), { expired: true })
    upload(814, zipOf(report(0.6)), { created_at: '2025-01-01T00:00:00Z' })
    upload(815, Buffer.from('not a zip'))
    upload(816, zipOf('{"tool": {"name": "retrieval-gate", "version": "0.1.0"}, "tool": {}}'))
    upload(817, zipOf(report(0.6, { tool: { name: 'retrieval-gate', version: '7.0.0' } })))
    upload(818, zipOf(report(0.65)))
    const h = await fetch(10)
    expect(h.reports.map((r) => r.runId)).toEqual([811, 818])
    expect(h.skipped).toEqual({ missing: 1, expired: 1, unreadable: 2, wrong_version: 1, stale: 1 })
    expect(h.notes).toEqual([
      'Run 817 (commit 7777777): the report was written by "retrieval-gate" "7.0.0", not retrieval-gate 0.x.',
      'Run 816 (commit 6666666): report.json key "tool" appears twice in the record (JSON would silently keep the last).',
      expect.stringMatching(/^Run 815 \(commit 5555555\): the archive is not a ZIP archive/),
      'Run 814 (commit 4444444): the report is older than history.max_age_days (90).',
      'Run 813 (commit 3333333): artifact "retrieval-gate-report" has expired.',
      'Run 812 (commit 2222222): no artifact "retrieval-gate-report".'
    ])
  })

  it('an API failure leaves the history empty with a note saying what to grant', async () => {
    fake.runs.push(run(821))
    upload(821, zipOf(report(0.6)))
    fake.faults.push({
      method: 'GET',
      path: /\/actions\/workflows\/\d+\/runs$/,
      status: 403,
      body: { message: 'Resource not accessible by integration' },
      times: 1
    })
    const h = await fetch(5)
    expect(h.reports).toEqual([])
    expect(h.notes[0]).toMatch(
      /^History could not be listed \(.*403.*\); the workflow needs permissions: actions: read\.$/
    )
  })

  // Issue 33, item 1: GitHub names a tag's runs like a branch's; a tag called main on another commit is not main.
  it("a run named main whose commit is not on main's history (a tag called main) is left out with a note", async () => {
    const EVIL = 'e'.repeat(40) // on no line of main's history
    fake.tags.set('main', { sha: EVIL })
    fake.runs.push(run(841), run(842, { head_sha: EVIL }))
    upload(841, zipOf(report(0.6)))
    upload(842, zipOf(report(0.99)))
    const h = await fetch(5)
    expect(h.reports.map((r) => r.runId)).toEqual([841])
    expect(h.notes).toEqual([
      '1 run named main whose commit is not on refs/heads/main (a tag or branch of the same name) left out.'
    ])
    fake.tags.clear()
  })

  it('an oversized artifact is not downloaded', async () => {
    fake.runs.push(run(831))
    upload(831, zipOf(report(0.6)), { size_in_bytes: 10_000 })
    const h = await fetch(5, { maxBytes: 5000 })
    expect(h.skipped.unreadable).toBe(1)
    expect(fake.requests('GET', /\/zip$/)).toHaveLength(0)
  })
})

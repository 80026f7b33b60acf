import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals'
import { mkdtemp, readFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { FakeGitHub, makeZip } from './fake-github.js'

// The modules under test are imported after the fake is started and GITHUB_API_URL aimed at it, so that nothing
// they build at import time could reach the real API.
let fake: FakeGitHub
let mod: typeof import('../../src/github/baseline-artifact.js')
let dl: typeof import('../../src/github/artifact-download.js')
let zip: typeof import('../../src/github/zip.js')
let octo: typeof import('../../src/github/octokit.js')
type Ctx = import('../../src/github/context.js').GateContext
type Pr = import('../../src/github/context.js').PullRequestRef

const BASE = 'c'.repeat(40)
const MERGE_BASE = 'd'.repeat(40)
const HEAD = 'a'.repeat(40)
const ROWS = '{"query_id":"q1","recall":1}\n{"query_id":"q2","recall":0}\n'
const NOW = new Date('2025-06-10T12:00:00Z')
let ctx: Ctx
const pr: Pr = { number: 7, runHeadSha: HEAD, baseSha: BASE, baseRef: 'main', isFork: false }

beforeAll(async () => {
  fake = await new FakeGitHub().start()
  process.env.GITHUB_API_URL = fake.url
  delete process.env.GITHUB_SERVER_URL
  mod = await import('../../src/github/baseline-artifact.js')
  dl = await import('../../src/github/artifact-download.js')
  zip = await import('../../src/github/zip.js')
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

const run = (
  id: number,
  over: Partial<import('./fake-github.js').FakeRun> = {}
): import('./fake-github.js').FakeRun => ({
  id,
  workflow_id: 11,
  head_sha: BASE,
  head_branch: 'main',
  event: 'push',
  status: 'completed',
  conclusion: 'success',
  created_at: '2025-06-09T12:00:00Z',
  html_url: `https://github.com/acme/search/actions/runs/${id}`,
  head_repository: { full_name: 'acme/search' },
  ...over
})

/** main's history, oldest first: the runs of these commits are on main (its tip is the PR's base). */
const MAIN = ['e'.repeat(40), 'f'.repeat(40), MERGE_BASE, BASE]

beforeEach(() => {
  fake.parents.clear()
  fake.branch('main', MAIN)
  fake.log = []
  fake.faults = []
  fake.runs = [run(900, { event: 'pull_request', head_branch: 'feature', head_sha: HEAD, conclusion: '' })]
  fake.artifacts = []
  fake.mergeBases.clear()
})

const options = async (
  over: Partial<import('../../src/github/baseline-artifact.js').BaselineArtifactOptions> = {}
) => ({
  name: 'baseline-rows',
  fileInArtifact: '',
  ref: { kind: 'branch' as const, name: 'main', full: 'refs/heads/main', sha: BASE },
  maxAgeSeconds: 7 * 86400,
  tmpDir: await mkdtemp(path.join(os.tmpdir(), 'rg-artifact-test-')),
  now: NOW,
  download: dl.restArtifactDownloader(octo.createClient('t', { baseUrl: fake.url }), ctx),
  ...over
})

describe('baseline from an artifact of the base branch', () => {
  it("downloads the latest successful base-branch run's artifact through the REST API and states its provenance", async () => {
    fake.runs.push(run(800, { head_sha: 'e'.repeat(40), created_at: '2025-06-01T00:00:00Z' }), run(850))
    // a fork PR whose branch is also called main must never be taken for the base branch
    fake.runs.push(run(870, { event: 'pull_request', head_repository: { full_name: 'eve/search' } }))
    fake.artifacts.push({
      id: 3,
      name: 'baseline-rows',
      size_in_bytes: 300,
      expired: false,
      created_at: '2025-06-09T12:00:00Z',
      runId: 850,
      zip: makeZip([{ name: 'rows/baseline.jsonl', data: ROWS, deflate: true }])
    })
    fake.artifacts.push({
      id: 4,
      name: 'baseline-rows',
      size_in_bytes: 300,
      expired: false,
      created_at: '2025-06-09T12:00:00Z',
      runId: 870,
      zip: makeZip([{ name: 'evil.jsonl', data: 'x' }])
    })
    const out = await mod.fetchBaselineArtifact(
      octo.createClient('t', { baseUrl: fake.url }),
      ctx,
      pr,
      await options({ workflow: 11 })
    )
    expect(await readFile(out.file, 'utf8')).toBe(ROWS)
    expect(path.basename(out.file)).toBe('baseline.jsonl')
    expect(out.provenance).toEqual({
      from: 'artifact',
      file: 'rows/baseline.jsonl',
      artifact: {
        name: 'baseline-rows',
        id: 3,
        runId: 850,
        runUrl: 'https://github.com/acme/search/actions/runs/850',
        branch: 'main',
        commit: BASE,
        createdAt: '2025-06-09T12:00:00Z',
        ageSeconds: 86400
      }
    })
    expect(out.warnings).toEqual([])
    expect(fake.requests('GET', /\/actions\/artifacts\/3\/zip$/)).toHaveLength(1) // the real client asked the fake
    expect(fake.requests('GET', /\/actions\/artifacts\/4\/zip$/)).toHaveLength(0)
  })

  it('never takes a run that a pull request, a comment or another run triggered, though it runs on main', async () => {
    // workflow_run, issue_comment, pull_request_review: GitHub runs them on the default branch (head_branch main,
    // head_sha its tip), started by a PR's run or by anyone who comments; what they upload may be the PR's rows
    fake.runs.push(run(800))
    for (const [id, event] of [
      [880, 'workflow_run'],
      [881, 'issue_comment'],
      [882, 'pull_request_review']
    ] as const)
      fake.runs.push(run(id, { event }))
    // a run whose head repository GitHub no longer shows (a deleted fork) is not this repository's
    fake.runs.push({ ...run(883), head_repository: null })
    const evil = makeZip([{ name: 'baseline.jsonl', data: '{"query_id":"q1","recall":0}\n' }])
    for (const [i, runId] of [880, 881, 882, 883].entries())
      fake.artifacts.push({
        id: 60 + i,
        name: 'baseline-rows',
        size_in_bytes: 300,
        expired: false,
        created_at: '2025-06-10T11:00:00Z',
        runId,
        zip: evil
      })
    fake.artifacts.push({
      id: 59,
      name: 'baseline-rows',
      size_in_bytes: 300,
      expired: false,
      created_at: '2025-06-09T12:00:00Z',
      runId: 800,
      zip: makeZip([{ name: 'baseline.jsonl', data: ROWS }])
    })
    const out = await mod.fetchBaselineArtifact(
      octo.createClient('t', { baseUrl: fake.url }),
      ctx,
      pr,
      await options({ workflow: 11 })
    )
    expect(out.provenance.artifact?.runId).toBe(800)
    expect(await readFile(out.file, 'utf8')).toBe(ROWS)
  })

  it('pages past runs that do not count: 60 fork PRs from a branch named main do not hide the baseline', async () => {
    // each run of a fork's PR from its own `main` is listed "on main"; GitHub answers 50 runs a page here
    fake.runs.push(run(800))
    for (let id = 801; id <= 860; id++)
      fake.runs.push(run(id, { event: 'pull_request', head_repository: { full_name: 'eve/search' } }))
    fake.artifacts.push({
      id: 59,
      name: 'baseline-rows',
      size_in_bytes: 300,
      expired: false,
      created_at: '2025-06-09T12:00:00Z',
      runId: 800,
      zip: makeZip([{ name: 'baseline.jsonl', data: ROWS }])
    })
    const client = octo.createClient('t', { baseUrl: fake.url })
    const out = await mod.fetchBaselineArtifact(client, ctx, pr, await options({ workflow: 11 }))
    expect(out.provenance.artifact?.runId).toBe(800)
    // the exam's push runs only, asked of GitHub as such: 60 newer scheduled runs do not hide the push run either
    fake.runs = fake.runs.filter((r) => r.event !== 'pull_request')
    for (let id = 861; id <= 920; id++) fake.runs.push(run(id, { event: 'schedule' }))
    const exam = await mod.fetchBaselineArtifact(
      client,
      ctx,
      undefined,
      await options({ workflow: 11, events: ['push'] })
    )
    expect(exam.provenance.artifact?.runId).toBe(800)
  })

  it('finds the workflow from this run, and warns when the baseline is too old or not from the merge base', async () => {
    fake.runs.push(run(700, { head_sha: 'f'.repeat(40) }), {
      ...run(900),
      event: 'pull_request',
      head_branch: 'feature'
    })
    fake.runs = fake.runs.filter((r, i, all) => all.findIndex((x) => x.id === r.id) === i)
    fake.artifacts.push({
      id: 5,
      name: 'baseline-rows',
      size_in_bytes: 300,
      expired: false,
      created_at: '2025-05-01T12:00:00Z',
      runId: 700,
      zip: makeZip([{ name: 'baseline.jsonl', data: ROWS }])
    })
    fake.mergeBases.set(`${BASE}...${HEAD}`, MERGE_BASE)
    const out = await mod.fetchBaselineArtifact(octo.createClient('t', { baseUrl: fake.url }), ctx, pr, await options())
    expect(fake.requests('GET', /\/actions\/runs\/900$/)).toHaveLength(1)
    expect(out.provenance.artifact?.ageSeconds).toBe(40 * 86400)
    expect(out.warnings).toHaveLength(2)
    expect(out.warnings[0]).toBe(
      'The baseline is 40 d 0 h old, older than baseline-max-age (7 d 0 h): re-run the baseline workflow on main.'
    )
    expect(out.warnings[1]).toContain(
      "built from commit ffffffffffff, which is neither the PR's merge base (dddddddddddd) nor its base commit (cccccccccccc)"
    )
  })

  it('accepts a baseline built from the merge base without a warning', async () => {
    fake.runs.push(run(710, { head_sha: MERGE_BASE }))
    fake.artifacts.push({
      id: 6,
      name: 'baseline-rows',
      size_in_bytes: 300,
      expired: false,
      created_at: '2025-06-10T11:00:00Z',
      runId: 710,
      zip: makeZip([{ name: 'baseline.jsonl', data: ROWS }])
    })
    fake.mergeBases.set(`${BASE}...${HEAD}`, MERGE_BASE)
    const out = await mod.fetchBaselineArtifact(
      octo.createClient('t', { baseUrl: fake.url }),
      ctx,
      pr,
      await options({ workflow: 11 })
    )
    expect(out.warnings).toEqual([])
  })

  it('fails with a clear message when no run has the artifact, or it is over the size cap', async () => {
    fake.runs.push(run(720))
    await expect(
      mod.fetchBaselineArtifact(octo.createClient('t', { baseUrl: fake.url }), ctx, pr, await options({ workflow: 11 }))
    ).rejects.toThrow(
      /baseline-artifact "baseline-rows": not found in the last 1 successful non-PR runs of workflow 11 on refs\/heads\/main/
    )
    fake.artifacts.push({
      id: 7,
      name: 'baseline-rows',
      size_in_bytes: 5000,
      expired: false,
      created_at: '2025-06-10T11:00:00Z',
      runId: 720,
      zip: makeZip([{ name: 'b.jsonl', data: ROWS }])
    })
    await expect(
      mod.fetchBaselineArtifact(
        octo.createClient('t', { baseUrl: fake.url }),
        ctx,
        pr,
        await options({ workflow: 11, maxBytes: 1000 })
      )
    ).rejects.toThrow(/is 5000 bytes; the cap is 1000/)
  })

  it('holds the size cap on the bytes that arrive when the listing understates them', async () => {
    fake.runs.push(run(721))
    const big = makeZip([{ name: 'b.jsonl', data: ROWS.repeat(50) }])
    fake.artifacts.push({
      id: 8,
      name: 'baseline-rows',
      size_in_bytes: 10, // what the listing says; the archive is larger
      expired: false,
      created_at: '2025-06-10T11:00:00Z',
      runId: 721,
      zip: big,
      serve: 'unsized'
    })
    await expect(
      mod.fetchBaselineArtifact(
        octo.createClient('t', { baseUrl: fake.url }),
        ctx,
        pr,
        await options({ workflow: 11, maxBytes: 1000 })
      )
    ).rejects.toMatchObject({
      message: expect.stringContaining(
        'download of artifact 8 from run 721 failed: the archive is over the cap of 1000 bytes'
      ),
      hint: expect.stringContaining('upload only the per-query rows')
    })
  })

  it('refuses an artifact with an entry escaping the target folder, and asks which file when there are several', async () => {
    fake.runs.push(run(730))
    fake.artifacts.push({
      id: 8,
      name: 'baseline-rows',
      size_in_bytes: 300,
      expired: false,
      created_at: '2025-06-10T11:00:00Z',
      runId: 730,
      zip: makeZip([
        { name: 'ok.jsonl', data: ROWS },
        { name: '../../escape.sh', data: 'rm -rf /' }
      ])
    })
    await expect(
      mod.fetchBaselineArtifact(octo.createClient('t', { baseUrl: fake.url }), ctx, pr, await options({ workflow: 11 }))
    ).rejects.toThrow(/refused: the archive entry "..\/..\/escape.sh" would be written outside the target folder/)
    fake.artifacts = [
      {
        id: 9,
        name: 'baseline-rows',
        size_in_bytes: 300,
        expired: false,
        created_at: '2025-06-10T11:00:00Z',
        runId: 730,
        zip: makeZip([
          { name: 'a.jsonl', data: ROWS },
          { name: 'b.jsonl', data: ROWS }
        ])
      }
    ]
    await expect(
      mod.fetchBaselineArtifact(octo.createClient('t', { baseUrl: fake.url }), ctx, pr, await options({ workflow: 11 }))
    ).rejects.toThrow(/holds 2 files \(a.jsonl, b.jsonl\), so baseline must name the one to use/)
    const out = await mod.fetchBaselineArtifact(
      octo.createClient('t', { baseUrl: fake.url }),
      ctx,
      pr,
      await options({ workflow: 11, fileInArtifact: 'b.jsonl' })
    )
    expect(out.provenance.file).toBe('b.jsonl')
  })
})

describe('zip reader for untrusted archives', () => {
  const limits = { maxTotalBytes: 1000, maxEntries: 10 }
  it('reads stored and deflated entries and checks their CRC', () => {
    const files = zip.readZip(
      makeZip([
        { name: 'a.txt', data: 'hello' },
        { name: 'dir/b.txt', data: 'x'.repeat(500), deflate: true }
      ]),
      limits
    )
    expect(files.map((f) => [f.name, f.size, Buffer.from(f.read()).toString('utf8').length])).toEqual([
      ['a.txt', 5, 5],
      ['dir/b.txt', 500, 500]
    ])
  })
  it.each([['../x'], ['/etc/passwd'], ['a/../../x'], ['C:/x'], ['a\\..\\x'], ['./a']])(
    'refuses the entry name %s',
    (name) => {
      expect(() => zip.readZip(makeZip([{ name, data: 'x' }]), limits)).toThrow(zip.ZipRefusal)
    }
  )
  it('refuses symbolic links, too many bytes, too many entries and lying sizes', () => {
    expect(() => zip.readZip(makeZip([{ name: 'link', data: '/etc/passwd', symlink: true }]), limits)).toThrow(
      /symbolic link/
    )
    expect(() => zip.readZip(makeZip([{ name: 'big', data: 'x'.repeat(1001), deflate: true }]), limits)).toThrow(
      /more than 1000 bytes/
    )
    expect(() =>
      zip.readZip(makeZip(Array.from({ length: 11 }, (_, i) => ({ name: `f${i}`, data: '' }))), limits)
    ).toThrow(/11 entries/)
    // a bomb that declares 10 bytes but inflates to 900: stopped at the declared size, never inflated whole
    const bomb = zip.readZip(
      makeZip([{ name: 'bomb', data: 'x'.repeat(900), deflate: true, declaredSize: 10 }]),
      limits
    )
    expect(() => bomb[0].read()).toThrow(/does not inflate to its declared 10 bytes/)
    expect(() => zip.readZip(Buffer.from('not a zip'), limits)).toThrow(/not a ZIP archive/)
  })
})

import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals'
import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { FakeGitHub, makeZip } from './fake-github.js'
import { runCaptured, readOutputs } from './action-run.js'

/**
 * The regression budget in the action, against the local fake GitHub API: the rules (read at the PR's base
 * commit) name the last release's rows at tag v1.4; the action resolves the tag to its commit, reads the file
 * at that commit through the contents API (like the exam), and states the reference's provenance (tag,
 * commit, age). The PR under test is the third of a series that each lose 0.4 points (each within its 0.5-point
 * margin): 1.2 of 1.0 points used since v1.4, so the gate fails on the budget.
 */
const BASE = 'c'.repeat(40)
const HEAD = 'a'.repeat(40)
const TAGGED = 'e'.repeat(40)
const RULES_FILE = 'gate.yml'
const REF_PATH = 'eval/release/rows.jsonl'

/** 8,000 queries: fewer could not rule out that unseen ones lose more than the half-point margin (the range's bound). */
const ids = Array.from({ length: 8000 }, (_, i) => `q${String(i).padStart(4, '0')}`)
const release = ids.map((_, i) => 0.3 + ((i * 7) % 40) * 0.015)
/**
 * After k PRs: 0.004 less on every query, give or take 0.001 ((i + k) mod 4: +, +, -, -; it sums to 0), so no
 * comparison has the same difference on every query (that would be no evidence, docs/statistics.md).
 */
const after = (k: number): number[] =>
  release.map((v, i) => v - 0.004 * k + (k === 0 ? 0 : (i + k) % 4 < 2 ? 0.001 : -0.001))
const rows = (values: number[]): string =>
  ids.map((id, i) => JSON.stringify({ query_id: id, 'recall@10': values[i] })).join('\n') + '\n'
const rules = (reference: string): string => `version: 1
metrics:
  recall@10: { better: higher, range: [0, 1] }
statistics: { resamples: 1000, seed: 7 }
queries: { min_per_slice: 10 }
reference:
${reference}
checks:
  - name: recall does not drop
    metric: recall@10
    non_inferior: { margin: 0.005 }
    budget: 0.01
`
const AT_TAG = `  name: v1.4\n  path: ${REF_PATH}\n  ref: v1.4`

let fake: FakeGitHub
let dir: string
let run: typeof import('../../src/main.js').run
const saved = { ...process.env }
let stdout: string[] = []

async function setup(rulesText: string, envOver: Record<string, string> = {}): Promise<void> {
  const eventPath = path.join(dir, 'event.json')
  await writeFile(
    eventPath,
    JSON.stringify({
      repository: { name: 'search', owner: { login: 'acme' }, default_branch: 'main' },
      pull_request: {
        number: 7,
        head: { sha: HEAD, ref: 'feature', repo: { full_name: 'acme/search' } },
        base: { sha: BASE, ref: 'main', repo: { full_name: 'acme/search' } }
      }
    })
  )
  await writeFile(path.join(dir, 'output.txt'), '')
  await writeFile(path.join(dir, 'summary.md'), '')
  fake.files.set(`${BASE}:${RULES_FILE}`, rulesText)
  await writeFile(path.join(dir, RULES_FILE), rulesText)
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
    'INPUT_GITHUB-TOKEN': 't-actions',
    INPUT_RULES: RULES_FILE,
    INPUT_BASELINE: path.join(dir, 'baseline.jsonl'),
    INPUT_CANDIDATE: path.join(dir, 'candidate.jsonl'),
    'INPUT_REPORT-DIR': path.join(dir, 'report'),
    INPUT_COMMENT: 'never',
    ...envOver
  })
}

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
  dir = await mkdtemp(path.join(os.tmpdir(), 'rg-reference-test-'))
  await writeFile(path.join(dir, 'baseline.jsonl'), rows(after(2)))
  await writeFile(path.join(dir, 'candidate.jsonl'), rows(after(3)))
  process.env.GITHUB_API_URL = fake.url
  delete process.env.GITHUB_SERVER_URL
  ;({ run } = await import('../../src/main.js'))
})
afterAll(async () => {
  await fake.stop()
  process.env = saved
})
beforeEach(() => {
  fake.files.clear()
  fake.commits.clear()
  fake.tags.clear()
  fake.branches.clear()
  fake.parents.clear()
  // main's history: the release commit, then the PR's base
  fake.branch('main', [TAGGED, BASE])
  fake.runs = []
  fake.artifacts = []
  fake.log = []
  fake.users.set('t-actions', 'github-actions[bot]')
  fake.userForbidden.add('t-actions')
  fake.pulls.set(7, {
    number: 7,
    head: { sha: HEAD, ref: 'feature', repo: { full_name: 'acme/search' } },
    base: { sha: BASE, ref: 'main' }
  })
})

describe('the reference read by the action', () => {
  it('reads path at the tag (resolved to its commit), fails on the budget and states tag, commit and age', async () => {
    fake.tag('v1.4', TAGGED, { date: '2025-05-01T12:00:00Z' })
    fake.files.set(`${TAGGED}:${REF_PATH}`, rows(release))
    await setup(rules(AT_TAG))
    expect(await runAction()).toBe(1)
    const out = await outputs()
    expect(out.verdict).toBe('fail')
    // The file is read at the tag's commit, not at the base commit.
    expect(fake.requests('GET', /\/contents\//).map((r) => r.path)).toContain(
      `/repos/acme/search/contents/eval%2Frelease%2Frows.jsonl?ref=${TAGGED}`
    )
    const report = JSON.parse(await readFile(out['report-json'], 'utf8')) as Record<string, any>
    expect(report.decided_by).toBe('recall does not drop')
    // 40 days between the tagged commit (2025-05-01T12:00Z) and this run (2025-06-10T12:00Z): 40 x 86400 s.
    expect(report.budgets.reference).toEqual({
      label: 'v1.4',
      file: `${REF_PATH}@eeeeeeeeeeee`,
      rows: 8000,
      snapshot: null,
      from: 'ref',
      ref: 'v1.4',
      commit: TAGGED,
      date: '2025-05-01T12:00:00Z',
      age_seconds: 3456000,
      artifact: null
    })
    expect(report.budgets.units[0]).toMatchObject({ status: 'fail', reason: 'budget_exceeded', budget: 0.01 })
    const md = await readFile(out['report-markdown'], 'utf8')
    expect(md).toContain(
      `Reference v1.4: ${REF_PATH} at v1.4 (commit \`eeeeeeeeeeee\`, 2025-05-01T12:00:00Z, 40 d 0 h before this run); 8000 rows`
    )
    expect(md).toContain('1.2 of 1.0 points used since v1.4')
    expect(stdout.join('')).toContain('retrieval-gate: fail, decided by "recall does not drop"')
  })

  it('a tag that does not exist fails closed (verdict error) naming reference.ref', async () => {
    await setup(rules(AT_TAG))
    expect(await runAction()).toBe(1)
    expect((await outputs()).verdict).toBe('error')
    expect(stdout.join('')).toContain(
      'gate.yml (reference.ref): "v1.4" is not a branch, tag or full commit sha of acme/search'
    )
  })

  it('a file missing at the tag fails closed: the budget is never skipped', async () => {
    fake.tag('v1.4', TAGGED, { date: '2025-05-01T12:00:00Z' })
    await setup(rules(AT_TAG))
    expect(await runAction()).toBe(1)
    expect((await outputs()).verdict).toBe('error')
    expect(stdout.join('')).toContain('is not at v1.4 (commit eeeeeeeeeeee), so the budget against the reference')
  })

  it('without ref, path is read at the base commit', async () => {
    fake.commits.set(BASE, { sha: BASE, date: '2025-06-09T12:00:00Z' })
    fake.files.set(`${BASE}:${REF_PATH}`, rows(after(2)))
    await setup(rules(`  path: ${REF_PATH}`))
    expect(await runAction()).toBe(0)
    const report = JSON.parse(await readFile((await outputs())['report-json'], 'utf8')) as Record<string, any>
    expect(report.budgets.reference).toMatchObject({
      label: REF_PATH,
      ref: 'the base commit',
      commit: BASE,
      age_seconds: 86400
    })
  })

  it("reads reference-manifest at the base commit: the PR's copy cannot make the snapshots agree", async () => {
    const withSnapshot = rules(AT_TAG).replace(
      'checks:',
      'comparability: { must_match: [corpus.content_hash] }\nchecks:'
    )
    fake.tag('v1.4', TAGGED, { date: '2025-05-01T12:00:00Z' })
    fake.files.set(`${TAGGED}:${REF_PATH}`, rows(release))
    fake.files.set(`${BASE}:eval/release/manifest.json`, '{"corpus":{"content_hash":"sha256:old"}}')
    await writeFile(path.join(dir, 'base-manifest.json'), '{"corpus":{"content_hash":"sha256:new"}}')
    await mkdir(path.join(dir, 'eval/release'), { recursive: true })
    await writeFile(path.join(dir, 'eval/release/manifest.json'), '{"corpus":{"content_hash":"sha256:new"}}') // the PR's edit
    await setup(withSnapshot, {
      'INPUT_BASELINE-MANIFEST': path.join(dir, 'base-manifest.json'),
      'INPUT_CANDIDATE-MANIFEST': path.join(dir, 'base-manifest.json'),
      'INPUT_REFERENCE-MANIFEST': 'eval/release/manifest.json'
    })
    expect(await runAction()).toBe(1)
    expect((await outputs()).verdict).toBe('error')
    expect(stdout.join('')).toContain(
      'was made on another snapshot than the exam: corpus.content_hash is "\\"sha256:old\\"" in it'
    )
  })

  it('reads the artifact of the release workflow on the tag the rules name, and states its run, commit and age', async () => {
    const common = {
      workflow_id: 55,
      status: 'completed',
      conclusion: 'success',
      created_at: '2025-05-01T12:00:00Z',
      html_url: 'https://github.com/acme/search/actions/runs/700',
      head_repository: { full_name: 'acme/search' }
    }
    fake.runs = [{ ...common, id: 700, head_sha: TAGGED, head_branch: 'v1.4', event: 'push' }]
    fake.tag('v1.4', TAGGED)
    const data = Buffer.from(rows(release))
    fake.artifacts = [
      {
        id: 41,
        name: 'release-rows',
        size_in_bytes: data.length,
        expired: false,
        created_at: '2025-05-01T12:00:00Z',
        runId: 700,
        zip: makeZip([{ name: 'rows.jsonl', data, deflate: true }])
      }
    ]
    await setup(rules('  name: v1.4\n  artifact: { name: release-rows, workflow: "55", ref: v1.4 }'))
    expect(await runAction()).toBe(1)
    const report = JSON.parse(await readFile((await outputs())['report-json'], 'utf8')) as Record<string, any>
    expect(report.budgets.reference).toMatchObject({
      label: 'v1.4',
      from: 'artifact',
      commit: TAGGED,
      age_seconds: 3456000,
      artifact: {
        name: 'release-rows',
        id: 41,
        run_id: 700,
        run_url: 'https://github.com/acme/search/actions/runs/700'
      }
    })
    expect(report.budgets.units[0].reason).toBe('budget_exceeded')
  })

  it("never takes the artifact from the PR's own pushes (its head branch or head commit), however recent", async () => {
    const common = {
      workflow_id: 55,
      status: 'completed',
      conclusion: 'success',
      created_at: '2025-05-01T12:00:00Z',
      head_repository: { full_name: 'acme/search' }
    }
    fake.runs = [
      {
        ...common,
        id: 702,
        head_sha: 'f'.repeat(40),
        head_branch: 'feature',
        event: 'push',
        html_url: 'https://github.com/acme/search/actions/runs/702'
      },
      {
        ...common,
        id: 701,
        head_sha: HEAD,
        head_branch: 'v9.9',
        event: 'push',
        html_url: 'https://github.com/acme/search/actions/runs/701'
      },
      {
        ...common,
        id: 700,
        head_sha: TAGGED,
        head_branch: 'v1.4',
        event: 'push',
        html_url: 'https://github.com/acme/search/actions/runs/700'
      }
    ]
    const data = Buffer.from(rows(release))
    const artifact = (id: number, runId: number) => ({
      id,
      name: 'release-rows',
      size_in_bytes: data.length,
      expired: false,
      created_at: '2025-05-01T12:00:00Z',
      runId,
      zip: makeZip([{ name: 'rows.jsonl', data, deflate: true }])
    })
    fake.artifacts = [artifact(43, 702), artifact(42, 701), artifact(41, 700)]
    fake.tag('v1.4', TAGGED)
    await setup(rules('  name: v1.4\n  artifact: { name: release-rows, workflow: "55", ref: v1.4 }'))
    expect(await runAction()).toBe(1)
    const report = JSON.parse(await readFile((await outputs())['report-json'], 'utf8')) as Record<string, any>
    expect(report.budgets.reference).toMatchObject({ commit: TAGGED, artifact: { id: 41, run_id: 700 } })
  })

  // Issue 24, item 1: the reference artifact came from a run of any branch or a dispatched run, so a contributor
  // who can push a branch could upload the "release" rows and reset the budget.
  const run = (id: number, branch: string, event: string, sha = TAGGED) => ({
    workflow_id: 55,
    status: 'completed',
    conclusion: 'success',
    created_at: '2025-05-01T12:00:00Z',
    head_repository: { full_name: 'acme/search' },
    id,
    head_sha: sha,
    head_branch: branch,
    event,
    html_url: `https://github.com/acme/search/actions/runs/${id}`
  })
  const artifactOf = (id: number, runId: number, values: number[]) => {
    const data = Buffer.from(rows(values))
    return {
      id,
      name: 'release-rows',
      size_in_bytes: data.length,
      expired: false,
      created_at: '2025-05-01T12:00:00Z',
      runId,
      zip: makeZip([{ name: 'rows.jsonl', data, deflate: true }])
    }
  }

  it('takes the artifact only from a push run on the default branch: never another branch, a dispatched or a scheduled run', async () => {
    // The newest runs are a contributor's branch push, a dispatch and a schedule, each uploading rows that would pass.
    fake.runs = [
      run(705, 'evil', 'push', 'd'.repeat(40)),
      run(704, 'main', 'workflow_dispatch'),
      run(703, 'main', 'schedule'),
      run(700, 'main', 'push')
    ]
    fake.artifacts = [
      artifactOf(45, 705, after(3)),
      artifactOf(44, 704, after(3)),
      artifactOf(43, 703, after(3)),
      artifactOf(41, 700, release)
    ]
    await setup(rules('  name: v1.4\n  artifact: { name: release-rows, workflow: "55" }'))
    expect(await runAction()).toBe(1)
    const report = JSON.parse(await readFile((await outputs())['report-json'], 'utf8')) as Record<string, any>
    expect(report.budgets.reference).toMatchObject({ artifact: { id: 41, run_id: 700 } })
    expect(report.budgets.units[0].reason).toBe('budget_exceeded')
  })

  it('with only untrusted runs holding it, fails closed naming reference.artifact, not the baseline (item 10)', async () => {
    fake.runs = [run(705, 'evil', 'push'), run(704, 'main', 'workflow_dispatch')]
    fake.artifacts = [artifactOf(45, 705, after(3)), artifactOf(44, 704, after(3))]
    await setup(rules('  name: v1.4\n  artifact: { name: release-rows, workflow: "55" }'))
    expect(await runAction()).toBe(1)
    expect((await outputs()).verdict).toBe('error')
    const log = stdout.join('')
    expect(log).toContain(
      'gate.yml (reference.artifact): reference.artifact “release-rows”: not found in the last 0 successful push runs of workflow 55 on refs/heads/main'
    )
    expect(log).not.toContain('baseline-artifact')
    expect(log).not.toContain('give baseline a file instead')
  })

  it('two artifacts of that name in one run are ambiguous and refused', async () => {
    fake.runs = [run(700, 'main', 'push')]
    fake.artifacts = [artifactOf(41, 700, release), artifactOf(42, 700, after(3))]
    await setup(rules('  name: v1.4\n  artifact: { name: release-rows, workflow: "55" }'))
    expect(await runAction()).toBe(1)
    expect(stdout.join('')).toContain(
      'run 700 holds 2 artifacts named "release-rows", so which one is meant is ambiguous'
    )
  })

  // Issue 33, item 7: the refusal named the baseline's input, which has nothing to do with the reference.
  it('an artifact holding several files asks for reference.artifact.file, not baseline', async () => {
    fake.runs = [run(700, 'main', 'push')]
    const data = Buffer.from(rows(release))
    fake.artifacts = [
      {
        ...artifactOf(41, 700, release),
        zip: makeZip([
          { name: 'rows.jsonl', data },
          { name: 'old-rows.jsonl', data }
        ])
      }
    ]
    await setup(rules('  name: v1.4\n  artifact: { name: release-rows, workflow: "55" }'))
    expect(await runAction()).toBe(1)
    expect((await outputs()).verdict).toBe('error')
    const log = stdout.join('')
    expect(log).toContain(
      "holds 2 files (rows.jsonl, old-rows.jsonl), so reference.artifact.file must name the one to use. set reference.artifact.file to the file's path inside the artifact"
    )
    expect(log).not.toContain('set baseline')
  })

  // Issue 33, item 1: a name is not a ref. GitHub puts a tag's name in a run's head_branch as it puts a branch's, so a
  // contributor who may push a branch or a tag (not main) could name one like the release tag or the default branch
  // and have its push run's artifact taken as the trusted side.
  describe('a ref is trusted by its full name and its commit, never by a run named like it', () => {
    const EVIL = '9'.repeat(40) // a contributor's commit, on no branch the rules name
    const releaseRules = (ref: string): string =>
      rules(`  name: v1.4\n  artifact: { name: release-rows, workflow: "55", ref: ${ref} }`)

    it('a branch named like the release tag makes the bare name ambiguous: refused naming reference.artifact.ref', async () => {
      fake.tag('v1.4', TAGGED)
      fake.branch('v1.4', [TAGGED, EVIL]) // pushed by the contributor; its run uploads rows that would pass
      fake.runs = [run(701, 'v1.4', 'push', EVIL), run(700, 'v1.4', 'push', TAGGED)]
      fake.artifacts = [artifactOf(42, 701, after(3)), artifactOf(41, 700, release)]
      await setup(releaseRules('v1.4'))
      expect(await runAction()).toBe(1)
      expect((await outputs()).verdict).toBe('error')
      expect(stdout.join('')).toContain(
        'gate.yml (reference.artifact.ref): "v1.4" is both a branch and a tag of acme/search, so which commit it names depends on who pushed which. write the full ref: refs/tags/v1.4 (the tag) or refs/heads/v1.4 (the branch)'
      )
    })

    it("refs/tags/v1.4 takes only a run of the tag's commit: the newer run of the same-named branch is never taken", async () => {
      fake.tag('v1.4', TAGGED)
      fake.branch('v1.4', [TAGGED, EVIL])
      fake.runs = [run(701, 'v1.4', 'push', EVIL), run(700, 'v1.4', 'push', TAGGED)]
      fake.artifacts = [artifactOf(42, 701, after(3)), artifactOf(41, 700, release)]
      await setup(releaseRules('refs/tags/v1.4'))
      expect(await runAction()).toBe(1)
      const report = JSON.parse(await readFile((await outputs())['report-json'], 'utf8')) as Record<string, any>
      expect(report.budgets.reference).toMatchObject({ commit: TAGGED, artifact: { id: 41, run_id: 700 } })
      expect(report.budgets.units[0].reason).toBe('budget_exceeded') // the release's rows: 1.2 of 1.0 points used
    })

    it("a run named like the tag whose commit is not the tag's is skipped even when the name is only a tag now", async () => {
      // the contributor's branch v1.4 was deleted after its run uploaded: the run still says head_branch v1.4
      fake.tag('v1.4', TAGGED)
      fake.runs = [run(701, 'v1.4', 'push', EVIL)]
      fake.artifacts = [artifactOf(42, 701, after(3))]
      await setup(releaseRules('v1.4'))
      expect(await runAction()).toBe(1)
      expect((await outputs()).verdict).toBe('error')
      expect(stdout.join('')).toContain('not found in the last 0 successful push runs of workflow 55 on refs/tags/v1.4')
    })

    it("the default-branch artifact comes from a run on main's history: a tag named main on another commit is not main", async () => {
      fake.tag('main', EVIL)
      fake.runs = [run(701, 'main', 'push', EVIL), run(700, 'main', 'push', TAGGED)]
      fake.artifacts = [artifactOf(42, 701, after(3)), artifactOf(41, 700, release)]
      await setup(rules('  name: v1.4\n  artifact: { name: release-rows, workflow: "55" }'))
      expect(await runAction()).toBe(1)
      const report = JSON.parse(await readFile((await outputs())['report-json'], 'utf8')) as Record<string, any>
      expect(report.budgets.reference).toMatchObject({ commit: TAGGED, artifact: { id: 41, run_id: 700 } })
    })

    it('the baseline artifact, too: the run of a tag named like the base branch is never the baseline', async () => {
      fake.tag('main', EVIL)
      fake.tag('v1.4', TAGGED, { date: '2025-05-01T12:00:00Z' })
      fake.files.set(`${TAGGED}:${REF_PATH}`, rows(release))
      // the forged baseline is the candidate's own rows (nothing lost); main's real baseline is after(2)
      fake.runs = [run(851, 'main', 'push', EVIL), run(850, 'main', 'push', BASE)]
      const baselineArtifact = (id: number, runId: number, values: number[]) => ({
        ...artifactOf(id, runId, values),
        name: 'baseline-rows'
      })
      fake.artifacts = [baselineArtifact(52, 851, after(3)), baselineArtifact(51, 850, after(2))]
      await setup(rules(AT_TAG), {
        INPUT_BASELINE: '',
        'INPUT_BASELINE-ARTIFACT': 'baseline-rows',
        'INPUT_BASELINE-WORKFLOW': '55'
      })
      expect(await runAction()).toBe(1)
      const report = JSON.parse(await readFile((await outputs())['report-json'], 'utf8')) as Record<string, any>
      expect(report.provenance.baseline.artifact).toMatchObject({ id: 51, run_id: 850, commit: BASE })
    })

    it('an annotated tag is peeled to its commit (refs/tags/v1.4 and the bare name alike)', async () => {
      fake.tag('v1.4', TAGGED, { annotated: true, date: '2025-05-01T12:00:00Z' })
      fake.files.set(`${TAGGED}:${REF_PATH}`, rows(release))
      for (const ref of ['refs/tags/v1.4', 'v1.4']) {
        await setup(rules(`  name: v1.4\n  path: ${REF_PATH}\n  ref: ${ref}`))
        expect(await runAction()).toBe(1)
        const report = JSON.parse(await readFile((await outputs())['report-json'], 'utf8')) as Record<string, any>
        expect(report.budgets.reference).toMatchObject({ ref, commit: TAGGED, age_seconds: 3456000 })
      }
    })

    it('reference.ref naming both a branch and a tag is refused naming the key', async () => {
      fake.tag('release', TAGGED)
      fake.branch('release', [TAGGED, EVIL])
      await setup(rules(`  name: v1.4\n  path: ${REF_PATH}\n  ref: release`))
      expect(await runAction()).toBe(1)
      expect((await outputs()).verdict).toBe('error')
      expect(stdout.join('')).toContain('gate.yml (reference.ref): "release" is both a branch and a tag of acme/search')
    })
  })

  // Issue 25, looks: a budget looked at by every PR attempt of a release passes a spent budget more often than its
  // confidence says; reference.looks shares the release's error rate over a fixed allowance of looks.
  describe('reference.looks: a fixed allowance of looks per release', () => {
    const withLooks = (n: number): string => rules(`${AT_TAG}\n  looks: ${n}`).replace('budget: 0.01', 'budget: 0.5')
    beforeEach(() => {
      fake.statuses = []
      fake.tag('v1.4', TAGGED, { date: '2025-05-01T12:00:00Z' })
      fake.files.set(`${TAGGED}:${REF_PATH}`, rows(release))
    })
    const budgetLooks = (): number =>
      fake.statuses.filter((x) => x.sha === TAGGED && x.context === 'retrieval-gate budget look').length

    it('each look is recorded on the reference commit and tested at 1 - (1 - confidence) / looks', async () => {
      await setup(withLooks(4))
      expect(await runAction()).toBe(0)
      const report = JSON.parse(await readFile((await outputs())['report-json'], 'utf8')) as Record<string, any>
      expect(report.budgets.reference.looks).toEqual({
        this_look: 1,
        allowed: 4,
        confidence_each: 0.9875,
        counted: true,
        unknown: null
      })
      expect(report.budgets.units[0]).toMatchObject({ status: 'pass', confidence: 0.9875 })
      expect(budgetLooks()).toBe(1)
      const md = await readFile((await outputs())['report-markdown'], 'utf8')
      expect(md).toContain(
        'This run is look 1 of at most 4 at v1.4 (reference.looks): each budget interval is at 98.75%, so over the release the budgets hold at 95%.'
      )
    })

    it('beyond the allowance a budget that is not shown spent is inconclusive (and counts as on_inconclusive says)', async () => {
      for (let i = 0; i < 4; i++)
        fake.statuses.push({
          sha: TAGGED,
          state: 'success',
          context: 'retrieval-gate budget look',
          description: `look ${i + 1}`,
          target_url: undefined
        })
      await setup(withLooks(4))
      expect(await runAction()).toBe(1)
      const report = JSON.parse(await readFile((await outputs())['report-json'], 'utf8')) as Record<string, any>
      expect(report.budgets.reference.looks).toMatchObject({ this_look: 5, allowed: 4 })
      expect(report.budgets.units[0]).toMatchObject({ status: 'inconclusive', reason: 'budget_looks_exceeded' })
    })

    it('a ledger it cannot write makes the budget inconclusive, never a count from 0', async () => {
      fake.readOnly.add('t-actions')
      try {
        await setup(withLooks(4))
        expect(await runAction()).toBe(1)
        const report = JSON.parse(await readFile((await outputs())['report-json'], 'utf8')) as Record<string, any>
        expect(report.budgets.units[0]).toMatchObject({ status: 'inconclusive', reason: 'budget_looks_unknown' })
        expect(report.budgets.reference.looks.unknown).toMatch(/statuses: write/)
      } finally {
        fake.readOnly.clear()
      }
    })
  })
})

import { describe, expect, it } from '@jest/globals'
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { parse } from 'yaml'

/**
 * The copyable workflows in docs/workflows are part of the product: parse them and hold them to what
 * docs/github.md promises (minimal permissions, no secrets where PR code runs, no PR code where the token can
 * write, only inputs the action declares).
 */
const root = path.resolve(import.meta.dirname, '../..')
const dir = path.join(root, 'docs/workflows')
type Step = {
  id?: string
  uses?: string
  run?: string
  with?: Record<string, unknown>
  if?: string
  'working-directory'?: string
  'continue-on-error'?: boolean
}
type Job = { steps: Step[]; permissions?: unknown; if?: string; needs?: string[]; environment?: string }
type Workflow = {
  name: string
  on: Record<string, any>
  permissions: Record<string, string>
  jobs: Record<string, Job>
}
const load = (file: string): { text: string; wf: Workflow } => {
  const text = readFileSync(path.join(dir, file), 'utf8')
  return { text, wf: parse(text) as Workflow }
}
const steps = (wf: Workflow): Step[] => Object.values(wf.jobs).flatMap((j) => j.steps)
const gateSteps = (wf: Workflow): Step[] =>
  steps(wf).filter((s) => s.uses?.startsWith('retrieval-gate/retrieval-gate@'))
const actionInputs = Object.keys(
  (parse(readFileSync(path.join(root, 'action.yml'), 'utf8')) as { inputs: Record<string, unknown> }).inputs
)
const WRITE_ALLOWED = new Set(['pull-requests', 'statuses'])
const checkouts = (steps: Step[]): Step[] => steps.filter((s) => s.uses?.startsWith('actions/checkout@'))

/**
 * The base-harness shape (base-harness.yml, release-gate.yml): the base commit's harness evaluates both systems,
 * each in its own read-only job without stored credentials; the gate job runs nothing from the PR and reads the
 * two rows files it downloaded. `gatePermissions`: what the gate job may do, and nothing more.
 */
function expectBaseHarness(wf: Workflow, gatePermissions: Record<string, string>): void {
  expect(Object.keys(wf.jobs)).toEqual(['baseline', 'candidate', 'gate'])
  const { baseline, candidate, gate } = wf.jobs
  // the jobs that run code can only read; only the gate job, which runs nothing, may write
  expect(baseline.permissions).toEqual({ contents: 'read' })
  expect(candidate.permissions).toEqual({ contents: 'read' })
  expect(gate.permissions).toEqual(gatePermissions)
  for (const s of [...checkouts(baseline.steps), ...checkouts(candidate.steps)])
    expect(s.with?.['persist-credentials']).toBe(false)
  // harness (and exam) from the base commit, the system under test from the PR head, in separate folders
  expect(checkouts(baseline.steps).map((s) => [s.with?.ref, s.with?.path])).toEqual([
    ['${{ github.event.pull_request.base.sha }}', 'harness']
  ])
  expect(checkouts(candidate.steps).map((s) => [s.with?.ref, s.with?.path])).toEqual([
    ['${{ github.event.pull_request.base.sha }}', 'harness'],
    ['${{ github.event.pull_request.head.sha }}', 'system']
  ])
  // every command runs from the base harness; the PR's folder is only ever an argument
  const runs = [...baseline.steps, ...candidate.steps].filter((s) => s.run !== undefined)
  expect(runs).toHaveLength(2)
  for (const s of runs) {
    expect(s['working-directory']).toBe('harness')
    expect(s.run).toMatch(/^\.\/eval\/run\.sh "\$GITHUB_WORKSPACE\/(harness|system)" > "\$RUNNER_TEMP\/rows\.jsonl"$/)
  }
  expect(runs[1].run).toContain('$GITHUB_WORKSPACE/system')
  // the gate job: after both, no checkout, no run step; it reads the two rows files it downloaded
  expect(gate.needs).toEqual(['baseline', 'candidate'])
  expect(gate.steps.every((s) => s.run === undefined)).toBe(true)
  expect(checkouts(gate.steps)).toHaveLength(0)
  expect(gate.steps.filter((s) => s.uses?.startsWith('actions/download-artifact@')).map((s) => s.with?.name)).toEqual([
    'baseline-rows',
    'candidate-rows'
  ])
  expect(gateSteps(wf)[0].with).toMatchObject({ baseline: 'baseline/rows.jsonl', candidate: 'candidate/rows.jsonl' })
  expect(gateSteps(wf)[0].with?.['rules-from']).toBeUndefined() // the default in PRs: rules and exam from the base commit
}

/**
 * The rules a workflow names, as the docs give them (a YAML block whose first line is `# <path>`, as the release
 * recipe's in docs/github.md); a path the docs give no rules for is the user's own, read as keeping no ledger and no
 * history (the workflow's comments say what to add when they do).
 */
function rulesOf(file: string): Record<string, any> {
  for (const doc of ['docs/github.md', 'README.md']) {
    const text = readFileSync(path.join(root, doc), 'utf8')
    const start = text.indexOf(`# ${file}\n`)
    if (start >= 0) return parse(text.slice(start, text.indexOf('```', start))) as Record<string, any>
  }
  return {}
}

/** What the gate job's features need: the comment, artifacts and history, a commit status or a look ledger. */
function neededBy(wf: Workflow, job: Job, gate: Step): Record<string, string> {
  const w = gate.with ?? {}
  const rules = rulesOf(String(w.rules))
  const mode = (w['commit-status'] as string | undefined) ?? 'auto'
  const posts = mode === 'true' || (mode === 'auto' && 'workflow_run' in wf.on)
  // a status with github-token (status-token posts it as another identity), or the ledger's records
  const ledger = rules.reference?.looks !== undefined || rules.dataset?.holdout_looks !== undefined
  const statuses = (posts && w['status-token'] === undefined) || ledger
  const otherRuns =
    w['baseline-artifact'] !== undefined ||
    rules.history !== undefined ||
    rules.reference?.artifact !== undefined ||
    job.steps.some((st) => st.uses?.startsWith('actions/download-artifact@') && st.with?.['run-id'] !== undefined)
  return {
    contents: 'read',
    ...(otherRuns ? { actions: 'read' } : {}),
    ...(w.comment === 'never' ? {} : { 'pull-requests': 'write' }),
    ...(statuses ? { statuses: 'write' } : {})
  }
}

describe('example workflows (docs/workflows)', () => {
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.yml'))
    .sort()

  it('are the documented eight', () => {
    expect(files).toEqual([
      'app-status-gate.yml',
      'base-harness.yml',
      'fork-build.yml',
      'fork-gate.yml',
      'main-history.yml',
      'release-gate.yml',
      'required-gate.yml',
      'same-repo.yml'
    ])
    const doc = readFileSync(path.join(root, 'docs/github.md'), 'utf8')
    for (const f of files) expect(doc).toContain(`docs/workflows/${f}`)
  })

  it.each(['fork-build.yml', 'fork-gate.yml', 'same-repo.yml'])(
    '%s has a minimal top-level permissions block and no job widens it',
    (file) => {
      const { wf } = load(file)
      expect(typeof wf.permissions).toBe('object')
      for (const [scope, level] of Object.entries(wf.permissions)) {
        expect(['read', 'write']).toContain(level)
        if (level === 'write') expect(WRITE_ALLOWED.has(scope)).toBe(true)
      }
      for (const job of Object.values(wf.jobs)) expect(job.permissions).toBeUndefined()
    }
  )

  it.each([
    'app-status-gate.yml',
    'base-harness.yml',
    'fork-gate.yml',
    'main-history.yml',
    'release-gate.yml',
    'required-gate.yml',
    'same-repo.yml'
  ])('%s uses the gate with declared inputs only', (file) => {
    const { wf } = load(file)
    const gates = gateSteps(wf)
    expect(gates).toHaveLength(1)
    for (const key of Object.keys(gates[0].with ?? {})) expect(actionInputs).toContain(key)
    expect(gates[0].with?.rules).toBeTruthy()
    expect(gates[0].with?.candidate).toBeTruthy()
    expect(gates[0].with?.baseline ?? gates[0].with?.['baseline-artifact']).toBeTruthy()
  })

  // Issue 33, item 4: every permission is one a feature the workflow turns on needs, and no other.
  it('each job that runs the gate grants exactly the permissions its features need, read from its inputs and rules', () => {
    for (const file of files) {
      const { wf } = load(file)
      for (const [name, job] of Object.entries(wf.jobs)) {
        const gate = job.steps.find((st) => st.uses?.startsWith('retrieval-gate/retrieval-gate@'))
        const granted = (job.permissions ?? wf.permissions) as Record<string, string>
        if (gate === undefined) {
          // a job that only evaluates or builds may read the code, nothing more
          expect([file, name, granted]).toEqual([file, name, { contents: 'read' }])
          continue
        }
        expect([file, name, granted]).toEqual([file, name, neededBy(wf, job, gate)])
      }
    }
  })

  it('every checkout leaves no credentials behind (persist-credentials: false), since PR code may run after it', () => {
    for (const file of files)
      for (const s of checkouts(steps(load(file).wf)))
        expect([file, s.with?.['persist-credentials']]).toEqual([file, false])
  })

  it('a secret is used only in a job that runs nothing from the PR, behind an environment', () => {
    for (const file of files) {
      const { wf } = load(file)
      for (const job of Object.values(wf.jobs)) {
        if (!JSON.stringify(job.steps).includes('secrets.')) continue
        expect([file, job.environment]).toEqual([file, 'retrieval-gate'])
        expect(job.steps.some((st) => st.run !== undefined)).toBe(false)
        expect(checkouts(job.steps)).toHaveLength(0)
      }
    }
  })

  it('app-status-gate.yml posts the status with a GitHub App token minted in the gate job, and its GITHUB_TOKEN cannot write statuses', () => {
    const { wf } = load('app-status-gate.yml')
    expect(wf.on.workflow_run).toEqual(load('fork-gate.yml').wf.on.workflow_run) // the default branch's copy runs
    const job = wf.jobs.gate
    expect(job.environment).toBe('retrieval-gate')
    const app = job.steps.find((st) => st.uses?.startsWith('actions/create-github-app-token@'))
    expect(app?.with).toMatchObject({ 'permission-statuses': 'write' })
    expect(gateSteps(wf)[0].with?.['status-token']).toBe('${{ steps.app.outputs.token }}')
    expect(wf.permissions.statuses).toBeUndefined()
  })

  it('required-gate.yml is base-harness.yml to be required by a ruleset: its run is the check, no status is posted', () => {
    const { wf } = load('required-gate.yml')
    expect(Object.keys(wf.on)).toEqual(['pull_request'])
    expectBaseHarness(wf, { contents: 'read', 'pull-requests': 'write' })
    expect(gateSteps(wf)[0].with?.['commit-status']).toBeUndefined() // auto: none on pull_request
  })

  it('same-repo.yml evaluates base and head in one pull_request job and may comment', () => {
    const { wf } = load('same-repo.yml')
    expect(Object.keys(wf.on)).toEqual(['pull_request'])
    expect(Object.keys(wf.jobs)).toHaveLength(1)
    expect(wf.permissions).toEqual({ contents: 'read', 'pull-requests': 'write' })
    expect(steps(wf)[0].uses).toMatch(/^actions\/checkout@[0-9a-f]{40}$/)
    expect(steps(wf).some((s) => s.run?.includes('git worktree add'))).toBe(true)
  })

  it('fork-build.yml runs the PR with a read-only token, no secrets, and uploads the rows', () => {
    const { text, wf } = load('fork-build.yml')
    expect(Object.keys(wf.on)).toEqual(['pull_request', 'push'])
    expect(wf.permissions).toEqual({ contents: 'read' })
    expect(text).not.toMatch(/secrets\./)
    const uploads = steps(wf).filter((s) => s.uses?.startsWith('actions/upload-artifact@'))
    expect(uploads.map((s) => s.with?.name).sort()).toEqual(['baseline-rows', 'candidate-rows'])
  })

  it('fork-gate.yml gates on workflow_run, never checks out or runs anything, and reads the artifacts it needs', () => {
    const { wf } = load('fork-gate.yml')
    const build = load('fork-build.yml').wf
    expect(wf.on.workflow_run).toEqual({ workflows: [build.name], types: ['completed'] })
    expect(wf.permissions).toEqual({ contents: 'read', actions: 'read', 'pull-requests': 'write', statuses: 'write' }) // statuses: the commit status on the PR head
    expect(gateSteps(wf)[0].with?.['commit-status']).toBeUndefined() // auto: posts in workflow_run events
    const all = steps(wf)
    expect(all.every((s) => s.run === undefined)).toBe(true) // nothing from the PR or an artifact is executed
    expect(all.some((s) => s.uses?.startsWith('actions/checkout@'))).toBe(false)
    const download = all.find((s) => s.uses?.startsWith('actions/download-artifact@'))
    expect(download?.with).toMatchObject({ name: 'candidate-rows', 'run-id': '${{ github.event.workflow_run.id }}' })
    expect(gateSteps(wf)[0].with?.['baseline-artifact']).toBe('baseline-rows')
    expect(Object.values(wf.jobs)[0].if).toContain("github.event.workflow_run.event == 'pull_request'")
  })

  it("base-harness.yml evaluates the PR's system with the base commit's harness, runs PR code only without secrets or write access, and gates in a job that runs nothing", () => {
    const { text, wf } = load('base-harness.yml')
    expect(Object.keys(wf.on)).toEqual(['pull_request'])
    expect(text).not.toMatch(/secrets\./)
    expect(wf.permissions).toEqual({ contents: 'read' })
    expectBaseHarness(wf, { contents: 'read', 'pull-requests': 'write' })
  })

  it('release-gate.yml gates PRs into release/* against the release rules with the base harness, and posts a status a ruleset can require', () => {
    const { text, wf } = load('release-gate.yml')
    expect(wf.on).toEqual({ pull_request: { branches: ['release/**'] } })
    expect(text).not.toMatch(/secrets\./)
    expect(wf.permissions).toEqual({ contents: 'read' })
    expectBaseHarness(wf, { contents: 'read', actions: 'read', 'pull-requests': 'write', statuses: 'write' })
    expect(gateSteps(wf)[0].with).toMatchObject({
      rules: '.github/retrieval-gate-release.yml',
      'comment-name': 'release',
      'commit-status': 'true'
    })
  })

  it('main-history.yml evaluates each push to main read-only and records it in a job that runs nothing and never fails the run', () => {
    const { text, wf } = load('main-history.yml')
    expect(wf.on).toEqual({ push: { branches: ['main'] } })
    expect(text).not.toMatch(/secrets\./)
    expect(wf.permissions).toEqual({ contents: 'read' })
    expect(Object.keys(wf.jobs)).toEqual(['evaluate', 'record'])
    const { evaluate, record } = wf.jobs
    expect(evaluate.permissions).toEqual({ contents: 'read' })
    expect(record.permissions).toEqual({ contents: 'read', actions: 'read' }) // no write: no comment, no status on a push
    for (const s of [...checkouts(evaluate.steps), ...checkouts(record.steps)])
      expect(s.with?.['persist-credentials']).toBe(false)
    expect(
      evaluate.steps.filter((s) => s.uses?.startsWith('actions/upload-artifact@')).map((s) => s.with?.name)
    ).toEqual(['baseline-rows'])
    expect(record.needs).toEqual(['evaluate'])
    expect(record.steps.every((s) => s.run === undefined)).toBe(true)
    const gate = gateSteps(wf)[0]
    expect(gate['continue-on-error']).toBe(true)
    expect(gate.with).toMatchObject({
      'baseline-artifact': 'baseline-rows',
      candidate: 'candidate/rows.jsonl',
      comment: 'never',
      'commit-status': 'false'
    })
    // the history: the record job uploads the report the gate wrote, under the name PRs read (the action uploads nothing)
    const id = gate.id ?? ''
    const uploads = record.steps.filter((s) => s.uses?.startsWith('actions/upload-artifact@'))
    expect(uploads.map((s) => s.with)).toEqual([
      {
        name: `\${{ steps.${id}.outputs.history-artifact }}`,
        path: `\${{ steps.${id}.outputs.report-json }}`,
        'retention-days': 90
      }
    ])
  })
})

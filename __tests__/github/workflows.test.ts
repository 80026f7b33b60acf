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
type Step = { uses?: string; run?: string; with?: Record<string, unknown>; if?: string }
type Workflow = { name: string; on: Record<string, any>; permissions: Record<string, string>; jobs: Record<string, { steps: Step[]; permissions?: unknown; if?: string }> }
const load = (file: string): { text: string; wf: Workflow } => {
  const text = readFileSync(path.join(dir, file), 'utf8')
  return { text, wf: parse(text) as Workflow }
}
const steps = (wf: Workflow): Step[] => Object.values(wf.jobs).flatMap((j) => j.steps)
const gateSteps = (wf: Workflow): Step[] => steps(wf).filter((s) => s.uses?.startsWith('retrieval-gate/retrieval-gate@'))
const actionInputs = Object.keys((parse(readFileSync(path.join(root, 'action.yml'), 'utf8')) as { inputs: Record<string, unknown> }).inputs)
const WRITE_ALLOWED = new Set(['pull-requests'])

describe('example workflows (docs/workflows)', () => {
  const files = readdirSync(dir).filter((f) => f.endsWith('.yml')).sort()

  it('are the documented three', () => {
    expect(files).toEqual(['fork-build.yml', 'fork-gate.yml', 'same-repo.yml'])
    const doc = readFileSync(path.join(root, 'docs/github.md'), 'utf8')
    for (const f of files) expect(doc).toContain(`docs/workflows/${f}`)
  })

  it.each(['fork-build.yml', 'fork-gate.yml', 'same-repo.yml'])('%s has a minimal top-level permissions block and no job widens it', (file) => {
    const { wf } = load(file)
    expect(typeof wf.permissions).toBe('object')
    for (const [scope, level] of Object.entries(wf.permissions)) {
      expect(['read', 'write']).toContain(level)
      if (level === 'write') expect(WRITE_ALLOWED.has(scope)).toBe(true)
    }
    for (const job of Object.values(wf.jobs)) expect(job.permissions).toBeUndefined()
  })

  it.each(['fork-gate.yml', 'same-repo.yml'])('%s uses the gate with declared inputs only', (file) => {
    const { wf } = load(file)
    const gates = gateSteps(wf)
    expect(gates).toHaveLength(1)
    for (const key of Object.keys(gates[0].with ?? {})) expect(actionInputs).toContain(key)
    expect(gates[0].with?.rules).toBeTruthy()
    expect(gates[0].with?.candidate).toBeTruthy()
    expect(gates[0].with?.baseline ?? gates[0].with?.['baseline-artifact']).toBeTruthy()
  })

  it('same-repo.yml evaluates base and head in one pull_request job and may comment', () => {
    const { wf } = load('same-repo.yml')
    expect(Object.keys(wf.on)).toEqual(['pull_request'])
    expect(Object.keys(wf.jobs)).toHaveLength(1)
    expect(wf.permissions).toEqual({ contents: 'read', 'pull-requests': 'write' })
    expect(steps(wf)[0].uses).toMatch(/^actions\/checkout@v\d+$/)
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
    expect(wf.permissions).toEqual({ contents: 'read', actions: 'read', 'pull-requests': 'write' })
    const all = steps(wf)
    expect(all.every((s) => s.run === undefined)).toBe(true) // nothing from the PR or an artifact is executed
    expect(all.some((s) => s.uses?.startsWith('actions/checkout@'))).toBe(false)
    const download = all.find((s) => s.uses?.startsWith('actions/download-artifact@'))
    expect(download?.with).toMatchObject({ name: 'candidate-rows', 'run-id': '${{ github.event.workflow_run.id }}' })
    expect(gateSteps(wf)[0].with?.['baseline-artifact']).toBe('baseline-rows')
    expect(Object.values(wf.jobs)[0].if).toContain("github.event.workflow_run.event == 'pull_request'")
  })
})

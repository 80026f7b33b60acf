/**
 * Every test file runs somewhere: the fast loop (`npm test`, jest.config.js) and the slow set (`npm run test:slow`,
 * jest.slow.config.js) split the test files by name, and a file that neither config picks up (a `*.spec.ts`, a test
 * outside __tests__, a pattern edited in one config only) would never run, silently. This asks jest itself which
 * files each config runs (`--listTests`) and compares with the test files on disk: each must be in exactly one set.
 */
import { describe, expect, it } from '@jest/globals'
import { spawn } from 'node:child_process'
import { existsSync, readdirSync } from 'node:fs'
import path from 'node:path'
import { HEAVY } from '../jest.config.js'

const root = path.resolve(import.meta.dirname, '..')

/** A file name that any test runner would take for a test: `x.test.ts`, `x.spec.js`, `x.test.mts`... */
const TEST_FILE = /\.(test|spec)\.[cm]?[jt]sx?$/
/** Folders that hold no test of ours. */
const SKIP_DIRS = new Set(['node_modules', '.git', 'dist', 'build'])

/** Every test-like file under `dir`, as paths relative to the repository root with forward slashes. */
function testFilesOnDisk(dir: string): string[] {
  const out: string[] = []
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) {
      if (!SKIP_DIRS.has(entry.name)) out.push(...testFilesOnDisk(path.join(dir, entry.name)))
    } else if (TEST_FILE.test(entry.name)) {
      out.push(path.relative(root, path.join(dir, entry.name)).split(path.sep).join('/'))
    }
  }
  return out.sort()
}

/** The files jest would run with `config`, from jest itself. */
function listTests(config: string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        '--experimental-vm-modules',
        path.join(root, 'node_modules/jest/bin/jest.js'),
        '--config',
        config,
        '--listTests',
        '--json'
      ],
      { cwd: root }
    )
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()))
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
    child.on('error', reject)
    child.on('close', (code) => {
      if (code !== 0)
        return reject(new Error(`jest --listTests --config ${config} exited ${code}: ${stderr.slice(0, 2000)}`))
      const files = JSON.parse(stdout) as string[]
      resolve(files.map((f) => path.relative(root, f).split(path.sep).join('/')).sort())
    })
  })
}

/** The files in neither set and the files in both. */
export function unassigned(onDisk: string[], fast: string[], slow: string[]): { neither: string[]; both: string[] } {
  const inFast = new Set(fast)
  const inSlow = new Set(slow)
  return {
    neither: onDisk.filter((f) => !inFast.has(f) && !inSlow.has(f)),
    both: onDisk.filter((f) => inFast.has(f) && inSlow.has(f))
  }
}

describe('the fast and slow test sets', () => {
  it('a file in neither set or in both is found (the check itself)', () => {
    expect(
      unassigned(
        ['a.test.ts', 'b.slow.test.ts', 'c.spec.ts', 'd.test.ts'],
        ['a.test.ts', 'd.test.ts'],
        ['b.slow.test.ts', 'd.test.ts']
      )
    ).toEqual({ neither: ['c.spec.ts'], both: ['d.test.ts'] })
  })

  it('every heavy file of jest.config.js exists (a renamed one would slip back into the fast loop)', () => {
    expect(HEAVY.filter((f) => !existsSync(path.join(root, '__tests__', f)))).toEqual([])
  })

  it('every test file on disk is in exactly one set, as jest itself lists them', async () => {
    const [fast, slow] = await Promise.all([listTests('jest.config.js'), listTests('jest.slow.config.js')])
    const onDisk = testFilesOnDisk(root)
    expect(onDisk).toContain('__tests__/test-sets.test.ts')
    expect(fast).toContain('__tests__/test-sets.test.ts')
    expect(slow.length).toBeGreaterThan(0)
    const heavy = HEAVY.map((f) => `__tests__/${f}`)
    expect(slow.every((f) => f.endsWith('.slow.test.ts') || heavy.includes(f))).toBe(true)
    expect(heavy.filter((f) => !slow.includes(f))).toEqual([])
    expect(fast.some((f) => f.endsWith('.slow.test.ts'))).toBe(false)
    expect(unassigned(onDisk, fast, slow)).toEqual({ neither: [], both: [] })
    // and jest lists nothing that is not a test file on disk
    expect([...fast, ...slow].filter((f) => !onDisk.includes(f))).toEqual([])
  }, 120000)
})

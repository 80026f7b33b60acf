/**
 * Determinism across environments: the golden reports that golden.test.ts asserts in this process, byte for byte
 * - in a separate Node process with another time zone and locale (TZ=Pacific/Chatham, de_DE: a +12:45
 *   offset and a decimal comma, so any Date or toLocaleString use would show),
 * - under Node 24 (`npx -y node@24`, probed once when this file loads). When it cannot be had (no network) the
 *   test is skipped with one line saying why, never passed; on CI (CI=true) that is a failure, since CI must run
 *   every test. RG_SKIP_NODE24=1 skips explicitly.
 * The child processes run the sources compiled by tsc (not dist/, which may lag the sources while others
 * work). Slow (a tsc build, child processes, a Node download): `npm run test:slow`.
 */
import { beforeAll, describe, expect, it } from '@jest/globals'
import { execFileSync, spawnSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { tempDir } from '../helpers.js'
import { answers, needing, skippedBy } from '../programs.js'
import { golden, root, SCENARIO_NAMES, SCENARIOS, type Output, type Scenario } from './golden-cases.js'

const build = path.join(root, 'node_modules/.cache/rg-golden-build')

function child(node: string[], name: Scenario, env: Record<string, string>): Output {
  const dir = tempDir('rg-golden-')
  const r = spawnSync(
    node[0],
    [
      ...node.slice(1),
      path.join(build, 'cli.js'),
      'gate',
      ...SCENARIOS[name],
      '--json',
      path.join(dir, 'r.json'),
      '--markdown',
      path.join(dir, 'r.md')
    ],
    {
      cwd: root,
      env: { ...process.env, ...env },
      encoding: 'utf8',
      timeout: 120000
    }
  )
  if (r.status !== 0 && r.status !== 1) throw new Error(`exit ${r.status}: ${r.stderr}`)
  return {
    code: r.status,
    json: readFileSync(path.join(dir, 'r.json'), 'utf8'),
    markdown: readFileSync(path.join(dir, 'r.md'), 'utf8')
  }
}

const OTHER_PLACE = { TZ: 'Pacific/Chatham', LANG: 'de_DE.UTF-8', LC_ALL: 'de_DE.UTF-8', LC_NUMERIC: 'de_DE.UTF-8' }

/** Node 24 from npm (the npm "node" package ships the binary); the test below runs only if this answers. */
const NODE24 = ['npx', '-y', 'node@24']
const node24 = needing(
  'the golden test under Node 24',
  skippedBy('RG_SKIP_NODE24') ??
    answers(NODE24[0], [...NODE24.slice(1), '--version'], (out) => /^v24\./.test(out), 180000, tempDir()),
  'network access to the npm registry, which `npx -y node@24` downloads Node 24 from'
)

describe('golden reports, byte for byte, in other environments', () => {
  beforeAll(() => {
    // tsc emits even when another engineer's file has a type error; the examples only need the gate.
    try {
      execFileSync(
        process.execPath,
        [
          path.join(root, 'node_modules/typescript/bin/tsc'),
          '-p',
          path.join(root, 'tsconfig.build.json'),
          '--outDir',
          build
        ],
        { cwd: root, stdio: 'pipe' }
      )
    } catch {
      if (!existsSync(path.join(build, 'cli.js'))) throw new Error('tsc produced no build')
    }
  }, 180000)

  for (const name of SCENARIO_NAMES) {
    it(`${name}: another process, TZ=Pacific/Chatham, de_DE locale`, () => {
      // The environment really is different: a decimal comma and a +12:45 / +13:45 offset.
      const probe = spawnSync(
        process.execPath,
        ['-e', 'process.stdout.write((1234.5).toLocaleString() + " " + new Date(0).getTimezoneOffset())'],
        { env: { ...process.env, ...OTHER_PLACE }, encoding: 'utf8' }
      )
      expect(probe.stdout).toMatch(/^1\.234,5 -7(65|05)$/)
      const out = child([process.execPath], name, OTHER_PLACE)
      const want = golden(name)
      expect(out.code).toBe(want.code)
      expect(out.json).toBe(want.json)
      expect(out.markdown).toBe(want.markdown)
    }, 120000)
  }

  node24.it(
    'under Node 24 (skipped with its reason when npx cannot get it)',
    () => {
      for (const name of SCENARIO_NAMES) {
        const out = child(NODE24, name, OTHER_PLACE)
        const want = golden(name)
        expect(out.code).toBe(want.code)
        expect(out.json).toBe(want.json)
        expect(out.markdown).toBe(want.markdown)
      }
    },
    300000
  )
})

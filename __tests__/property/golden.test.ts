/**
 * Determinism: the JSON and Markdown reports of the example scenarios are golden files, asserted byte for byte in
 * this process (the in-process CLI). The same files are asserted in another process with another time zone and
 * locale, and under Node 24, by golden-environments.slow.test.ts (`npm run test:slow`). The one golden mechanism
 * (../golden.ts): after an intended report change, `UPDATE_GOLDEN=1 npm test -- golden` rewrites the files.
 */
import { describe, it } from '@jest/globals'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { expectGolden } from '../golden.js'
import { cli, tempDir } from '../helpers.js'
import { root, SCENARIO_NAMES, SCENARIOS, type Output, type Scenario } from './golden-cases.js'

async function inProcess(name: Scenario): Promise<Output> {
  const dir = tempDir('rg-golden-')
  const cwd = process.cwd()
  process.chdir(root)
  try {
    const r = await cli([
      'gate',
      ...SCENARIOS[name],
      '--json',
      path.join(dir, 'r.json'),
      '--markdown',
      path.join(dir, 'r.md')
    ])
    return {
      code: r.code,
      json: readFileSync(path.join(dir, 'r.json'), 'utf8'),
      markdown: readFileSync(path.join(dir, 'r.md'), 'utf8')
    }
  } finally {
    process.chdir(cwd)
  }
}

describe('golden reports, byte for byte', () => {
  for (const name of SCENARIO_NAMES) {
    it(`${name}: in this process`, async () => {
      const out = await inProcess(name)
      expectGolden(`${name}.code`, `${out.code}\n`)
      expectGolden(`${name}.json`, out.json)
      expectGolden(`${name}.md`, out.markdown)
    })
  }
})

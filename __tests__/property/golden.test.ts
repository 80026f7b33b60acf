/**
 * Determinism: the JSON and Markdown reports of the example scenarios are golden files, asserted byte for byte in
 * this process (the in-process CLI). The same files are asserted in another process with another time zone and
 * locale, and under Node 24, by golden-environments.slow.test.ts (`npm run test:slow`). Regenerate the golden
 * files after an intended report change with `UPDATE_GOLDEN=1 npm test -- __tests__/property/golden`.
 */
import { beforeAll, describe, expect, it } from '@jest/globals'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { cli, tempDir } from '../helpers.js'
import { golden, goldenDir, root, SCENARIO_NAMES, SCENARIOS, type Output, type Scenario } from './golden-cases.js'

const update = process.env.UPDATE_GOLDEN === '1'

async function inProcess(name: Scenario): Promise<Output> {
  const dir = tempDir('rg-golden-')
  const cwd = process.cwd()
  process.chdir(root)
  try {
    const r = await cli(['gate', ...SCENARIOS[name], '--json', path.join(dir, 'r.json'), '--markdown', path.join(dir, 'r.md')])
    return { code: r.code, json: readFileSync(path.join(dir, 'r.json'), 'utf8'), markdown: readFileSync(path.join(dir, 'r.md'), 'utf8') }
  } finally {
    process.chdir(cwd)
  }
}

describe('golden reports, byte for byte', () => {
  beforeAll(async () => {
    if (!update) return
    mkdirSync(goldenDir, { recursive: true })
    for (const name of SCENARIO_NAMES) {
      const out = await inProcess(name)
      writeFileSync(path.join(goldenDir, `${name}.json`), out.json)
      writeFileSync(path.join(goldenDir, `${name}.md`), out.markdown)
      writeFileSync(path.join(goldenDir, `${name}.code`), `${out.code}\n`)
    }
  })

  for (const name of SCENARIO_NAMES) {
    it(`${name}: in this process`, async () => {
      const out = await inProcess(name)
      const want = golden(name)
      expect(out.code).toBe(want.code)
      expect(out.json).toBe(want.json)
      expect(out.markdown).toBe(want.markdown)
    })
  }
})

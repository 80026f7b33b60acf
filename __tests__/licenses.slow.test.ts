/**
 * dist/licenses.txt lists exactly the packages rollup bundles into dist/index.js and dist/cli.js (scripts/licenses.js
 * bundles both in memory and compares): a shipped package missing from it, or one listed that no longer ships,
 * fails. Slow (two rollup builds): `npm run test:slow`.
 */
import { describe, expect, it } from '@jest/globals'
import { spawnSync } from 'node:child_process'
import path from 'node:path'

const root = path.resolve(import.meta.dirname, '..')

describe('the license inventory', () => {
  it('is what ships', () => {
    const r = spawnSync(process.execPath, [path.join(root, 'scripts/licenses.js')], {
      cwd: root,
      encoding: 'utf8',
      timeout: 240000
    })
    expect(r.stderr).toBe('')
    expect(r.stdout).toMatch(/^licenses: \d+ packages ship in dist\/, each listed in dist\/licenses.txt/)
    expect(r.status).toBe(0)
  }, 300000)
})

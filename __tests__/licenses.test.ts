/**
 * The license inventory (scripts/licenses.js): a package rollup bundles is listed with its version and license, a
 * license outside the allow-list is a problem (the bundle then fails), and the committed dist/licenses.txt lists only
 * allowed licenses. That the file lists exactly what ships (a bundled package missing from it fails) is checked by
 * bundling: licenses.slow.test.ts.
 */
import { describe, expect, it } from '@jest/globals'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
// @ts-expect-error: a plain JavaScript script without types
import { inventory, licenseProblems, packageDir, renderInventory } from '../scripts/licenses.js'
import { tempDir } from './helpers.js'

type Entry = { name: string; version: string; license: string }
const root = path.resolve(import.meta.dirname, '..')

function fakePackage(dir: string, name: string, version: string, license: unknown): string {
  const folder = path.join(dir, 'node_modules', name)
  mkdirSync(path.join(folder, 'lib'), { recursive: true })
  writeFileSync(path.join(folder, 'package.json'), JSON.stringify({ name, version, license }))
  return path.join(folder, 'lib', 'index.js')
}

describe('the license inventory of what ships', () => {
  it('finds the package of each bundled module, nested and scoped, and ignores our own sources', () => {
    expect(packageDir('/r/node_modules/@octokit/core/dist/index.js')).toBe('/r/node_modules/@octokit/core')
    expect(packageDir('/r/node_modules/a/node_modules/b/x.js')).toBe('/r/node_modules/a/node_modules/b')
    expect(packageDir('\0/r/node_modules/undici/index.js?commonjs-module')).toBe('/r/node_modules/undici')
    expect(packageDir('/r/src/main.ts')).toBeUndefined()
  })

  it('lists every package a module comes from with version and license, sorted, once', () => {
    const dir = tempDir('rg-licenses-')
    const ids = [
      fakePackage(dir, 'zeta', '1.0.0', 'MIT'),
      fakePackage(dir, '@scope/alpha', '2.1.0', { type: 'ISC' }),
      fakePackage(dir, 'zeta', '1.0.0', 'MIT'),
      path.join(dir, 'src', 'main.ts')
    ]
    const entries: Entry[] = inventory(ids)
    expect(entries).toEqual([
      { name: '@scope/alpha', version: '2.1.0', license: 'ISC' },
      { name: 'zeta', version: '1.0.0', license: 'MIT' }
    ])
    expect(renderInventory(new Map([['dist/index.js', entries]]))).toContain('zeta@1.0.0\tMIT\tindex.js\n')
  })

  it('a license outside the allow-list is a problem; an OR of an allowed one is not', () => {
    expect(
      licenseProblems([
        { name: 'a', version: '1.0.0', license: 'GPL-3.0' },
        { name: 'b', version: '1.0.0', license: '(MIT OR GPL-3.0)' },
        { name: 'c', version: '1.0.0', license: 'UNKNOWN' },
        { name: 'd', version: '1.0.0', license: 'BlueOak-1.0.0' }
      ])
    ).toEqual([
      expect.stringMatching(/^a@1\.0\.0 has license GPL-3\.0, not one of MIT, ISC/),
      expect.stringMatching(/^c@1\.0\.0 has license UNKNOWN/)
    ])
  })

  it('dist/licenses.txt lists only allowed licenses, the action packages among them', () => {
    const rows = readFileSync(path.join(root, 'dist', 'licenses.txt'), 'utf8')
      .split('\n')
      .filter((l) => l && !l.startsWith('#'))
      .map((l) => {
        const [id, license] = l.split('\t')
        const at = id.lastIndexOf('@')
        return { name: id.slice(0, at), version: id.slice(at + 1), license }
      })
    expect(rows.map((r) => r.name)).toEqual(expect.arrayContaining(['@actions/core', 'ajv', 'yaml']))
    expect(rows.map((r) => r.name)).not.toContain('@actions/artifact')
    expect(licenseProblems(rows)).toEqual([])
  })
})

/**
 * Every input the fuzzer ever broke the gate with is kept in __tests__/hostile/fixtures/ as
 * `<target>--<hash>.<ext>` (written by `npm run fuzz -- --save`) and replayed here through the same target:
 * it must now be read or refused with InputError, without a process warning.
 * - rules--collection-key.yml: `{ version: 1 }: 2` made yaml print "Keys with collection values will be
 *   stringified" on stderr (found by the fuzzer); now refused at its line (src/config/yaml-source.ts).
 * - rules--89f275801b09.yml: `? !!binary` (a tagged key; fuzzer, seed 99) printed the same warning; YAML
 *   tags are now refused at their line.
 */
import { describe, expect, it } from '@jest/globals'
import { copyFileSync, readdirSync } from 'node:fs'
import path from 'node:path'
import { main } from '../../src/commands/cli-main.js'
import { InputError } from '../../src/errors.js'
import { readRows } from '../../src/readers/read.js'
import { readRules } from '../../src/load.js'
import { computeRunRows, readQrels } from '../../src/metrics/index.js'
import { tempDir } from '../helpers.js'

const api = { readRows, readQrels, computeRunRows, readRules, InputError, main }
const fuzzModule = '../../scripts/fuzz.js'
const fuzz = (await import(fuzzModule)) as {
  makeTargets: (api: object) => Array<{ name: string; ext: string; run: (file: string) => Promise<unknown> }>
}
const dir = path.join(import.meta.dirname, 'fixtures')
const fixtures = readdirSync(dir).filter((f) => f.includes('--'))

describe('fuzz findings stay fixed', () => {
  it('has the fixtures folder', () => {
    expect(readdirSync(dir)).toContain('README.md')
  })
  for (const name of fixtures) {
    it(name, async () => {
      const target = fuzz.makeTargets(api).find((t) => t.name === name.split('--')[0])
      expect(target).toBeDefined()
      // Readers pick the format by extension, so replay under the target's extension.
      const file = path.join(tempDir(), `input.${target!.ext}`)
      copyFileSync(path.join(dir, name), file)
      const warnings: string[] = []
      const onWarning = (w: Error) => warnings.push(w.message)
      process.on('warning', onWarning)
      try {
        await target!.run(file)
      } catch (error) {
        expect(error).toBeInstanceOf(InputError)
      } finally {
        await new Promise((resolve) => setImmediate(resolve))
        process.off('warning', onWarning)
      }
      expect(warnings).toEqual([])
      expect(({} as Record<string, unknown>).polluted).toBeUndefined()
    })
  }
})

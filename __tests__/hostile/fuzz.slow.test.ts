/**
 * A short fuzzing pass in the test suite (scripts/fuzz.js, with the TypeScript sources injected): every
 * reader, the rules loader and the whole gate take mutated and random inputs and must read them or refuse
 * them with InputError, never throw anything else, print a stack trace, pollute Object.prototype or take
 * long. `npm run fuzz` runs the same targets with large budgets. RG_FUZZ_RUNS sets the budget here.
 */
import { describe, expect, it } from '@jest/globals'
import { main } from '../../src/commands/cli-main.js'
import { InputError } from '../../src/errors.js'
import { readRows } from '../../src/readers/read.js'
import { readRules } from '../../src/load.js'
import { computeRunRows, readQrels } from '../../src/metrics/index.js'

const RUNS = Number(process.env.RG_FUZZ_RUNS ?? 150)
const api = { readRows, readQrels, computeRunRows, readRules, InputError, main }
// scripts/fuzz.js is plain JavaScript (it also runs on its own): imported by a computed path, untyped.
const fuzzModule = '../../scripts/fuzz.js'
const fuzz = (await import(fuzzModule)) as {
  makeTargets: (api: object) => Array<{ name: string }>
  fuzzTarget: (
    api: object,
    target: object,
    options: { runs: number; seed: number; slowMs: number }
  ) => Promise<{ runs: number; findings: Array<{ bytes: Buffer; error: string }> }>
}

describe('fuzzing (brief; npm run fuzz for long runs)', () => {
  for (const target of fuzz.makeTargets(api)) {
    it(`${target.name}: only InputError, never a crash or a hang`, async () => {
      const { runs, findings } = await fuzz.fuzzTarget(api, target, { runs: RUNS, seed: 20240601, slowMs: 5000 })
      expect(runs).toBe(RUNS)
      expect(findings.map((f) => `${JSON.stringify(f.bytes.toString('latin1'))}: ${f.error.split('\n')[0]}`)).toEqual(
        []
      )
    })
  }
})

/**
 * The golden report scenarios shared by golden.test.ts (in this process, the fast loop) and
 * golden-environments.slow.test.ts (another process, time zone and locale, Node 24): the CLI arguments of each
 * scenario and the committed files its reports must equal byte for byte.
 */
import { readFileSync } from 'node:fs'
import path from 'node:path'

export const root = path.resolve(import.meta.dirname, '../..')
export const goldenDir = path.join(import.meta.dirname, 'golden')

/** Scenarios: rules and inputs as relative paths (the reports name them), run from the repository root. */
export const SCENARIOS = {
  rows: ['--rules', 'examples/rules.yml', '--baseline', 'examples/baseline.jsonl', '--candidate', 'examples/candidate.jsonl'],
  runs: ['--rules', 'examples/runs/rules.yml', '--baseline', 'examples/runs/baseline.jsonl', '--candidate', 'examples/runs/candidate.jsonl']
} as const
export type Scenario = keyof typeof SCENARIOS
export const SCENARIO_NAMES = Object.keys(SCENARIOS) as Scenario[]

/** What one gate run gives: its exit code and the two report files. */
export interface Output {
  code: number
  json: string
  markdown: string
}

/** The committed golden output of a scenario. */
export function golden(name: Scenario): Output {
  const read = (ext: string) => readFileSync(path.join(goldenDir, `${name}.${ext}`), 'utf8')
  return { code: Number(read('code').trim()), json: read('json'), markdown: read('md') }
}

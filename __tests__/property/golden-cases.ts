/**
 * The golden report scenarios shared by golden.test.ts (in this process, the fast loop) and
 * golden-environments.slow.test.ts (another process, time zone and locale, Node 24): the CLI arguments of each
 * scenario and the committed files (in __tests__/golden/, ../golden.ts) its reports must equal byte for byte.
 */
import path from 'node:path'
import { readGolden } from '../golden.js'

export const root = path.resolve(import.meta.dirname, '../..')

/** Scenarios: rules and inputs as relative paths (the reports name them), run from the repository root. */
export const SCENARIOS = {
  rows: [
    '--rules',
    'examples/rules.yml',
    '--baseline',
    'examples/baseline.jsonl',
    '--candidate',
    'examples/candidate.jsonl'
  ],
  runs: [
    '--rules',
    'examples/runs/rules.yml',
    '--baseline',
    'examples/runs/baseline.jsonl',
    '--candidate',
    'examples/runs/candidate.jsonl'
  ]
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
  const read = (ext: string) => readGolden(`${name}.${ext}`)
  return { code: Number(read('code').trim()), json: read('json'), markdown: read('md') }
}

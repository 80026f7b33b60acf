/**
 * Jest 30 + ts-jest (ESM), run through npm (the scripts set --experimental-vm-modules). The tests come in two sets,
 * told apart by file name, so that every test file is in exactly one:
 * - the fast loop, `npm test` (this config): every `__tests__/**\/*.test.ts` except the slow ones;
 * - the slow set, `npm run test:slow` (jest.slow.config.js): `*.slow.test.ts`, the tests that take seconds each
 *   because they start other programs or handle real sizes (other Node versions, a real browser, a 300 MB line,
 *   fuzzing, child jest runs).
 * `npm run test:all` runs both and the workflow lint; CI runs that. __tests__/test-sets.test.ts asks jest itself
 * (--listTests with each config) and fails if a test file is in neither set or in both.
 */
import { availableParallelism } from 'node:os'

export const base = {
  preset: 'ts-jest/presets/default-esm',
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  resolver: 'ts-jest-resolver',
  roots: ['<rootDir>/__tests__'],
  transform: {
    '^.+\\.ts$': ['ts-jest', { useESM: true, tsconfig: 'tsconfig.json', diagnostics: { ignoreCodes: [151001] } }]
  },
  testTimeout: 60000
}

/** What makes a test file slow: its name. */
export const SLOW = '\\.slow\\.test\\.ts$'

export default {
  ...base,
  testMatch: ['**/*.test.ts'],
  testPathIgnorePatterns: ['/node_modules/', SLOW],
  // jest's default is one worker fewer than the cores: a single worker on a 2-core machine, where two finish the
  // fast loop in about half the time (the main process only hands out files). `--maxWorkers=N` still overrides.
  maxWorkers: Math.max(2, availableParallelism() - 1)
}

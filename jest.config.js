/**
 * Jest 30 + ts-jest (ESM), run through npm (the scripts set --experimental-vm-modules). The tests come in two sets,
 * so that every test file is in exactly one:
 * - the fast loop, `npm test` (this config): every `__tests__/**\/*.test.ts` except the slow and the heavy ones;
 * - the slow set, `npm run test:slow` (jest.slow.config.js): `*.slow.test.ts`, the tests that take seconds each
 *   because they start other programs or handle real sizes (other Node versions, a real browser, a 300 MB line,
 *   fuzzing, child jest runs), and the files listed in {@link HEAVY}.
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

/**
 * Test files too heavy for the fast loop though not slow by nature: each took 1.1 s or more of a worker, warm, on
 * this project's 2-core machine (`npx jest --json`, file end minus start, 2026-12-01): together 57 of the 105 s the
 * fast loop spent in its 117 files, which put `npm test` at 54-65 s. They run in the slow set, so `npm run test:all`
 * and CI still run every one. A file that grows past that mark belongs here (or in a `*.slow.test.ts`) — except the
 * contract's fitness tests (style.test.ts: the signatures and function lengths of src; property/capabilities.test.ts:
 * the trust boundary over the registry), which stay in the fast loop so that a change breaking them fails at once:
 * budget/budget.test.ts (2.9 s) moved out to make room for them (2026-12-02). On 2026-12-02 (a slower day: the
 * commit of the first measurement took 34 s) the files from github/artifact-download.test.ts (1.16 s) up to
 * ecosystem/cli.test.ts (2.0 s) joined them, and capabilities/throwaway.test.ts (1.27 s, the temp-registry proof of
 * the capability contract) stayed, as a fitness test.
 */
export const HEAVY = [
  'budget/budget.test.ts',
  'ecosystem/cli.test.ts',
  'ecosystem/long-form.test.ts',
  'ecosystem/parquet-long.test.ts',
  'ecosystem/parquet.test.ts',
  'gate/determinism.test.ts',
  'gate/queries-file.test.ts',
  'gate/runs.test.ts',
  'gate/seeds.test.ts',
  'github/artifact-download.test.ts',
  'github/comment.test.ts',
  'github/exam-files.test.ts',
  'github/history.test.ts',
  'github/ledger.test.ts',
  'github/reference.test.ts',
  'github/workflow-checks.test.ts',
  'hostile/bounded-cli.test.ts',
  'hostile/non-finite.test.ts',
  'hostile/output-escaping.test.ts',
  'hostile/parquet.test.ts',
  'hostile/rows.test.ts',
  'property/exam.test.ts',
  'property/golden.test.ts',
  'property/nested-json.test.ts',
  'property/parsers.test.ts',
  'property/stats.test.ts',
  'report/answer-grown.test.ts',
  'report/cli-format.test.ts',
  'report/gfm.test.ts',
  'report/html.test.ts',
  'report/one-unit.test.ts',
  'report/units.test.ts',
  'stats/bootstrap.test.ts',
  'stats/calibration.test.ts',
  'stats/histogram-bootstrap.test.ts',
  'stats/order-statistics.test.ts',
  'stats/poisson.test.ts',
  'stats/resample-cache.test.ts',
  'stats/resampling.test.ts',
  'trust/judge-gate.test.ts'
]

/** A regular expression for each {@link HEAVY} file, as jest matches test paths. */
export const HEAVY_PATTERNS = HEAVY.map((file) => `/__tests__/${file.replace(/\./g, '\\.')}$`)

export default {
  ...base,
  testMatch: ['**/*.test.ts'],
  testPathIgnorePatterns: ['/node_modules/', SLOW, ...HEAVY_PATTERNS],
  // jest's default is one worker fewer than the cores: a single worker on a 2-core machine, where two finish the
  // fast loop in about half the time (the main process only hands out files). `--maxWorkers=N` still overrides.
  maxWorkers: Math.max(2, availableParallelism() - 1)
}

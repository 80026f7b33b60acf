#!/usr/bin/env node
/**
 * npm run calibrate:poisson — the calibration rows of the Poisson bootstrap (bench/calibration/poisson.ts):
 * the cells of `npm run calibrate` (true difference exactly at a non-inferiority margin of -0.02; binary and
 * continuous; 50 to 5,000 queries; clustered and not), each simulated evaluation resampled with Poisson(1)
 * weights (percentile and BCa) and, on the same data, by the multinomial bootstrap, so the rows compare.
 *
 *   node scripts/calibrate-poisson.js [--simulations 1000] [--resamples 1000] [--quick]
 *
 * Targets as in calibrate.js: coverage 0.93-0.97 at nominal 0.95 for n >= 200, false pass <= 0.025 + 0.01.
 * Deterministic: same options, same table. Compiles src/ with tsc into build/calibrate (gitignored).
 */
import { execFileSync } from 'node:child_process'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const argv = process.argv.slice(2)
const opt = (name, fallback) => {
  const i = argv.indexOf(name)
  return i >= 0 ? Number(argv[i + 1]) : fallback
}
const quick = argv.includes('--quick')
const SIMS = opt('--simulations', quick ? 200 : 1000)
const RESAMPLES = opt('--resamples', quick ? 500 : 1000)
const out = join(root, 'build', 'calibrate')
execFileSync(
  process.execPath,
  [join(root, 'node_modules/typescript/bin/tsc'), '-p', join(root, 'bench/tsconfig.json')],
  { stdio: 'inherit' }
)
const { runPoissonCell } = await import(pathToFileURL(join(out, 'bench/calibration/poisson.js')).href)
const { MARGIN } = await import(pathToFileURL(join(out, 'bench/calibration/poisson-cells.js')).href)

const cells = [
  { kind: 'binary', queries: 50, clusterSize: 1 },
  { kind: 'binary', queries: 200, clusterSize: 1 },
  { kind: 'binary', queries: 1000, clusterSize: 1 },
  { kind: 'binary', queries: 5000, clusterSize: 1 },
  { kind: 'continuous', queries: 50, clusterSize: 1 },
  { kind: 'continuous', queries: 200, clusterSize: 1 },
  { kind: 'continuous', queries: 1000, clusterSize: 1 },
  { kind: 'continuous', queries: 5000, clusterSize: 1 },
  { kind: 'binary', queries: 500, clusterSize: 10 },
  { kind: 'continuous', queries: 200, clusterSize: 10 },
  { kind: 'continuous', queries: 1000, clusterSize: 10 }
]
console.log(
  `Poisson bootstrap: ${SIMS} simulations per row, ${RESAMPLES} resamples each, nominal 95% two-sided; true difference = -margin = ${-MARGIN}`
)
console.log('')
console.log('| metric | queries | clusters | method | coverage | false pass | within targets |')
console.log('| - | - | - | - | - | - | - |')
const t0 = Date.now()
for (const cell of cells) {
  for (const r of runPoissonCell(cell, SIMS, RESAMPLES)) {
    const ok = r.coverage >= 0.93 && r.coverage <= 0.97 && r.falsePass <= 0.035
    const verdict = ok ? 'yes' : cell.queries >= 200 ? '**no**' : 'no (small n)'
    const clusters = cell.clusterSize > 1 ? `${cell.queries / cell.clusterSize} of ${cell.clusterSize}` : '-'
    console.log(
      `| ${cell.kind} | ${cell.queries} | ${clusters} | ${r.method} | ${r.coverage.toFixed(3)} | ${r.falsePass.toFixed(3)} | ${verdict} |`
    )
  }
}
console.log('')
console.log(
  `Monte Carlo standard error: coverage ±${Math.sqrt((0.95 * 0.05) / SIMS).toFixed(3)}, false pass ±${Math.sqrt((0.025 * 0.975) / SIMS).toFixed(3)}; ${((Date.now() - t0) / 1000).toFixed(0)} s.`
)

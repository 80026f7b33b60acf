#!/usr/bin/env node
/**
 * npm run calibrate — the calibration study of the gate's statistics (src/stats/calibration.ts).
 *
 *   node scripts/calibrate.js [--simulations 1000] [--resamples 1000] [--quick]
 *
 * Compiles src/ with tsc into build/calibrate (gitignored) and runs simulated evaluations whose true
 * difference sits exactly at a non-inferiority margin (-0.02), for binary and continuous metrics, several
 * sizes, clustered and not. Prints per method the interval coverage (target 0.93-0.97 at nominal 0.95 for
 * n >= 200) and the false-pass rate of the check (target <= 0.025 + 0.01 for the lower end of a two-sided
 * 95% interval), as a Markdown table. Deterministic: same options, same table.
 *
 * Then the seed-replicates table (src/stats/seed-calibration.ts): coverage of the two-level interval (seeds,
 * then queries) with 2, 3 and 5 seeds per side, under no / comparable / dominant training noise, next to the
 * query-only interval over the seed-averaged rows. `--seeds` prints only this table.
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
execFileSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', join(root, 'tsconfig.build.json'), '--outDir', out], { stdio: 'inherit' })
const { runCell, MARGIN } = await import(pathToFileURL(join(out, 'stats/calibration.js')).href)
const { runSeedCell } = await import(pathToFileURL(join(out, 'stats/seed-calibration.js')).href)
const seedsOnly = argv.includes('--seeds')

const cells = [
  { kind: 'binary', queries: 50, clusterSize: 1 },
  { kind: 'binary', queries: 200, clusterSize: 1 },
  { kind: 'binary', queries: 1000, clusterSize: 1 },
  { kind: 'continuous', queries: 50, clusterSize: 1 },
  { kind: 'continuous', queries: 200, clusterSize: 1 },
  { kind: 'continuous', queries: 1000, clusterSize: 1 },
  { kind: 'binary', queries: 500, clusterSize: 10 },
  { kind: 'continuous', queries: 200, clusterSize: 10 },
  { kind: 'continuous', queries: 1000, clusterSize: 10 }
]
if (!seedsOnly) queryTable()
seedTable()

function queryTable() {
  console.log(`${SIMS} simulations per row, ${RESAMPLES} resamples each, nominal 95% two-sided; true difference = -margin = ${-MARGIN}`)
  console.log('')
  console.log('| metric | queries | clusters | method | coverage | false pass | within targets |')
  console.log('| - | - | - | - | - | - | - |')
  const t0 = Date.now()
  for (const cell of cells) {
    for (const r of runCell(cell, SIMS, RESAMPLES)) {
      const big = cell.queries >= 200
      const ok = r.coverage >= 0.93 && r.coverage <= 0.97 && r.falsePass <= 0.035
      const verdict = ok ? 'yes' : big ? '**no**' : 'no (small n)'
      const clusters = cell.clusterSize > 1 ? `${cell.queries / cell.clusterSize} of ${cell.clusterSize}` : '-'
      console.log(`| ${cell.kind} | ${cell.queries} | ${clusters} | ${r.method} | ${r.coverage.toFixed(3)} | ${r.falsePass.toFixed(3)} | ${verdict} |`)
    }
  }
  console.log('')
  console.log(`Monte Carlo standard error: coverage ±${Math.sqrt((0.95 * 0.05) / SIMS).toFixed(3)}, false pass ±${Math.sqrt((0.025 * 0.975) / SIMS).toFixed(3)}; ${((Date.now() - t0) / 1000).toFixed(0)} s.`)
}

function seedTable() {
  // 100 queries; per-query effect of the change SD 0.1 (query-level standard error 0.01); seed-by-query noise SD 0.05.
  const noise = [
    { label: 'none', seedSd: 0 },
    { label: 'comparable', seedSd: 0.01 },
    { label: 'dominant', seedSd: 0.03 }
  ]
  console.log('')
  console.log(`Seed replicates: ${SIMS} simulations per row, ${RESAMPLES} resamples each, nominal 95% two-sided; true difference 0;`)
  console.log('100 queries, query effect SD 0.1, seed-by-query noise SD 0.05, seed (training) SD as named.')
  console.log('')
  console.log('| training noise (seed SD) | seeds per side | two-level coverage | query-only coverage |')
  console.log('| - | - | - | - |')
  const t1 = Date.now()
  for (const { label, seedSd } of noise) {
    for (const seeds of [2, 3, 5]) {
      const r = runSeedCell({ seeds, queries: 100, querySd: 0.1, seedSd, noiseSd: 0.05 }, SIMS, RESAMPLES)
      console.log(`| ${label} (${seedSd}) | ${seeds} | ${r.twoLevel.toFixed(3)} | ${r.queryOnly.toFixed(3)} |`)
    }
  }
  console.log('')
  console.log(`Monte Carlo standard error: coverage ±${Math.sqrt((0.95 * 0.05) / SIMS).toFixed(3)}; ${((Date.now() - t1) / 1000).toFixed(0)} s.`)
}

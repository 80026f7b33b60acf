#!/usr/bin/env node
/**
 * npm run calibrate — the calibration study of the gate's statistics (bench/calibration/study.ts).
 *
 *   node scripts/calibrate.js [--simulations 1000] [--resamples 1000] [--only TEXT] [--write]
 *
 * Compiles src/ and bench/ with tsc into build/calibrate (gitignored) and runs every design of issue 25 plus the
 * friendly ones: simulated evaluations whose true difference sits exactly at a non-inferiority margin, every
 * method on the same data. Prints per design and method the coverage of the 95% interval (target 0.93–0.97) and
 * the false-pass rate (target at most 0.035 at nominal one-sided 0.025), each with a Wilson 95% interval, and
 * for the gate's own method the share of evaluations it left inconclusive because the interval could not support
 * a pass. Deterministic: same options, same tables. `--write` puts the tables into
 * bench/results/calibration.md (docs/statistics.md links it) between the `<!-- calibration:start -->`
 * and `<!-- calibration:end -->` markers; `--only` keeps the designs whose name contains the text.
 */
import { execFileSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const argv = process.argv.slice(2)
const opt = (name, fallback) => {
  const i = argv.indexOf(name)
  return i >= 0 ? argv[i + 1] : fallback
}
const SIMS = Number(opt('--simulations', 1000))
const RESAMPLES = Number(opt('--resamples', 1000))
const only = opt('--only', undefined)
const out = join(root, 'build', 'calibrate')
execFileSync(
  process.execPath,
  [join(root, 'node_modules/typescript/bin/tsc'), '-p', join(root, 'bench/tsconfig.json')],
  { stdio: 'inherit' }
)
const { runStudy, tables } = await import(pathToFileURL(join(out, 'bench/calibration/study.js')).href)

const t0 = Date.now()
const rows = runStudy({
  simulations: SIMS,
  resamples: RESAMPLES,
  only: only === undefined ? undefined : (name) => name.includes(only)
})
const seconds = ((Date.now() - t0) / 1000).toFixed(0)
const body = [
  `\`npm run calibrate\`: ${SIMS} simulations per design, ${RESAMPLES} resamples per bootstrap, nominal 95% two-sided (one-sided 0.025 at the margin); ${seconds} s on this machine. In brackets: Wilson 95% intervals of each rate. **Bold**: the gate's own method (statistics.interval auto).`,
  '',
  ...tables(rows)
]
console.log(body.join('\n'))
if (argv.includes('--write')) {
  const file = join(root, 'bench/results/calibration.md')
  const doc = readFileSync(file, 'utf8')
  const start = '<!-- calibration:start -->'
  const end = '<!-- calibration:end -->'
  const a = doc.indexOf(start)
  const b = doc.indexOf(end)
  if (a < 0 || b < a) throw new Error(`${file} has no ${start} ... ${end} section`)
  writeFileSync(file, `${doc.slice(0, a + start.length)}\n${body.join('\n')}\n${doc.slice(b)}`)
  console.error(`wrote the tables into ${file}`)
}

#!/usr/bin/env node
/**
 * npm run calibrate:designs — calibration as a property (bench/calibration/property.ts, docs/statistics.md):
 *
 *   node scripts/calibrate-designs.js [--seed S] [--designs 30] [--simulations 1000] [--only FAMILY] [--json FILE] [--write]
 *
 * Draws `--designs` designs from each family (bench/calibration/families.ts) with the seed (default: today's
 * draw, printed), runs the gate on `--simulations` seeded evaluations of each with every check at its truth, and
 * prints per family and check the worst false pass, how many designs break the promise (one-sided binomial test
 * against 0.035 at 1%), and the 80% detectable change next to a calibrated t oracle's. Compiles src/ and bench/
 * with tsc into build/calibrate first. `--write` puts the table into bench/results/calibration-designs.md
 * (docs/statistics.md links it) between the `<!-- property:start -->` and `<!-- property:end -->` markers; `--json`
 * writes every design's row.
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
const seed = opt('--seed', 'property-32')
const designsPerFamily = Number(opt('--designs', 30))
const simulations = Number(opt('--simulations', 1000))
const only = opt('--only', undefined)
const out = join(root, 'build', 'calibrate')
if (!argv.includes('--no-build'))
  execFileSync(
    process.execPath,
    [join(root, 'node_modules/typescript/bin/tsc'), '-p', join(root, 'bench/tsconfig.json')],
    {
      stdio: 'inherit'
    }
  )
const { runProperty, propertyTables } = await import(pathToFileURL(join(out, 'bench/calibration/property.js')).href)
const t0 = Date.now()
const rows = runProperty({
  seed,
  designsPerFamily,
  simulations,
  only: only === undefined ? undefined : (f) => only.split(',').includes(f),
  progress: (done, total, d) => process.stderr.write(`\r${done}/${total} ${d.family} #${d.index}        `)
})
process.stderr.write('\n')
const seconds = ((Date.now() - t0) / 1000).toFixed(0)
const body = [
  `\`npm run calibrate:designs -- --seed ${seed} --designs ${designsPerFamily} --simulations ${simulations}\`: ${rows.length} checks of ${new Set(rows.map((r) => `${r.family}/${r.design}`)).size} drawn designs, ${simulations} evaluations each; ${seconds} s on this machine.`,
  '',
  ...propertyTables(rows, seed)
]
console.log(body.join('\n'))
const json = opt('--json', undefined)
if (json !== undefined) writeFileSync(json, JSON.stringify(rows, null, 1))
if (argv.includes('--write')) {
  const file = join(root, 'bench/results/calibration-designs.md')
  const doc = readFileSync(file, 'utf8')
  const start = '<!-- property:start -->'
  const end = '<!-- property:end -->'
  const a = doc.indexOf(start)
  const b = doc.indexOf(end)
  if (a < 0 || b < a) throw new Error(`${file} has no ${start} ... ${end} section`)
  writeFileSync(file, `${doc.slice(0, a + start.length)}\n${body.join('\n')}\n${doc.slice(b)}`)
  console.error(`wrote the table into ${file}`)
}

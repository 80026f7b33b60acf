// npm run bench: every benchmark, each printing our figures beside the reference tool's, measured in the
// same run (whole process against whole process). Build first: npm run bundle.
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'

for (const script of ['scripts/bench-metrics.js', 'scripts/bench-stats.js']) {
  if (!existsSync(script)) continue
  console.log(`\n=== ${script} ===`)
  const r = spawnSync(process.execPath, [script, ...process.argv.slice(2)], { stdio: 'inherit' })
  if (r.status !== 0) process.exitCode = r.status ?? 1
}

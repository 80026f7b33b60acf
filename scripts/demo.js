// npm run demo: gates the example evaluation and prints the report. Exits 0 whatever the verdict (the
// example is built to fail on purpose: recall rises on average while new users regress).
import { spawnSync } from 'node:child_process'

const r = spawnSync(
  process.execPath,
  [
    'dist/cli.js',
    'gate',
    '--rules',
    'examples/rules.yml',
    '--baseline',
    'examples/baseline.jsonl',
    '--candidate',
    'examples/candidate.jsonl',
    '--json',
    'examples/report.json',
    '--markdown',
    'examples/report.md',
    '--html',
    'examples/report.html'
  ],
  { stdio: ['ignore', 'inherit', 'inherit'] }
)
const words = { 0: 'pass (exit 0)', 1: 'fail (exit 1): a rule was not met', 2: 'unusable input (exit 2)' }
console.log(
  `\nverdict: ${words[r.status] ?? `exit ${r.status}`}; reports written to examples/report.md, examples/report.json and examples/report.html`
)
process.exit(r.status === 0 || r.status === 1 ? 0 : (r.status ?? 1))

#!/usr/bin/env node
/**
 * npm run bench:stats — the whole gate CLI against scipy.stats.bootstrap on the same five intervals.
 *
 *   node scripts/bench-stats.js [--queries 7000] [--resamples 10000] [--runs 3] [--cli dist/cli.js]
 *
 * Data: 7,000 queries x 5 metrics (two binary hit@k, two 0..1 scores, latency in ms), generated once,
 * seeded, into bench-data/ (gitignored). Rules: five non_inferior checks, 10,000 resamples, `interval: percentile`.
 *
 * Timed as whole processes, wall clock, best of --runs:
 *   gate:  node dist/cli.js gate --rules R --baseline B --candidate C --json F   (after `npm run bundle`);
 *          it also runs a 10,000-flip randomization test, the t cross-check and McNemar for every metric.
 *   scipy: python3 reading the same two JSONL files, then per metric
 *          scipy.stats.bootstrap((base, cand), lambda b, c, axis: np.mean(c - b, axis=axis), paired=True,
 *          vectorized=True, method='percentile', n_resamples=10000, confidence_level=0.95).
 * The two sets of intervals must agree within Monte Carlo error (0.1 of the interval width).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { best as bestOf, opt, rng, root, scipyBootstrapScript, recordOutput } from './bench-common.js'

recordOutput('bench-stats.js')

const QUERIES = Number(opt('--queries', 7000))
const RESAMPLES = Number(opt('--resamples', 10000))
const RUNS = Number(opt('--runs', 3))
const CLI = opt('--cli', join(root, 'dist/cli.js'))
const dir = join(root, 'bench-data', `stats-${QUERIES}`)
const METRICS = ['hit@10', 'hit@3', 'recall@10', 'ndcg@10', 'latency_ms']

function generate() {
  mkdirSync(dir, { recursive: true })
  const r = rng(4)
  const b = []
  const c = []
  const clip = (x) => Math.min(1, Math.max(0, Math.round(x * 10000) / 10000))
  for (let i = 0; i < QUERIES; i++) {
    const id = `q${String(i).padStart(6, '0')}`
    const skill = r()
    const row = (shift) => ({
      query_id: id,
      'hit@10': r() < skill + shift ? 1 : 0,
      'hit@3': r() < skill * 0.8 + shift ? 1 : 0,
      'recall@10': clip(skill + shift + (r() - 0.5) * 0.3),
      'ndcg@10': clip(skill * 0.9 + shift + (r() - 0.5) * 0.3),
      latency_ms: Math.round((40 + r() * 30 + shift * 100) * 10) / 10,
      segment: skill < 0.3 ? 'new' : 'established'
    })
    b.push(JSON.stringify(row(0)))
    c.push(JSON.stringify(row(0.01)))
  }
  writeFileSync(join(dir, 'baseline.jsonl'), b.join('\n') + '\n')
  writeFileSync(join(dir, 'candidate.jsonl'), c.join('\n') + '\n')
  const rules = [
    'version: 1',
    'metrics:',
    '  hit@10: { better: higher, binary: true }',
    '  hit@3: { better: higher, binary: true }',
    '  recall@10: { better: higher, range: [0, 1] }',
    '  ndcg@10: { better: higher, range: [0, 1] }',
    '  latency_ms: { better: lower, unit: ms }',
    // The percentile bootstrap, as scipy computes it: this bench times the resampling engine against scipy's
    // (the default interval, auto, draws no bootstrap at all).
    `statistics: { confidence: 0.95, resamples: ${RESAMPLES}, seed: 1, interval: percentile }`,
    'checks:',
    ...METRICS.map(
      (m) =>
        `  - { name: ${m} holds, metric: "${m}", non_inferior: { margin: ${m === 'latency_ms' ? '"10%"' : 0.01} } }`
    )
  ]
  writeFileSync(join(dir, 'rules.yml'), rules.join('\n') + '\n')
  writeFileSync(join(dir, 'scipy_bootstrap.py'), scipyBootstrapScript(METRICS, RESAMPLES))
}

const best = (cmd, args) => bestOf(cmd, args, RUNS).then((r) => ({ ...r, seconds: r.wall }))

if (
  !existsSync(join(dir, 'rules.yml')) ||
  !readFileSync(join(dir, 'rules.yml'), 'utf8').includes('interval: percentile')
)
  generate()
if (!existsSync(CLI)) throw new Error(`${CLI} not found: run npm run bundle first`)
const report = join(dir, 'report.json')
const gate = await best(process.execPath, [
  CLI,
  'gate',
  '--rules',
  join(dir, 'rules.yml'),
  '--baseline',
  join(dir, 'baseline.jsonl'),
  '--candidate',
  join(dir, 'candidate.jsonl'),
  '--json',
  report
])
const python = process.env.PYTHON ?? (existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3')
const scipy = await best(python, [
  join(dir, 'scipy_bootstrap.py'),
  join(dir, 'baseline.jsonl'),
  join(dir, 'candidate.jsonl')
])
const ours = JSON.parse(readFileSync(report, 'utf8')).comparisons
const theirs = JSON.parse(scipy.stdout)
console.log(
  `${QUERIES} queries x ${METRICS.length} metrics x ${RESAMPLES} resamples, best of ${RUNS} (wall clock, whole process)`
)
console.log('')
console.log('| metric | gate 95% CI | scipy 95% CI |')
console.log('| - | - | - |')
let agree = true
for (const m of METRICS) {
  const c = ours.find((x) => x.metric === m && Object.keys(x.slice).length === 0)
  const s = theirs[m]
  const width = s[1] - s[0]
  if (Math.abs(c.ci[0] - s[0]) > 0.1 * width || Math.abs(c.ci[1] - s[1]) > 0.1 * width) agree = false
  console.log(`| ${m} | [${c.ci[0].toFixed(5)}, ${c.ci[1].toFixed(5)}] | [${s[0].toFixed(5)}, ${s[1].toFixed(5)}] |`)
}
console.log('')
const cpu = (r) => (r.cpu === null ? 'n/a' : r.cpu.toFixed(2))
console.log(`| tool | wall seconds | CPU seconds |`)
console.log(`| - | - | - |`)
console.log(`| retrieval-gate gate (node ${process.version}) | ${gate.seconds.toFixed(2)} | ${cpu(gate)} |`)
console.log(`| scipy.stats.bootstrap (${python}) | ${scipy.seconds.toFixed(2)} | ${cpu(scipy)} |`)
console.log('')
console.log(
  `ratio gate / scipy: ${(gate.seconds / scipy.seconds).toFixed(3)} wall (goal <= 0.100)${gate.cpu !== null ? `, ${(gate.cpu / scipy.cpu).toFixed(3)} CPU` : ''}; intervals ${agree ? 'agree' : 'DISAGREE'} within 0.1 of their width`
)
if (!agree) process.exitCode = 1

#!/usr/bin/env node
/**
 * npm run bench:scale — how the whole gate CLI grows with the number of queries and of slice values.
 *
 *   node scripts/bench-scale.js [--cli dist/cli.js] [--runs 3] [--resamples 10000] [--rows 1e3,1e4,1e5,1e6]
 *                               [--slices 1,1000,7000,20000] [--scipy-max 100000] [--formats csv,parquet]
 *                               [--interval percentile|bca|auto]
 *
 * Data (generated once, seeded, into bench-data/scale-*; gitignored): the five metrics of bench-stats.js
 * (hit@10, hit@3 binary; recall@10, ndcg@10 in 0..1 rounded to 1e-4; latency_ms rounded to 0.1 ms), plus an
 * attribute `bucket` with S distinct values (query i has value i mod S). Rules: five non_inferior checks,
 * 10,000 resamples, 10,000 sign flips, the default interval (or --interval); the slice rows add `slices: [bucket]`.
 *
 * Rows:
 *   queries N = 10^3 .. 10^6, no slices;
 *   7,000 queries with S = 1 .. 20,000 slice values (S = N: every slice holds one query; the 20,000 row has
 *   20,000 queries, one per value). "slices add" = that row minus the same data without slices.
 * Each row is the whole CLI as a child process (node dist/cli.js gate ... --json F --markdown F), wall clock
 * and peak RSS from /usr/bin/time (median of --runs), and, where it can run (N <= --scipy-max), scipy's paired
 * bootstrap of the same five metrics on the same files in the same run (scripts/bench-stats.js's script:
 * scipy.stats.bootstrap((base, cand), mean-of-difference, paired=True, vectorized=True, method='percentile',
 * n_resamples=10000)). The machine may be shared: every figure is the median of --runs, the spread is printed.
 * --formats: the largest N of --rows again as CSV and as Parquet (hyparquet-writer, a dev dependency; one row
 * group per 100,000 rows), each checked to give the JSON Lines run's checks and comparisons.
 * --continuous 7e3,1e6: the continuous-valued dataset (five metrics with about one distinct difference per query:
 * two judge scores and a cosine similarity at full precision, latency in µs, graded nDCG@10), percentile, with
 * scipy where N <= --scipy-max; --methods auto,multinomial,poisson runs it under each statistics.method.
 */
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { cpus, loadavg } from 'node:os'
import { join } from 'node:path'
import { measure, opt, rng, root, scipyBootstrapScript, writeLines, recordOutput } from './bench-common.js'

recordOutput('bench-scale.js')

const RUNS = Number(opt('--runs', 3))
const RESAMPLES = Number(opt('--resamples', 10000))
const CLI = opt('--cli', join(root, 'dist/cli.js'))
const ROWS = opt('--rows', '1e3,1e4,7e3,1e5,1e6')
  .split(',')
  .filter((x) => x !== '')
  .map((x) => Math.round(Number(x)))
const SLICES = opt('--slices', '1,100,1000,7000,20000')
  .split(',')
  .filter((x) => x !== '')
  .map((x) => Math.round(Number(x)))
const SCIPY_MAX = Number(opt('--scipy-max', 10000))
/** statistics.interval of the rules ('' = the default, auto): percentile times the resampling engine (the default before issue 25). */
const INTERVAL = opt('--interval', '')
const FORMATS = opt('--formats', '')
  .split(',')
  .filter((f) => f !== '')
const METRICS = ['hit@10', 'hit@3', 'recall@10', 'ndcg@10', 'latency_ms']
const CONTINUOUS_ROWS = opt('--continuous', '7e3,1e6')
  .split(',')
  .filter((x) => x !== '')
  .map((x) => Math.round(Number(x)))
const CONTINUOUS = ['faithfulness', 'answer_relevancy', 'cosine', 'latency_us', 'ndcg@10']
/**
 * statistics.interval of the continuous rows: --interval when given (auto: the default, which draws no bootstrap),
 * else percentile, so that these rows time the resampling (the Poisson bootstrap at 10^6) that issue 28 is about.
 */
const CONTINUOUS_INTERVAL = INTERVAL === '' ? 'percentile' : INTERVAL
// statistics.method of the continuous rows: one row per method (e.g. multinomial,poisson: where the laws cross over).
const METHODS = opt('--methods', 'auto').split(',')
const PYTHON = process.env.PYTHON ?? (existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3')

/** Writes baseline/candidate JSONL (N queries, `slices` distinct bucket values) and the rules, once. */
async function dataset(n, slices) {
  const dir = join(root, 'bench-data', `scale-${n}-${slices}`)
  mkdirSync(dir, { recursive: true })
  const clip = (x) => Math.min(1, Math.max(0, Math.round(x * 10000) / 10000))
  for (const [side, shift, seed] of [
    ['baseline', 0, 4],
    ['candidate', 0.01, 4]
  ]) {
    // The same skill per query on both sides (same seed for it), independent noise per side.
    const skillOf = rng(seed)
    const r = rng(side === 'baseline' ? 5 : 6)
    await writeLines(join(dir, `${side}.jsonl`), n, (i) => {
      const skill = skillOf()
      return (
        JSON.stringify({
          query_id: `q${String(i).padStart(7, '0')}`,
          'hit@10': r() < skill + shift ? 1 : 0,
          'hit@3': r() < skill * 0.8 + shift ? 1 : 0,
          'recall@10': clip(skill + shift + (r() - 0.5) * 0.3),
          'ndcg@10': clip(skill * 0.9 + shift + (r() - 0.5) * 0.3),
          latency_ms: Math.round((40 + r() * 30 + shift * 100) * 10) / 10,
          bucket: `b${i % slices}`
        }) + '\n'
      )
    })
  }
  const rules = (withSlices) =>
    [
      'version: 1',
      'metrics:',
      '  hit@10: { better: higher, binary: true }',
      '  hit@3: { better: higher, binary: true }',
      '  recall@10: { better: higher, range: [0, 1] }',
      '  ndcg@10: { better: higher, range: [0, 1] }',
      '  latency_ms: { better: lower, unit: ms }',
      `statistics: { confidence: 0.95, resamples: ${RESAMPLES}, seed: 1${INTERVAL ? `, interval: ${INTERVAL}` : ''} }`,
      ...(withSlices ? ['slices: [bucket]'] : []),
      'checks:',
      ...METRICS.map(
        (m) =>
          `  - { name: ${m} holds, metric: "${m}", non_inferior: { margin: ${m === 'latency_ms' ? '"10%"' : 0.01} } }`
      )
    ].join('\n') + '\n'
  writeFileSync(join(dir, 'rules.yml'), rules(false))
  writeFileSync(join(dir, 'rules-slices.yml'), rules(true))
  writeFileSync(join(dir, 'scipy_bootstrap.py'), scipyBootstrapScript(METRICS, RESAMPLES))
  return dir
}

/**
 * Continuous-valued rows (what teams gate besides grid metrics): two LLM-judge scores in [0, 1] at full precision
 * (ragas faithfulness and answer relevancy as written by Python's repr), a cosine similarity, latency in integer
 * microseconds (log-normal, median 80 ms) and nDCG@10 with graded gains (0..3) at full precision: about as many
 * distinct per-query differences as queries in every column. The same skill per query on both sides, independent
 * noise per side, the candidate a little better. Rules: five non_inferior checks, percentile, 10,000 resamples.
 */
async function continuousDataset(n) {
  const dir = join(root, 'bench-data', `scale-continuous-${n}`)
  mkdirSync(dir, { recursive: true })
  const clip01 = (x) => Math.min(1, Math.max(0, x))
  const log2 = Array.from({ length: 10 }, (_, i) => 1 / Math.log2(i + 2))
  const dcg = (grades) => grades.reduce((s, g, i) => s + (2 ** g - 1) * log2[i], 0)
  for (const [side, shift] of [
    ['baseline', 0],
    ['candidate', 0.01]
  ]) {
    const skillOf = rng(14)
    const r = rng(side === 'baseline' ? 15 : 16)
    await writeLines(join(dir, `${side}.jsonl`), n, (i) => {
      const skill = skillOf()
      const judged = 1 + Math.floor(skillOf() * 12)
      // Ten retrieved documents graded 0..3 (better with skill), and the ideal ranking of the judged ones.
      const grades = Array.from({ length: 10 }, () => Math.min(3, Math.floor(r() * 4 * (skill + shift + 0.2))))
      const ideal = [...grades, ...Array.from({ length: judged }, () => 1 + Math.floor(skillOf() * 3))]
        .sort((a, b) => b - a)
        .slice(0, 10)
      const normal = Math.sqrt(-2 * Math.log(1 - r())) * Math.cos(2 * Math.PI * r())
      return (
        JSON.stringify({
          query_id: `q${String(i).padStart(7, '0')}`,
          faithfulness: clip01(skill + shift + (r() - 0.5) * 0.4),
          answer_relevancy: clip01(0.3 + 0.6 * skill + shift + (r() - 0.5) * 0.3),
          cosine: Math.min(1, 0.55 + 0.35 * skill + shift + (r() - 0.5) * 0.2),
          latency_us: Math.round(80000 * Math.exp(0.5 * normal - shift)),
          'ndcg@10': dcg(grades) / dcg(ideal)
        }) + '\n'
      )
    })
  }
  for (const method of METHODS)
    writeFileSync(
      join(dir, method === 'auto' ? 'rules.yml' : `rules-${method}.yml`),
      [
        'version: 1',
        'metrics:',
        '  faithfulness: { better: higher, range: [0, 1] }',
        '  answer_relevancy: { better: higher, range: [0, 1] }',
        '  cosine: { better: higher, range: [-1, 1] }',
        '  latency_us: { better: lower, unit: µs }',
        '  ndcg@10: { better: higher, range: [0, 1] }',
        `statistics: { confidence: 0.95, resamples: ${RESAMPLES}, seed: 1, interval: ${CONTINUOUS_INTERVAL}${method === 'auto' ? '' : `, method: ${method}`} }`,
        'checks:',
        ...CONTINUOUS.map(
          (m) =>
            `  - { name: ${m} holds, metric: "${m}", non_inferior: { margin: ${m === 'latency_us' ? '"10%"' : 0.01} } }`
        )
      ].join('\n') + '\n'
    )
  writeFileSync(join(dir, 'scipy_bootstrap.py'), scipyBootstrapScript(CONTINUOUS, RESAMPLES))
  return dir
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b)
  const m = s.length >> 1
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2
}

/** Median wall seconds and peak MiB of `runs` runs, with the spread (min..max wall). */
async function timed(cmd, args, options = {}) {
  const walls = []
  const peaks = []
  const cpus = []
  for (let i = 0; i < RUNS; i++) {
    const r = await measure(cmd, args, options)
    walls.push(r.wall)
    if (r.peakMiB !== null) peaks.push(r.peakMiB)
    if (r.cpu !== null) cpus.push(r.cpu)
  }
  return {
    wall: median(walls),
    min: Math.min(...walls),
    max: Math.max(...walls),
    peak: peaks.length ? median(peaks) : null,
    cpu: cpus.length ? median(cpus) : null
  }
}

async function gate(dir, rulesFile) {
  const json = join(dir, `report-${rulesFile}.json`)
  const md = join(dir, `report-${rulesFile}.md`)
  const t = await timed(process.execPath, [
    CLI,
    'gate',
    '--rules',
    join(dir, rulesFile),
    '--baseline',
    join(dir, 'baseline.jsonl'),
    '--candidate',
    join(dir, 'candidate.jsonl'),
    '--json',
    json,
    '--markdown',
    md
  ])
  return { ...t, jsonMiB: statSync(json).size / 2 ** 20, mdKiB: statSync(md).size / 1024 }
}

const fmt = (t) => `${t.wall.toFixed(2)} (${t.min.toFixed(2)}-${t.max.toFixed(2)})`
const cpu = (t) => (t.cpu === null ? 'n/a' : t.cpu.toFixed(2))
const mib = (x) => (x === null ? 'n/a' : x.toFixed(0))

if (!existsSync(CLI)) throw new Error(`${CLI} not found: run npm run bundle first (or pass --cli)`)
console.log(
  `retrieval-gate ${CLI} on node ${process.version}; ${METRICS.length} metrics x ${RESAMPLES} resamples; median of ${RUNS} runs (min-max), whole process`
)
console.log(
  `machine: ${cpus().length} cores, load average ${loadavg()
    .map((x) => x.toFixed(1))
    .join(' / ')} at the start (a loaded machine stretches wall time; CPU time less so)`
)
// A python without scipy exits 1 on the import: say so once instead of timing a crash as scipy's run.
const scipyMissing = await measure(PYTHON, ['-c', 'import scipy'], { ok: [0] }).then(
  () => null,
  (error) => error.message.split('\n').pop()
)
if (scipyMissing !== null)
  console.log(`scipy not run: ${PYTHON} -c 'import scipy' failed (${scipyMissing}); set PYTHON to a python3 with scipy`)
if (ROWS.length > 0) {
  console.log('')
  console.log(
    '| queries | gate wall s | gate CPU s | gate peak MiB | JSON MiB | Markdown KiB | scipy wall s | scipy CPU s | scipy peak MiB | gate / scipy (wall) |'
  )
  console.log('| -: | -: | -: | -: | -: | -: | -: | -: | -: | -: |')
}
for (const n of ROWS) {
  const dir = await dataset(n, 1)
  const g = await gate(dir, 'rules.yml')
  let s = null
  if (n <= SCIPY_MAX && scipyMissing === null)
    s = await timed(
      PYTHON,
      [join(dir, 'scipy_bootstrap.py'), join(dir, 'baseline.jsonl'), join(dir, 'candidate.jsonl')],
      { ok: [0] }
    )
  console.log(
    `| ${n} | ${fmt(g)} | ${cpu(g)} | ${mib(g.peak)} | ${g.jsonMiB.toFixed(2)} | ${g.mdKiB.toFixed(0)} | ${s ? fmt(s) : scipyMissing === null ? 'not run' : 'no scipy'} | ${s ? cpu(s) : ''} | ${s ? mib(s.peak) : ''} | ${s ? (g.wall / s.wall).toFixed(3) : ''} |`
  )
}
if (SLICES.length > 0) console.log('')
if (SLICES.length > 0)
  console.log(
    '| queries | slice values | gate wall s | gate CPU s | gate peak MiB | JSON MiB | Markdown KiB | without slices: wall s | CPU s | peak MiB | slices add: wall s | CPU s | MiB |'
  )
if (SLICES.length > 0) console.log('| -: | -: | -: | -: | -: | -: | -: | -: | -: | -: | -: | -: | -: |')
for (const s of SLICES) {
  const n = Math.max(7000, s)
  const dir = await dataset(n, s)
  const plain = await gate(dir, 'rules.yml')
  const g = await gate(dir, 'rules-slices.yml')
  const addMiB = g.peak !== null && plain.peak !== null ? (g.peak - plain.peak).toFixed(0) : 'n/a'
  const addCpu = g.cpu !== null && plain.cpu !== null ? (g.cpu - plain.cpu).toFixed(2) : 'n/a'
  console.log(
    `| ${n} | ${s} | ${fmt(g)} | ${cpu(g)} | ${mib(g.peak)} | ${g.jsonMiB.toFixed(2)} | ${g.mdKiB.toFixed(0)} | ${fmt(plain)} | ${cpu(plain)} | ${mib(plain.peak)} | ${(g.wall - plain.wall).toFixed(2)} | ${addCpu} | ${addMiB} |`
  )
}

/** The same rows as CSV and as Parquet next to the JSON Lines (written once): what users export as often. */
async function otherFormat(dir, side, format) {
  const file = join(dir, `${side}.${format}`)
  if (existsSync(file)) return file
  const records = readFileSync(join(dir, `${side}.jsonl`), 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l))
  const columns = ['query_id', ...METRICS, 'bucket']
  if (format === 'csv')
    writeFileSync(
      file,
      [columns.join(','), ...records.map((r) => columns.map((c) => r[c]).join(','))].join('\n') + '\n'
    )
  else {
    const { parquetWriteBuffer } = await import('hyparquet-writer')
    const columnData = [
      { name: 'query_id', data: records.map((r) => r.query_id), type: 'STRING' },
      ...METRICS.map((m) => ({ name: m, data: Float64Array.from(records, (r) => r[m]), type: 'DOUBLE' })),
      { name: 'bucket', data: records.map((r) => r.bucket), type: 'STRING' }
    ]
    writeFileSync(file, Buffer.from(parquetWriteBuffer({ columnData, rowGroupSize: 100000 })))
  }
  return file
}

if (FORMATS.length > 0) {
  const n = Math.max(...ROWS)
  const dir = await dataset(n, 1)
  const decisions = (file) => {
    const r = JSON.parse(readFileSync(file, 'utf8'))
    return JSON.stringify([r.checks, r.comparisons, r.regressions])
  }
  const reference = decisions(join(dir, 'report-rules.yml.json'))
  console.log('')
  console.log(
    `| ${n} queries as | gate wall s | gate CPU s | gate peak MiB | input MiB per side | same checks and comparisons as JSON Lines |`
  )
  console.log('| - | -: | -: | -: | -: | - |')
  for (const format of FORMATS) {
    const b = await otherFormat(dir, 'baseline', format)
    const c = await otherFormat(dir, 'candidate', format)
    const json = join(dir, `report-${format}.json`)
    const t = await timed(process.execPath, [
      CLI,
      'gate',
      '--rules',
      join(dir, 'rules.yml'),
      '--baseline',
      b,
      '--candidate',
      c,
      '--json',
      json,
      '--markdown',
      join(dir, `report-${format}.md`)
    ])
    console.log(
      `| ${format} | ${fmt(t)} | ${cpu(t)} | ${mib(t.peak)} | ${(statSync(b).size / 2 ** 20).toFixed(0)} | ${decisions(json) === reference ? 'yes' : 'NO'} |`
    )
  }
}

if (CONTINUOUS_ROWS.length > 0) {
  console.log('')
  console.log(
    `Continuous-valued metrics (${CONTINUOUS.join(', ')}: about one distinct difference per query), statistics.interval: ${CONTINUOUS_INTERVAL}`
  )
  console.log('')
  console.log(
    '| queries | statistics.method | gate wall s | gate CPU s | gate peak MiB | JSON MiB | scipy wall s | scipy CPU s | scipy peak MiB | gate / scipy (wall) |'
  )
  console.log('| -: | - | -: | -: | -: | -: | -: | -: | -: | -: |')
  for (const n of CONTINUOUS_ROWS) {
    const dir = await continuousDataset(n)
    let s = null
    if (n <= SCIPY_MAX && scipyMissing === null)
      s = await timed(
        PYTHON,
        [join(dir, 'scipy_bootstrap.py'), join(dir, 'baseline.jsonl'), join(dir, 'candidate.jsonl')],
        { ok: [0] }
      )
    for (const method of METHODS) {
      const g = await gate(dir, method === 'auto' ? 'rules.yml' : `rules-${method}.yml`)
      const ratio = s ? (g.wall / s.wall).toFixed(3) : ''
      console.log(
        `| ${n} | ${method} | ${fmt(g)} | ${cpu(g)} | ${mib(g.peak)} | ${g.jsonMiB.toFixed(2)} | ${s ? fmt(s) : scipyMissing === null ? 'not run' : 'no scipy'} | ${s ? cpu(s) : ''} | ${s ? mib(s.peak) : ''} | ${ratio} |`
      )
    }
  }
}

/**
 * --against OTHER_CLI: the same gates with another build (an earlier commit's bundle) in this run, the two
 * interleaved run by run, so that "no slower than before" is a ratio taken on one machine state.
 */
const AGAINST = opt('--against', '')
if (AGAINST !== '') {
  if (!existsSync(AGAINST)) throw new Error(`${AGAINST} not found`)
  console.log('')
  console.log(`This CLI against ${AGAINST}, interleaved, median of ${RUNS} runs each`)
  console.log('')
  console.log(
    '| data | queries | this wall s | this CPU s | this peak MiB | other wall s | other CPU s | other peak MiB | this / other (CPU) |'
  )
  console.log('| - | -: | -: | -: | -: | -: | -: | -: | -: |')
  const pairs = [
    ...ROWS.map((n) => ['grid', n]),
    ...CONTINUOUS_ROWS.filter((n) => n <= 100000).map((n) => ['continuous', n])
  ]
  for (const [kind, n] of pairs) {
    const dir = kind === 'grid' ? await dataset(n, 1) : await continuousDataset(n)
    const args = (cli) => [
      cli,
      'gate',
      '--rules',
      join(dir, 'rules.yml'),
      '--baseline',
      join(dir, 'baseline.jsonl'),
      '--candidate',
      join(dir, 'candidate.jsonl'),
      '--json',
      join(dir, 'ab.json'),
      '--markdown',
      join(dir, 'ab.md')
    ]
    const mine = []
    const theirs = []
    for (let i = 0; i < RUNS; i++) {
      mine.push(await measure(process.execPath, args(CLI)))
      theirs.push(await measure(process.execPath, args(AGAINST)))
    }
    const med = (rs, key) => median(rs.map((r) => r[key]))
    console.log(
      `| ${kind} | ${n} | ${med(mine, 'wall').toFixed(2)} | ${med(mine, 'cpu').toFixed(2)} | ${med(mine, 'peakMiB').toFixed(0)} | ${med(theirs, 'wall').toFixed(2)} | ${med(theirs, 'cpu').toFixed(2)} | ${med(theirs, 'peakMiB').toFixed(0)} | ${(med(mine, 'cpu') / med(theirs, 'cpu')).toFixed(2)} |`
    )
  }
}

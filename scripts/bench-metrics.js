#!/usr/bin/env node
/**
 * Benchmark of `metrics` against trec_eval on a 7,000-query x 1,000-document TREC run (7M lines).
 *
 *   node scripts/bench-metrics.js                    # uses dist/cli.js (after `npm run bundle`)
 *   node scripts/bench-metrics.js --cli path/cli.js  # any CLI exposing `metrics`
 *   node scripts/bench-metrics.js --build /tmp/rg    # tsc output dir (npx tsc -p tsconfig.build.json --outDir /tmp/rg)
 *   options: --queries N --docs N --runs N (repeat each timing, best kept) --peers PYTHON (also time pytrec_eval and
 *            ranx, with that python: scripts/bench-peers.py)  env TREC_EVAL=path, RG_PEERS_PYTHON=python
 *
 * Data is generated deterministically (seeded) into bench-data/ (gitignored) once and reused. Each tool is
 * timed as a whole process: wall time and peak RSS (from /usr/bin/time -v when present, else /proc polling).
 * The `all` values of both must agree to 4 decimals.
 */
import { closeSync, existsSync, mkdirSync, openSync, statSync, writeSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { best as bestOf, measure, opt, rng, root, recordOutput } from './bench-common.js'

recordOutput('bench-metrics.js')

const QUERIES = Number(opt('--queries', 7000))
const DOCS = Number(opt('--docs', 1000))
const RUNS = Number(opt('--runs', 1))
const dataDir = join(root, 'bench-data')
const runFile = join(dataDir, `run-${QUERIES}x${DOCS}.txt`)
const qrelsFile = join(dataDir, `qrels-${QUERIES}.txt`)
const TREC_EVAL = process.env.TREC_EVAL ?? '/work/tools/trec_eval/trec_eval'

function generate() {
  mkdirSync(dataDir, { recursive: true })
  if (existsSync(runFile) && existsSync(qrelsFile)) return
  const rand = rng(20240607)
  const run = openSync(runFile + '.tmp', 'w')
  const qrels = openSync(qrelsFile, 'w')
  let buf = ''
  let qbuf = ''
  const pool = Math.floor(DOCS * 1.5)
  const perm = new Uint32Array(pool)
  for (let q = 0; q < QUERIES; q++) {
    const qid = String(q + 1)
    // this query's candidate documents d0..d(pool-1) in random order (Fisher-Yates)
    for (let i = 0; i < pool; i++) perm[i] = i
    for (let i = pool - 1; i > 0; i--) {
      const j = Math.floor(rand() * (i + 1))
      const t = perm[i]
      perm[i] = perm[j]
      perm[j] = t
    }
    // 100 judgments from the pool (about two thirds of them retrieved); grades 0..3
    for (let j = 0; j < 100; j++) {
      const r = rand()
      qbuf += `${qid} 0 d${perm[Math.floor(((j + rand()) * pool) / 100)]} ${r < 0.6 ? 0 : r < 0.8 ? 1 : r < 0.93 ? 2 : 3}\n`
    }
    // the run: the first DOCS of the permutation in score order; ~10% tie with their predecessor
    let score = 30 + rand() * 10
    for (let rank = 1; rank <= DOCS; rank++) {
      if (rand() > 0.1) score -= 0.0001 + rand() * 0.02
      buf += `${qid} Q0 d${perm[rank - 1]} ${rank} ${score.toFixed(4)} run\n`
      if (buf.length > 1 << 20) {
        writeSync(run, buf)
        buf = ''
      }
    }
    if (qbuf.length > 1 << 20) {
      writeSync(qrels, qbuf)
      qbuf = ''
    }
  }
  writeSync(run, buf)
  writeSync(qrels, qbuf)
  closeSync(run)
  closeSync(qrels)
  // rename last, so an interrupted generation is not reused
  return import('node:fs').then((fs) => fs.renameSync(runFile + '.tmp', runFile))
}

const best = (cmd, args) => bestOf(cmd, args, RUNS).then((r) => ({ ...r, out: r.stdout }))

function allValues(text) {
  const values = new Map()
  for (const line of text.split('\n')) {
    const [name, qid, value] = line.split('\t')
    if (qid === 'all') values.set(name.trim(), value)
  }
  return values
}

await generate()
const size = (statSync(runFile).size / 2 ** 20).toFixed(0)
console.log(`run ${runFile} (${QUERIES} queries x ${DOCS} docs, ${size} MiB), qrels ${qrelsFile}`)

const measures = ['AP', 'RR', 'P@10', 'R@10', 'R@100', 'nDCG@10']
const trecNames = {
  map: 'AP',
  recip_rank: 'RR',
  P_10: 'P@10',
  recall_10: 'R@10',
  recall_100: 'R@100',
  ndcg_cut_10: 'nDCG@10'
}
const metricArgs = ['--qrels', qrelsFile, '--run', runFile, '-c', ...measures.flatMap((m) => ['-m', m])]

let ourCmd
const build = opt('--build')
const cli = opt('--cli', existsSync(join(root, 'dist', 'cli.js')) ? join(root, 'dist', 'cli.js') : undefined)
if (build) {
  const mod = resolve(build, 'commands', 'metrics.js')
  const driver =
    `import { metricsCommand } from ${JSON.stringify(mod)};` +
    `await metricsCommand({ qrels: ${JSON.stringify(qrelsFile)}, run: ${JSON.stringify(runFile)}, measures: ${JSON.stringify(measures)}, perQuery: false, format: 'trec', complete: true }, (t) => process.stdout.write(t))`
  ourCmd = [process.execPath, ['--input-type=module', '-e', driver]]
} else if (cli) {
  ourCmd = [process.execPath, [cli, 'metrics', ...metricArgs]]
} else {
  console.error('no CLI: run `npm run bundle` first, or pass --cli <path> or --build <tsc outDir>')
  process.exit(2)
}

const ours = await best(...ourCmd)
console.log(`retrieval-gate metrics: ${ours.wall.toFixed(2)} s wall, ${ours.peakMiB.toFixed(0)} MiB peak RSS`)

// The Python peers on the same files, in the same run, each a whole process with its own readers (optional).
const PEERS = opt('--peers', process.env.RG_PEERS_PYTHON)
if (PEERS === undefined)
  console.log(
    'pytrec_eval, ranx: not run (pass --peers PYTHON: a python with them, e.g. the venv of scripts/tool-fixtures.sh)'
  )
else {
  const mine = allValues(ours.out)
  for (const tool of ['pytrec_eval', 'ranx']) {
    const probe = await measure(PEERS, ['-c', `import ${tool}`], { ok: [0] }).catch(() => null)
    if (probe === null) {
      console.log(`${tool}: not importable by ${PEERS}: skipped`)
      continue
    }
    const peer = await bestOf(PEERS, [join(root, 'scripts', 'bench-peers.py'), tool, qrelsFile, runFile], RUNS, {
      ok: [0]
    }).then((r) => ({ ...r, out: r.stdout }))
    const values = allValues(peer.out)
    const same = measures.filter((m) => values.get(m) === mine.get(m))
    console.log(
      `${tool.padEnd(23)} ${peer.wall.toFixed(2)} s wall, ${peer.peakMiB.toFixed(0)} MiB peak RSS; ours ${(ours.wall / peer.wall).toFixed(2)}x its time; all values agree to 4 decimals on ${same.length} of ${measures.length}${
        same.length < measures.length
          ? ` (${measures
              .filter((m) => !same.includes(m))
              .map((m) => `${m} ${values.get(m)} vs ours ${mine.get(m)}`)
              .join(', ')}${tool === 'ranx' ? ': ranx orders tied scores its own way, docs/metrics.md' : ''})`
          : ''
      }`
    )
  }
}

if (!existsSync(TREC_EVAL)) {
  console.log(`trec_eval not found at ${TREC_EVAL} (set TREC_EVAL): comparison skipped`)
  process.stdout.write(ours.out)
  process.exit(0)
}
const te = await best(TREC_EVAL, [
  '-c',
  '-m',
  'map',
  '-m',
  'recip_rank',
  '-m',
  'P.10',
  '-m',
  'recall.10,100',
  '-m',
  'ndcg_cut.10',
  qrelsFile,
  runFile
])
console.log(`trec_eval:              ${te.wall.toFixed(2)} s wall, ${te.peakMiB.toFixed(0)} MiB peak RSS`)
console.log(`ratio: ${(ours.wall / te.wall).toFixed(2)}x time, ${(ours.peakMiB / te.peakMiB).toFixed(2)}x memory`)

const mine = allValues(ours.out)
const theirs = allValues(te.out)
let ok = true
for (const [name, ourName] of Object.entries(trecNames)) {
  const a = theirs.get(name)
  const b = mine.get(ourName)
  console.log(`  ${ourName.padEnd(8)} ours ${b}  trec_eval ${a}${a === b ? '' : '  MISMATCH'}`)
  if (a !== b) ok = false
}
if (!ok) process.exit(1)

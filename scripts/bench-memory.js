#!/usr/bin/env node
/**
 * Peak memory of the CLI on ~1 GB inputs (npm run bench:memory). Generates, once, into bench-data/
 * (gitignored):
 *   - a TREC run of ~1.8 GiB (28,000 queries x 1,000 documents, grouped by query) and its qrels;
 *   - per-query rows of ~0.95 GiB per side as JSON Lines: 200,000 queries, each record carrying a ~5 KB nested "debug"
 *     object the gate does not keep (a realistic export with traces), baseline and candidate;
 *   - the same rows as Parquet (without the trace: a column the rules do not name is never read), one row group of
 *     200,000 rows per side, and the TREC run as a Parquet run table (q_id, doc_id, score) in row groups of 1 Mi rows
 *     (pyarrow's default), written by hyparquet-writer;
 * then runs the CLI on them as separate processes and prints wall time and peak RSS
 * (the child's own VmHWM at exit: Linux carries maxRSS over fork and exec, so a child's maxRSS is at least its
 * parent's, which here holds the files it wrote). Memory is bounded by what the gate must keep — one query's
 * documents at a time plus one row of values per query — not by the size of the files.
 *
 *   node scripts/bench-memory.js [--cli path/to/cli.js] [--gb 1]
 * Default CLI: a tsc build of src/ in node_modules/.cache/rg-bench-build (dist/cli.js with --cli dist/cli.js).
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { ParquetWriter, fileWriter, parquetWriteFile } from 'hyparquet-writer'
import { opt, rng, root, writeLines, recordOutput } from './bench-common.js'

recordOutput('bench-memory.js')

const GB = Number(opt('--gb', 1))
const data = join(root, 'bench-data')
mkdirSync(data, { recursive: true })

async function makeRun() {
  const queries = Math.round(28000 * GB)
  const run = join(data, `mem-run-${queries}.txt`)
  const qrels = join(data, `mem-qrels-${queries}.txt`)
  if (!existsSync(run)) {
    const r = rng(1)
    await writeLines(run, queries * 1000, (i) => {
      const q = Math.floor(i / 1000)
      const k = i % 1000
      return `query-${String(q).padStart(6, '0')} Q0 document-${String(Math.floor(r() * 1e7)).padStart(8, '0')}-${k} ${k + 1} ${(1000 - k + r()).toFixed(6)} bench-memory-run\n`
    })
    await writeLines(
      qrels,
      queries * 10,
      (i) => `query-${String(Math.floor(i / 10)).padStart(6, '0')} 0 document-x-${i % 10} ${i % 3}\n`
    )
  }
  return { run, qrels }
}

async function makeRows(name, seed) {
  const queries = Math.round(200000 * GB)
  const file = join(data, `mem-rows-${name}-${queries}.jsonl`)
  if (!existsSync(file)) {
    const r = rng(seed)
    const trace = JSON.stringify({ steps: Array.from({ length: 60 }, (_, i) => ({ step: i, tokens: 'x'.repeat(60) })) })
    await writeLines(
      file,
      queries,
      (i) =>
        `{"query_id":"q${i}","recall@10":${r().toFixed(4)},"latency_ms":${(20 + 40 * r()).toFixed(1)},"segment":"${i % 3 ? 'established' : 'new'}","debug":${trace}}\n`
    )
  }
  return file
}

/** The per-query rows of makeRows (same seed, same values), without the trace, as one Parquet row group. */
function makeParquetRows(name, seed) {
  const queries = Math.round(200000 * GB)
  const file = join(data, `mem-rows-${name}-${queries}.parquet`)
  if (!existsSync(file)) {
    const r = rng(seed)
    const ids = []
    const recall = []
    const latency = []
    const segment = []
    for (let i = 0; i < queries; i++) {
      ids.push(`q${i}`)
      recall.push(Number(r().toFixed(4)))
      latency.push(Number((20 + 40 * r()).toFixed(1)))
      segment.push(i % 3 ? 'established' : 'new')
    }
    const columnData = [
      { name: 'query_id', type: 'STRING', data: ids },
      { name: 'recall@10', type: 'DOUBLE', data: recall },
      { name: 'latency_ms', type: 'DOUBLE', data: latency },
      { name: 'segment', type: 'STRING', data: segment }
    ]
    parquetWriteFile({ filename: file, columnData, codec: 'SNAPPY', rowGroupSize: 1 << 20 })
  }
  return file
}

/** The TREC run of makeRun (same documents, ranks and scores) as a Parquet run table, written 1 Mi rows at a time. */
function makeParquetRun() {
  const queries = Math.round(28000 * GB)
  const file = join(data, `mem-run-${queries}.parquet`)
  if (!existsSync(file)) {
    const r = rng(1)
    const schema = [
      { name: 'root', num_children: 3 },
      { name: 'q_id', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'REQUIRED' },
      { name: 'doc_id', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'REQUIRED' },
      { name: 'score', type: 'DOUBLE', repetition_type: 'REQUIRED' }
    ]
    const writer = fileWriter(file)
    const pq = new ParquetWriter({ writer, schema, codec: 'SNAPPY' })
    const total = queries * 1000
    for (let start = 0; start < total; start += 1 << 20) {
      const q = []
      const d = []
      const score = []
      for (let i = start; i < Math.min(total, start + (1 << 20)); i++) {
        const k = i % 1000
        q.push(`query-${String(Math.floor(i / 1000)).padStart(6, '0')}`)
        d.push(`document-${String(Math.floor(r() * 1e7)).padStart(8, '0')}-${k}`)
        score.push(Number((1000 - k + r()).toFixed(6)))
      }
      pq.write({
        columnData: [
          { name: 'q_id', data: q },
          { name: 'doc_id', data: d },
          { name: 'score', data: score }
        ],
        rowGroupSize: 1 << 20
      })
    }
    pq.finish()
  }
  return file
}

function cliPath() {
  const given = opt('--cli', undefined)
  if (given) return given
  const out = join(root, 'node_modules/.cache/rg-bench-build')
  try {
    execFileSync(
      process.execPath,
      [join(root, 'node_modules/typescript/bin/tsc'), '-p', join(root, 'tsconfig.build.json'), '--outDir', out],
      { cwd: root, stdio: 'pipe' }
    )
  } catch {
    // emitted anyway
  }
  return join(out, 'cli.js')
}

function measure(label, cli, args, inputs) {
  const start = process.hrtime.bigint()
  const r = spawnSync(
    process.execPath,
    [
      '--import',
      'data:text/javascript,' +
        encodeURIComponent(
          'import { readFileSync } from "node:fs"\n' +
            'process.on("exit", () => { let kib = process.resourceUsage().maxRSS;' +
            ' try { kib = Number(/VmHWM:\\s+(\\d+) kB/.exec(readFileSync("/proc/self/status", "utf8"))[1]) } catch {}' +
            ' process.stderr.write("MAXRSS_KB=" + kib + "\\n") })'
        ),
      cli,
      ...args
    ],
    {
      cwd: root,
      encoding: 'utf8',
      maxBuffer: 1 << 28
    }
  )
  const secs = Number(process.hrtime.bigint() - start) / 1e9
  const rss = Number(/MAXRSS_KB=(\d+)/.exec(r.stderr)?.[1]) / 1024
  const bytes = inputs.reduce((s, f) => s + statSync(f).size, 0)
  console.log(
    `${label}: exit ${r.status}, inputs ${(bytes / 2 ** 30).toFixed(2)} GiB, ${secs.toFixed(1)} s, peak RSS ${rss.toFixed(0)} MB`
  )
  if (r.status !== 0 && r.status !== 1) console.log(r.stderr.slice(0, 1000))
}

const cli = cliPath()
console.log(`CLI: ${cli}; Node ${process.version}`)
measure('baseline: --version', cli, ['--version'], [])
const { run, qrels } = await makeRun()
measure(
  'metrics on a TREC run',
  cli,
  ['metrics', '--qrels', qrels, '--run', run, '-m', 'nDCG@10', '-m', 'R@100'],
  [run, qrels]
)
const b = await makeRows('baseline', 2)
const c = await makeRows('candidate', 3)
const rules = join(data, 'mem-rules.yml')
writeFileSync(
  rules,
  'version: 1\nmetrics:\n  recall@10: { better: higher, range: [0, 1] }\n  latency_ms: { better: lower, unit: ms }\nslices: [segment]\nstatistics: { resamples: 2000 }\nchecks:\n  - { name: recall, metric: recall@10, non_inferior: { margin: 0.01 } }\n  - { name: latency, metric: latency_ms, non_inferior: { margin: "10%" } }\n'
)
measure(
  'gate on per-query rows (JSON Lines)',
  cli,
  ['gate', '--rules', rules, '--baseline', b, '--candidate', c, '--json', join(data, 'mem-report.json')],
  [b, c]
)
const pb = makeParquetRows('baseline', 2)
const pc = makeParquetRows('candidate', 3)
measure(
  'gate on per-query rows (Parquet)',
  cli,
  ['gate', '--rules', rules, '--baseline', pb, '--candidate', pc, '--json', join(data, 'mem-report-parquet.json')],
  [pb, pc]
)
const prun = makeParquetRun()
measure(
  'metrics on a Parquet run table',
  cli,
  ['metrics', '--qrels', qrels, '--run', prun, '-m', 'nDCG@10', '-m', 'R@100'],
  [prun, qrels]
)

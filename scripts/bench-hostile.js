#!/usr/bin/env node
/**
 * Time and peak memory of the CLI on the hostile inputs of docs/limits.md ("Measured on hostile input"):
 * each case is what a pull request could write (a 100,000-digit number, a quote left open over 600 MB,
 * `--rules /dev/zero`, 20,000 slice values, ...). Generates the inputs once into --dir, runs each case as its
 * own process under /usr/bin/time, stopped after --timeout seconds, and prints one table row per case:
 * exit code, wall seconds, peak RSS and the first line of stderr.
 *
 *   node scripts/bench-hostile.js --cli /tmp/rg-C/cli.js [--dir /tmp/rg-hostile] [--timeout 120] [--only name,name]
 *
 * `--cli` is a bundled CLI built outside dist/ (see docs/limits.md for the command); run it on the code
 * before a change to get the "before" column. Cases that could take the machine's memory (before the caps)
 * should be run with a memory limit, e.g. `--limit-mb 6000` (ulimit -v in the child's shell).
 */
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { createWriteStream, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { opt, writeLines, recordOutput } from './bench-common.js'
import {
  bigFooterTable,
  bigPageHeaderTable,
  chunkPastEndTable,
  claimedRowsTable,
  honestTable,
  nestedPageHeaderTable,
  nestedSchemaFile,
  rleRunTable
} from './hostile-parquet.js'

recordOutput('bench-hostile.js')

const cli = opt('--cli', undefined)
if (!cli) throw new Error('--cli path/to/cli.js is required')
const dir = opt('--dir', '/tmp/rg-hostile')
const timeout = Number(opt('--timeout', 120))
const limitMb = opt('--limit-mb', undefined)
const only = opt('--only', undefined)?.split(',')
mkdirSync(dir, { recursive: true })

const RULES =
  'version: 1\nmetrics:\n  m: { better: higher, range: [0, 1] }\nqueries: { min_per_slice: 1 }\nstatistics: { resamples: 200, seed: 3 }\nchecks:\n  - { name: m holds, metric: m, non_inferior: { margin: 0.1 } }\n'

async function writeBig(file, head, fill, bytes, tail = '') {
  if (existsSync(file)) return
  const out = createWriteStream(file)
  out.write(head)
  const chunk = Buffer.alloc(1 << 20, fill)
  for (let n = head.length; n < bytes; n += chunk.length) if (!out.write(chunk)) await once(out, 'drain')
  out.write(tail)
  out.end()
  await once(out, 'finish')
}

const f = (name) => join(dir, name)
const gate = (rules, b, c, extra = []) => [
  'gate',
  '--rules',
  f(rules),
  '--baseline',
  b.startsWith('/') ? b : f(b),
  '--candidate',
  c.startsWith('/') ? c : f(c),
  ...extra
]

function slicesRules(values, perSlice) {
  return perSlice
    ? `version: 1\nmetrics:\n  m: { better: higher, range: [0, 1] }\nqueries: { min_per_slice: 1 }\nstatistics: { resamples: 200, seed: 3 }\nchecks:\n  - { name: each, metric: m, per_slice: seg, max_regressions: { count: 1000000, threshold: 0.5 } }\n`
    : `version: 1\nmetrics:\n  m: { better: higher, range: [0, 1] }\nslices: [seg]\nqueries: { min_per_slice: 1 }\nstatistics: { resamples: 200, seed: 3 }\nchecks:\n  - { name: m holds, metric: m, non_inferior: { margin: 0.1 } }\n`
}

/** Each case: a name, what it shows, and a setup that writes its files and returns the CLI arguments. */
const CASES = [
  // Node and the CLI alone: the floor under every figure below, on a machine shared with other work
  ['version', '--version (Node and the CLI alone)', async () => ['--version']],
  [
    'csv-number-100k',
    'a CSV metric cell of 100,000 digits then "x"',
    async () => {
      writeFileSync(f('rules.yml'), RULES)
      writeFileSync(f('ok.csv'), 'query_id,m\nq1,0.5\n')
      writeFileSync(f('num.csv'), 'query_id,m\nq1,' + '1'.repeat(100000) + 'x\n')
      return gate('rules.yml', 'ok.csv', 'num.csv')
    }
  ],
  [
    'run-score-100k',
    'a TREC run score of 100,000 digits then "x"',
    async () => {
      writeFileSync(f('qrels.txt'), 'q1 0 d1 1\n')
      writeFileSync(f('score.run'), 'q1 Q0 d1 1 ' + '1'.repeat(100000) + 'x t\n')
      return ['metrics', '--qrels', f('qrels.txt'), '--run', f('score.run'), '-m', 'P@5']
    }
  ],
  [
    'csv-open-quote-600mb',
    'a CSV quote left open at line 2, then 600 MB of lines',
    async () => {
      writeFileSync(f('rules.yml'), RULES)
      writeFileSync(f('ok.csv'), 'query_id,m\nq1,0.5\n')
      await writeBig(f('open.csv'), 'query_id,m\n"q1,', 0x0a, 600 * 1024 * 1024)
      return gate('rules.yml', 'ok.csv', 'open.csv')
    }
  ],
  [
    'csv-field-24mib',
    'a closed quoted CSV field of 24 MiB spanning lines',
    async () => {
      writeFileSync(f('rules.yml'), RULES)
      writeFileSync(f('ok.csv'), 'query_id,m\nq1,0.5\n')
      await writeBig(f('field.csv'), 'query_id,m,note\nq1,0.5,"', 0x0a, 24 * 1024 * 1024, '"\n')
      return gate('rules.yml', 'ok.csv', 'field.csv')
    }
  ],
  [
    'rules-dev-zero',
    '--rules /dev/zero',
    async () => {
      writeFileSync(f('ok.jsonl'), '{"query_id":"q1","m":0.5}\n')
      return ['gate', '--rules', '/dev/zero', '--baseline', f('ok.jsonl'), '--candidate', f('ok.jsonl')]
    }
  ],
  [
    'rows-dev-zero',
    '--candidate /dev/zero',
    async () => {
      writeFileSync(f('rules.yml'), RULES)
      writeFileSync(f('ok.jsonl'), '{"query_id":"q1","m":0.5}\n')
      return gate('rules.yml', 'ok.jsonl', '/dev/zero')
    }
  ],
  ...[1000, 2000, 20000].map((n) => [
    `slices-${n}`,
    `slices: [seg] with ${n} values (2 queries each)`,
    async () => {
      writeFileSync(f(`slices-${n}.yml`), slicesRules(n, false))
      await writeLines(
        f(`slices-b-${n}.jsonl`),
        2 * n,
        (i) => `{"query_id":"q${i}","m":${((i * 7) % 10) / 10},"seg":"s${i % n}"}\n`
      )
      await writeLines(
        f(`slices-c-${n}.jsonl`),
        2 * n,
        (i) => `{"query_id":"q${i}","m":${((i * 3) % 10) / 10},"seg":"s${i % n}"}\n`
      )
      return gate(`slices-${n}.yml`, `slices-b-${n}.jsonl`, `slices-c-${n}.jsonl`, [
        '--json',
        f(`slices-${n}.report.json`),
        '--markdown',
        f(`slices-${n}.md`)
      ])
    }
  ]),
  ...[1000, 45000].map((n) => [
    `per-slice-${n}`,
    `per_slice over ${n} values (2 queries each)`,
    async () => {
      writeFileSync(f(`per-slice-${n}.yml`), slicesRules(n, true))
      await writeLines(
        f(`slices-b-${n}.jsonl`),
        2 * n,
        (i) => `{"query_id":"q${i}","m":${((i * 7) % 10) / 10},"seg":"s${i % n}"}\n`
      )
      await writeLines(
        f(`slices-c-${n}.jsonl`),
        2 * n,
        (i) => `{"query_id":"q${i}","m":${((i * 3) % 10) / 10},"seg":"s${i % n}"}\n`
      )
      return gate(`per-slice-${n}.yml`, `slices-b-${n}.jsonl`, `slices-c-${n}.jsonl`, [
        '--json',
        f(`per-slice-${n}.report.json`)
      ])
    }
  ]),
  [
    'rows-unused-string-1gb',
    '1 GiB of rows (JSON Lines), each with an unused 10 KB string, both sides',
    async () => {
      writeFileSync(f('rules.yml'), RULES)
      const pad = 'x'.repeat(10000)
      await writeLines(f('unused.jsonl'), 105000, (i) => `{"query_id":"q${i}","m":0.5,"answer":"${pad}${i}"}\n`)
      return gate('rules.yml', 'unused.jsonl', 'unused.jsonl')
    }
  ],
  // Parquet on the metadata's word (issue 24, item 8): each file is built byte by byte (scripts/hostile-parquet.js)
  ...[
    ['parquet-rle-run', 'Parquet: one run-length run of 2^28 values in a ~250-byte file', () => rleRunTable(2 ** 28)],
    [
      'parquet-claimed-rows',
      'Parquet: a row group claiming 2^31 rows in a ~200-byte file',
      () => claimedRowsTable(2 ** 31)
    ],
    ['parquet-nested-schema', 'Parquet: 20,000 nested schema groups', () => nestedSchemaFile(20000)],
    ['parquet-footer-16mib', 'Parquet: a 16 MiB footer of empty structs', () => bigFooterTable(16 * 1024 * 1024 - 64)],
    [
      'parquet-footer-8mib',
      'Parquet: an 8 MiB footer of empty structs (under the size cap)',
      () => bigFooterTable(8 * 1024 * 1024 - 64)
    ],
    [
      'parquet-chunk-past-end',
      'Parquet: a column chunk starting past the end of the file (rules: missing: zero)',
      () => chunkPastEndTable(1000)
    ],
    [
      'parquet-page-header-8mi',
      'Parquet: a page header holding 8 Mi empty structs',
      () => bigPageHeaderTable(8 * 1024 * 1024)
    ],
    [
      'parquet-page-header-nested',
      'Parquet: a page header of structs nested 20,000 deep',
      () => nestedPageHeaderTable(20000)
    ]
  ].map(([name, what, build]) => [
    name,
    what,
    async () => {
      writeFileSync(
        f('zero.yml'),
        RULES.replace('queries: { min_per_slice: 1 }', 'queries: { min_per_slice: 1, missing: zero }')
      )
      writeFileSync(f('honest.parquet'), honestTable(3))
      writeFileSync(f(`${name}.parquet`), build())
      return gate('zero.yml', 'honest.parquet', `${name}.parquet`)
    }
  ]),
  [
    'long-query-id',
    'a 10 MB query id',
    async () => {
      writeFileSync(f('rules.yml'), RULES)
      writeFileSync(f('ok.jsonl'), '{"query_id":"q1","m":0.5}\n')
      await writeBig(f('longid.jsonl'), '{"query_id":"', 0x71, 10 * 1024 * 1024, '","m":0.5}\n')
      return gate('rules.yml', 'ok.jsonl', 'longid.jsonl')
    }
  ]
]

function run(args) {
  const timeFile = join(dir, 'time.txt')
  rmSync(timeFile, { force: true })
  const inner = ['/usr/bin/time', '-f', '%e %M', '-o', timeFile, process.execPath, cli, ...args]
    .map((a) => `'${a}'`)
    .join(' ')
  const child = spawn('bash', ['-c', `${limitMb ? `ulimit -v ${Number(limitMb) * 1024}; ` : ''}exec ${inner}`], {
    cwd: dir,
    detached: true
  })
  let stderr = ''
  child.stderr.on('data', (d) => (stderr += d.toString().slice(0, 4000)))
  child.stdout.resume()
  const start = Date.now()
  // the whole process group: /usr/bin/time and the CLI under it
  let killed = false
  const timer = setTimeout(() => {
    killed = true
    process.kill(-child.pid, 'SIGKILL')
  }, timeout * 1000)
  return new Promise((resolve) => {
    child.on('close', (code, signal) => {
      clearTimeout(timer)
      const wall = (Date.now() - start) / 1000
      let peak = null
      if (existsSync(timeFile))
        peak = Number(readFileSync(timeFile, 'utf8').trim().split('\n').pop().split(/\s+/)[1]) / 1024
      const first = stderr.split('\n').find((l) => l.trim() !== '' && !l.startsWith('Command ')) ?? ''
      resolve({
        code: killed ? `stopped at ${timeout} s` : signal ? `killed (${signal})` : code,
        wall,
        peak: Number.isFinite(peak) ? peak : null,
        first
      })
    })
  })
}

console.log(`| Case | Exit | Wall | Peak RSS | First line of stderr |\n| --- | --- | --- | --- | --- |`)
for (const [name, what, setup] of CASES) {
  if (only && !only.includes(name)) continue
  const args = await setup()
  const r = await run(args)
  const msg = r.first
    .replaceAll(dir + '/', '')
    .replaceAll('|', '\\|')
    .slice(0, 140)
  console.log(
    `| ${name}: ${what} | ${r.code} | ${r.wall.toFixed(1)} s | ${r.peak === null ? '—' : `${Math.round(r.peak)} MB`} | ${msg} |`
  )
}

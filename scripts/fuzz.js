#!/usr/bin/env node
/**
 * Fuzzes every reader and the rules loader with fast-check: valid seed files mutated byte by byte (flips,
 * hostile tokens such as quotes, CR, BOM, NaN, 1e400, __proto__, YAML aliases, deletions, duplications,
 * truncation) and raw random bytes. The only acceptable outcomes are "read" or "refused with InputError"
 * (and for the whole gate: exit 0, 1 or 2, never 3 = internal error); anything else, and any input that
 * takes longer than --slow-ms, is a finding. fast-check shrinks each finding to a small input, which is
 * written to __tests__/hostile/fixtures/ (with --save) so that it becomes a regression test
 * (__tests__/hostile/fixtures.test.ts replays every fixture).
 *
 *   npm run fuzz                                  # every target, 20,000 inputs each (a few minutes)
 *   npm run fuzz -- --runs 200000 --seed 42       # longer, reproducible
 *   npm run fuzz -- --target rules --save         # one target; save findings as fixtures
 *
 * The script compiles src/ with tsc (tsconfig.build.json) into node_modules/.cache/rg-fuzz-build and
 * imports it from there; the test suite imports the same targets from this file with the TypeScript
 * sources injected, and runs each briefly. A hang (an input that never returns) is caught by a watchdog:
 * the fuzzing runs in a worker thread, and if it reports no progress for --hang-ms the worker is stopped
 * and the input it was reading is kept.
 */
import fc from 'fast-check'
import { createHash } from 'node:crypto'
import { copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { parquetWriteBuffer } from 'hyparquet-writer'
import { honestTable } from './hostile-parquet.js'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
export const FIXTURES = join(root, '__tests__/hostile/fixtures')

const enc = (s) => Buffer.from(s, 'utf8')

/** Valid inputs of every format: the fuzzer mutates these. */
export const SEEDS = {
  rowsJsonl: [
    '{"query_id":"q1","m":0.5,"n":1,"seg":"a"}\n{"query_id":"q2","m":0.25,"n":0,"seg":"b"}\n',
    '{"query_id":"01","m":1e-3,"n":null}\r\n{"query_id":"caf\u00e9","m":0,"n":1,"__proto__":{"x":1}}\r\n'
  ],
  rowsCsv: [
    'query_id,m,n,seg\nq1,0.5,1,a\n"q,2",0.25,0,"b\nc"\n',
    '\ufeffseg,query_id,m,n\r\n"say ""hi""",q1,1e-3,\r\nz,q2,0,1\r\n'
  ],
  qrels: [
    'q1 0 d1 1\nq1 0 d2 0\nq2 0 d3 2\n',
    '# comment\nq1\t0\td1\t3\r\nq2 0 d9 -1\n',
    'query-id\tcorpus-id\tscore\nq1\td1\t1\nq2\td 3\t2\n',
    '{"q1": {"d1": 1, "d2": 0}, "q2": {"d3": 2}}\n'
  ],
  run: [
    'q1 Q0 d1 1 2.5 t\nq1 Q0 d2 2 1.5 t\nq2 Q0 d3 1 0.25 t\n',
    '{"query_id":"q1","lat":3,"seg":"a","results":[{"doc_id":"d1","score":2},{"doc_id":"d2","score":1}]}\n{"query_id":"q2","doc_id":"d3","score":0.5}\n',
    '{"q1": {"d1": 2.5, "d2": 1.5}, "q2": {"d3": 0.25}}\n'
  ],
  rules: [
    'version: 1\nmetrics:\n  m: { better: higher, range: [0, 1] }\n  n: { better: higher, binary: true }\nslices: [seg]\nstatistics: { resamples: 100, seed: 3 }\nqueries: { min_per_slice: 1 }\nchecks:\n  - name: m holds\n    metric: m\n    non_inferior: { margin: 0.1 }\n  - { name: n, metric: n, superior: { test: mcnemar } }\n  - { name: r, metric: m, per_slice: seg, max_regressions: { share: 0.5 } }\n',
    '{"version": 1, "metrics": {"m": {"better": "lower", "unit": "ms", "fill": 100}}, "queries": {"missing": "zero"}, "checks": [{"name": "x", "metric": "m", "non_inferior": {"margin": "20%"}}]}\n'
  ]
}

/**
 * Valid Parquet tables (bytes): one laid out byte by byte (scripts/hostile-parquet.js: uncompressed, PLAIN, one
 * page per column), one written by hyparquet-writer 0.17.0 (snappy, dictionary-encoded strings, nulls, two row
 * groups, v2 pages).
 */
const PARQUET_SEEDS = [
  honestTable(3),
  Buffer.from(
    parquetWriteBuffer({
      columnData: [
        { name: 'query_id', type: 'STRING', data: ['q1', 'q2', 'q3', 'q4'] },
        { name: 'm', type: 'DOUBLE', data: [0.5, null, 0.25, 1] },
        { name: 'n', type: 'INT64', data: [1n, 0n, 1n, null] },
        { name: 'seg', type: 'STRING', data: ['a', 'b', 'a', null] }
      ],
      rowGroupSize: 2
    })
  )
]

/** Text that breaks parsers: delimiters, line ends, encodings, non-numbers, prototype keys, YAML features. */
const TOKENS = [
  '"',
  '""',
  ',',
  '\n',
  '\r\n',
  '\r',
  '\t',
  ' ',
  '\ufeff',
  '{',
  '}',
  '[',
  ']',
  ':',
  '\\',
  '\\u0000',
  '\\ud800',
  'NaN',
  'Infinity',
  '-inf',
  '1e400',
  '-1e400',
  '0x10',
  '1_000',
  '',
  'null',
  'true',
  '9007199254740993',
  '-0',
  '1e-400',
  '__proto__',
  'constructor',
  'prototype',
  '"__proto__":{"polluted":1}',
  'query_id',
  '"query_id":1',
  '"results":{}',
  '&a ',
  '*a',
  '<<: *a',
  '!!js/function',
  '!!binary',
  '? ',
  '---\n',
  '...\n',
  '%YAML 1.1\n',
  '.inf',
  '.nan',
  '~',
  "'",
  '#',
  'Q0',
  '\u0301',
  '\u00e9',
  '\u2028',
  '\u0000',
  '\x7f'
].map(enc)
const BYTES = [
  Buffer.from([0xff]),
  Buffer.from([0xc3]),
  Buffer.from([0xed, 0xa0, 0x80]),
  Buffer.from([0xf4, 0x90, 0x80, 0x80]),
  Buffer.from([0xc0, 0xaf]),
  Buffer.from([0xe2, 0x82])
]

const mutationArb = fc.oneof(
  fc.record({
    kind: fc.constant('flip'),
    at: fc.double({ min: 0, max: 1, noNaN: true }),
    byte: fc.integer({ min: 0, max: 255 })
  }),
  fc.record({
    kind: fc.constant('insert'),
    at: fc.double({ min: 0, max: 1, noNaN: true }),
    token: fc.constantFrom(...TOKENS, ...BYTES)
  }),
  fc.record({
    kind: fc.constant('delete'),
    at: fc.double({ min: 0, max: 1, noNaN: true }),
    len: fc.integer({ min: 1, max: 24 })
  }),
  fc.record({
    kind: fc.constant('dup'),
    at: fc.double({ min: 0, max: 1, noNaN: true }),
    len: fc.integer({ min: 1, max: 80 }),
    times: fc.integer({ min: 1, max: 4 })
  }),
  fc.record({ kind: fc.constant('truncate'), at: fc.double({ min: 0, max: 1, noNaN: true }) })
)

function mutate(seed, mutations) {
  let b = seed
  for (const m of mutations) {
    const i = Math.min(b.length, Math.floor(m.at * (b.length + 1)))
    if (m.kind === 'flip' && b.length > 0) {
      b = Buffer.from(b)
      b[Math.min(i, b.length - 1)] = m.byte
    } else if (m.kind === 'insert') b = Buffer.concat([b.subarray(0, i), m.token, b.subarray(i)])
    else if (m.kind === 'delete') b = Buffer.concat([b.subarray(0, i), b.subarray(i + m.len)])
    else if (m.kind === 'dup')
      b = Buffer.concat([
        b.subarray(0, i + m.len),
        ...Array(m.times).fill(b.subarray(i, i + m.len)),
        b.subarray(i + m.len)
      ])
    else if (m.kind === 'truncate') b = b.subarray(0, i)
  }
  return b
}

/** Inputs for one format: mutated seeds (mostly), raw bytes and random text. */
export function inputArb(seeds) {
  const mutated = fc
    .tuple(fc.constantFrom(...seeds.map(enc)), fc.array(mutationArb, { minLength: 1, maxLength: 10 }))
    .map(([s, ms]) => mutate(s, ms))
  const raw = fc.uint8Array({ maxLength: 300 }).map((a) => Buffer.from(a))
  const text = fc.string({ unit: 'binary', maxLength: 200 }).map(enc)
  return fc.oneof({ weight: 8, arbitrary: mutated }, { weight: 1, arbitrary: raw }, { weight: 1, arbitrary: text })
}

/**
 * The targets, over an `api` of the project's modules (injected: the compiled build here, the TypeScript
 * sources in the tests). `run(file)` reads the file; it must resolve or throw InputError.
 */
export function makeTargets(api) {
  const metricFields = new Set(['m', 'n'])
  let qrels
  const judgments = async (dir) => {
    if (qrels === undefined) {
      const file = join(dir, 'fixed-qrels.txt')
      writeFileSync(file, SEEDS.qrels[0])
      qrels = await api.readQrels(file)
    }
    return qrels
  }
  const gateFiles = (dir) => {
    const rules = join(dir, 'fixed-rules.yml')
    const other = join(dir, 'fixed-rows.jsonl')
    writeFileSync(rules, SEEDS.rules[0])
    writeFileSync(other, SEEDS.rowsJsonl[0])
    return { rules, other }
  }
  return [
    { name: 'rows-jsonl', ext: 'jsonl', seeds: SEEDS.rowsJsonl, run: (file) => api.readRows(file, { metricFields }) },
    { name: 'rows-csv', ext: 'csv', seeds: SEEDS.rowsCsv, run: (file) => api.readRows(file, { metricFields }) },
    {
      name: 'rows-parquet',
      ext: 'parquet',
      seeds: PARQUET_SEEDS,
      run: (file) => api.readRows(file, { metricFields, keepAttributes: new Set(['seg']) })
    },
    { name: 'qrels', ext: 'txt', seeds: SEEDS.qrels, run: (file) => api.readQrels(file) },
    {
      name: 'run',
      ext: 'txt',
      seeds: SEEDS.run,
      run: async (file) =>
        api.computeRunRows({
          runFile: file,
          qrels: await judgments(dirname(file)),
          measures: ['P@2', 'nDCG@10', 'AP', 'RR', 'R@5'],
          noRelevant: 'zero'
        })
    },
    { name: 'rules', ext: 'yml', seeds: SEEDS.rules, run: (file) => api.readRules(file) },
    {
      // The whole gate (pairing, statistics, decision, reports) on a mutated baseline: exit 0, 1 or 2 only.
      name: 'gate',
      ext: 'jsonl',
      seeds: [...SEEDS.rowsJsonl, ...SEEDS.rowsCsv],
      run: async (file) => {
        const { rules, other } = gateFiles(dirname(file))
        let err = ''
        const code = await api.main(
          ['gate', '--rules', rules, '--baseline', file, '--candidate', other],
          () => {},
          (t) => (err += t)
        )
        if (code === 3) throw new Error(`internal error (exit 3): ${err}`)
        if (/\n\s+at /.test(err)) throw new Error(`stack trace printed: ${err}`)
      }
    }
  ]
}

/**
 * Runs one target for `runs` inputs. Returns the findings (shrunk inputs with their error). `onInput`
 * is told the file before each read (the worker's watchdog uses it).
 */
export async function fuzzTarget(
  api,
  target,
  { runs, seed, slowMs = 2000, dir = mkdtempSync(join(tmpdir(), 'rg-fuzz-')), onInput } = {}
) {
  const file = join(dir, `input.${target.ext}`)
  const findings = []
  // A library printing a process warning (e.g. yaml on a collection key) is noise on the user's terminal.
  const warnings = []
  const onWarning = (w) => warnings.push(String(w?.message ?? w))
  process.on('warning', onWarning)
  const result = await fc.check(
    fc.asyncProperty(inputArb(target.seeds), async (bytes) => {
      writeFileSync(file, bytes)
      onInput?.(file)
      const start = performance.now()
      try {
        await target.run(file)
      } catch (error) {
        if (!(error instanceof api.InputError)) throw error
        if (/\n\s+at /.test(error.message))
          throw new Error(`an InputError message holds a stack trace: ${error.message}`, { cause: error })
      }
      const ms = performance.now() - start
      if (ms > slowMs) throw new Error(`took ${ms.toFixed(0)} ms (limit ${slowMs})`)
      if ({}.polluted !== undefined || Object.keys(Object.prototype).length > 0)
        throw new Error('Object.prototype was polluted')
      await new Promise((resolve) => setImmediate(resolve))
      if (warnings.length > 0) throw new Error(`process warning: ${warnings.splice(0).join('; ')}`)
    }),
    { numRuns: runs, seed, endOnFailure: false }
  )
  process.off('warning', onWarning)
  if (result.failed) {
    const bytes = result.counterexample[0]
    findings.push({
      target: target.name,
      ext: target.ext,
      bytes,
      error: String(result.errorInstance?.stack ?? result.error),
      seed: result.seed,
      path: result.counterexamplePath
    })
  }
  return { runs: result.numRuns, findings }
}

/** Writes a finding as a fixture named by target and content hash; returns its path. */
export function saveFixture(finding) {
  mkdirSync(FIXTURES, { recursive: true })
  const hash = createHash('sha256').update(finding.bytes).digest('hex').slice(0, 12)
  const file = join(FIXTURES, `${finding.target}--${hash}.${finding.ext}`)
  writeFileSync(file, finding.bytes)
  return file
}

const BUILD = join(root, 'node_modules/.cache/rg-fuzz-build')

/** Compiles src/ once (the main thread does this before starting workers). */
async function compile() {
  const { execFileSync } = await import('node:child_process')
  execFileSync(
    process.execPath,
    [
      join(root, 'node_modules/typescript/bin/tsc'),
      '-p',
      join(root, 'tsconfig.build.json'),
      '--outDir',
      BUILD,
      '--noEmitOnError',
      'false'
    ],
    { stdio: 'inherit', cwd: root }
  )
}

async function loadBuild() {
  const out = BUILD
  const imp = (p) => import(pathToFileURL(join(out, p)).href)
  const [{ readRows }, { readQrels, computeRunRows }, { readRules }, { InputError }, { main }] = await Promise.all([
    imp('readers/rows.js'),
    imp('metrics/index.js'),
    imp('load.js'),
    imp('errors.js'),
    imp('commands/cli-main.js')
  ])
  return { readRows, readQrels, computeRunRows, readRules, InputError, main }
}

function option(argv, name, fallback) {
  const i = argv.indexOf(name)
  return i >= 0 ? argv[i + 1] : fallback
}

async function workerMain() {
  const { parentPort, workerData } = await import('node:worker_threads')
  const api = await loadBuild()
  const target = makeTargets(api).find((t) => t.name === workerData.target)
  const { runs, findings } = await fuzzTarget(api, target, {
    runs: workerData.runs,
    seed: workerData.seed,
    slowMs: workerData.slowMs,
    onInput: (file) => parentPort.postMessage({ type: 'input', file })
  })
  parentPort.postMessage({ type: 'done', runs, findings: findings.map((f) => ({ ...f, bytes: [...f.bytes] })) })
}

async function cliMain() {
  const { Worker } = await import('node:worker_threads')
  const argv = process.argv.slice(2)
  const runs = Number(option(argv, '--runs', 20000))
  const seed = Number(option(argv, '--seed', Date.now() % 2 ** 31))
  const slowMs = Number(option(argv, '--slow-ms', 2000))
  const hangMs = Number(option(argv, '--hang-ms', 30000))
  const only = option(argv, '--target', undefined)
  const save = argv.includes('--save')
  const names = makeTargets({})
    .map((t) => t.name)
    .filter((n) => only === undefined || n === only)
  try {
    await compile()
  } catch {
    // tsc exits non-zero on type errors elsewhere in the tree; the JavaScript is still emitted.
  }
  console.log(`fuzz: seed ${seed}, ${runs} inputs per target, targets: ${names.join(', ')}`)
  let found = 0
  for (const name of names) {
    const start = Date.now()
    const outcome = await new Promise((resolve) => {
      const worker = new Worker(fileURLToPath(import.meta.url), { workerData: { target: name, runs, seed, slowMs } })
      let current = null
      let last = Date.now()
      const watchdog = setInterval(() => {
        if (Date.now() - last > hangMs) {
          clearInterval(watchdog)
          worker.terminate()
          const kept = current && join(tmpdir(), `rg-fuzz-hang-${name}-${Date.now()}`)
          if (kept) copyFileSync(current, kept)
          resolve({ runs: null, findings: [], hang: kept })
        }
      }, 1000)
      worker.on('message', (m) => {
        last = Date.now()
        if (m.type === 'input') current = m.file
        else if (m.type === 'done') {
          clearInterval(watchdog)
          resolve({ ...m, findings: m.findings.map((f) => ({ ...f, bytes: Buffer.from(f.bytes) })) })
        }
      })
      worker.on('error', (e) => {
        clearInterval(watchdog)
        resolve({
          runs: null,
          findings: [{ target: name, ext: 'bin', bytes: Buffer.alloc(0), error: String(e?.stack ?? e) }]
        })
      })
    })
    const secs = ((Date.now() - start) / 1000).toFixed(1)
    if (outcome.hang) {
      found++
      console.log(`  ${name}: HANG (no progress for ${hangMs} ms); input kept at ${outcome.hang}`)
      continue
    }
    console.log(`  ${name}: ${outcome.runs} inputs in ${secs} s, ${outcome.findings.length} finding(s)`)
    for (const f of outcome.findings) {
      found++
      console.log(`    input (${f.bytes.length} bytes): ${JSON.stringify(f.bytes.toString('latin1').slice(0, 300))}`)
      console.log(`    ${f.error.split('\n').slice(0, 6).join('\n    ')}`)
      console.log(`    reproduce: npm run fuzz -- --target ${name} --seed ${f.seed} --runs ${runs}`)
      if (save) console.log(`    saved: ${saveFixture(f)}`)
    }
  }
  console.log(found === 0 ? 'fuzz: no findings' : `fuzz: ${found} finding(s)`)
  process.exitCode = found === 0 ? 0 : 1
}

const isMain = process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]
const { isMainThread } = await import('node:worker_threads')
if (!isMainThread && process.argv[1] && fileURLToPath(import.meta.url).endsWith('fuzz.js')) {
  const { workerData } = await import('node:worker_threads')
  if (workerData && workerData.target) await workerMain()
} else if (isMain) {
  await cliMain()
}

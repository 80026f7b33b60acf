/**
 * The Spark SQL statement on a real Spark (issue 36.1): pyspark in local mode (the pinned version that
 * scripts/spark-venv.sh installs, on the machine's Java 17), over Parquet rows this test writes (string and integer
 * ids, a boolean slice attribute, a slice value seen 5 times in 10^5 and quoted awkwardly), every statement `sql
 * --dialect spark` writes for these rules (one statement and per shard, with and without --histograms-only), each
 * result exported as a Spark user would (a directory of part files: Parquet, CSV with its header, JSON, and
 * spark-sql's INSERT OVERWRITE DIRECTORY), and decided by `gate --aggregates DIR`: the same verdict, statuses and
 * numbers (docs/scale.md's tolerance) as `gate` on the same rows, and as DuckDB's statement on the same files.
 * A NaN is refused, as by the rows path; a boolean metric column stops the statement, as the rows path refuses it.
 *
 * Needs the venv (RG_SPARK_PYTHON, or node_modules/.cache/rg-spark-venv/bin/python) and Java; off CI a missing one
 * skips with one line, on CI it fails (__tests__/programs.ts). RG_SKIP_SPARK=1 skips on purpose. About 3-4 minutes
 * on 2 cores (docs/scale.md, "On Spark or BigQuery").
 */
import { afterAll, beforeAll, expect } from '@jest/globals'
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api'
import { parquetWriteBuffer } from 'hyparquet-writer'
import { spawnSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { cli, tempDir } from '../helpers.js'
import { answers, needing, skippedBy } from '../programs.js'
import { close, decision, statuses } from './reports.js'

const here = path.dirname(fileURLToPath(import.meta.url))
const root = path.join(here, '..', '..')
const PYSPARK_VERSION = '4.3.0'
const python = process.env.RG_SPARK_PYTHON ?? path.join(root, 'node_modules/.cache/rg-spark-venv/bin/python')
const available =
  skippedBy('RG_SKIP_SPARK') ??
  answers(python, ['-c', 'import pyspark; print(pyspark.__version__)'], (v) => v === PYSPARK_VERSION, 60_000)
const { describe, it } = needing(
  `the Spark tests (pyspark ${PYSPARK_VERSION} at ${python})`,
  available,
  'scripts/spark-venv.sh (a venv with the pinned pyspark; needs Java 17)'
)

const N = Number(process.env.RG_SPARK_QUERIES ?? 100_000)
const dir = tempDir('rg-spark-')
const at = (name: string): string => path.join(dir, name)
const SEGMENTS = ['web', 'app', 'api', 'mail', 'voice', 'kiosk', 'partner']
/** A slice value of 5 queries in 10^5, with a quote and a trailing backslash (issue 33.5). */
const RARE = "rare 'one' \\"
const rareQuery = (i: number): boolean => i % 20_000 === 7

type Row = Record<string, string | number | boolean | bigint>

/** Seeded rows: a binary metric, two grid metrics, two continuous ones; a segment (one rare value) and a boolean. */
function side(shift: number): Row[] {
  let a = 41
  const r = (): number => {
    a = (Math.imul(a, 1103515245) + 12345) >>> 0
    return a / 4294967296
  }
  return Array.from({ length: N }, (_, i) => {
    const s = ((i * 7919) % 10007) / 10007
    return {
      query_id: `q${String(i).padStart(6, '0')}`,
      hit: r() < s + shift ? 1 : 0,
      recall: Math.min(10, Math.floor(r() * 11 * (s + shift))) / 10,
      ndcg: Math.round(Math.max(0, Math.min(1, s + shift + (r() - 0.5) * 0.3)) * 100) / 100,
      judge: s + shift + (r() - 0.5) * 0.4,
      latency: 50 + r() * 30 - shift * 100,
      segment: rareQuery(i) ? RARE : SEGMENTS[i % SEGMENTS.length],
      is_new: i % 3 === 0
    }
  })
}

const FLOATS = ['recall', 'ndcg', 'judge', 'latency']

function parquet(file: string, rows: Row[], options: { intIds?: boolean; boolHit?: boolean } = {}): void {
  const columnData = [
    options.intIds === true
      ? { name: 'query_id', data: rows.map((_, i) => BigInt(i + 1) * 1_000_003n), type: 'INT64' as const }
      : { name: 'query_id', data: rows.map((x) => x.query_id as string), type: 'STRING' as const },
    options.boolHit === true
      ? { name: 'hit', data: rows.map((x) => x.hit === 1), type: 'BOOLEAN' as const }
      : { name: 'hit', data: Int32Array.from(rows, (x) => x.hit as number), type: 'INT32' as const },
    ...FLOATS.map((m) => ({ name: m, data: Float64Array.from(rows, (x) => x[m] as number), type: 'DOUBLE' as const })),
    { name: 'segment', data: rows.map((x) => x.segment as string), type: 'STRING' as const },
    { name: 'is_new', data: rows.map((x) => x.is_new as boolean), type: 'BOOLEAN' as const }
  ]
  writeFileSync(file, Buffer.from(parquetWriteBuffer({ columnData, rowGroupSize: 50_000 })))
}

const RULES = {
  // Poisson weights and hashed sign flips: every sum the statement computes.
  poisson: `version: 1
metrics:
  hit: { better: higher, binary: true }
  ndcg: { better: higher, range: [0, 1] }
  judge: { better: higher }
  latency: { better: lower, unit: ms }
slices: [segment, is_new]
statistics: { resamples: 100, permutations: 100, seed: "spark's", method: poisson, interval: percentile }
checks:
  - { name: ndcg holds, metric: ndcg, non_inferior: { margin: 0.01 } }
  - { name: judge better, metric: judge, superior: { margin: 0 } }
  - { name: judge differs, metric: judge, superior: { test: randomization } }
  - { name: hits, metric: hit, superior: { test: mcnemar } }
  - { name: rare slice, metric: judge, where: { segment: ${JSON.stringify(RARE)} }, non_inferior: { margin: 0.5 } }
  - { name: new users, metric: latency, where: { is_new: "true" }, non_inferior: { margin: 2 } }
  - { name: per segment, metric: ndcg, per_slice: segment, non_inferior: { margin: 0.05 } }
  - { name: few regress, metric: latency, max_regressions: { share: 0.6, threshold: 5 } }
`,
  // Metrics on a grid, drawn by counts from the histograms alone (--histograms-only).
  grid: `version: 1
metrics:
  hit: { better: higher, binary: true }
  recall: { better: higher, range: [0, 1] }
  ndcg: { better: higher, range: [0, 1] }
slices: [is_new]
statistics: { resamples: 1000, permutations: 1000, seed: 11, method: multinomial, interval: percentile }
checks:
  - { name: recall holds, metric: recall, non_inferior: { margin: 0.01 } }
  - { name: ndcg better, metric: ndcg, superior: { margin: 0 } }
  - { name: ndcg differs, metric: ndcg, superior: { test: randomization } }
  - { name: hits, metric: hit, superior: { test: mcnemar } }
  - { name: per cohort, metric: hit, per_slice: is_new, non_inferior: { margin: 0.05 } }
  - { name: few regress, metric: ndcg, max_regressions: { share: 0.5, threshold: 0.1 } }
`,
  // The closed-form intervals (statistics.interval auto: Tango's score, Hall's skew-corrected t) from the moments.
  closed: `version: 1
metrics:
  hit: { better: higher, binary: true }
  judge: { better: higher }
slices: [is_new]
statistics: { resamples: 100, permutations: 100, seed: 5, method: poisson }
checks:
  - { name: hits hold, metric: hit, non_inferior: { margin: 0.02 } }
  - { name: judge better, metric: judge, per_slice: is_new, superior: { margin: 0 } }
`
}

interface Job {
  name: string
  sql: string
  out: string
  export: 'parquet' | 'csv' | 'json' | 'insert-directory'
}
interface Ran {
  spark: string
  start_seconds: number
  jobs: Array<{ name: string; seconds: number; error?: string; message?: string }>
}

async function statement(rules: string, options: { baseline: string; candidate: string; extra?: string[] }) {
  const r = await cli([
    'sql',
    '--rules',
    at(`${rules}.yml`),
    '--dialect',
    'spark',
    '--baseline',
    options.baseline,
    '--candidate',
    options.candidate,
    ...(options.extra ?? [])
  ])
  expect(r.stderr).toBe('')
  return r.stdout
}

/** The shard of a query: its number modulo 3 (the same split in Spark, DuckDB and the rows' files). */
const shardOf = (table: string, s: number): string =>
  `(SELECT * FROM ${table} WHERE pmod(CAST(substr(CAST(query_id AS STRING), -3) AS INT), 3) = ${s})`

let ran: Ran
let db: DuckDBInstance
let con: DuckDBConnection
const jobs: Job[] = []
const EXPORTS = ['csv', 'json', 'parquet'] as const

beforeAll(async () => {
  if (!available.run) return
  const [baseline, candidate] = [side(0), side(0.005)]
  parquet(at('str-base.parquet'), baseline)
  parquet(at('str-cand.parquet'), candidate)
  parquet(at('int-base.parquet'), baseline, { intIds: true })
  parquet(at('int-cand.parquet'), candidate, { intIds: true })
  parquet(at('bool-base.parquet'), baseline, { boolHit: true })
  const nan = candidate.map((x, i) => (i === 42 ? { ...x, ndcg: Number.NaN } : x))
  parquet(at('nan-cand.parquet'), nan)
  for (const [name, text] of Object.entries(RULES)) writeFileSync(at(`${name}.yml`), text)
  const add = (name: string, sql: string, exported: Job['export']): void => {
    jobs.push({ name, sql, out: at(`out-${name}`), export: exported })
  }
  for (const [rules, extra] of [
    ['poisson', []],
    ['grid', ['--histograms-only']],
    ['closed', []]
  ] as const) {
    for (const ids of ['str', 'int'] as const) {
      if (ids === 'int' && rules !== 'grid') continue
      const one = await statement(rules, { baseline: `${ids}_base`, candidate: `${ids}_cand`, extra: [...extra] })
      add(`${rules}-${ids}-one`, one, rules === 'grid' && ids === 'str' ? 'insert-directory' : 'parquet')
    }
    for (let s = 0; s < (rules === 'closed' ? 0 : 3); s++) {
      const text = await statement(rules, {
        baseline: shardOf('str_base', s),
        candidate: shardOf('str_cand', s),
        extra: [...extra, '--shard', `part ${s}`]
      })
      add(`${rules}-str-shard${s}`, text, EXPORTS[s])
    }
  }
  add(
    'nan',
    await statement('grid', { baseline: 'str_base', candidate: 'nan_cand', extra: ['--histograms-only'] }),
    'parquet'
  )
  add(
    'bool',
    await statement('grid', { baseline: 'bool_base', candidate: 'str_cand', extra: ['--histograms-only'] }),
    'parquet'
  )
  const tables = Object.fromEntries(
    ['str-base', 'str-cand', 'int-base', 'int-cand', 'bool-base', 'nan-cand'].map((t) => [
      t.replace('-', '_'),
      at(`${t}.parquet`)
    ])
  )
  writeFileSync(at('jobs.json'), JSON.stringify({ tables, jobs }))
  const run = spawnSync(python, [path.join(here, 'spark-run.py'), at('jobs.json')], {
    encoding: 'utf8',
    maxBuffer: 1 << 26,
    timeout: 20 * 60_000
  })
  if (run.status !== 0) throw new Error(`spark-run.py failed (${run.status}): ${run.stderr.slice(-4000)}`)
  ran = JSON.parse(run.stdout.trim().split('\n').pop() as string) as Ran
  process.stderr.write(
    `Spark ${ran.spark}: session ${ran.start_seconds} s; ${ran.jobs.map((j) => `${j.name} ${j.seconds} s`).join(', ')}\n`
  )
  db = await DuckDBInstance.create(':memory:')
  con = await db.connect()
}, 25 * 60_000)

afterAll(() => {
  con?.closeSync()
})

const gate = (rules: string, inputs: string[], report: string) =>
  cli(['gate', '--rules', at(`${rules}.yml`), ...inputs, '--json', at(report)])

/** The rows path and DuckDB's statement on the same files: the references Spark's result must agree with. */
async function references(rules: string, ids: 'str' | 'int', extra: string[]): Promise<void> {
  const rows = await gate(
    rules,
    ['--baseline', at(`${ids}-base.parquet`), '--candidate', at(`${ids}-cand.parquet`)],
    `${rules}-${ids}-rows.json`
  )
  expect(rows.stderr).toBe('')
  const sql = await cli([
    'sql',
    '--rules',
    at(`${rules}.yml`),
    '--baseline',
    `read_parquet('${at(`${ids}-base.parquet`)}')`,
    '--candidate',
    `read_parquet('${at(`${ids}-cand.parquet`)}')`,
    ...extra
  ])
  await con.run(`COPY (${sql.stdout}) TO '${at(`${rules}-${ids}-duckdb.parquet`)}' (FORMAT parquet)`)
  const duck = await gate(rules, ['--aggregates', at(`${rules}-${ids}-duckdb.parquet`)], `${rules}-${ids}-duckdb.json`)
  expect(duck.stderr).toBe('')
}

function agrees(report: string, reference: string): void {
  expect(close(decision(at(report)), decision(at(reference)))).toEqual([])
  expect(statuses(at(report))).toEqual(statuses(at(reference)))
}

describe('a local Spark runs every statement sql --dialect spark writes, and the gate decides from its part files', () => {
  it('every statement ran, but the boolean metric column, which Spark refuses at “+ 0”', () => {
    const failed = ran.jobs.filter((j) => j.error !== undefined)
    expect(failed.map((j) => [j.name, j.error])).toEqual([['bool', expect.stringMatching(/DATATYPE_MISMATCH/)]])
    expect(failed[0].message).toMatch(/"BOOLEAN" and "INT"|BOOLEAN/)
  })
  for (const [rules, extra] of [
    ['poisson', []],
    ['grid', ['--histograms-only']],
    ['closed', []]
  ] as const) {
    const sharded = rules !== 'closed'
    it(`${rules}: one statement${sharded ? ' and three shards' : ''} decide as the rows and DuckDB do`, async () => {
      await references(rules, 'str', [...extra])
      const inputs = [
        [`out-${rules}-str-one`],
        ...(sharded ? [[0, 1, 2].map((s) => `out-${rules}-str-shard${s}`)] : [])
      ]
      const verdict = (decision(at(`${rules}-str-rows.json`)).verdict as string) === 'pass' ? 0 : 1
      for (const [i, dirs] of inputs.entries()) {
        const report = `${rules}-spark-${i}.json`
        const r = await gate(
          rules,
          dirs.flatMap((d) => ['--aggregates', at(d)]),
          report
        )
        expect([r.stderr, r.code]).toEqual(['', verdict])
        agrees(report, `${rules}-str-rows.json`)
        agrees(report, `${rules}-str-duckdb.json`)
      }
    })
  }
  it('integer ids: cast to the same text in Spark, DuckDB and the rows reader', async () => {
    await references('grid', 'int', ['--histograms-only'])
    const r = await gate('grid', ['--aggregates', at('out-grid-int-one')], 'grid-spark-int.json')
    expect(r.stderr).toBe('')
    agrees('grid-spark-int.json', 'grid-int-rows.json')
    agrees('grid-spark-int.json', 'grid-int-duckdb.json')
  })
  it('the rare slice value and the boolean slice are decided, each with its own queries', () => {
    const checks = decision(at('poisson-spark-0.json')).checks as Array<{
      rule: string
      units: Array<{ comparison: { n: number } }>
    }>
    const rare = checks.find((c) => c.rule === 'rare slice')
    expect(rare?.units.map((u) => u.comparison.n)).toEqual([side(0).filter((_, i) => rareQuery(i)).length])
    const fresh = checks.find((c) => c.rule === 'new users')
    expect(fresh?.units.map((u) => u.comparison.n)).toEqual([Math.ceil(N / 3)])
  })
  it('a NaN in the candidate is refused, as the rows path refuses it', async () => {
    const r = await gate('grid', ['--aggregates', at('out-nan')], 'nan.json')
    expect([r.code, r.stderr]).toEqual([2, expect.stringMatching(/invalid.*ndcg.*q000042|ndcg.*q000042/s)])
    const rows = await gate(
      'grid',
      ['--baseline', at('str-base.parquet'), '--candidate', at('nan-cand.parquet')],
      'nan-rows.json'
    )
    expect([rows.code, rows.stderr]).toEqual([2, expect.stringMatching(/NaN/)])
  })
})

/**
 * Every dialect's statement under a real grammar, and run where an engine is at hand (issues 33.5, 34.15): the
 * DuckDB text in DuckDB, the BigQuery text parsed by BigQuery's grammar (sql-parser-cst) and run in DuckDB with
 * BigQuery's functions mapped (./bigquery-in-duckdb.ts), the Spark text parsed by Spark's grammar (dt-sql-parser;
 * it runs on a real Spark in spark.slow.test.ts). The rules are chosen to break quoting: slice values with a quote,
 * a doubled quote, a trailing backslash, a newline, a tab, a comment marker and astral characters; a seed and a
 * shard name with quotes and backslashes; metric columns named with an apostrophe, a space and a `@`. Each literal
 * must read back as the value it stands for, in every dialect, and both engines' sums must decide as the rows do.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api'
import { parquetWriteBuffer } from 'hyparquet-writer'
import { writeFileSync } from 'node:fs'
import path from 'node:path'
import { cli, tempDir } from '../helpers.js'
import { bigqueryInDuckdb } from './bigquery-in-duckdb.js'
import { close, decision, statuses } from './reports.js'
import { bigqueryStringValues, sparkSyntaxErrors } from './sql-grammars.js'

const dir = tempDir('rg-dialects-')
const at = (name: string): string => path.join(dir, name)
let db: DuckDBInstance
let con: DuckDBConnection

/** Slice values that a wrong quoting misreads or lets out of its literal. */
const SEGMENTS = ["it's", 'ends\\', "a''b", 'new\nline', 'tab\there', "-- not a comment */ '", 'ü 😀 ∑', 'plain']
const SHARD = "shard 'one' \\"
const N = 3000

function rows(shift: number): Array<Record<string, string | number>> {
  let a = 29
  const r = (): number => {
    a = (Math.imul(a, 1103515245) + 12345) >>> 0
    return a / 4294967296
  }
  return Array.from({ length: N }, (_, i) => {
    const s = ((i * 7919) % 1000) / 1000
    return {
      query_id: `q'${i}\\`,
      "it's": Math.round(Math.min(1, Math.max(0, s + shift + (r() - 0.5) * 0.2)) * 1000) / 1000,
      'hit rate': r() < s + shift ? 1 : 0,
      'nDCG@10': s + shift + (r() - 0.5) * 0.3,
      segment: SEGMENTS[i % SEGMENTS.length]
    }
  })
}

const METRICS = ["it's", 'hit rate', 'nDCG@10']

function parquet(file: string, side: Array<Record<string, string | number>>): void {
  const columnData = [
    { name: 'query_id', data: side.map((x) => x.query_id as string), type: 'STRING' as const },
    ...METRICS.map((m) => ({ name: m, data: Float64Array.from(side, (x) => x[m] as number), type: 'DOUBLE' as const })),
    { name: 'segment', data: side.map((x) => x.segment as string), type: 'STRING' as const }
  ]
  writeFileSync(file, Buffer.from(parquetWriteBuffer({ columnData })))
}

const yamlString = (s: string): string => JSON.stringify(s)

const RULES = {
  poisson: `version: 1
metrics:
  "it's": { better: higher, range: [0, 1] }
  hit rate: { better: higher, binary: true }
  nDCG@10: { better: higher }
slices: [segment]
statistics: { resamples: 400, permutations: 400, seed: ${yamlString("s'1\\")}, method: poisson, interval: percentile }
checks:
  - { name: holds, metric: "it's", non_inferior: { margin: 0.02 } }
${SEGMENTS.map((v, i) => `  - { name: slice ${i}, metric: nDCG@10, where: { segment: ${yamlString(v)} }, non_inferior: { margin: 0.05 } }`).join('\n')}
  - { name: per segment, metric: hit rate, per_slice: segment, non_inferior: { margin: 0.1 } }
  - { name: few regress, metric: "it's", max_regressions: { share: 0.6, threshold: 0.05 } }
  - { name: better, metric: nDCG@10, superior: { test: randomization } }
`,
  grid: `version: 1
metrics:
  "it's": { better: higher, range: [0, 1] }
  hit rate: { better: higher, binary: true }
slices: [segment]
statistics: { resamples: 1000, permutations: 1000, seed: 3, method: multinomial }
checks:
  - { name: holds, metric: "it's", non_inferior: { margin: 0.02 } }
  - { name: apostrophe, metric: "it's", where: { segment: "it's" }, non_inferior: { margin: 0.05 } }
  - { name: per segment, metric: hit rate, per_slice: segment, superior: { margin: 0 } }
`
}

type Variant = { rules: keyof typeof RULES; histogramsOnly: boolean; shard?: string }
const VARIANTS: Variant[] = [
  { rules: 'poisson', histogramsOnly: false },
  { rules: 'poisson', histogramsOnly: false, shard: SHARD },
  { rules: 'grid', histogramsOnly: true },
  { rules: 'grid', histogramsOnly: true, shard: SHARD }
]
const label = (v: Variant): string =>
  `${v.rules}${v.histogramsOnly ? ' --histograms-only' : ''}${v.shard ? ' --shard' : ''}`

async function sql(v: Variant, dialect: string, baseline: string, candidate: string): Promise<string> {
  const r = await cli([
    'sql',
    '--rules',
    at(`${v.rules}.yml`),
    '--dialect',
    dialect,
    '--baseline',
    baseline,
    '--candidate',
    candidate,
    ...(v.histogramsOnly ? ['--histograms-only'] : []),
    ...(v.shard === undefined ? [] : ['--shard', v.shard])
  ])
  expect(r.stderr).toBe('')
  return r.stdout
}

beforeAll(async () => {
  db = await DuckDBInstance.create(':memory:')
  con = await db.connect()
  const [baseline, candidate] = [rows(0), rows(0.01)]
  writeFileSync(at('baseline.jsonl'), baseline.map((x) => JSON.stringify(x)).join('\n') + '\n')
  writeFileSync(at('candidate.jsonl'), candidate.map((x) => JSON.stringify(x)).join('\n') + '\n')
  parquet(at('baseline.parquet'), baseline)
  parquet(at('candidate.parquet'), candidate)
  await con.run(`CREATE TABLE base_rows AS SELECT * FROM read_parquet('${at('baseline.parquet')}')`)
  await con.run(`CREATE TABLE cand_rows AS SELECT * FROM read_parquet('${at('candidate.parquet')}')`)
  for (const [name, text] of Object.entries(RULES)) {
    writeFileSync(at(`${name}.yml`), text)
    const rowsReport = await cli([
      'gate',
      '--rules',
      at(`${name}.yml`),
      '--baseline',
      at('baseline.jsonl'),
      '--candidate',
      at('candidate.jsonl'),
      '--json',
      at(`${name}-rows.json`)
    ])
    expect(rowsReport.stderr).toBe('')
  }
})

afterAll(() => {
  con?.closeSync()
})

/** The aggregates as sorted keyed rows, for comparing two engines' results. */
async function tableOf(statement: string): Promise<Array<{ key: string; x: number; y: number }>> {
  const out = (await con.runAndReadAll(statement)).getRowObjects()
  return out
    .filter((r) => !(r.section === 'meta' && r.stat === 'dialect'))
    .map((r) => ({
      // A histogram row is keyed by its value too (the differences, exact doubles; their counts are y).
      key: [
        r.section,
        r.shard,
        r.family,
        r.value,
        r.stratum,
        r.metric,
        r.stat,
        r.slot,
        r.section === 'histogram' ? r.x : ''
      ]
        .map(String)
        .join('\u0001'),
      x: Number(r.x),
      y: Number(r.y)
    }))
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
}

async function gateOn(v: Variant, table: string, name: string): Promise<void> {
  await con.run(`COPY ${table} TO '${at(`${name}.parquet`)}' (FORMAT parquet)`)
  const r = await cli([
    'gate',
    '--rules',
    at(`${v.rules}.yml`),
    '--aggregates',
    at(`${name}.parquet`),
    '--json',
    at(`${name}.json`)
  ])
  expect(r.stderr).toBe('')
  expect(close(decision(at(`${name}.json`)), decision(at(`${v.rules}-rows.json`)))).toEqual([])
  expect(statuses(at(`${name}.json`))).toEqual(statuses(at(`${v.rules}-rows.json`)))
}

describe('string literals and names, per dialect', () => {
  it('every BigQuery literal reads back (sql-parser-cst) as the value it stands for: no value is split or swallowed', async () => {
    const text = await sql(VARIANTS[1], 'bigquery', 'ds.base', 'ds.cand')
    const values = new Set(bigqueryStringValues(text))
    for (const v of [...SEGMENTS, SHARD, "s'1\\", ...METRICS]) expect(values.has(v)).toBe(true)
    // Nothing a misquoted value would leave: a piece of a value ('it', 'a', 'b' of "a''b") or an escape's remains.
    for (const piece of ['it', 's', 'a', 'b', 'ends', "shard 'one' "]) expect(values.has(piece)).toBe(false)
  })
  it('the Spark text of every variant has no syntax error under Spark’s grammar (dt-sql-parser)', async () => {
    const texts = await Promise.all(VARIANTS.map((v) => sql(v, 'spark', 'db.base', 'db.cand')))
    expect(sparkSyntaxErrors(texts)).toEqual(VARIANTS.map(() => []))
  })
  it('the grammars catch what the old quoting wrote (doubled quotes in a backslash dialect)', () => {
    const old = "SELECT 'ends\\' AS v, 'x' AS w"
    expect(sparkSyntaxErrors([old])[0].length).toBeGreaterThan(0)
    expect(() => bigqueryStringValues(old)).toThrow()
  })
})

describe('the statements run: DuckDB as written, BigQuery in DuckDB with its functions mapped', () => {
  for (const v of VARIANTS) {
    it(`${label(v)}: DuckDB's and BigQuery's sums are the same table, and decide as the rows do`, async () => {
      const duck = await sql(v, 'duckdb', 'base_rows', 'cand_rows')
      const big = await sql(v, 'bigquery', 'base_rows', 'cand_rows')
      const name = label(v).replace(/\W+/g, '-')
      await con.run(`CREATE OR REPLACE TABLE duck_agg AS ${duck}`)
      await con.run(`CREATE OR REPLACE TABLE big_agg AS ${bigqueryInDuckdb(big)}`)
      const [a, b] = [await tableOf('SELECT * FROM duck_agg'), await tableOf('SELECT * FROM big_agg')]
      expect(b.map((r) => r.key)).toEqual(a.map((r) => r.key))
      // The sums are doubles added in either engine's order (meta's dialect, the one row that differs, is left out).
      const differing = a.filter((r, i) => close([r.x, r.y], [b[i].x, b[i].y]).length > 0)
      expect(differing).toEqual([])
      await gateOn(v, 'duck_agg', `${name}-duckdb`)
      await gateOn(v, 'big_agg', `${name}-bigquery`)
    })
  }
  it('a boolean metric column is refused by every engine at “+ 0”, as the rows path refuses true/false', async () => {
    await con.run(`CREATE OR REPLACE TABLE bool_rows AS SELECT * REPLACE ("hit rate" > 0 AS "hit rate") FROM base_rows`)
    const duck = await sql(VARIANTS[2], 'duckdb', 'bool_rows', 'cand_rows')
    await expect(con.run(duck)).rejects.toThrow(/\+\(BOOLEAN, INTEGER_LITERAL\)/)
    const big = await sql(VARIANTS[2], 'bigquery', 'bool_rows', 'cand_rows')
    await expect(con.run(bigqueryInDuckdb(big))).rejects.toThrow(/BOOLEAN/)
    const jsonl = rows(0)
      .map((x) => JSON.stringify({ ...x, 'hit rate': x['hit rate'] === 1 }))
      .join('\n')
    writeFileSync(at('bool.jsonl'), jsonl + '\n')
    const r = await cli([
      'gate',
      '--rules',
      at('grid.yml'),
      '--baseline',
      at('bool.jsonl'),
      '--candidate',
      at('candidate.jsonl')
    ])
    expect([r.code, r.stderr]).toEqual([2, expect.stringMatching(/"hit rate" is boolean, not a number/)])
  })
})

/**
 * Issue 32, "one core": rows and a warehouse's sums give the same decision for every check kind. Random rules (every
 * kind: non_inferior with absolute and relative margins, superior by interval and by each test, at_least / at_most,
 * max_regressions, where, per_slice, target weights, bounded and unbounded metrics, binary ones) over random rows
 * (ties, point masses, skew), gated from the rows and from the SQL's result run in DuckDB: the same verdict, the same
 * status and reason for every unit, and every interval within docs/scale.md's tolerance. Before the core, an
 * at_least check passed from the rows and failed from the sums ("a statistic is not a finite number").
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api'
import { writeFileSync } from 'node:fs'
import path from 'node:path'
import { parquetWriteBuffer } from 'hyparquet-writer'
import { cli, tempDir } from '../helpers.js'

const dir = tempDir('rg-rows-sums-')
const at = (name: string): string => path.join(dir, name)
let db: DuckDBInstance
let con: DuckDBConnection

beforeAll(async () => {
  db = await DuckDBInstance.create(':memory:')
  con = await db.connect()
})
afterAll(() => {
  con.closeSync()
  db.closeSync()
})

/** A seeded generator (LCG; the draws of case k are those of seed k). */
function draws(seed: number): () => number {
  let a = seed * 2654435761 + 1
  return () => {
    a = (Math.imul(a, 1103515245) + 12345) >>> 0
    return a / 4294967296
  }
}

interface Case {
  rules: string
  rows: [Array<Record<string, string | number>>, Array<Record<string, string | number>>]
}

/** One random case: rules of every kind over four metrics, and rows for them. */
function randomCase(k: number): Case {
  const r = draws(k + 1)
  const n = 200 + Math.floor(r() * 600)
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]
  const zeros = r() * 0.5
  const shift = (r() - 0.5) * 0.06
  const base: Array<Record<string, string | number>> = []
  const cand: Array<Record<string, string | number>> = []
  for (let i = 0; i < n; i++) {
    const s = r()
    const b = r() < zeros ? 0 : Math.round(s * 100) / 100
    const same = r() < 0.6
    const c = same
      ? b
      : r() < 0.05
        ? 0
        : Math.min(1, Math.max(0, Math.round((s + shift + (r() - 0.5) * 0.2) * 100) / 100))
    const hb = r() < 0.6 ? 1 : 0
    const hc = r() < 0.9 ? hb : 1 - hb
    const lb = 80 * Math.exp(0.6 * (r() + r() - 1))
    const lc = lb * Math.exp(0.05 * (r() - 0.5) + (r() < 0.03 ? 1 : 0))
    const jb = r()
    const jc = jb + (r() - 0.45) * 0.1
    const attrs = { segment: r() < 0.3 ? 'new' : 'old', topic: `t${Math.floor(r() * 4)}` }
    base.push({ query_id: `q${i}`, ndcg: b, hit: hb, latency: lb, judge: jb, ...attrs })
    cand.push({ query_id: `q${i}`, ndcg: c, hit: hc, latency: lc, judge: jc, ...attrs })
  }
  const checks = [
    `  - { name: ndcg holds, metric: ndcg, non_inferior: { margin: ${pick([0.02, 0.05, 0.1])} } }`,
    `  - { name: ndcg relative, metric: ndcg, non_inferior: { margin: "${pick([5, 10, 20])}%" } }`,
    `  - { name: judge better, metric: judge, superior: { margin: 0 } }`,
    `  - { name: judge by t, metric: judge, superior: { test: t, alpha: 0.05 } }`,
    `  - { name: judge by flips, metric: judge, superior: { test: randomization, alpha: 0.05 } }`,
    `  - { name: ndcg floor, metric: ndcg, at_least: ${pick([0.2, 0.3, 0.4, 0.5])} }`,
    `  - { name: latency ceiling, metric: latency, at_most: ${pick([80, 90, 100, 120])} }`,
    `  - { name: latency budget, metric: latency, non_inferior: { margin: "${pick([2, 5, 10])}%" } }`,
    `  - { name: few regressions, metric: latency, max_regressions: { share: ${pick([0.05, 0.1, 0.3])}, threshold: 5 } }`,
    `  - { name: new users, metric: ndcg, where: { segment: new }, non_inferior: { margin: ${pick([0.05, 0.1, 0.2])} } }`,
    `  - { name: per topic, metric: judge, per_slice: topic, non_inferior: { margin: ${pick([0.02, 0.05])} } }`,
    `  - { name: hits, metric: hit, non_inferior: { margin: ${pick([0.02, 0.05, 0.1])} } }`,
    `  - { name: hit floor, metric: hit, at_least: ${pick([0.4, 0.5, 0.55, 0.6])} }`
  ]
  const weighted = r() < 0.3
  const interval = pick(['auto', 'auto', 'percentile', 'bca'])
  const rules = `version: 1
metrics:
  ndcg: { better: higher, range: [0, 1] }
  hit: { better: higher, binary: true }
  latency: { better: lower, unit: ms }
  judge: { better: higher${r() < 0.5 ? ', range: [-1, 2]' : ''} }
slices: [topic]
statistics: { resamples: 400, permutations: 400, seed: ${k}, method: poisson, interval: ${interval}${weighted ? ', weights: { by: segment, target: { new: 0.5, old: 0.5 } }' : ''} }
queries: { min_per_slice: 10 }
checks:
${checks.filter((c) => !(weighted && c.includes('hit'))).join('\n')}
`
  return { rules, rows: [base, cand] }
}

function parquet(file: string, rows: Array<Record<string, string | number>>): void {
  const columnData = [
    { name: 'query_id', data: rows.map((x) => x.query_id as string), type: 'STRING' as const },
    ...['ndcg', 'hit', 'latency', 'judge'].map((m) => ({
      name: m,
      data: Float64Array.from(rows, (x) => x[m] as number),
      type: 'DOUBLE' as const
    })),
    { name: 'segment', data: rows.map((x) => x.segment as string), type: 'STRING' as const },
    { name: 'topic', data: rows.map((x) => x.topic as string), type: 'STRING' as const }
  ]
  writeFileSync(file, Buffer.from(parquetWriteBuffer({ columnData })))
}

/** Per unit: status and reason exactly, and the interval the check read within docs/scale.md's 1e-9. */
function units(json: string): Array<{ key: string; ci: number[] }> {
  const report = JSON.parse(json) as {
    checks: Array<{
      rule: string
      units: Array<{ status: string; reason: string; comparison: { ci: number[] }; level?: { ci: number[] } }>
    }>
  }
  return report.checks.flatMap((c) =>
    c.units.map((u, i) => ({ key: `${c.rule}#${i}: ${u.status}/${u.reason}`, ci: u.level?.ci ?? u.comparison.ci }))
  )
}

describe('rows and a warehouse’s sums decide alike, on random rules of every check kind', () => {
  const CASES = 12
  for (let k = 0; k < CASES; k++) {
    it(`case ${k}`, async () => {
      const c = randomCase(k)
      writeFileSync(at(`r${k}.yml`), c.rules)
      const rows = ['b', 'c'].map((side, s) => {
        parquet(at(`${side}${k}.parquet`), c.rows[s])
        writeFileSync(at(`${side}${k}.jsonl`), c.rows[s].map((x) => JSON.stringify(x)).join('\n') + '\n')
        return at(`${side}${k}.jsonl`)
      })
      const fromRows = await cli([
        'gate',
        '--rules',
        at(`r${k}.yml`),
        '--baseline',
        rows[0],
        '--candidate',
        rows[1],
        '--format',
        'json'
      ])
      expect(fromRows.stderr).toBe('')
      const sql = await cli([
        'sql',
        '--rules',
        at(`r${k}.yml`),
        '--baseline',
        `read_parquet('${at(`b${k}.parquet`)}')`,
        '--candidate',
        `read_parquet('${at(`c${k}.parquet`)}')`
      ])
      expect(sql.stderr).toBe('')
      await con.run(`COPY (${sql.stdout}) TO '${at(`a${k}.parquet`)}' (FORMAT parquet)`)
      const fromSums = await cli([
        'gate',
        '--rules',
        at(`r${k}.yml`),
        '--aggregates',
        at(`a${k}.parquet`),
        '--format',
        'json'
      ])
      expect(fromSums.stderr).toBe('')
      expect(fromSums.code).toBe(fromRows.code)
      const a = units(fromRows.stdout)
      const b = units(fromSums.stdout)
      expect(b.map((u) => u.key)).toEqual(a.map((u) => u.key))
      a.forEach((u, i) => {
        for (const j of [0, 1])
          expect(Math.abs(u.ci[j] - b[i].ci[j])).toBeLessThanOrEqual(1e-9 * Math.max(1, Math.abs(u.ci[j])))
      })
    })
  }
})

/**
 * The warehouse path end to end, with a real engine: the SQL `retrieval-gate sql` writes runs in DuckDB
 * (@duckdb/node-api, in-process) over Parquet files the test writes (hyparquet-writer), split into several files and
 * shards, and `gate --aggregates` on its result decides as `gate` does on the same rows:
 *
 * - the same checks, statuses, reasons and counts, and every number of the JSON report's comparisons equal to the
 *   rows' within the documented tolerance (docs/scale.md: 1e-9 of the magnitude; the reports round to 12 digits);
 * - bit for bit where the method is exact under merging: the resamples and sign-count tests of metrics drawn by
 *   counts from their histograms;
 * - whatever the split into shards, the order of the aggregates' rows, and the format they are exported in;
 * - and every refusal of the rows path (ids on one side only, missing values) and of the aggregates themselves
 *   (other rules, a shard given twice, a missing or repeated row, a number that is not one).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api'
import { parquetWriteBuffer } from 'hyparquet-writer'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { cli, loadFiles, tempDir } from '../helpers.js'
import { close, decision, statuses } from './reports.js'
import { runGate } from '../../src/gate.js'
import { loadAggregateInputs } from '../../src/capabilities/aggregates.js'
import { cliInputSource } from '../../src/commands/cli-source.js'
import type { Comparison } from '../../src/stats/compare.js'
import { loadRules } from '../../src/config/rules.js'
import { warehouseSql } from '../../src/stats/warehouse-sql.js'
import { seedKeys } from '../../src/stats/poisson-weights.js'
import { md5Head } from '../../src/util/md5.js'
import { unitWeight } from '../stats/hash-reference.js'

const dir = tempDir('rg-warehouse-')
const at = (name: string): string => path.join(dir, name)
let db: DuckDBInstance
let con: DuckDBConnection

const N = 2500
const METRICS = ['hit', 'recall', 'ndcg', 'judge', 'latency'] as const

/** Seeded rows: a binary metric, a grid metric (1e-4), two continuous ones; a segment and a topic per query. */
function sides(): Array<Array<Record<string, string | number>>> {
  let a = 17
  const r = (): number => {
    a = (Math.imul(a, 1103515245) + 12345) >>> 0
    return a / 4294967296
  }
  const skill = Array.from({ length: N }, () => r())
  const side = (shift: number): Array<Record<string, string | number>> =>
    skill.map((s, i) => ({
      query_id: `q${String(i).padStart(5, '0')}`,
      hit: r() < s + shift ? 1 : 0,
      recall: Math.min(10, Math.floor(r() * 11 * (s + shift))) / 10,
      ndcg: Math.round(Math.max(0, Math.min(1, s + shift + (r() - 0.5) * 0.3)) * 10000) / 10000,
      judge: s + shift + (r() - 0.5) * 0.4,
      latency: 50 + r() * 30 - shift * 100,
      segment: i % 4 === 0 ? 'new' : 'old',
      topic: `t${i % 5}`
    }))
  return [side(0), side(0.01)]
}

function parquet(file: string, rows: Array<Record<string, string | number>>): void {
  const columnData = [
    { name: 'query_id', data: rows.map((x) => x.query_id as string), type: 'STRING' as const },
    ...METRICS.map((m) => ({ name: m, data: Float64Array.from(rows, (x) => x[m] as number), type: 'DOUBLE' as const })),
    { name: 'segment', data: rows.map((x) => x.segment as string), type: 'STRING' as const },
    { name: 'topic', data: rows.map((x) => x.topic as string), type: 'STRING' as const }
  ]
  writeFileSync(file, Buffer.from(parquetWriteBuffer({ columnData })))
}

const RULES = {
  plain: `version: 1
metrics:
  hit: { better: higher, binary: true }
  ndcg: { better: higher, range: [0, 1] }
  judge: { better: higher }
  latency: { better: lower, unit: ms }
slices: [topic]
statistics: { resamples: 1000, permutations: 1000, seed: 5, method: poisson, interval: percentile }
checks:
  - { name: ndcg holds, metric: ndcg, non_inferior: { margin: 0.01 } }
  - { name: judge better, metric: judge, superior: { margin: 0 } }
  - { name: new users, metric: judge, where: { segment: new }, non_inferior: { margin: 0.02 } }
  - { name: per topic, metric: ndcg, per_slice: topic, non_inferior: { margin: 0.05 } }
  - { name: few regress, metric: latency, max_regressions: { share: 0.6, threshold: 5 } }
  - { name: hits, metric: hit, superior: { test: mcnemar } }
`,
  weighted: `version: 1
metrics:
  ndcg: { better: higher, range: [0, 1] }
  judge: { better: higher }
statistics:
  resamples: 1000
  permutations: 1000
  seed: 9
  method: poisson
  interval: bca
  weights: { by: segment, target: { new: 0.5, old: 0.5 } }
checks:
  - { name: ndcg holds, metric: ndcg, non_inferior: { margin: 0.01 } }
  - { name: judge holds, metric: judge, per_slice: topic, non_inferior: { margin: 0.05 } }
`,
  // statistics.interval auto (the default): Tango's score interval and Hall's skew-corrected t from the shards'
  // counts and centred moments, no bootstrap at all.
  auto: `version: 1
metrics:
  hit: { better: higher, binary: true }
  ndcg: { better: higher, range: [0, 1] }
  judge: { better: higher }
  latency: { better: lower, unit: ms }
slices: [topic]
statistics: { permutations: 1000, seed: 5, method: poisson }
checks:
  - { name: ndcg holds, metric: ndcg, non_inferior: { margin: 0.01 } }
  - { name: judge better, metric: judge, superior: { margin: 0 } }
  - { name: new users, metric: judge, where: { segment: new }, non_inferior: { margin: 0.02 } }
  - { name: per topic, metric: ndcg, per_slice: topic, non_inferior: { margin: 0.05 } }
  - { name: hits, metric: hit, non_inferior: { margin: 0.02 } }
`,
  grid: `version: 1
metrics:
  hit: { better: higher, binary: true }
  recall: { better: higher, range: [0, 1] }
slices: [segment]
statistics: { resamples: 2000, permutations: 2000, seed: 2, interval: percentile, method: multinomial }
checks:
  - { name: recall holds, metric: recall, non_inferior: { margin: 0.01 } }
  - { name: hit holds, metric: hit, per_slice: segment, non_inferior: { margin: 0.05 } }
`
}

/** Runs the SQL for `rules` over `relations` in DuckDB and writes its result to `out` in `format`. */
async function aggregate(
  rules: string,
  baseline: string,
  candidate: string,
  out: string,
  options: { shard?: string; format?: 'parquet' | 'csv' | 'json'; histogramsOnly?: boolean } = {}
): Promise<void> {
  const args = [
    'sql',
    '--rules',
    at(rules),
    '--baseline',
    baseline,
    '--candidate',
    candidate,
    ...(options.shard ? ['--shard', options.shard] : []),
    ...(options.histogramsOnly ? ['--histograms-only'] : [])
  ]
  const sql = await cli(args)
  expect(sql.stderr).toBe('')
  const format = options.format ?? 'parquet'
  await con.run(`COPY (${sql.stdout}) TO '${out}' (FORMAT ${format === 'json' ? 'json' : format})`)
}

const glob = (side: string): string => `read_parquet('${at(`${side}-*.parquet`)}')`
const part = (side: string, p: number): string => `read_parquet('${at(`${side}-${p}.parquet`)}')`

/** Both paths in-process: the rows' comparisons and the aggregates' (from the given files). */
async function inProcess(name: string, files: string[]): Promise<{ rows: Comparison[]; shards: Comparison[] }> {
  const rules = loadRules(readFileSync(at(`${name}.yml`), 'utf8'), at(`${name}.yml`))
  const rows = runGate(await loadFiles(rules, { baseline: at('baseline.jsonl'), candidate: at('candidate.jsonl') }))
  const aggregates = runGate(
    await loadAggregateInputs(rules, cliInputSource({ given: { aggregates: files }, rulesFile: rules.source.file }))
  )
  return { rows: rows.comparisons, shards: aggregates.comparisons }
}

beforeAll(async () => {
  db = await DuckDBInstance.create(':memory:')
  con = await db.connect()
  const [baseline, candidate] = sides()
  writeFileSync(at('baseline.jsonl'), baseline.map((x) => JSON.stringify(x)).join('\n') + '\n')
  writeFileSync(at('candidate.jsonl'), candidate.map((x) => JSON.stringify(x)).join('\n') + '\n')
  // Three files per side, queries spread by a hash of their index, each file in its own order.
  for (let p = 0; p < 3; p++) {
    const pick = (rows: typeof baseline): typeof baseline => rows.filter((_, i) => (i * 7919) % 3 === p).reverse()
    parquet(at(`baseline-${p}.parquet`), pick(baseline))
    parquet(at(`candidate-${p}.parquet`), pick(candidate))
  }
  for (const [name, text] of Object.entries(RULES)) writeFileSync(at(`${name}.yml`), text)
})

afterAll(() => {
  con?.closeSync()
})

describe('the SQL computes the defined weights', () => {
  it('in DuckDB, the Poisson weights of every query are the gate’s own (the sums of weights are equal integers)', async () => {
    const rules = loadRules(RULES.plain, at('plain.yml'))
    const sql = warehouseSql(rules, { dialect: 'duckdb', baseline: glob('baseline'), candidate: glob('candidate') })
    const rows = (
      await con.runAndReadAll(
        `SELECT slot, x, y FROM (${sql}) AS t WHERE section = 'poisson' AND family = 0 AND metric = '' ORDER BY slot`
      )
    ).getRowObjects()
    const { weights } = seedKeys('5')
    const keys = sides()[0].map((x) => md5Head(x.query_id as string))
    for (const j of [0, 1, 250, 499]) {
      let even = 0
      let odd = 0
      for (const [k1, k2] of keys) {
        even += unitWeight(k1, k2, weights, 2 * j)
        odd += unitWeight(k1, k2, weights, 2 * j + 1)
      }
      expect([rows[j].x, rows[j].y]).toEqual([even, odd])
    }
  })
})

describe('gate --aggregates decides as gate on the same rows', () => {
  for (const name of Object.keys(RULES)) {
    it(`${name}: one run over all files, and three shards, give the rows' report`, async () => {
      const rows = await cli([
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
      expect(rows.stderr).toBe('')
      await aggregate(`${name}.yml`, glob('baseline'), glob('candidate'), at(`${name}-all.parquet`))
      for (let p = 0; p < 3; p++)
        await aggregate(`${name}.yml`, part('baseline', p), part('candidate', p), at(`${name}-${p}.parquet`), {
          shard: `part ${p}`
        })
      const one = await cli([
        'gate',
        '--rules',
        at(`${name}.yml`),
        '--aggregates',
        at(`${name}-all.parquet`),
        '--json',
        at(`${name}-one.json`)
      ])
      const three = await cli([
        'gate',
        '--rules',
        at(`${name}.yml`),
        ...[0, 1, 2].flatMap((p) => ['--aggregates', at(`${name}-${p}.parquet`)]),
        '--json',
        at(`${name}-three.json`)
      ])
      expect([one.stderr, three.stderr]).toEqual(['', ''])
      expect([one.code, three.code]).toEqual([rows.code, rows.code])
      const expected = decision(at(`${name}-rows.json`))
      expect(close(decision(at(`${name}-one.json`)), expected)).toEqual([])
      expect(close(decision(at(`${name}-three.json`)), expected)).toEqual([])
      // The statuses and the decided units, exactly.
      expect(statuses(at(`${name}-three.json`))).toEqual(statuses(at(`${name}-rows.json`)))
    })
  }
  it('auto: the intervals are the closed forms (Tango, Hall) from the shards’ moments, within 1e-9 of the rows’; no bootstrap drawn', () => {
    const comparisons = (file: string) =>
      (
        JSON.parse(readFileSync(at(file), 'utf8')) as {
          comparisons: Array<{ metric: string; interval: string; resampling: unknown; ci: number[] }>
        }
      ).comparisons
    const fromRows = comparisons('auto-rows.json')
    const fromShards = comparisons('auto-three.json')
    expect(fromShards.map((c) => c.interval)).toEqual(fromRows.map((c) => c.interval))
    expect(new Set(fromShards.map((c) => `${c.metric}:${c.interval}`))).toEqual(
      new Set(['hit:score', 'ndcg:skew-t', 'judge:skew-t', 'latency:skew-t'])
    )
    expect(fromShards.every((c) => c.resampling === null)).toBe(true)
  })
  it('grid metrics are drawn by counts from their histograms: the tests and counts are the rows’ to the bit, the intervals to rounding', async () => {
    const { rows, shards } = await inProcess(
      'grid',
      [0, 1, 2].map((p) => at(`grid-${p}.parquet`))
    )
    expect(rows.every((c) => c.resampling === 'multinomial')).toBe(true)
    const exact = (cs: Comparison[]): unknown =>
      cs.map((c) => [c.randomization.pValue, c.wins, c.losses, c.gained, c.lost, c.pValue])
    expect(exact(shards)).toEqual(exact(rows))
    // The resamples are the rows' to the bit; the interval is then widened to Student's t and the range's bound,
    // which read the centred moments, summed in another order by the SQL (docs/scale.md's tolerance).
    rows.forEach((c, i) => {
      for (const k of [0, 1])
        expect(Math.abs(c.ci[k] - shards[i].ci[k])).toBeLessThanOrEqual(1e-12 * Math.max(1, Math.abs(c.ci[k])))
    })
  })
  it('Poisson metrics: every interval end within 1e-12 of its magnitude (the tolerance documented is 1e-9)', async () => {
    const { rows, shards } = await inProcess(
      'plain',
      [0, 1, 2].map((p) => at(`plain-${p}.parquet`))
    )
    let worst = 0
    rows.forEach((c, i) => {
      expect(shards[i].resampling).toBe(c.resampling)
      for (const [x, y] of [
        [c.ci[0], shards[i].ci[0]],
        [c.ci[1], shards[i].ci[1]],
        [c.delta, shards[i].delta],
        [c.se, shards[i].se]
      ])
        worst = Math.max(worst, Math.abs(x - y) / Math.max(Math.abs(x), 1e-300))
    })
    expect(rows.some((c) => c.resampling === 'poisson')).toBe(true)
    expect(worst).toBeLessThan(1e-12)
  })
  it('--histograms-only is enough for grid metrics, and refused for a continuous one', async () => {
    await aggregate('grid.yml', glob('baseline'), glob('candidate'), at('grid-hist.parquet'), { histogramsOnly: true })
    const ok = await cli([
      'gate',
      '--rules',
      at('grid.yml'),
      '--aggregates',
      at('grid-hist.parquet'),
      '--json',
      at('grid-hist.json')
    ])
    expect(ok.stderr).toBe('')
    // Two runs of the SQL (histograms only, and in full): the counts to the bit, the sums to the tolerance.
    expect(close(decision(at('grid-hist.json')), decision(at('grid-one.json')))).toEqual([])
    expect(statuses(at('grid-hist.json'))).toEqual(statuses(at('grid-one.json')))
    await aggregate('plain.yml', glob('baseline'), glob('candidate'), at('plain-hist.parquet'), {
      histogramsOnly: true
    })
    const refused = await cli(['gate', '--rules', at('plain.yml'), '--aggregates', at('plain-hist.parquet')])
    expect(refused.code).toBe(2)
    expect(refused.stderr).toMatch(/without the Poisson and sign sums.*--histograms-only/s)
  })
  it('the same report from Parquet, CSV and JSON Lines exports of one result, whatever the order of its rows', async () => {
    // One run of the SQL (DuckDB adds doubles in parallel, so two runs may differ in the last bits), three exports.
    const sql = await cli([
      'sql',
      '--rules',
      at('plain.yml'),
      '--baseline',
      glob('baseline'),
      '--candidate',
      glob('candidate')
    ])
    await con.run(`CREATE TABLE plain_agg AS ${sql.stdout}`)
    await con.run(`COPY plain_agg TO '${at('plain.parquet')}' (FORMAT parquet)`)
    await con.run(`COPY plain_agg TO '${at('plain.csv')}' (FORMAT csv)`)
    await con.run(`COPY plain_agg TO '${at('plain.jsonl')}' (FORMAT json)`)
    expect(
      (
        await cli([
          'gate',
          '--rules',
          at('plain.yml'),
          '--aggregates',
          at('plain.parquet'),
          '--json',
          at('plain.parquet.json')
        ])
      ).stderr
    ).toBe('')
    const lines = readFileSync(at('plain.jsonl'), 'utf8').trim().split('\n')
    // A fixed shuffle of the rows.
    const shuffled = lines
      .map((l, i) => [(i * 2654435761) % 4294967296, l] as const)
      .sort((x, y) => x[0] - y[0])
      .map(([, l]) => l)
    writeFileSync(at('plain-shuffled.jsonl'), shuffled.join('\n') + '\n')
    for (const file of ['plain.csv', 'plain.jsonl', 'plain-shuffled.jsonl']) {
      const r = await cli(['gate', '--rules', at('plain.yml'), '--aggregates', at(file), '--json', at(`${file}.json`)])
      expect(r.stderr).toBe('')
      expect(decision(at(`${file}.json`))).toEqual(decision(at('plain.parquet.json')))
    }
  })
})

describe('a directory of part files, as Spark and Hadoop write one', () => {
  const gateDir = (name: string): Promise<{ code: number; stdout: string; stderr: string }> =>
    cli(['gate', '--rules', at('plain.yml'), '--aggregates', at(name), '--json', at(`${name}.json`)])
  it('its part files are read (in any layout), its markers, checksums and hidden files left out', async () => {
    const lines = readFileSync(at('plain.jsonl'), 'utf8').trim().split('\n')
    mkdirSync(at('parts'))
    for (let p = 0; p < 3; p++)
      writeFileSync(at(`parts/part-0000${p}-1b2c.json`), lines.filter((_, i) => i % 3 === p).join('\n') + '\n')
    writeFileSync(at('parts/_SUCCESS'), '')
    writeFileSync(at('parts/.part-00000-1b2c.json.crc'), 'crc\u0000\u0001')
    writeFileSync(at('parts/part-00001-1b2c.json.crc'), 'not aggregates')
    writeFileSync(at('parts/_committed_123'), '{"added":[]}')
    const r = await gateDir('parts')
    expect(r.stderr).toBe('')
    expect(decision(at('parts.json'))).toEqual(decision(at('plain.parquet.json')))
    await con.run(`COPY plain_agg TO '${at('parquet-parts')}' (FORMAT parquet, PER_THREAD_OUTPUT true)`)
    writeFileSync(at('parquet-parts/_SUCCESS'), '')
    expect((await gateDir('parquet-parts')).stderr).toBe('')
    expect(decision(at('parquet-parts.json'))).toEqual(decision(at('plain.parquet.json')))
  })
  it('a directory without part files, one with a subdirectory, and a CSV part without its header are refused', async () => {
    mkdirSync(at('empty-parts'))
    writeFileSync(at('empty-parts/_SUCCESS'), '')
    expect((await gateDir('empty-parts')).stderr).toMatch(/is a directory without part files.*write\.parquet\(DIR\)/s)
    mkdirSync(at('nested-parts/segment=new'), { recursive: true })
    expect((await gateDir('nested-parts')).stderr).toMatch(/segment=new: is a directory inside a directory/)
    mkdirSync(at('csv-parts'))
    const csv = readFileSync(at('plain.csv'), 'utf8').split('\n').slice(1).join('\n')
    writeFileSync(at('csv-parts/part-00000-9f.csv'), csv)
    expect((await gateDir('csv-parts')).stderr).toMatch(
      /part-00000-9f\.csv:1: has no header.*option\('header', True\)/s
    )
  })
})

describe('refusals', () => {
  const gate = (rules: string, ...files: string[]): Promise<{ code: number; stdout: string; stderr: string }> =>
    cli(['gate', '--rules', at(rules), ...files.flatMap((f) => ['--aggregates', at(f)])])
  it('aggregates computed for other rules', async () => {
    writeFileSync(at('other.yml'), RULES.plain.replace('seed: 5', 'seed: 6'))
    const r = await gate('other.yml', 'plain-all.parquet')
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/was computed for rules_sha256 .* but these rules have/)
  })
  it('a shard given twice, and one shard twice in a file', async () => {
    const twice = await gate('plain.yml', 'plain-0.parquet', 'plain-0.parquet')
    expect(twice.stderr).toMatch(/given twice/)
    const lines = readFileSync(at('plain.jsonl'), 'utf8').trim().split('\n')
    writeFileSync(at('doubled.jsonl'), [...lines, lines[lines.length - 1]].join('\n') + '\n')
    const doubled = await gate('plain.yml', 'doubled.jsonl')
    expect(doubled.code).toBe(2)
    expect(doubled.stderr).toMatch(/is given twice/)
  })
  it('a missing resample, a count that is not one, a number that is not finite', async () => {
    const lines = readFileSync(at('plain.jsonl'), 'utf8').trim().split('\n')
    const poissonRow = lines.findIndex((l) => l.includes('"section":"poisson"'))
    writeFileSync(at('missing.jsonl'), lines.filter((_, i) => i !== poissonRow).join('\n') + '\n')
    expect((await gate('plain.yml', 'missing.jsonl')).stderr).toMatch(/lacks Poisson pair/)
    const nRow = lines.findIndex((l) => l.includes('"stat":"n"'))
    writeFileSync(
      at('fraction.jsonl'),
      lines.map((l, i) => (i === nRow ? l.replace(/"x":\d+(\.\d+)?/, '"x":12.5') : l)).join('\n') + '\n'
    )
    expect((await gate('plain.yml', 'fraction.jsonl')).stderr).toMatch(/n is 12.5, not a count/)
    writeFileSync(
      at('nan.jsonl'),
      lines.map((l, i) => (i === poissonRow ? l.replace(/"x":[-\d.e]+/, '"x":"NaN"') : l)).join('\n') + '\n'
    )
    expect((await gate('plain.yml', 'nan.jsonl')).stderr).toMatch(/is not a finite number/)
  })
  it('a row the rules do not have: an unknown section, family or metric, a field past its cap', async () => {
    const lines = readFileSync(at('plain.jsonl'), 'utf8').trim().split('\n')
    const sums = lines.findIndex((l) => l.includes('"section":"sums"') && l.includes('"metric":"judge"'))
    const cases: Array<[string, (l: string) => string, RegExp]> = [
      [
        'section',
        (l) => l.replace('"section":"sums"', '"section":"totals"'),
        /"totals" is not a section of the aggregates/
      ],
      ['family', (l) => l.replace(/"family":\d+/, '"family":99'), /names family 99; these rules have \d+/],
      [
        'metric',
        (l) => l.replace('"metric":"judge"', '"metric":"judgement"'),
        /names the metric "judgement", which the rules do not have/
      ],
      ['long', (l) => l.replace('"shard":"all"', `"shard":"${'s'.repeat(300)}"`), /is 300 characters long; at most 256/]
    ]
    for (const [name, edit, expected] of cases) {
      writeFileSync(at(`bad-${name}.jsonl`), lines.map((l, i) => (i === sums ? edit(l) : l)).join('\n') + '\n')
      const r = await gate('plain.yml', `bad-${name}.jsonl`)
      expect([r.code, r.stderr]).toEqual([2, expect.stringMatching(expected)])
      expect(r.stderr).toMatch(new RegExp(`bad-${name}.jsonl:${sums + 1}`))
    }
  })
  it('what the pairing refuses: a query the candidate lacks, under missing: error', async () => {
    const sql = await cli([
      'sql',
      '--rules',
      at('plain.yml'),
      '--baseline',
      glob('baseline'),
      '--candidate',
      `(SELECT * FROM ${glob('candidate')} WHERE query_id <> 'q00007')`
    ])
    await con.run(`COPY (${sql.stdout}) TO '${at('dropped.parquet')}' (FORMAT parquet)`)
    const r = await gate('plain.yml', 'dropped.parquet')
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/1 queries are in the baseline only \(for example "q00007"\)/)
  })
  it('ids on one side only are counted by a join with the other side’s distinct ids (not NOT IN, which a NULL id empties)', async () => {
    const sql = await cli([
      'sql',
      '--rules',
      at('plain.yml'),
      '--baseline',
      glob('baseline'),
      '--candidate',
      `(SELECT * FROM ${glob('candidate')} WHERE query_id <> 'q00007' UNION ALL (SELECT * REPLACE (NULL AS query_id) FROM ${part('candidate', 0)} LIMIT 1))`
    ])
    for (const dialect of ['duckdb', 'spark', 'bigquery']) {
      const text = (await cli(['sql', '--rules', at('plain.yml'), '--dialect', dialect])).stdout
      expect(text).not.toMatch(/\bNOT IN\b|\bIN \(SELECT/)
      expect(text).toMatch(/FROM b LEFT JOIN \(SELECT DISTINCT id FROM c WHERE id IS NOT NULL\) AS k ON b\.id = k\.id/)
    }
    const coverage = (
      await con.runAndReadAll(
        `SELECT stat, x, value FROM (${sql.stdout}) AS t WHERE section = 'coverage' AND stat IN ('only_in_baseline', 'missing_ids') ORDER BY stat`
      )
    ).getRowObjects()
    expect(coverage).toEqual([
      { stat: 'missing_ids', x: 1, value: '' },
      { stat: 'only_in_baseline', x: 1, value: 'q00007' }
    ])
  })
  it('a NaN in a metric is refused naming the metric and the query, as the rows path refuses it (no NaN sum)', async () => {
    const sql = await cli([
      'sql',
      '--rules',
      at('plain.yml'),
      '--baseline',
      glob('baseline'),
      '--candidate',
      `(SELECT * REPLACE (CASE WHEN query_id = 'q00042' THEN CAST('NaN' AS DOUBLE) ELSE judge END AS judge) FROM ${glob('candidate')})`
    ])
    await con.run(`COPY (${sql.stdout}) TO '${at('nan.parquet')}' (FORMAT parquet)`)
    const r = await gate('plain.yml', 'nan.parquet')
    expect([r.code, r.stderr]).toEqual([2, expect.stringMatching(/judge.*"q00042"/s)])
    expect(r.stderr).not.toMatch(/not a finite number/)
  })
  it('the rows and the aggregates are not given together', async () => {
    const r = await cli([
      'gate',
      '--rules',
      at('plain.yml'),
      '--aggregates',
      at('plain-all.parquet'),
      '--baseline',
      at('baseline.jsonl')
    ])
    expect([r.code, r.stderr]).toEqual([
      2,
      expect.stringMatching(/--aggregates replaces the rows: --baseline cannot be given with it/)
    ])
  })
  it('rules the SQL cannot serve: clusters, runs', async () => {
    writeFileSync(
      at('clusters.yml'),
      RULES.plain
        .replace('method: poisson', 'method: poisson, cluster: topic')
        .replace('  - { name: hits, metric: hit, superior: { test: mcnemar } }\n', '')
        .replace('  - { name: per topic, metric: ndcg, per_slice: topic, non_inferior: { margin: 0.05 } }\n', '')
    )
    const r = await cli(['sql', '--rules', at('clusters.yml')])
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/does not resample clusters yet/)
  })
  it('an absolute level (at_least, at_most) is decided from the sums as from the rows: the candidate’s own moments (issue 32)', async () => {
    writeFileSync(
      at('level.yml'),
      RULES.plain.replace(
        'checks:\n',
        'checks:\n  - { name: floor, metric: ndcg, at_least: 0.3 }\n  - { name: ceiling, metric: latency, at_most: 70 }\n  - { name: hit floor, metric: hit, at_least: 0.5 }\n'
      )
    )
    await aggregate('level.yml', glob('baseline'), glob('candidate'), at('level.parquet'))
    const rows = await cli([
      'gate',
      '--rules',
      at('level.yml'),
      '--baseline',
      at('baseline.jsonl'),
      '--candidate',
      at('candidate.jsonl'),
      '--json',
      at('level-rows.json')
    ])
    const sums = await cli([
      'gate',
      '--rules',
      at('level.yml'),
      '--aggregates',
      at('level.parquet'),
      '--json',
      at('level-sums.json')
    ])
    expect([rows.stderr, sums.stderr]).toEqual(['', ''])
    expect(sums.code).toBe(rows.code)
    expect(statuses(at('level-sums.json'))).toEqual(statuses(at('level-rows.json')))
    expect(close(decision(at('level-sums.json')), decision(at('level-rows.json')))).toEqual([])
  })
  it('statistics.method auto, whose law depends on the table size the SQL cannot see, is refused by sql itself', async () => {
    writeFileSync(at('auto.yml'), RULES.plain.replace(', method: poisson', ''))
    const r = await cli(['sql', '--rules', at('auto.yml')])
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/statistics\.method.*is auto.*"judge", "latency", "ndcg" would need the rows/s)
    expect(r.stderr).toMatch(/set statistics\.method: poisson/)
    // Binary metrics only: drawn by counts under either law, so auto is written.
    writeFileSync(
      at('auto-binary.yml'),
      `version: 1\nmetrics:\n  hit: { better: higher, binary: true }\nchecks:\n  - { name: hits, metric: hit, non_inferior: { margin: 0.05 } }\n`
    )
    expect((await cli(['sql', '--rules', at('auto-binary.yml')])).code).toBe(0)
  })
  it('multinomial with a continuous metric: refused naming the subset, its queries and what needs the rows', async () => {
    writeFileSync(at('multinomial.yml'), RULES.plain.replace('method: poisson', 'method: multinomial'))
    await aggregate('multinomial.yml', glob('baseline'), glob('candidate'), at('multinomial.parquet'))
    const r = await gate('multinomial.yml', 'multinomial.parquet')
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(
      /judge in segment = new \(625 queries\) has too many distinct differences.*statistics\.method is multinomial, and then its randomization test flips a sign per query, which needs the rows/s
    )
    expect(r.stderr).toMatch(/set statistics\.method: poisson/)
  })
})

describe('the SQL for other engines', () => {
  it('Spark SQL and BigQuery spell what standard SQL leaves open their way', () => {
    const rules = loadRules(RULES.plain, 'rules.yml')
    const spark = warehouseSql(rules, { dialect: 'spark', baseline: 'db.baseline', candidate: 'db.candidate' })
    const bigquery = warehouseSql(rules, { dialect: 'bigquery', baseline: 'ds.baseline', candidate: 'ds.candidate' })
    expect(spark).toMatch(/conv\(substr\(md5\(b\.id\), 1, 8\), 16, 10\)/)
    expect(spark).toMatch(/shiftright\(/)
    expect(spark).toMatch(/explode\(sequence\(0, 499\)\)/)
    expect(bigquery).toMatch(/CAST\(CONCAT\('0x', SUBSTR\(TO_HEX\(MD5\(b\.id\)\), 1, 8\)\) AS INT64\)/)
    expect(bigquery).toMatch(/UNNEST\(GENERATE_ARRAY\(0, 499\)\)/)
    expect(bigquery).not.toMatch(/\bxor\(|\bDOUBLE\b|VARCHAR/)
    expect(spark).not.toMatch(/\bxor\(|VARCHAR|FLOAT64/)
  })
  it('a column name that cannot be quoted is refused, not spliced', async () => {
    writeFileSync(
      at('quote.yml'),
      RULES.plain
        .replace('  latency: { better: lower, unit: ms }', "  'la\"tency': { better: lower }")
        .replace('metric: latency', "metric: 'la\"tency'")
    )
    const r = await cli(['sql', '--rules', at('quote.yml')])
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/cannot be written as a SQL column name/)
  })
})

#!/usr/bin/env node
/**
 * The worked example of docs/scale.md, "Beyond one machine": a per-query table of 10^7 rows per side in Parquet,
 * gated through DuckDB without its rows ever reaching the gate.
 *
 *   node scripts/warehouse-example.js [--rows 1e7] [--kind grid|continuous] [--resamples 10000] [--cli dist/cli.js]
 *
 * 1. DuckDB writes the two sides as Parquet (generated in SQL, seeded: hit@10 binary, recall@10 on tenths,
 *    nDCG@10 on a 1e-4 grid, a segment of 8 values; with --kind continuous, a judge score and a cosine similarity
 *    at full precision as well), into bench-data/warehouse-* (gitignored).
 * 2. `retrieval-gate sql` writes the statement for the rules (grid: --histograms-only, the metrics being few-valued),
 *    DuckDB runs it over the Parquet files and exports the aggregates as Parquet: a child process, timed with
 *    /usr/bin/time (wall, CPU, peak RSS).
 * 3. `retrieval-gate gate --aggregates` decides from them: another child process, timed the same way.
 * Prints one Markdown table. The machine may be shared: the load average is printed with it.
 */
import { existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs'
import { cpus, loadavg } from 'node:os'
import { join } from 'node:path'
import { measure, opt, root } from './bench-common.js'

const ROWS = Math.round(Number(opt('--rows', '1e7')))
const KIND = opt('--kind', 'grid')
const RESAMPLES = Number(opt('--resamples', KIND === 'grid' ? 10000 : 1000))
const CLI = opt('--cli', join(root, 'dist/cli.js'))
const dir = join(root, 'bench-data', `warehouse-${KIND}-${ROWS}`)

if (process.argv[2] === '--engine') {
  // The DuckDB part, in a child of its own so that /usr/bin/time measures DuckDB's memory.
  const { DuckDBInstance } = await import('@duckdb/node-api')
  const [, , , step, a, b] = process.argv
  const db = await DuckDBInstance.create(':memory:')
  const con = await db.connect()
  if (step === 'write') {
    // The same skill per query on both sides (a hash of its index); the candidate a little better. Deterministic.
    const side = () => `SELECT 'q' || lpad(CAST(i AS VARCHAR), 9, '0') AS query_id,
        CAST(hash(i, 1) % 1000 AS DOUBLE) / 1000 AS skill, i FROM range(${Number(a)}) t(i)`
    const metrics = (shift, salt) => `SELECT query_id,
        CASE WHEN (hash(i, ${salt}, 1) % 1000) / 1000.0 < skill + ${shift} THEN 1.0 ELSE 0.0 END AS "hit@10",
        least(1.0, floor(((hash(i, ${salt}, 2) % 1000) / 1000.0) * 11 * (skill + ${shift})) / 10) AS "recall@10",
        round(greatest(0.0, least(1.0, skill * 0.9 + ${shift} + ((hash(i, ${salt}, 3) % 1000) / 1000.0 - 0.5) * 0.3)), 4) AS "ndcg@10",
        CAST(greatest(0.0, least(1.0, skill + ${shift} + ((hash(i, ${salt}, 4) % 1000000) / 1000000.0 - 0.5) * 0.4)) AS DOUBLE) AS judge,
        CAST(least(1.0, 0.55 + 0.35 * skill + ${shift} + ((hash(i, ${salt}, 5) % 1000000) / 1000000.0 - 0.5) * 0.2) AS DOUBLE) AS cosine,
        'seg' || CAST(hash(i, 9) % 8 AS VARCHAR) AS segment
      FROM (${side()})`
    await con.run(
      `COPY (${metrics(0, 11)}) TO '${join(b, 'baseline.parquet')}' (FORMAT parquet, ROW_GROUP_SIZE 1000000)`
    )
    await con.run(
      `COPY (${metrics(0.01, 12)}) TO '${join(b, 'candidate.parquet')}' (FORMAT parquet, ROW_GROUP_SIZE 1000000)`
    )
  } else {
    const { readFileSync } = await import('node:fs')
    await con.run(`COPY (${readFileSync(a, 'utf8')}) TO '${b}' (FORMAT parquet)`)
  }
  con.closeSync()
  process.exit(0)
}

mkdirSync(dir, { recursive: true })
const metrics =
  KIND === 'grid' ? ['hit@10', 'recall@10', 'ndcg@10'] : ['hit@10', 'recall@10', 'ndcg@10', 'judge', 'cosine']
const rules = join(dir, 'rules.yml')
writeFileSync(
  rules,
  [
    'version: 1',
    'metrics:',
    '  hit@10: { better: higher, binary: true }',
    '  recall@10: { better: higher, range: [0, 1] }',
    '  ndcg@10: { better: higher, range: [0, 1] }',
    ...(KIND === 'grid'
      ? []
      : ['  judge: { better: higher, range: [0, 1] }', '  cosine: { better: higher, range: [-1, 1] }']),
    'slices: [segment]',
    `statistics: { confidence: 0.95, resamples: ${RESAMPLES}, permutations: ${RESAMPLES}, seed: 1, method: ${KIND === 'grid' ? 'multinomial' : 'poisson'} }`,
    'checks:',
    ...metrics.map((m) => `  - { name: ${m} holds, metric: "${m}", non_inferior: { margin: 0.01 } }`),
    '  - { name: per segment, metric: "ndcg@10", per_slice: segment, non_inferior: { margin: 0.02 } }'
  ].join('\n') + '\n'
)
if (!existsSync(CLI)) throw new Error(`${CLI} not found: run npm run bundle first (or pass --cli)`)
const self = join(root, 'scripts', 'warehouse-example.js')
if (!existsSync(join(dir, 'candidate.parquet')))
  await measure(process.execPath, [self, '--engine', 'write', String(ROWS), dir], { ok: [0] })
const sqlFile = join(dir, 'aggregates.sql')
const agg = join(dir, 'aggregates.parquet')
const sql = await measure(
  process.execPath,
  [
    CLI,
    'sql',
    '--rules',
    rules,
    '--baseline',
    `read_parquet('${join(dir, 'baseline.parquet')}')`,
    '--candidate',
    `read_parquet('${join(dir, 'candidate.parquet')}')`,
    '--out',
    sqlFile,
    ...(KIND === 'grid' ? ['--histograms-only'] : [])
  ],
  { ok: [0] }
)
const engine = await measure(process.execPath, [self, '--engine', 'run', sqlFile, agg], { ok: [0] })
const gate = await measure(process.execPath, [
  CLI,
  'gate',
  '--rules',
  rules,
  '--aggregates',
  agg,
  '--json',
  join(dir, 'report.json'),
  '--markdown',
  join(dir, 'report.md')
])
const mib = (x) => (x === null ? 'n/a' : x.toFixed(0))
const MiB = (file) => (statSync(file).size / 2 ** 20).toFixed(1)
console.log(
  `${ROWS} queries per side (${KIND}: ${metrics.join(', ')}; 8 segments), ${RESAMPLES} resamples and sign patterns; ${cpus().length} cores, load ${loadavg()[0].toFixed(1)}`
)
console.log('')
console.log('| step | wall s | CPU s | peak MiB | output |')
console.log('| - | -: | -: | -: | - |')
console.log(
  `| retrieval-gate sql${KIND === 'grid' ? ' --histograms-only' : ''} | ${sql.wall.toFixed(2)} | ${sql.cpu?.toFixed(2) ?? 'n/a'} | ${mib(sql.peakMiB)} | ${(statSync(sqlFile).size / 1024).toFixed(0)} KiB of SQL |`
)
console.log(
  `| DuckDB runs it over the Parquet files (${MiB(join(dir, 'baseline.parquet'))} + ${MiB(join(dir, 'candidate.parquet'))} MiB) | ${engine.wall.toFixed(2)} | ${engine.cpu?.toFixed(2) ?? 'n/a'} | ${mib(engine.peakMiB)} | ${MiB(agg)} MiB of aggregates |`
)
console.log(
  `| retrieval-gate gate --aggregates | ${gate.wall.toFixed(2)} | ${gate.cpu?.toFixed(2) ?? 'n/a'} | ${mib(gate.peakMiB)} | verdict ${JSON.parse((await import('node:fs')).readFileSync(join(dir, 'report.json'), 'utf8')).verdict} |`
)

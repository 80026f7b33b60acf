import {
  aggregatesMeta,
  familyAttributes,
  METRIC_STATS,
  subsetFamilies,
  type SubsetFamily
} from '../config/aggregates-plan.js'
import type { MetricRule, Rules } from '../config/types.js'
import { InputError } from '../errors.js'
import { DIALECTS, doubleIn, type Dialect, type DialectText } from './sql-dialects.js'
import { regressionBar } from './engine-queries.js'
import { coverageSql, type CoverageSql } from './warehouse-coverage.js'
import { HASH_M1, HASH_M2, HASH_STEP, POISSON_THRESHOLDS, seedKeys } from './poisson-weights.js'
import { HISTOGRAM_MAX_VALUES, POISSON_FROM_UNITS } from './resampling.js'

/**
 * The SQL of `retrieval-gate sql` (docs/scale.md, "Beyond one machine"): one statement that computes, where the
 * rows are, every sum the gate needs to decide as it would from the rows, and returns them as one long table
 * (the aggregates format, AGGREGATE_COLUMNS of src/model/aggregates.ts), which the gate reads with
 * `gate --aggregates FILE` (src/readers/aggregates.ts). Per shard, subset (every family of src/config/subset-families.ts, every value of
 * its attribute), stratum (statistics.weights.by) and metric:
 *
 * - `sums`: queries, Σ d, Σ |d|, Σ baseline, Σ candidate, the centred Σ (d − mean)² and Σ (d − mean)³ and the same
 *   two of the candidate's values (two passes),
 *   wins and losses in the metric's direction, gained and lost (binary metrics), the queries past each
 *   max_regressions threshold;
 * - `poisson`: per pair of resamples (2j, 2j + 1), Σ w·d of each metric and Σ w, the weights w Poisson(1) from the
 *   hash of md5(query id), the seed and j (src/stats/poisson-weights.ts), in 32-bit arithmetic on 64-bit integers;
 * - `signs`: per sign pattern p, Σ d over the queries whose sign is −1 in p (from the same hash, another seed key);
 * - `histogram`: the distinct differences of a metric and their counts, when the shard has at most
 *   {@link HISTOGRAM_MAX_VALUES} of them: the gate then draws that metric by counts exactly as from the rows (when
 *   they are also at most a quarter of the subset's queries, src/stats/resampling.ts);
 * - `coverage` and `meta`: the counts the pairing refuses on (ids on one side only, repeated, missing or
 *   non-finite values) and what the statement was written for (the rules' sha256, seed, resamples, method).
 *
 * Standard SQL with one dialect table ({@link DIALECTS}): DuckDB (run by the tests), Spark SQL and BigQuery.
 */

/** Where the rows are and how the statement is written. */
export interface SqlOptions {
  dialect: Dialect
  /** The baseline's and the candidate's per-query rows: a table name or any relation (read_parquet(...), a subquery). */
  baseline: string
  candidate: string
  /** The query id column (default query_id). */
  idField?: string
  /** The name of this shard in the aggregates (the gate adds the shards' sums). */
  shard?: string
  /**
   * Leave out the Poisson and sign sums (rows x resamples / 2 and rows x permutations / 32 rows joined: most of the
   * cost): enough when every metric has few distinct differences, which the gate then draws by counts from their
   * histograms (it refuses a metric that needs the sums).
   */
  histogramsOnly?: boolean
}

const U32 = 4294967295

/** x · c modulo 2^32 for 0 <= x < 2^32, without a 64-bit overflow: c split into 16-bit halves. */
function mul32(x: string, c: number): string {
  const lo = c & 0xffff
  const hi = c >>> 16
  return `(((${x}) * ${lo} + ((((${x}) * ${hi}) & 65535) * 65536)) & ${U32})`
}

/** The name of a column the user's table holds, quoted for the dialect; refused when it cannot be quoted safely. */
function column(d: DialectText, name: string, key: string, file: string): string {
  if (/["`\\\u0000-\u001f]/.test(name))
    throw new InputError(
      { file, key },
      `the name ${JSON.stringify(name)} cannot be written as a SQL column name`,
      'rename the column (no quotes, backticks, backslashes or control characters)'
    )
  return d.quote(name)
}

/** What every part of the statement reads: the dialect, the rules' metrics and attributes, their SQL names. */
interface SqlPlan {
  d: DialectText
  rules: Rules
  options: SqlOptions
  file: string
  metrics: MetricRule[]
  families: SubsetFamily[]
  attrs: string[]
  /** Each attribute's column in the statement's relations (a0, a1, ...). */
  attrCol: Map<string, string>
  /** The metrics' indices 0..M-1, and M. */
  idx: number[]
  M: number
  /** The max_regressions checks: their metric, the bar a drop must exceed (regressionBar) and check index. */
  thresholds: Array<{ metric: number; threshold: number; check: number }>
  /** This shard's name as a literal. */
  shard: string
}

/** The SQL statement for the rules (see the module comment). */
export function warehouseSql(rules: Rules, options: SqlOptions): string {
  refuseUnsupported(rules)
  const plan = planOf(rules, options)
  const { d, file, families, idx } = plan
  const { b, c, p, e } = rowColumns(plan)
  const { sums, moments } = sumColumns(plan)
  const { poissonSql, signsSql } = drawsSql(plan)
  const pick = (k: string, prefix: string): string => pickOf(idx, k, prefix)
  const withSums = options.histogramsOnly !== true
  const coverage = coverageSql(d, {
    metrics: plan.metrics,
    attributes: plan.attrs.map((a) => [a, plan.attrCol.get(a) as string])
  })
  const familyWhere = families
    .map(
      (f, g) =>
        `(f.g = ${g}${f.where.map(([k, v]) => ` AND p.${plan.attrCol.get(k) as string} = ${d.literal(v)}`).join('')})`
    )
    .join(' OR ')
  const ctes = [
    `b AS ${d.materialized}(SELECT ${b.join(', ')} FROM ${options.baseline})`,
    `c AS ${d.materialized}(SELECT ${c.join(', ')} FROM ${options.candidate})`,
    `p AS (SELECT ${p.join(', ')} FROM b ${rules.queries.missing === 'zero' ? 'LEFT' : 'INNER'} JOIN c ON b.id = c.id)`,
    `e AS ${d.materialized}(SELECT ${e.join(', ')} FROM p CROSS JOIN ${d.list(
      'g',
      families.map((_, g) => g)
    )} AS f WHERE ${familyWhere})`,
    `mean AS (SELECT g, v, s, ${idx.flatMap((k) => [`AVG(d${k}) AS mu${k}`, `AVG(c${k}) AS cu${k}`]).join(', ')} FROM e GROUP BY g, v, s)`,
    `sums AS (SELECT e.g, e.v, e.s, ${[...sums.map((x) => x.replace(/\b(d|b|c)(\d+)\b/g, 'e.$1$2')), ...moments].join(', ')} FROM e JOIN mean ON e.g = mean.g AND e.v = mean.v AND e.s = mean.s GROUP BY e.g, e.v, e.s)`,
    `hist AS (SELECT g, v, s, mk, dv, COUNT(*) AS cnt FROM (SELECT e.g, e.v, e.s, mm.k AS mk, ${pick('mm.k', 'e.d')} AS dv FROM e CROSS JOIN ${d.list('k', idx)} AS mm) AS hx GROUP BY g, v, s, mk, dv)`,
    `histsize AS (SELECT g, v, mk, COUNT(*) AS vals FROM hist GROUP BY g, v, mk)`,
    ...(withSums
      ? [`poisson AS (${poissonSql} GROUP BY g, v, s, j)`, `signs AS (${signsSql} GROUP BY g, v, s, j)`]
      : []),
    ...coverage.ctes
  ]
  const selects = outputSelects(plan, { coverage, withSums })
  return `-- retrieval-gate sql: the sums the gate needs, for ${JSON.stringify(file)} (sha256 ${rules.source.sha256}), ${options.dialect} dialect.
-- Shard ${JSON.stringify(options.shard ?? 'all')}. Export the result (every column, any row order) as Parquet, CSV or JSON Lines (a
-- file, or a directory of part files) and pass it to retrieval-gate gate --rules RULES --aggregates FILE|DIR
-- [--aggregates FILE ...] (one per shard, or one for all). A metric column must be numeric: a boolean or text one
-- stops the statement at "+ 0" (write it as 0/1, CAST(hit AS INT)), as the rows path refuses it.
WITH
${ctes.join(',\n')}
${selects.join('\nUNION ALL\n')}
`
}

/** The column `${prefix}${k}` of the metric index k: a CASE over the metrics' indices. */
function pickOf(idx: readonly number[], k: string, prefix: string): string {
  return `CASE ${k} ${idx.map((i) => `WHEN ${i} THEN ${prefix}${i}`).join(' ')} END`
}

/** The bit positions of a 32-bit word of sign patterns. */
const BITS = Array.from({ length: 32 }, (_, t) => t)

/** The plan of the statement: every name its parts share. */
function planOf(rules: Rules, options: SqlOptions): SqlPlan {
  const d = DIALECTS[options.dialect]
  const metrics = [...rules.metrics.values()]
  const attrs = familyAttributes(rules)
  const M = metrics.length
  return {
    d,
    rules,
    options,
    file: rules.source.file,
    metrics,
    families: subsetFamilies(rules),
    attrs,
    attrCol: new Map(attrs.map((a, i) => [a, `a${i}`])),
    idx: Array.from({ length: M }, (_, k) => k),
    M,
    thresholds: rules.checks.flatMap((c) =>
      c.kind.type === 'max_regressions'
        ? [
            {
              metric: metrics.findIndex((m) => m.name === c.metric),
              threshold: regressionBar(c.kind.threshold),
              check: c.index
            }
          ]
        : []
    ),
    shard: d.literal(options.shard ?? 'all')
  }
}

/** The columns of the relations b (baseline), c (candidate), p (the pairs) and e (each pair in each family). */
function rowColumns(plan: SqlPlan): { b: string[]; c: string[]; p: string[]; e: string[] } {
  const { d, rules, file, metrics, families, attrs, attrCol, idx } = plan
  const id = column(d, plan.options.idField ?? 'query_id', 'id field', file)
  const stratum = rules.statistics.weights?.by
  const seeds = seedKeys(rules.statistics.seed)
  const mcol = metrics.map((m) => column(d, m.name, `metrics.${m.name}`, file))
  // A metric is a number on every path: `+ 0` is a type error for a boolean or text column in every engine, where a
  // CAST would turn true into 1 in DuckDB and Spark and fail in BigQuery (docs/scale.md, "Booleans").
  const metricColumn = (k: number): string => `CAST(${mcol[k]} + 0 AS ${d.double}) AS m${k}`
  const b = [
    `CAST(${id} AS ${d.text}) AS id`,
    ...attrs.map((a) => `CAST(${column(d, a, `attribute ${a}`, file)} AS ${d.text}) AS ${attrCol.get(a) as string}`),
    ...idx.map(metricColumn)
  ]
  const c = [`CAST(${id} AS ${d.text}) AS id`, ...idx.map(metricColumn)]
  // Under missing: zero a missing value (and every value of a query the candidate dropped) is the metric's fill.
  const zero = rules.queries.missing === 'zero'
  // A value that is not finite is counted in coverage (invalid_value, with its query), which the gate refuses with
  // the query named; in the sums it is 0, so no NaN reaches a sum and the refusal is that one, not an unreadable sum.
  const finite = (x: string): string => `CASE WHEN ${d.nonFinite(x)} THEN CAST(0 AS ${d.double}) ELSE ${x} END`
  const value = (side: 'b' | 'c', k: number): string =>
    zero ? `COALESCE(${finite(`${side}.m${k}`)}, ${doubleIn(d, metrics[k].fill ?? 0)})` : finite(`${side}.m${k}`)
  const fill = (k: number): string => value('c', k)
  const base = (k: number): string => value('b', k)
  // The pairs: the baseline's queries (the exam) with the candidate's values; d = candidate - baseline, as IEEE doubles.
  const p = [
    'b.id AS id',
    `${d.md5Word('b.id', 0)} AS k1`,
    `${d.md5Word('b.id', 1)} AS k2`,
    ...attrs.map((a) => `b.${attrCol.get(a) as string} AS ${attrCol.get(a) as string}`),
    `${stratum === undefined ? d.literal('') : `b.${attrCol.get(stratum) as string}`} AS s`,
    ...idx.flatMap((k) => [
      `${base(k)} AS b${k}`,
      `${fill(k)} AS c${k}`,
      `(${fill(k)} - ${base(k)}) + CAST(0 AS ${d.double}) AS d${k}`
    ])
  ]
  const familyCase = families
    .map((f, g) => (f.by === undefined ? null : `WHEN ${g} THEN p.${attrCol.get(f.by) as string}`))
    .filter((x) => x !== null)
  const e = [
    'f.g AS g',
    familyCase.length === 0
      ? `${d.literal('')} AS v`
      : `CASE f.g ${familyCase.join(' ')} ELSE ${d.literal('')} END AS v`,
    'p.s AS s',
    `${d.xor('p.k1', String(seeds.weights >>> 0))} AS kw`,
    `${d.xor('p.k1', String(seeds.signs >>> 0))} AS ks`,
    'p.k2 AS k2',
    ...idx.flatMap((k) => [`p.b${k} AS b${k}`, `p.c${k} AS c${k}`, `p.d${k} AS d${k}`])
  ]
  return { b, c, p, e }
}

/** The sums of a cell (family, value, stratum) and its centred moments. */
function sumColumns(plan: SqlPlan): { sums: string[]; moments: string[] } {
  const { d, metrics, idx, thresholds } = plan
  const sign = (k: number): number => (metrics[k].better === 'higher' ? 1 : -1)
  const sums = [
    'COUNT(*) AS n',
    ...idx.flatMap((k) => [
      `SUM(d${k}) AS sum${k}`,
      `SUM(ABS(d${k})) AS abs${k}`,
      `SUM(b${k}) AS sb${k}`,
      `SUM(c${k}) AS sc${k}`,
      `SUM(CASE WHEN ${sign(k)} * d${k} > 0 THEN 1 ELSE 0 END) AS wins${k}`,
      `SUM(CASE WHEN ${sign(k)} * d${k} < 0 THEN 1 ELSE 0 END) AS losses${k}`,
      `SUM(CASE WHEN b${k} = 0 AND c${k} = 1 THEN 1 ELSE 0 END) AS gained${k}`,
      `SUM(CASE WHEN b${k} = 1 AND c${k} = 0 THEN 1 ELSE 0 END) AS lost${k}`
    ]),
    ...thresholds.map(
      (t, i) =>
        `SUM(CASE WHEN ${-sign(t.metric)} * d${t.metric} > ${doubleIn(d, t.threshold)} THEN 1 ELSE 0 END) AS reg${i}`
    )
  ]
  // Centred moments of the differences and of the candidate's values (levels), about the cell's means (two passes).
  const moments = idx.flatMap((k) => [
    `SUM((e.d${k} - mean.mu${k}) * (e.d${k} - mean.mu${k})) AS m2_${k}`,
    `SUM((e.d${k} - mean.mu${k}) * (e.d${k} - mean.mu${k}) * (e.d${k} - mean.mu${k})) AS m3_${k}`,
    `SUM((e.c${k} - mean.cu${k}) * (e.c${k} - mean.cu${k})) AS mc2_${k}`,
    `SUM((e.c${k} - mean.cu${k}) * (e.c${k} - mean.cu${k}) * (e.c${k} - mean.cu${k})) AS mc3_${k}`
  ])
  return { sums, moments }
}

/** The Poisson resamples' and the sign patterns' sums, from the hash of each query's id (in layers). */
function drawsSql(plan: SqlPlan): { poissonSql: string; signsSql: string } {
  const { d, rules, idx } = plan
  const { resamples, permutations } = rules.statistics
  const pairs = Math.ceil(resamples / 2)
  const words = Math.ceil(permutations / 32)
  const weight = (u: string): string =>
    `CASE ${POISSON_THRESHOLDS.map((t, w) => `WHEN ${u} < ${t} THEN ${w}`).join(' ')} ELSE ${POISSON_THRESHOLDS.length} END`
  const stage = (from: string, columns: string[]): string => `SELECT ${columns.join(', ')} FROM ${from}`
  const kept = ['g', 'v', 's', ...idx.map((k) => `d${k}`)]
  // Layers compute the hash one step at a time, so no engine evaluates a step twice.
  const hashed = (key: 'kw' | 'ks', range: string): string => {
    const steps = [
      `((${key} + ((j * ${HASH_STEP >>> 0}) & ${U32})) & ${U32}) AS x`,
      `${d.xor('x', d.shr('x', 16))} AS x`,
      `${mul32('x', HASH_M1 >>> 0)} AS x`,
      `${d.xor('x', d.shr('x', 13))} AS x`,
      `${mul32(d.xor('x', 'k2'), HASH_M2 >>> 0)} AS x`,
      `${d.xor('x', d.shr('x', 16))} AS h`
    ]
    let sql = `SELECT ${[...kept, 'j', 'k2', steps[0]].join(', ')} FROM e CROSS JOIN ${range} AS r`
    for (let i = 1; i < steps.length; i++)
      sql = stage(`(${sql}) AS t${i}`, [...kept, 'j', ...(i < 4 ? ['k2'] : []), steps[i]])
    return sql
  }
  const poissonSql = stage(
    `(${stage(`(${hashed('kw', d.range('j', pairs))}) AS hw`, [...kept, 'j', `${weight('(h & 65535)')} AS wa`, `${weight(d.shr('h', 16))} AS wb`])}) AS pw`,
    [
      'g',
      'v',
      's',
      'j',
      ...idx.flatMap((k) => [`SUM(wa * d${k}) AS pa${k}`, `SUM(wb * d${k}) AS pb${k}`]),
      'SUM(wa) AS na',
      'SUM(wb) AS nb'
    ]
  )
  const signsSql = stage(`(${hashed('ks', d.range('j', words))}) AS hs`, [
    'g',
    'v',
    's',
    'j',
    ...BITS.flatMap((t) =>
      idx.map((k) => `SUM(CASE WHEN (${d.shr('h', t)} & 1) = 1 THEN d${k} ELSE 0 END) AS f${t}_${k}`)
    )
  ])
  return { poissonSql, signsSql }
}

/** The rows of the result: meta, coverage, sums, regressions, Poisson, signs and histograms, in the long format. */
function outputSelects(plan: SqlPlan, at: { coverage: CoverageSql; withSums: boolean }): string[] {
  const { d, rules, options, metrics, idx, M, thresholds, shard } = plan
  const { coverage, withSums } = at
  const { permutations } = rules.statistics
  const none = d.literal('')
  // A row of the long format; a column not given is the empty text or 0 (family and slot 0, no value, stratum or y).
  const out = (section: string, given: Partial<Record<OutColumn, string>> & { stat: string }): string => {
    const cols = { family: '0', value: none, stratum: none, metric: none, slot: '0', x: '0', y: '0', ...given }
    return `SELECT ${d.literal(section)} AS section, ${shard} AS shard, CAST(${cols.family} AS ${d.bigint}) AS family, CAST(${cols.value} AS ${d.text}) AS value, CAST(${cols.stratum} AS ${d.text}) AS stratum, CAST(${cols.metric} AS ${d.text}) AS metric, CAST(${cols.stat} AS ${d.text}) AS stat, CAST(${cols.slot} AS ${d.bigint}) AS slot, CAST(${cols.x} AS ${d.double}) AS x, CAST(${cols.y} AS ${d.double}) AS y`
  }
  const metricName = (k: string): string =>
    `CASE ${k} ${metrics.map((m, i) => `WHEN ${i} THEN ${d.literal(m.name)}`).join(' ')} END`
  const pick = (k: string, prefix: string): string => pickOf(idx, k, prefix)
  const statNames = [...METRIC_STATS]
  const statCols = ['sum', 'abs', 'sb', 'sc', 'm2_', 'm3_', 'wins', 'losses', 'gained', 'lost', 'mc2_', 'mc3_']
  const statCase = `CASE st.i ${statCols.map((col, i) => `WHEN ${i} THEN ${pick('mm.k', col)}`).join(' ')} END`
  const statName = `CASE st.i ${statNames.map((name, i) => `WHEN ${i} THEN ${d.literal(name)}`).join(' ')} END`
  const meta: Array<[string, string]> = [
    ...aggregatesMeta(rules),
    ['sums', withSums ? 'all' : 'histograms'],
    ['dialect', options.dialect]
  ]
  // A shard's histogram of a subset's column when it has few values in all (the gate checks the share of the subset's queries).
  const histogramRows = `SELECT h.g, h.v, h.s, h.mk, h.dv, h.cnt FROM hist AS h JOIN histsize AS z ON h.g = z.g AND h.v = z.v AND h.mk = z.mk WHERE z.vals <= ${HISTOGRAM_MAX_VALUES}`
  const selects = [
    ...meta.map(([k, v]) => out('meta', { value: d.literal(v), stat: d.literal(k) })),
    // The coverage counts, unpivoted from their one-row relations by an index (each relation computed once).
    `${out('coverage', {
      value: `COALESCE(CASE ci.i ${coverage.rows.flatMap((r, i) => (r.example === null ? [] : [`WHEN ${i} THEN ${r.example}`])).join(' ')} END, '')`,
      stat: `CASE ci.i ${coverage.rows.map((r, i) => `WHEN ${i} THEN ${d.literal(r.stat)}`).join(' ')} END`,
      x: `CASE ci.i ${coverage.rows.map((r, i) => `WHEN ${i} THEN ${r.count}`).join(' ')} END`
    })} FROM ${coverage.from} CROSS JOIN ${d.list(
      'i',
      coverage.rows.map((_, i) => i)
    )} AS ci`,
    `${out('sums', { family: 'sums.g', value: 'sums.v', stratum: 'sums.s', stat: d.literal('n'), x: 'sums.n' })} FROM sums`,
    `${out('sums', { family: 'sums.g', value: 'sums.v', stratum: 'sums.s', metric: metricName('mm.k'), stat: statName, x: statCase.replace(/\b(sum|abs|sb|sc|m2_|m3_|mc2_|mc3_|wins|losses|gained|lost)(\d+)\b/g, 'sums.$1$2') })} FROM sums CROSS JOIN ${d.list('k', idx)} AS mm CROSS JOIN ${d.list(
      'i',
      statNames.map((_, i) => i)
    )} AS st`,
    ...thresholds.map(
      (t, i) =>
        `${out('sums', { family: 'sums.g', value: 'sums.v', stratum: 'sums.s', metric: d.literal(metrics[t.metric].name), stat: d.literal(`regressions:${t.check}`), x: `sums.reg${i}` })} FROM sums`
    ),
    ...(withSums
      ? [
          `${out('poisson', { family: 'poisson.g', value: 'poisson.v', stratum: 'poisson.s', metric: `CASE WHEN mm.k = ${M} THEN '' ELSE ${metricName('mm.k')} END`, stat: d.literal('weights'), slot: 'poisson.j', x: `CASE mm.k ${idx.map((k) => `WHEN ${k} THEN poisson.pa${k}`).join(' ')} ELSE poisson.na END`, y: `CASE mm.k ${idx.map((k) => `WHEN ${k} THEN poisson.pb${k}`).join(' ')} ELSE poisson.nb END` })} FROM poisson CROSS JOIN ${d.list('k', [...idx, M])} AS mm`,
          `${out('signs', { family: 'signs.g', value: 'signs.v', stratum: 'signs.s', metric: metricName('mm.k'), stat: d.literal('minus'), slot: '32 * signs.j + tb.t', x: `CASE tb.t * ${M} + mm.k ${BITS.flatMap((t) => idx.map((k) => `WHEN ${t * M + k} THEN signs.f${t}_${k}`)).join(' ')} END` })} FROM signs CROSS JOIN ${d.list('t', BITS)} AS tb CROSS JOIN ${d.list('k', idx)} AS mm WHERE 32 * signs.j + tb.t < ${permutations}`
        ]
      : []),
    `${out('histogram', { family: 'hr.g', value: 'hr.v', stratum: 'hr.s', metric: metricName('hr.mk'), stat: d.literal('count'), x: 'hr.dv', y: 'hr.cnt' })} FROM (${histogramRows}) AS hr`
  ]
  return selects
}

/** The columns of the result's long format a row gives (besides its section, shard and stat). */
type OutColumn = 'family' | 'value' | 'stratum' | 'metric' | 'slot' | 'x' | 'y'

/** What the SQL path does not compute yet: refused with the key, never silently approximated. */
function refuseUnsupported(rules: Rules): void {
  const file = rules.source.file
  if (rules.statistics.cluster !== undefined) {
    throw new InputError(
      { file, key: 'statistics.cluster' },
      'the warehouse SQL does not resample clusters yet',
      'gate the rows (retrieval-gate gate --baseline B --candidate C), or drop statistics.cluster'
    )
  }
  refuseAutoMethod(rules)
  if (rules.judgments !== undefined || rules.dataset !== undefined) {
    throw new InputError(
      { file, key: rules.judgments ? 'judgments' : 'dataset' },
      'the warehouse SQL reads per-query metric rows, not runs scored against judgments',
      'score the runs into per-query rows in the warehouse first, then drop judgments / dataset from these rules'
    )
  }
}

/**
 * statistics.method auto picks its law from the number of queries (multinomial below {@link POISSON_FROM_UNITS},
 * src/stats/resampling.ts), which the statement cannot see before it runs; below that size a metric with many
 * distinct differences would need the rows, and `gate --aggregates` would refuse it only after the warehouse ran.
 * So the SQL is written only for a law fixed in the rules: poisson (any metric, any size) or multinomial (drawn by
 * counts from the histograms: metrics with few distinct values), or auto when every metric is binary (drawn by
 * counts under either law).
 */
function refuseAutoMethod(rules: Rules): void {
  if ((rules.statistics.method ?? 'auto') !== 'auto') return
  const continuous = [...rules.metrics.values()].filter((m) => !m.binary).map((m) => m.name)
  if (continuous.length === 0) return
  throw new InputError(
    { file: rules.source.file, key: 'statistics.method' },
    `is auto, which chooses its law by the number of queries (multinomial below ${POISSON_FROM_UNITS}), a number the SQL cannot know before the warehouse runs it; below it ${continuous
      .slice(0, 3)
      .map((m) => JSON.stringify(m))
      .join(', ')}${continuous.length > 3 ? ', …' : ''} would need the rows`,
    'set statistics.method: poisson (its weights are computed where the rows are, at any size), or multinomial when every metric takes few values (add --histograms-only)'
  )
}

import type { MetricRule } from '../config/types.js'
import { doubleIn, type DialectText } from './sql-dialects.js'

/**
 * The `coverage` rows of the warehouse statement (src/stats/warehouse-sql.ts; the names are
 * src/config/aggregates-plan.ts coverageStats): what the pairing of rows refuses on or counts, each with one example
 * id. Computed in one pass over each side and one over their join, not one scan per count: each side joined with the
 * other side's distinct ids (a left join: an anti-join and a semi-join in one, planned as a hash or sort-merge join
 * by every engine; NOT IN (SELECT id ...) is null-aware, which Spark plans as a broadcast of every id to every
 * worker, and a NULL id on the other side would make it count nothing), the baseline joined with the candidate for the
 * values `missing: zero` fills, and the repeated ids grouped. Each relation is referenced once, so an engine that
 * recomputes a CTE at each reference (Spark, BigQuery) computes it once; the rows are then unpivoted by one index.
 */

/** What the coverage rows are computed from: the statement's `b` and `c` relations and their column names. */
export interface CoverageColumns {
  metrics: readonly MetricRule[]
  /** The family attributes and their columns in `b` (a0, a1, ...). */
  attributes: ReadonlyArray<[name: string, column: string]>
}

/** The CTEs the coverage rows read, and the columns of its one SELECT: [stat, count, example] per row. */
export interface CoverageSql {
  ctes: string[]
  from: string
  rows: Array<{ stat: string; count: string; example: string | null }>
}

/** The coverage CTEs and rows for `d` (see the module comment). */
export function coverageSql(d: DialectText, on: CoverageColumns): CoverageSql {
  // COUNT of a CASE, not SUM: 0 over no rows (an empty shard), where SUM gives NULL.
  const count = (condition: string): string => `COUNT(CASE WHEN ${condition} THEN 1 END)`
  const example = (side: string, condition: string): string => `MIN(CASE WHEN ${condition} THEN ${side}.id END)`
  const bad = (side: string, k: number): string => {
    const m = on.metrics[k]
    const x = `${side}.m${k}`
    return [
      d.nonFinite(x),
      ...(m.binary ? [`(${x} <> 0 AND ${x} <> 1)`] : []),
      ...(m.range ? [`(${x} < ${doubleIn(d, m.range[0])} OR ${x} > ${doubleIn(d, m.range[1])})`] : [])
    ].join(' OR ')
  }
  const ks = on.metrics.map((_, k) => k)
  /** One side's pass: itself left-joined with the other side's distinct ids (k.id is NULL: on this side only). */
  const side = (s: 'b' | 'c'): string => {
    // The candidate's values of the exam's queries only (a candidate-only query is never compared).
    const exam = s === 'c' ? 'k.id IS NOT NULL AND ' : ''
    const columns = [
      'COUNT(*) AS n',
      `COUNT(*) - COUNT(DISTINCT ${s}.id) AS repeated`,
      `${count(`${s}.id IS NULL`)} AS null_ids`,
      `${count(`${s}.id IS NOT NULL AND k.id IS NULL`)} AS only`,
      `${example(s, `${s}.id IS NOT NULL AND k.id IS NULL`)} AS only_example`,
      ...(s === 'b'
        ? on.attributes.flatMap(([, col], i) => [
            `${count(`b.${col} IS NULL`)} AS ma${i}`,
            `${example('b', `b.${col} IS NULL`)} AS ea${i}`
          ])
        : []),
      ...ks.flatMap((k) => [
        `${count(`${exam}${s}.m${k} IS NULL`)} AS mv${k}`,
        `${example(s, `${exam}${s}.m${k} IS NULL`)} AS ev${k}`,
        `${count(`${exam}${s}.m${k} IS NOT NULL AND (${bad(s, k)})`)} AS iv${k}`,
        `${example(s, `${exam}${s}.m${k} IS NOT NULL AND (${bad(s, k)})`)} AS ei${k}`
      ])
    ]
    const other = s === 'b' ? 'c' : 'b'
    return `cov_${s} AS (SELECT ${columns.join(', ')} FROM ${s} LEFT JOIN (SELECT DISTINCT id FROM ${other} WHERE id IS NOT NULL) AS k ON ${s}.id = k.id)`
  }
  const repeated = (s: 'b' | 'c'): string =>
    `cov_r${s} AS (SELECT MIN(id) AS example FROM (SELECT id FROM ${s} GROUP BY id HAVING COUNT(*) > 1) AS r)`
  // Filled: the exam's queries whose candidate value is missing, a query the candidate dropped included.
  const filled = `cov_f AS (SELECT ${['COUNT(*) AS n', ...ks.map((k) => `${count(`c.m${k} IS NULL`)} AS fl${k}`)].join(', ')} FROM b LEFT JOIN c ON b.id = c.id)`
  const rows: CoverageSql['rows'] = [
    { stat: 'baseline_rows', count: 'cov_b.n', example: null },
    { stat: 'candidate_rows', count: 'cov_c.n', example: null },
    { stat: 'baseline_repeated', count: 'cov_b.repeated', example: 'cov_rb.example' },
    { stat: 'candidate_repeated', count: 'cov_c.repeated', example: 'cov_rc.example' },
    { stat: 'only_in_baseline', count: 'cov_b.only', example: 'cov_b.only_example' },
    { stat: 'only_in_candidate', count: 'cov_c.only', example: 'cov_c.only_example' },
    { stat: 'missing_ids', count: 'cov_b.null_ids + cov_c.null_ids', example: null },
    ...on.attributes.map(([name], i) => ({
      stat: `missing_attribute:${name}`,
      count: `cov_b.ma${i}`,
      example: `cov_b.ea${i}`
    })),
    ...ks.flatMap((k) =>
      (['b', 'c'] as const).flatMap((s) => {
        const name = `${s === 'b' ? 'baseline' : 'candidate'}:${on.metrics[k].name}`
        return [
          { stat: `missing_value:${name}`, count: `cov_${s}.mv${k}`, example: `cov_${s}.ev${k}` },
          { stat: `invalid_value:${name}`, count: `cov_${s}.iv${k}`, example: `cov_${s}.ei${k}` },
          // The baseline's filled values are its missing ones; the candidate's, those of the exam's queries it lacks.
          { stat: `filled:${name}`, count: s === 'b' ? `cov_b.mv${k}` : `cov_f.fl${k}`, example: null }
        ]
      })
    )
  ]
  return {
    ctes: [side('b'), side('c'), filled, repeated('b'), repeated('c')],
    from: 'cov_b CROSS JOIN cov_c CROSS JOIN cov_f CROSS JOIN cov_rb CROSS JOIN cov_rc',
    rows
  }
}

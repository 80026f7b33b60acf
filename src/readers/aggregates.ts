import { aggregatesMeta, coverageStats, METRIC_STATS } from '../config/aggregates-plan.js'
import type { MetricRule, Rules } from '../config/types.js'
import { InputError, type Where } from '../errors.js'
import type { AggregateCount, Aggregates, MetricSums, StratumSums, SubsetSums } from '../model/aggregates.js'
import { quote } from '../util/show.js'
import {
  createCollector,
  HINT,
  rowPlan,
  toRow,
  type Cell,
  type Row,
  type RowPlan,
  type Shard
} from './aggregate-rows.js'
import { detectFormat } from './read.js'
import type { FetchedFile } from './fetched.js'
import { partFiles } from './part-files.js'

/**
 * Reads the aggregates `retrieval-gate sql` computes in a warehouse (src/stats/warehouse-sql.ts): one or more files
 * (Parquet, CSV with a header, or JSON Lines) of rows (section, shard, family, value, stratum, metric, stat, slot,
 * x, y), any row order, a shard's rows in any of the files. The files are an answer like the candidate's rows
 * (docs/trust.md): every row is checked, capped and refused with its file and line, and the shards are added in
 * the order of their names, so the same aggregates in any order and any split give the same sums.
 *
 * Refused: rows for other rules (the rules' sha256, seed, resamples, permutations or method), a section, family,
 * metric, statistic or slot the rules do not have, a key given twice in a shard, a number that is not finite
 * (or a count that is not a whole number), a shard missing a statistic, a resample or a sign pattern, and what
 * the pairing of rows refuses (counted by the SQL: ids on one side only under `missing: error`, repeated ids,
 * missing or invalid values, missing attributes).
 */

/** Most values one family's attribute may have (the rows path's cap on slice values, src/align/slice-values.ts). */
const MAX_FAMILY_VALUES = 20_000

/** Strings in code-unit order (JavaScript's default sort), so the order never depends on a locale. */
const byCode = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0)

/** Reads and merges the aggregates files for these rules. */
export async function readAggregates(files: readonly FetchedFile[], rules: Rules): Promise<Aggregates> {
  const plan = rowPlan(rules)
  const { onRow, shards } = createCollector(plan)

  // A directory is its part files (Spark's df.write.parquet(DIR)), read as if each had been given.
  const parts: FetchedFile[] = []
  for (const file of files) parts.push(...(await partFiles(file)))
  for (const file of parts) await readRows(file, onRow)
  if (shards.size === 0) throw new InputError({ file: files[0]?.name }, 'holds no aggregates', HINT)
  const names = [...shards.keys()].sort(byCode)
  const label = files.map((f) => f.name).join(', ')
  const sums = (shards.get(names[0]) as Shard).meta.get('sums')
  for (const name of names) {
    const shard = shards.get(name) as Shard
    if (shard.meta.get('sums') !== sums || (sums !== 'all' && sums !== 'histograms')) {
      throw new InputError(
        { file: label, key: 'meta sums' },
        `shard ${quote(name)} has the sums ${quote(shard.meta.get('sums') ?? '(none)')}, shard ${quote(names[0])} ${quote(sums ?? '(none)')}`,
        'write every shard with the same retrieval-gate sql options'
      )
    }
    checkShard(name, shard, plan, { label, resampled: sums === 'all' })
  }
  return {
    source: `${label} (${names.length} ${names.length === 1 ? 'shard' : 'shards'})`,
    shards: names,
    sums: sums as 'all' | 'histograms',
    coverage: mergeCoverage(names.map((n) => (shards.get(n) as Shard).coverage)),
    subsets: mergeSubsets(
      names.map((n) => shards.get(n) as Shard),
      plan.metrics.length
    )
  }
}

/**
 * Every row of one file, in the layout the format registry detects (src/readers/formats.ts, kind `aggregates`:
 * Parquet by its magic, CSV by its name, else JSON Lines).
 */
async function readRows(file: FetchedFile, onRow: (r: Row) => void): Promise<void> {
  const { entry, probe } = await detectFormat({ kind: 'aggregates', file: file.path, name: file.name })
  await entry.read(probe, {
    path: file.path,
    name: file.name,
    hint: HINT,
    onCells: (get, where) => onRow(toRow(get, where))
  })
}

/**
 * A shard holds everything the rules (the plan's) need, and was computed for them; `label` names the files in the
 * refusals, `resampled` says whether it must hold the resampling sums.
 */
function checkShard(name: string, shard: Shard, plan: RowPlan, size: { label: string; resampled: boolean }): void {
  const { rules } = plan
  const M = plan.metrics.length
  const where: Where = { file: size.label }
  for (const [key, expected] of aggregatesMeta(rules)) {
    const got = shard.meta.get(key)
    if (got !== expected) {
      throw new InputError(
        { ...where, key: `meta ${key}` },
        `shard ${quote(name)} was computed for ${key} ${got === undefined ? '(none)' : quote(got)}, but these rules have ${quote(expected)}`,
        'write the SQL again for these rules (retrieval-gate sql --rules RULES) and run it: the sums depend on the rules'
      )
    }
  }
  for (const stat of coverageStats(rules))
    if (!shard.coverage.has(stat))
      throw new InputError(
        { ...where, key: `coverage ${stat}` },
        `shard ${quote(name)} has no coverage count ${quote(stat)}`,
        HINT
      )
  const values = new Map<number, Set<string>>()
  for (const cell of shard.cells.values()) {
    const at = `shard ${quote(name)}, family ${cell.family}${cell.value === '' ? '' : ` = ${quote(cell.value)}`}${cell.stratum === '' ? '' : `, stratum ${quote(cell.stratum)}`}`
    if (cell.n === undefined) throw new InputError(where, `${at} has no count of queries (sums n)`, HINT)
    const lacking = (what: string): never => {
      throw new InputError(where, `${at} lacks ${what}`, HINT)
    }
    for (let m = 0; m < M; m++) {
      for (let i = 0; i < METRIC_STATS.length; i++)
        if (Number.isNaN(cell.stats[m * METRIC_STATS.length + i])) lacking(`${METRIC_STATS[i]} of metric ${m + 1}`)
      if (size.resampled && cell.minusSeen[m].includes(0))
        lacking(`sign pattern ${cell.minusSeen[m].indexOf(0)} of metric ${m + 1}`)
    }
    for (let m = 0; m <= M; m++)
      if (size.resampled && cell.poissonSeen[m].includes(0))
        lacking(`Poisson pair ${cell.poissonSeen[m].indexOf(0)}${m === M ? ' (weights)' : ` of metric ${m + 1}`}`)
    for (const [check, m] of plan.checks) if (!cell.regressions[m].has(check)) lacking(`regressions:${check}`)
    checkSumsAgree(cell, {
      at,
      file: size.label,
      metrics: [...rules.metrics.values()],
      baselineRows: shard.coverage.get('baseline_rows')?.count ?? 0,
      resampled: size.resampled
    })
    let set = values.get(cell.family)
    if (!set) values.set(cell.family, (set = new Set()))
    set.add(cell.value)
    if (set.size > MAX_FAMILY_VALUES)
      throw new InputError(
        where,
        `family ${cell.family} (${plan.families[cell.family].by ?? 'no attribute'}) has more than ${MAX_FAMILY_VALUES} values`,
        'slice by an attribute with fewer values (the same cap as for rows)'
      )
  }
}

/**
 * Slack for sums a warehouse adds in floating point, in its own order: the checks below catch sums that no set of
 * rows could give, not rounding (a double's relative error is 1.1e-16 per addition).
 */
const SUMS_SLACK = 1e-6
/** An absolute slack beside it, for sums that should be 0. */
const SUMS_TINY = 1e-9
/**
 * Most queries one cell of one shard may count: the counts of MAX_SHARDS (src/readers/aggregate-rows.ts) such cells still add up exactly in
 * a double (10^4 x 10^11 = 10^15 < 2^53, about 9.0 x 10^15).
 */
const MAX_CELL_QUERIES = 1e11

/** What the consistency of one cell is judged against, and how a refusal names it. */
interface CellSite {
  /** `shard "s0", family 0 = "new"`: the cell in messages. */
  at: string
  file: string
  /** The rules' metrics, in order: their declared ranges bound the sums. */
  metrics: readonly MetricRule[]
  /** The shard's coverage count of baseline rows: no cell pairs more queries than that. */
  baselineRows: number
  resampled: boolean
}

/**
 * The sums of one cell agree with each other as the sums of one set of n paired rows must, or the aggregates are
 * refused with the file and the key: every count and sum is the job's own statement (docs/trust.md, "Warehouse
 * aggregates"), and a count of 2^53 - 1 queries, more wins than queries or a negative sum of squares is no
 * statement about any rows. Checked: n within {@link MAX_CELL_QUERIES} and the shard's baseline rows; wins +
 * losses, gained + lost and each regression count at most n; |sum| at most sum_abs; m2 at least 0; with a declared
 * range [lo, hi] (width w): sum_abs at most n w, sum_baseline and sum_candidate within [n lo, n hi], sum equal to
 * sum_candidate - sum_baseline, m2 at most w sum_abs and |m3| at most 2 w m2; a histogram's counts adding up to n
 * and its values to sum and sum_abs (each within the range); each sign pattern's sum at most sum_abs.
 */
function checkSumsAgree(cell: Cell, site: CellSite): void {
  const n = cell.n as number
  const refuse = (key: string, problem: string): never => {
    throw new InputError({ file: site.file, key }, `${site.at}: ${problem}`, HINT)
  }
  if (n > MAX_CELL_QUERIES)
    refuse('sums n', `counts ${n} queries, more than ${MAX_CELL_QUERIES} (the most one shard's cell may count)`)
  if (n > site.baselineRows)
    refuse(
      'sums n',
      `counts ${n} queries, more than the shard's ${site.baselineRows} baseline rows (coverage baseline_rows)`
    )
  const near = (x: number, y: number, scale: number): boolean => Math.abs(x - y) <= SUMS_SLACK * scale + SUMS_TINY
  site.metrics.forEach((metric, m) => {
    const s = (stat: (typeof METRIC_STATS)[number]): number =>
      cell.stats[m * METRIC_STATS.length + METRIC_STATS.indexOf(stat)]
    const of = `of ${quote(metric.name)}`
    const [sum, abs, sb, sc, m2, m3] = [s('sum'), s('sum_abs'), s('sum_baseline'), s('sum_candidate'), s('m2'), s('m3')]
    for (const [a, b] of [['wins', 'losses'] as const, ['gained', 'lost'] as const])
      if (s(a) + s(b) > n)
        refuse(`sums ${a}, ${b}`, `${a} ${s(a)} and ${b} ${s(b)} ${of} add up to more than its ${n} queries`)
    for (const [check, c] of cell.regressions[m])
      if (c > n) refuse(`sums regressions:${check}`, `${c} regressed queries ${of}, more than its ${n} queries`)
    if (abs < 0) refuse('sums sum_abs', `sum_abs ${abs} ${of} is negative, and it is a sum of absolute values`)
    if (Math.abs(sum) > abs * (1 + SUMS_SLACK) + SUMS_TINY)
      refuse('sums sum, sum_abs', `|sum| ${Math.abs(sum)} ${of} is larger than sum_abs ${abs}`)
    const mc2 = s('m2_candidate')
    for (const [stat, x] of [['m2', m2] as const, ['m2_candidate', mc2] as const])
      if (x < 0) refuse(`sums ${stat}`, `${stat} ${x} ${of} is negative, and it is a sum of squares`)
    const range = metric.range
    const w = range === undefined ? undefined : range[1] - range[0]
    if (range !== undefined && w !== undefined) {
      const big = n * Math.max(Math.abs(range[0]), Math.abs(range[1]))
      if (abs > n * w * (1 + SUMS_SLACK) + SUMS_TINY)
        refuse('sums sum_abs', `sum_abs ${abs} ${of} is more than its ${n} queries times the width ${w} of its range`)
      for (const [stat, x] of [
        ['sum_baseline', sb],
        ['sum_candidate', sc]
      ] as const)
        if (x < n * range[0] - SUMS_SLACK * big - SUMS_TINY || x > n * range[1] + SUMS_SLACK * big + SUMS_TINY)
          refuse(
            `sums ${stat}`,
            `${stat} ${x} ${of} is outside ${n} queries times its range [${range[0]}, ${range[1]}]`
          )
      if (!near(sum, sc - sb, big))
        refuse('sums sum', `sum ${sum} ${of} is not sum_candidate - sum_baseline (${sc - sb})`)
      if (m2 > w * abs * (1 + SUMS_SLACK) + SUMS_TINY)
        refuse('sums m2', `m2 ${m2} ${of} is more than the width ${w} of its range times sum_abs ${abs}`)
      if (Math.abs(m3) > 2 * w * m2 * (1 + SUMS_SLACK) + SUMS_TINY)
        refuse('sums m3', `|m3| ${Math.abs(m3)} ${of} is more than twice the width ${w} of its range times m2 ${m2}`)
      // The candidate's values lie within a width w: their squared deviations at most n (w/2)^2, the cubed w times those.
      if (mc2 > (n * w * w) / 4 + SUMS_SLACK * big * w + SUMS_TINY)
        refuse(
          'sums m2_candidate',
          `m2_candidate ${mc2} ${of} is more than ${n} queries' spread within its range allows`
        )
      if (Math.abs(s('m3_candidate')) > w * mc2 * (1 + SUMS_SLACK) + SUMS_TINY)
        refuse(
          'sums m3_candidate',
          `|m3_candidate| ${Math.abs(s('m3_candidate'))} ${of} is more than the width ${w} of its range times m2_candidate ${mc2}`
        )
    }
    const h = cell.histogram[m]
    if (h !== null) {
      let count = 0
      let hSum = 0
      let hAbs = 0
      for (const [v, c] of h) {
        if (w !== undefined && Math.abs(v) > w * (1 + SUMS_SLACK))
          refuse('histogram', `the histogram value ${v} ${of} is a larger change than the width ${w} of its range`)
        count += c
        hSum += v * c
        hAbs += Math.abs(v) * c
      }
      if (count !== n) refuse('histogram', `the histogram counts ${of} add up to ${count}, not its ${n} queries`)
      if (!near(hSum, sum, abs) || !near(hAbs, abs, abs))
        refuse(
          'histogram',
          `the histogram ${of} adds up to ${hSum} (absolute ${hAbs}), not sum ${sum} (sum_abs ${abs})`
        )
    }
    if (site.resampled)
      for (const x of cell.minus[m])
        if (Math.abs(x) > abs * (1 + SUMS_SLACK) + SUMS_TINY)
          refuse('signs minus', `a sign pattern's sum ${x} ${of} is larger than sum_abs ${abs}`)
  })
}

function mergeCoverage(parts: ReadonlyArray<Map<string, AggregateCount>>): Map<string, AggregateCount> {
  const out = new Map<string, AggregateCount>()
  for (const part of parts) {
    for (const [stat, c] of part) {
      const seen = out.get(stat)
      out.set(stat, {
        count: (seen?.count ?? 0) + c.count,
        example: seen && seen.example !== '' ? seen.example : c.example
      })
    }
  }
  return out
}

/** The shards' cells added, shard after shard in name order; histograms only where every shard with queries sent one. */
function mergeSubsets(shards: readonly Shard[], M: number): SubsetSums[] {
  const subsets = new Map<
    string,
    {
      family: number
      value: string
      strata: Map<
        string,
        { n: number; weights: Float64Array; metrics: MetricSums[]; histograms: Array<Map<number, number> | null> }
      >
    }
  >()
  for (const shard of shards) {
    for (const cell of shard.cells.values()) {
      if (cell.n === 0) continue
      const key = `${cell.family}\u0000${cell.value}`
      let subset = subsets.get(key)
      if (!subset) subsets.set(key, (subset = { family: cell.family, value: cell.value, strata: new Map() }))
      let stratum = subset.strata.get(cell.stratum)
      const n = cell.n as number
      if (!stratum) {
        stratum = { n: 0, weights: new Float64Array(cell.poisson[M].length), metrics: [], histograms: [] }
        for (let m = 0; m < M; m++) {
          stratum.metrics.push({
            sum: 0,
            sumAbs: 0,
            sumBaseline: 0,
            sumCandidate: 0,
            m2: 0,
            m3: 0,
            m2Candidate: 0,
            m3Candidate: 0,
            wins: 0,
            losses: 0,
            gained: 0,
            lost: 0,
            regressions: new Map(),
            poisson: new Float64Array(cell.poisson[m].length),
            minus: new Float64Array(cell.minus[m].length),
            histogram: null
          })
          stratum.histograms.push(new Map())
        }
        subset.strata.set(cell.stratum, stratum)
      }
      const before = stratum.n
      stratum.n = before + n
      add(stratum.weights, cell.poisson[M])
      for (let m = 0; m < M; m++) {
        const t = stratum.metrics[m]
        const s = (i: number): number => cell.stats[m * METRIC_STATS.length + i]
        const candidate = [before, t.sumCandidate, t.m2Candidate, t.m3Candidate] as const
        ;[t.m2, t.m3] = mergeMoments([before, t.sum, t.m2, t.m3], [n, s(0), s(4), s(5)])
        ;[t.m2Candidate, t.m3Candidate] = mergeMoments(candidate, [n, s(3), s(10), s(11)])
        t.sum += s(0)
        t.sumAbs += s(1)
        t.sumBaseline += s(2)
        t.sumCandidate += s(3)
        t.wins += s(6)
        t.losses += s(7)
        t.gained += s(8)
        t.lost += s(9)
        for (const [check, c] of cell.regressions[m]) t.regressions.set(check, (t.regressions.get(check) ?? 0) + c)
        add(t.poisson, cell.poisson[m])
        add(t.minus, cell.minus[m])
        const merged = stratum.histograms[m]
        const h = cell.histogram[m]
        if (merged === null) continue
        if (h === null) stratum.histograms[m] = null
        else for (const [v, c] of h) merged.set(v, (merged.get(v) ?? 0) + c)
      }
    }
  }
  return [...subsets.values()]
    .sort((a, b) => a.family - b.family || byCode(a.value, b.value))
    .map((s) => ({
      family: s.family,
      value: s.value,
      strata: [...s.strata.entries()]
        .sort((a, b) => byCode(a[0], b[0]))
        .map(([value, st]): StratumSums => {
          st.metrics.forEach((t, m) => (t.histogram = histogramOf(st.histograms[m])))
          return { value, n: st.n, weights: st.weights, metrics: st.metrics }
        })
    }))
}

function add(into: Float64Array, part: Float64Array): void {
  for (let i = 0; i < into.length; i++) into[i] += part[i]
}

/** A count of values, their sum, and their centred second and third moments. */
type Moments = readonly [n: number, sum: number, m2: number, m3: number]

/**
 * Chan, Golub and LeVeque's update of the centred second and third moments when a shard of `n` values (sum s, m2, m3
 * about its own mean) joins the `before` values merged so far (their sum, m2 and m3): the merged m2 and m3.
 */
function mergeMoments(merged: Moments, shard: Moments): [number, number] {
  const [before, sumBefore, m2Before, m3Before] = merged
  const [n, sum, m2, m3] = shard
  if (before <= 0) return [m2, m3]
  const total = before + n
  const delta = sum / n - sumBefore / before
  return [
    m2Before + m2 + (delta * delta * before * n) / total,
    m3Before +
      m3 +
      (delta * delta * delta * before * n * (before - n)) / (total * total) +
      (3 * delta * (before * m2 - n * m2Before)) / total
  ]
}

function histogramOf(h: Map<number, number> | null): MetricSums['histogram'] {
  if (h === null) return null
  const values = Float64Array.from(h.keys()).sort()
  return { values, counts: Float64Array.from(values, (v) => h.get(v) as number) }
}

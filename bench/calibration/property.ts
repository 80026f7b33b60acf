import { buildDesign, estimate } from '../../src/stats/design.js'
import { momentsOfDesign, summarise } from '../../src/stats/moments.js'
import { seedInterval } from '../../src/capabilities/seeds/interval.js'
import type { Rules } from '../../src/config/types.js'
import { accuracyFor, drawAnchors, drawsOf } from './designs.js'
import {
  drawDesigns,
  type DrawnCheck,
  type DrawnDesign,
  type DrawnJudgeDesign,
  type DrawnQueryDesign,
  type DrawnSeedDesign
} from './families.js'
import { decideDrift, decideSeeds, decideTable, rulesOf, tableOf, type Outcome } from './gate-under-test.js'
import { wilson } from './study.js'

/**
 * Calibration as a property (issue 32): designs drawn at random from the families (bench/calibration/families.ts),
 * every check of each at its truth, the gate run on `simulations` seeded evaluations of each. Per design and check:
 * the false-pass rate (judged against 0.035 by a one-sided binomial test at 1%) and, at 100 queries and more, the
 * change the gate detects with 80% power next to the change a t oracle calibrated on the same design detects (its
 * critical value is the design's own 97.5% quantile of the studentized statistic, so it holds the level exactly):
 * both read off the same samples by the margin (a pass at true change D needs the deciding end plus D to clear
 * the threshold, the intervals being translation-equivariant up to the range's bounds).
 */

export interface PropertyOptions {
  /** The draw's seed: the same seed and counts give the same designs and samples. */
  seed: string
  designsPerFamily: number
  simulations: number
  only?: (family: string) => boolean
  /** Called after each design (progress). */
  progress?: (done: number, total: number, design: DrawnDesign) => void
}

/** One check of one design, measured. */
export interface CheckRow {
  family: string
  design: number
  label: string
  queries: number
  check: DrawnCheck['kind']
  simulations: number
  passed: number
  /** P(X ≥ passed) for X ~ Binomial(simulations, 0.035): below 0.01 the design breaks the promise. */
  pAbove: number
  /** Changes detected with 80% power (distance from the threshold, metric units); null where not measured. */
  gate80: number | null
  oracle80: number | null
}

export const TARGET = 0.035
export const BINOMIAL_ALPHA = 0.01

/** log C(n, k). */
function logChoose(n: number, k: number): number {
  let s = 0
  for (let i = 1; i <= k; i++) s += Math.log(n - k + i) - Math.log(i)
  return s
}

/** P(X ≥ k), X ~ Binomial(n, p). */
export function binomialAbove(k: number, n: number, p: number): number {
  let total = 0
  for (let j = k; j <= n; j++) total += Math.exp(logChoose(n, j) + j * Math.log(p) + (n - j) * Math.log(1 - p))
  return Math.min(1, total)
}

const quantile = (xs: number[], q: number): number => {
  const s = [...xs].sort((a, b) => a - b)
  if (s.length === 0) return Number.NaN
  const i = Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))
  return s[i]
}

/** The studentized statistic the oracle uses: the design's estimate and linearised standard error, in the better direction. */
function oracleOf(
  rules: Rules,
  table: ReturnType<typeof tableOf>,
  check: DrawnCheck
): { est: number; se: number; threshold: number } {
  const m = table.metrics.get('m') as { base: Float64Array; cand: Float64Array }
  const sign = (rules.metrics.get('m') as { better: string }).better === 'higher' ? 1 : -1
  const all = Int32Array.from({ length: table.ids.length }, (_, i) => i)
  const slice = check.slice
  const members = slice === undefined ? all : all.filter((i) => (table.attrs.get(slice[0]) as string[])[i] === slice[1])
  const d = Float64Array.from(m.cand, (c, i) => c - m.base[i])
  const design = buildDesign(table, members, [check.statistic === 'level' ? m.cand : d, m.base], {
    statistics: rules.statistics
  })
  const est = sign * estimate(design, 0)
  const se = summarise(momentsOfDesign(design, 0)).se
  const threshold = check.relative === undefined ? check.threshold : -check.relative * Math.abs(estimate(design, 1))
  return { est, se, threshold }
}

interface Tally {
  passed: number
  gate: number[]
  oracle: Array<{ est: number; se: number; threshold: number }>
}

function measureQuery(design: DrawnQueryDesign, options: PropertyOptions): CheckRow[] {
  const rules = rulesOf(design.rules)
  const tallies = new Map<string, Tally>()
  const kinds = new Map(design.checks.map((c) => [c.name, c]))
  const ni = design.checks.find((c) => c.name === 'ni')
  if (ni !== undefined && ni.relative === undefined) kinds.set('budget', { ...ni, name: 'budget', kind: 'budget' })
  for (const name of kinds.keys()) tallies.set(name, { passed: 0, gate: [], oracle: [] })
  for (let s = 0; s < options.simulations; s++) {
    const sample = design.sample(drawsOf(options.seed, `sample/${design.family}/${design.index}`, s))
    const table = tableOf(sample.base, sample.cand, sample.attrs)
    const outcomes = decideTable(rules, table, design.checks.find((c) => c.slice !== undefined)?.slice)
    for (const [name, check] of kinds) {
      const o = outcomes.get(name) as Outcome
      const t = tallies.get(name) as Tally
      if (o.passed) t.passed++
      t.gate.push(o.deciding)
      if (check.kind !== 'superior_t' && check.kind !== 'superior_randomization' && check.kind !== 'superior_mcnemar')
        t.oracle.push(oracleOf(rules, table, check))
    }
  }
  return [...kinds].map(([name, check]) => rowOf(design, check, tallies.get(name) as Tally, options))
}

/** The 80% detectable changes of the gate and of the oracle from one design's samples (null below 100 queries). */
function powerOf(units: number, tally: Tally): { gate80: number | null; oracle80: number | null } {
  if (units < 100 || tally.oracle.length === 0) return { gate80: null, oracle80: null }
  // The oracle's critical value: the design's 97.5% quantile of (estimate − threshold)/se at the truth.
  const z = tally.oracle.map((o) =>
    o.se > 0 ? (o.est - o.threshold) / o.se : o.est > o.threshold ? Infinity : -Infinity
  )
  const c = quantile(z, 0.975)
  if (!Number.isFinite(c)) return { gate80: null, oracle80: null }
  const oracle = tally.oracle.map((o) => o.threshold - (o.est - c * o.se))
  const gate = tally.gate.map((lo, i) => tally.oracle[i].threshold - lo)
  return { gate80: quantile(gate, 0.8), oracle80: quantile(oracle, 0.8) }
}

function rowOf(
  design: { family: string; index: number; label: string; queries: number; units?: number },
  check: DrawnCheck,
  tally: Tally,
  options: PropertyOptions
): CheckRow {
  return {
    family: design.family,
    design: design.index,
    label: design.label,
    queries: design.queries,
    check: check.kind,
    simulations: options.simulations,
    passed: tally.passed,
    pAbove: binomialAbove(tally.passed, options.simulations, TARGET),
    ...powerOf(design.units ?? design.queries, tally)
  }
}

function measureSeeds(design: DrawnSeedDesign, options: PropertyOptions): CheckRow[] {
  const rules = rulesOf(design.rules)
  const check = design.checks[0]
  const tally: Tally = { passed: 0, gate: [], oracle: [] }
  for (let s = 0; s < options.simulations; s++) {
    const sample = design.sample(drawsOf(options.seed, `sample/seeds/${design.index}`, s))
    const o = decideSeeds(rules, sample).get(check.name) as Outcome
    if (o.passed) tally.passed++
    tally.gate.push(o.deciding)
    const t = seedInterval(sample, 0.95)
    tally.oracle.push({ est: t?.estimate ?? 0, se: t?.se ?? 0, threshold: check.threshold })
  }
  return [rowOf(design, check, tally, options)]
}

function measureJudge(design: DrawnJudgeDesign, options: PropertyOptions): CheckRow[] {
  let passed = 0
  const jd = { name: design.label, items: design.items, labels: design.labels, kappa: design.kappa, drop: design.drop }
  accuracyFor(design.labels, design.kappa - design.drop)
  for (let s = 0; s < options.simulations; s++) {
    const anchors = drawAnchors(jd, drawsOf(options.seed, `sample/judge/${design.index}`, s))
    if (decideDrift(anchors, design.drop).passed) passed++
  }
  return [
    {
      family: design.family,
      design: design.index,
      label: design.label,
      queries: design.items,
      check: 'non_inferior',
      simulations: options.simulations,
      passed,
      pAbove: binomialAbove(passed, options.simulations, TARGET),
      gate80: null,
      oracle80: null
    }
  ]
}

/** Every drawn design, measured. */
export function runProperty(options: PropertyOptions): CheckRow[] {
  const designs = drawDesigns(options.seed, options.designsPerFamily, options.only)
  const rows: CheckRow[] = []
  designs.forEach((design, i) => {
    if (design.family === 'judge') rows.push(...measureJudge(design as DrawnJudgeDesign, options))
    else if (design.family === 'seeds') rows.push(...measureSeeds(design as DrawnSeedDesign, options))
    else rows.push(...measureQuery(design as DrawnQueryDesign, options))
    options.progress?.(i + 1, designs.length, design)
  })
  return rows
}

const pct = (k: number, n: number): string => {
  const [lo, hi] = wilson(k, n)
  return `${(k / n).toFixed(3)} [${lo.toFixed(3)}, ${hi.toFixed(3)}]`
}

/** The summary tables: per family and check kind, the worst design's false pass and the power ratios. */
export function propertyTables(rows: readonly CheckRow[], seed: string): string[] {
  const out: string[] = []
  const groups = new Map<string, CheckRow[]>()
  for (const r of rows) {
    const key = `${r.family}\u0000${r.check}`
    groups.set(key, [...(groups.get(key) ?? []), r])
  }
  out.push(
    `Seed of the draw: \`${seed}\`. A design breaks the promise when P(X ≥ passes | Binomial(simulations, ${TARGET})) < ${BINOMIAL_ALPHA}.`,
    '',
    "| family | check | designs | worst false pass [Wilson 95%] | its design | designs over (binomial, 1%) | 80% change / oracle's, median (worst), 100+ units |",
    '| - | - | - | - | - | - | - |'
  )
  for (const [key, rs] of groups) {
    const [family, check] = key.split('\u0000')
    const worst = rs.reduce((a, r) => (r.passed / r.simulations > a.passed / a.simulations ? r : a))
    const over = rs.filter((r) => r.pAbove < BINOMIAL_ALPHA).length
    const ratios = rs
      .filter((r) => r.gate80 !== null && r.oracle80 !== null && r.oracle80 > 0)
      .map((r) => ({ r, ratio: (r.gate80 as number) / (r.oracle80 as number) }))
    const power =
      ratios.length === 0
        ? '—'
        : `${quantile(
            ratios.map((x) => x.ratio),
            0.5
          ).toFixed(2)} (${Math.max(...ratios.map((x) => x.ratio)).toFixed(2)}) over ${ratios.length}`
    out.push(
      `| ${family} | ${check} | ${rs.length} | ${pct(worst.passed, worst.simulations)} | #${worst.design}: ${worst.label} | ${over} | ${power} |`
    )
  }
  return out
}

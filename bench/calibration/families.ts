import { incompleteBeta } from '../../src/stats/special.js'
import { drawsOf, type Draws } from './designs.js'

/**
 * Designs drawn at random from the families teams have (issue 32, "calibration as a property"): each family draws
 * its parameters (sizes, shares, shapes, margins) from ranges, so no design is one the gate was tuned on. Every
 * design knows its truth exactly (analytic means, or a large seeded Monte Carlo where the estimand is a ratio), and
 * puts every check of its rules at that truth: a non-inferiority margin equal to −truth, a superiority margin or a
 * test's null at the truth, a level equal to the candidate's true mean, a budget equal to the true drop. So every
 * pass is a false pass. Only the drawing lives here; bench/calibration/property.ts runs the gate on the samples.
 */

/** One simulated evaluation of a query-level design. */
export interface QuerySample {
  base: Float64Array
  cand: Float64Array
  /** Attribute columns (cluster, stratum, slice), aligned with the values. */
  attrs: Record<string, string[]>
}

/** A check of a drawn design, with what the truth is on its scale (for the oracle and the power figures). */
export interface DrawnCheck {
  /** The check's name in the rules (unique). */
  name: string
  kind: 'non_inferior' | 'superior' | 'superior_t' | 'superior_randomization' | 'superior_mcnemar' | 'level' | 'budget'
  /**
   * The true value of the check's statistic in the metric's better direction, minus the threshold it must clear:
   * 0 for every check here (the truth sits at the margin, the null, the level or the budget).
   */
  truth: 'at_threshold'
  /** The statistic the oracle studentizes: the paired difference or the candidate's level. */
  statistic: 'difference' | 'level'
  /** The threshold in metric units in the better direction (−margin, 0, the level's value signed), for the oracle. */
  threshold: number
  /** Whether a relative margin is resolved on the observed baseline mean (the oracle then uses the same rule). */
  relative?: number
  /** The slice whose truth sits at the threshold (per_slice checks): the oracle and the deciding end are read there. */
  slice?: [string, string]
}

/** A query-level design: rules, a sampler, its checks; all drawn from the family's ranges. */
export interface DrawnQueryDesign {
  family: string
  /** Index in the draw (the design's stream is (seed, family, index)). */
  index: number
  /** The drawn parameters, in words (printed for the worst design of each family and check). */
  label: string
  /** Queries (all slices together). */
  queries: number
  /** The units the design resamples: queries, or clusters (the power figures are read from 100 units). */
  units?: number
  rules: string
  checks: DrawnCheck[]
  /** True mean difference (candidate − baseline, metric units) and the candidate's true mean. */
  truth: { difference: number; level: number }
  /** The metric's direction. */
  better: 'higher' | 'lower'
  sample(d: Draws): QuerySample
}

/** A seed-replicate design: per side one column per seed. */
export interface DrawnSeedDesign {
  family: 'seeds'
  index: number
  label: string
  queries: number
  rules: string
  checks: DrawnCheck[]
  truth: { difference: number; level: number }
  better: 'higher'
  baselineSeeds: number
  candidateSeeds: number
  sample(d: Draws): { base: Float64Array[]; cand: Float64Array[] }
}

/** A judge-anchor design: items labelled by humans and both sides' judges; the candidate's kappa is max_drop lower. */
export interface DrawnJudgeDesign {
  family: 'judge'
  index: number
  label: string
  items: number
  labels: number[]
  kappa: number
  drop: number
}

export type DrawnDesign = DrawnQueryDesign | DrawnSeedDesign | DrawnJudgeDesign

const { log, exp, floor, round, sqrt, max, min } = Math

/** A uniform draw in [a, b]. */
const between = (d: Draws, a: number, b: number): number => a + (b - a) * d.uniform()
/** A log-uniform integer in [a, b]. */
const logInt = (d: Draws, a: number, b: number): number => round(exp(between(d, log(a), log(b))))
const pick = <T>(d: Draws, xs: readonly T[]): T => xs[floor(d.uniform() * xs.length) % xs.length]

/** A Gamma(k, 1) draw (Marsaglia and Tsang; k < 1 by the boost), for Beta draws. */
function gamma(d: Draws, k: number): number {
  if (k < 1) return gamma(d, k + 1) * Math.pow(d.uniform(), 1 / k)
  const a = k - 1 / 3
  const c = 1 / sqrt(9 * a)
  for (;;) {
    let x: number
    let v: number
    do {
      x = d.normal()
      v = 1 + c * x
    } while (v <= 0)
    v = v * v * v
    const u = d.uniform()
    if (u < 1 - 0.0331 * x * x * x * x) return a * v
    if (log(u) < 0.5 * x * x + a * (1 - v + log(v))) return a * v
  }
}

/** A value of a bounded per-query metric: 0 with probability `zero`, else Beta with mean `mean` and concentration `kappa`, or on a reciprocal-rank grid. */
interface BoundedLaw {
  zero: number
  mean: number
  kappa: number
  /** Reciprocal-rank grid: the Beta draw x rounded down to 1/floor(1/x) (rank 1, 2, ...): ties, as RR has. */
  grid: boolean
}

function drawBounded(d: Draws, law: BoundedLaw): number {
  if (d.uniform() < law.zero) return 0
  const a = law.mean * law.kappa
  const x = gamma(d, a)
  const y = gamma(d, law.kappa - a)
  const v = x / (x + y)
  return law.grid ? 1 / floor(1 / max(v, 1e-300)) : v
}

/**
 * The exact mean of {@link drawBounded}'s law: (1 − zero)·mean, or for the grid (1 − zero)·E[1/floor(1/X)] with X
 * Beta(a, b): Σ_k (1/k)·(I(1/k) − I(1/(k + 1))) over ranks k up to 2,000, and below 1/2001 (where 1/floor(1/x) is x
 * within 0.05%) E[X; X ≤ 1/2001] = a/(a + b)·I_{1/2001}(a + 1, b).
 */
export function boundedMean(law: BoundedLaw): number {
  if (!law.grid) return (1 - law.zero) * law.mean
  const a = law.mean * law.kappa
  const b = law.kappa - a
  const K = 2000
  let total = 0
  let upper = 1
  for (let k = 1; k <= K; k++) {
    const lower = incompleteBeta(1 / (k + 1), a, b)
    total += (upper - lower) / k
    upper = lower
  }
  total += (a / (a + b)) * incompleteBeta(1 / (K + 1), a + 1, b)
  return (1 - law.zero) * total
}

/** A bounded law for the family's draws: zero share, mean, concentration and grid drawn from their ranges. */
function boundedLaw(d: Draws, zeroMax = 0.6): BoundedLaw {
  return {
    zero: between(d, 0, zeroMax),
    mean: between(d, 0.15, 0.85),
    kappa: between(d, 0.8, 20),
    grid: d.uniform() < 0.4
  }
}

/**
 * How the candidate differs from the baseline per query, bounded family: unchanged with probability `same`, broken
 * (the candidate scores 0) with probability `broken`, otherwise answered afresh from law `fresh` (independent of
 * the baseline). E[d] = broken·(−E[b]) + (1 − same − broken)·(E[fresh] − E[b]).
 */
interface BoundedChange {
  same: number
  broken: number
  fresh: BoundedLaw
}

const changedMean = (eb: number, c: BoundedChange): number =>
  c.broken * -eb + (1 - c.same - c.broken) * (boundedMean(c.fresh) - eb)

function drawChanged(d: Draws, b: number, c: BoundedChange): number {
  const u = d.uniform()
  if (u < c.same) return b
  if (u < c.same + c.broken) return 0
  return drawBounded(d, c.fresh)
}

/** The fresh law's mean that gives E[d] = target (by bisection on the law's mean; null when out of reach). */
function solveFresh(eb: number, c: BoundedChange, target: number): BoundedChange | null {
  const fresh = 1 - c.same - c.broken
  if (fresh <= 0.01) return null
  const need = eb + (target + c.broken * eb) / fresh
  let lo = 0.001
  let hi = 0.999
  const at = (m: number): number => boundedMean({ ...c.fresh, mean: m })
  if (need < at(lo) || need > at(hi)) return null
  for (let i = 0; i < (c.fresh.grid ? 30 : 60); i++) {
    const mid = (lo + hi) / 2
    if (at(mid) < need) lo = mid
    else hi = mid
  }
  return { ...c, fresh: { ...c.fresh, mean: (lo + hi) / 2 } }
}

const fmt = (x: number, digits = 3): string => Number(x.toFixed(digits)).toString()
const lawWords = (l: BoundedLaw): string =>
  `${fmt(l.zero, 2)} zeros, Beta mean ${fmt(l.mean, 2)} κ ${fmt(l.kappa, 1)}${l.grid ? ' on the 1/rank grid' : ''}`

/** YAML of a metric and its checks; `extra` holds further top-level keys (statistics beyond the seed, queries). */
function rulesText(input: {
  metric: string
  checks: Array<[string, string]>
  statistics?: string
  queries?: string
  extra?: string
}): string {
  return [
    'version: 1',
    'metrics:',
    `  m: ${input.metric}`,
    `statistics: { seed: calibration, permutations: 1000, resamples: 400${input.statistics ?? ''} }`,
    `queries: { min_per_slice: 5${input.queries ?? ''} }`,
    ...(input.extra === undefined ? [] : [input.extra]),
    'checks:',
    ...input.checks.map(([name, body]) => `  - { name: ${name}, metric: m, ${body} }`)
  ].join('\n')
}

/** The checks every query family puts at its truth: which ones depends on whether the truth is the null (0). */
function queryChecks(input: {
  truth: number
  level: number
  better: 'higher' | 'lower'
  binary: boolean
  relative?: number
  independent: boolean
}): { yaml: Array<[string, string]>; checks: DrawnCheck[] } {
  const { truth, level, better, binary, relative, independent } = input
  const sign = better === 'higher' ? 1 : -1
  const good = sign * truth
  const yaml: Array<[string, string]> = []
  const checks: DrawnCheck[] = []
  const add = (
    name: string,
    kind: DrawnCheck['kind'],
    body: string,
    check: Omit<DrawnCheck, 'name' | 'kind' | 'truth'>
  ): void => {
    yaml.push([name, body])
    checks.push({ name, kind, truth: 'at_threshold', ...check })
  }
  const marginText = (m: number): string => (relative === undefined ? String(m) : `"${fmt(relative * 100, 6)}%"`)
  if (good <= 0) {
    const m = -good
    add('ni', 'non_inferior', `non_inferior: { margin: ${marginText(m)} }`, {
      statistic: 'difference',
      threshold: -m,
      ...(relative === undefined ? {} : { relative })
    })
  }
  if (good === 0) {
    add('sup', 'superior', 'superior: { margin: 0 }', { statistic: 'difference', threshold: 0 })
    add('sup_t', 'superior_t', 'superior: { test: t, alpha: 0.05 }', { statistic: 'difference', threshold: 0 })
    add('sup_rand', 'superior_randomization', 'superior: { test: randomization, alpha: 0.05 }', {
      statistic: 'difference',
      threshold: 0
    })
    if (binary && independent)
      add('sup_mcnemar', 'superior_mcnemar', 'superior: { test: mcnemar, alpha: 0.05 }', {
        statistic: 'difference',
        threshold: 0
      })
  }
  add('level', 'level', `${better === 'higher' ? 'at_least' : 'at_most'}: ${level}`, {
    statistic: 'level',
    threshold: sign * level
  })
  return { yaml, checks }
}

/** Paired hit@k: a share of discordant queries, split into lost and gained; the null (equal) or a drop. */
function binaryDesign(d: Draws, index: number): DrawnQueryDesign {
  const n = logInt(d, 30, 2000)
  const discordant = exp(between(d, log(0.005), log(0.4)))
  const nullVariant = d.uniform() < 0.5
  const lostShare = nullVariant ? 0.5 : between(d, 0.55, 0.95)
  const lost = lostShare * discordant
  const gained = discordant - lost
  const hit = between(d, lost, lost + (1 - discordant))
  const both = hit - lost
  const truth = gained - lost
  const level = both + gained
  const c = queryChecks({ truth: nullVariant ? 0 : truth, level, better: 'higher', binary: true, independent: true })
  return {
    family: 'binary, rare discordance',
    index,
    label: `${n} queries, ${fmt(discordant * 100, 2)}% discordant (${fmt(lost * 100, 2)}% lost, ${fmt(gained * 100, 2)}% gained), hit rate ${fmt(hit, 2)}`,
    queries: n,
    rules: rulesText({ metric: '{ better: higher, binary: true }', checks: c.yaml }),
    checks: c.checks,
    truth: { difference: nullVariant ? 0 : truth, level },
    better: 'higher',
    sample(s) {
      const base = new Float64Array(n)
      const cand = new Float64Array(n)
      for (let i = 0; i < n; i++) {
        const u = s.uniform()
        if (u < lost) base[i] = 1
        else if (u < discordant) cand[i] = 1
        else if (u < discordant + both) base[i] = cand[i] = 1
      }
      return { base, cand, attrs: {} }
    }
  }
}

/** A bounded metric with point masses (nDCG, RR, recall, a judge score): ties at 0 and unchanged, rare breaks. */
function boundedDesign(d: Draws, index: number): DrawnQueryDesign | null {
  const n = logInt(d, 30, 2000)
  const base = boundedLaw(d)
  const eb = boundedMean(base)
  const same = between(d, 0, 0.9)
  const broken = min(1 - same - 0.02, exp(between(d, log(0.002), log(0.2))))
  const nullVariant = d.uniform() < 0.5
  let change: BoundedChange | null = { same, broken, fresh: boundedLaw(d) }
  if (nullVariant) change = solveFresh(eb, change, 0)
  if (change === null) return null
  const truth = changedMean(eb, change)
  if (!nullVariant && truth >= 0) return null
  const relative = !nullVariant && d.uniform() < 0.3 ? -truth / eb : undefined
  const level = eb + truth
  const c = queryChecks({
    truth: nullVariant ? 0 : truth,
    level,
    better: 'higher',
    binary: false,
    relative,
    independent: true
  })
  const ch = change
  return {
    family: 'bounded with point masses',
    index,
    label: `${n} queries; baseline ${lawWords(base)}; ${fmt(same * 100, 1)}% unchanged, ${fmt(broken * 100, 2)}% broken, else ${lawWords(ch.fresh)}; truth ${fmt(truth, 4)}${relative === undefined ? '' : ' (relative margin)'}`,
    queries: n,
    rules: rulesText({ metric: '{ better: higher, range: [0, 1] }', checks: c.yaml }),
    checks: c.checks,
    truth: { difference: nullVariant ? 0 : truth, level },
    better: 'higher',
    sample(s) {
      const b = new Float64Array(n)
      const cv = new Float64Array(n)
      for (let i = 0; i < n; i++) {
        b[i] = drawBounded(s, base)
        cv[i] = drawChanged(s, b[i], ch)
      }
      return { base: b, cand: cv, attrs: {} }
    }
  }
}

/**
 * Latency (better lower, no range): lognormal baseline, a multiplicative change with rare slow spikes; relative or
 * absolute margins. The spikes multiply by e^X with X exponential of rate `rate`: E[e^{kX}] is finite for k < rate,
 * so a rate of 4 or more keeps the fourth moment finite: what Hall's correction (second-order accurate) and every
 * size rule read of skew presuppose. `tail: 'heavier'` draws rates in [2.2, 4) (a Pareto-like tail of index below 4):
 * outside what a mean of a few thousand queries can promise (docs/statistics.md says so; the table shows it apart).
 */
function heavyDesign(d: Draws, index: number, tail: 'finite' | 'heavier' = 'finite'): DrawnQueryDesign {
  const n = logInt(d, 30, 2000)
  const s = between(d, 0.3, 1.2)
  const tau = between(d, 0.02, 0.4)
  const spike0 = d.uniform() < 0.7 ? between(d, 0, 0.1) : 0
  const rate = tail === 'finite' ? between(d, 4, 8) : between(d, 2.2, 4)
  const spike = tail === 'finite' ? spike0 : between(d, 0.005, 0.1)
  const nullVariant = d.uniform() < 0.5
  const m = nullVariant ? 0 : between(d, 0.02, 0.2)
  const growth = (1 - spike) * exp((tau * tau) / 2) + spike * (rate / (rate - 1))
  const delta = log((1 + m) / growth)
  const eb = 100 * exp((s * s) / 2)
  const truth = m * eb
  const relative = !nullVariant && d.uniform() < 0.6 ? m : undefined
  const c = queryChecks({
    truth: nullVariant ? 0 : truth,
    level: eb * (1 + m),
    better: 'lower',
    binary: false,
    relative,
    independent: true
  })
  return {
    family: tail === 'finite' ? 'heavy-tailed latency' : 'latency with a tail index below 4 (beyond the promise)',
    index,
    label: `${n} queries; lognormal σ ${fmt(s, 2)}; change ×exp(N(${fmt(delta, 3)}, ${fmt(tau, 2)})), ${fmt(spike * 100, 1)}% slow spikes Exp(${fmt(rate, 2)}); truth +${fmt(m * 100, 2)}%${relative === undefined ? ' (absolute margin)' : ' (relative margin)'}`,
    queries: n,
    rules: rulesText({ metric: '{ better: lower, unit: ms }', checks: c.yaml }),
    checks: c.checks,
    truth: { difference: nullVariant ? 0 : truth, level: eb * (1 + m) },
    better: 'lower',
    sample(r) {
      const b = new Float64Array(n)
      const cv = new Float64Array(n)
      for (let i = 0; i < n; i++) {
        b[i] = 100 * exp(s * r.normal())
        const e = r.uniform() < spike ? delta - log(r.uniform()) / rate : delta + tau * r.normal()
        cv[i] = b[i] * exp(e)
      }
      return { base: b, cand: cv, attrs: {} }
    }
  }
}

/**
 * Unequal clusters (users, conversations): G clusters with lognormal sizes, a share of them hit by a loss, optionally
 * the large ones more often; values bounded in [0, 1]. The truth is the population ratio E[m·e]/E[m] (query weighting)
 * or E[e] (cluster weighting), by a seeded Monte Carlo over 2·10^6 clusters.
 */
function clusterDesign(d: Draws, index: number): DrawnQueryDesign | null {
  const G = logInt(d, 8, 300)
  const typical = between(d, 2, 20)
  const spread = between(d, 0, 1.5)
  const hit = between(d, 0, 0.4)
  const loss = between(d, 0.05, 0.35)
  const linked = d.uniform() < 0.4
  const noise = between(d, 0, 0.04)
  const weighting = d.uniform() < 0.25 ? 'cluster' : 'query'
  const nullVariant = d.uniform() < 0.5
  const sizeOf = (r: Draws): number => max(1, round(typical * exp(spread * r.normal() - (spread * spread) / 2)))
  const hitOf = (r: Draws, m: number): boolean => r.uniform() < min(1, linked ? hit * min(3, m / typical) : hit)
  // E[m·hit], E[m], E[hit] by Monte Carlo (same stream for every design: the sizes law is the design's).
  const mc = drawsOf('calibration-32-truth', `clusters/${index}`, 0)
  let sumM = 0
  let sumMHit = 0
  let sumHit = 0
  const draws = 2000000
  for (let i = 0; i < draws; i++) {
    const m = sizeOf(mc)
    const h = hitOf(mc, m) ? 1 : 0
    sumM += m
    sumMHit += m * h
    sumHit += h
  }
  const hitShare = weighting === 'query' ? sumMHit / sumM : sumHit / draws
  // Gains of the unhit clusters: balance the loss for the null, else a fixed small gain.
  const gain = nullVariant ? (loss * hitShare) / max(1e-9, 1 - hitShare) : between(d, 0, 0.5) * loss * hitShare
  if (gain > 0.35) return null
  const truth = -loss * hitShare + gain * (1 - hitShare)
  if (!nullVariant && truth >= 0) return null
  const c = queryChecks({
    truth: nullVariant ? 0 : truth,
    level: 0.5 + truth,
    better: 'higher',
    binary: false,
    independent: false
  })
  return {
    family: 'unequal clusters',
    index,
    label: `${G} clusters of lognormal sizes (typical ${fmt(typical, 1)}, log-sd ${fmt(spread, 2)}); ${fmt(hit * 100, 1)}% hit by −${fmt(loss, 2)}${linked ? ' (large clusters more often)' : ''}, others +${fmt(gain, 3)}; ${weighting} weighting; truth ${fmt(nullVariant ? 0 : truth, 4)}`,
    queries: G * round(typical),
    units: G,
    rules: rulesText({
      metric: '{ better: higher, range: [0, 1] }',
      checks: c.yaml,
      statistics: `, cluster: user, cluster_weighting: ${weighting}`
    }),
    checks: c.checks,
    truth: { difference: nullVariant ? 0 : truth, level: 0.5 + truth },
    better: 'higher',
    sample(r) {
      const b: number[] = []
      const cv: number[] = []
      const users: string[] = []
      for (let g = 0; g < G; g++) {
        const m = sizeOf(r)
        const e = hitOf(r, m) ? -loss : gain
        for (let j = 0; j < m; j++) {
          const x = 0.4 + 0.2 * r.uniform()
          b.push(x)
          cv.push(x + e + noise * (2 * r.uniform() - 1))
          users.push(`u${g}`)
        }
      }
      return { base: Float64Array.from(b), cand: Float64Array.from(cv), attrs: { user: users } }
    }
  }
}

/** Target-weighted strata: a heavy stratum with few queries and rare breaks, light strata with many. */
function strataDesign(d: Draws, index: number): DrawnQueryDesign | null {
  const k = 2 + floor(d.uniform() * 3)
  const heavy = between(d, 0.5, 0.9)
  const sizes = [logInt(d, 8, 100), ...Array.from({ length: k - 1 }, () => logInt(d, 100, 1000))]
  const weights = [heavy, ...Array.from({ length: k - 1 }, () => (1 - heavy) / (k - 1))]
  const nullVariant = d.uniform() < 0.5
  const strata: Array<{ base: BoundedLaw; change: BoundedChange; eb: number; truth: number }> = []
  for (let s = 0; s < k; s++) {
    const base = boundedLaw(d, 0.4)
    const eb = boundedMean(base)
    const same = between(d, 0.2, 0.9)
    const broken = min(1 - same - 0.02, s === 0 ? between(d, 0.02, 0.2) : between(d, 0, 0.02))
    let change: BoundedChange | null = { same, broken, fresh: boundedLaw(d, 0.4) }
    if (nullVariant) change = solveFresh(eb, change, 0)
    if (change === null) return null
    strata.push({ base, change, eb, truth: changedMean(eb, change) })
  }
  const truth = strata.reduce((a, s, i) => a + weights[i] * s.truth, 0)
  if (!nullVariant && truth >= 0) return null
  const level = strata.reduce((a, s, i) => a + weights[i] * (s.eb + s.truth), 0)
  const c = queryChecks({ truth: nullVariant ? 0 : truth, level, better: 'higher', binary: false, independent: false })
  const target = weights.map((w, i) => `s${i}: ${w}`).join(', ')
  return {
    family: 'weighted strata, rare losses in the heavy one',
    index,
    label: `${k} strata, sizes ${sizes.join('/')}, weights ${weights.map((w) => fmt(w, 2)).join('/')}; heavy stratum ${fmt(strata[0].change.broken * 100, 1)}% broken; truth ${fmt(nullVariant ? 0 : truth, 4)}`,
    queries: sizes.reduce((a, b) => a + b, 0),
    rules: rulesText({
      metric: '{ better: higher, range: [0, 1] }',
      checks: c.yaml,
      statistics: `, weights: { by: stratum, target: { ${target} } }`
    }),
    checks: c.checks,
    truth: { difference: nullVariant ? 0 : truth, level },
    better: 'higher',
    sample(r) {
      const n = sizes.reduce((a, b) => a + b, 0)
      const b = new Float64Array(n)
      const cv = new Float64Array(n)
      const stratum: string[] = []
      let i = 0
      strata.forEach((st, s) => {
        for (let j = 0; j < sizes[s]; j++, i++) {
          b[i] = drawBounded(r, st.base)
          cv[i] = drawChanged(r, b[i], st.change)
          stratum.push(`s${s}`)
        }
      })
      return { base: b, cand: cv, attrs: { stratum } }
    }
  }
}

/**
 * Small slices under a multiplicity adjustment: a per_slice non-inferiority check over k slices of 15–100 queries;
 * one slice's truth is exactly at the margin, the others comfortably inside it. The check passes only when every
 * slice passes, so a pass is a false pass (of the slice at the margin).
 */
function slicesDesign(d: Draws, index: number): DrawnQueryDesign | null {
  const k = 3 + floor(d.uniform() * 10)
  const sizes = Array.from({ length: k }, () => logInt(d, 15, 100))
  const multiplicity = pick(d, ['holm', 'bonferroni', 'none'] as const)
  const margin = between(d, 0.03, 0.25)
  const slices: Array<{ base: BoundedLaw; change: BoundedChange }> = []
  for (let s = 0; s < k; s++) {
    const base = boundedLaw(d, 0.4)
    const eb = boundedMean(base)
    const change = solveFresh(
      eb,
      { same: between(d, 0.2, 0.9), broken: between(d, 0, 0.1), fresh: boundedLaw(d, 0.4) },
      s === 0 ? -margin : 0
    )
    if (change === null) return null
    slices.push({ base, change })
  }
  return {
    family: 'small slices under multiplicity',
    index,
    label: `${k} slices of ${sizes.join('/')} queries, margin ${fmt(margin, 3)}, multiplicity ${multiplicity}; slice 0 at the margin`,
    queries: sizes.reduce((a, b) => a + b, 0),
    rules: rulesText({
      metric: '{ better: higher, range: [0, 1] }',
      checks: [['per_slice', `per_slice: slice, non_inferior: { margin: ${margin} }`]],
      statistics: `, multiplicity: ${multiplicity}`
    }),
    checks: [
      {
        name: 'per_slice',
        kind: 'non_inferior',
        truth: 'at_threshold',
        statistic: 'difference',
        threshold: -margin,
        slice: ['slice', 'v0']
      }
    ],
    truth: { difference: -margin, level: 0 },
    better: 'higher',
    sample(r) {
      const n = sizes.reduce((a, b) => a + b, 0)
      const b = new Float64Array(n)
      const cv = new Float64Array(n)
      const slice: string[] = []
      let i = 0
      slices.forEach((st, s) => {
        for (let j = 0; j < sizes[s]; j++, i++) {
          b[i] = drawBounded(r, st.base)
          cv[i] = drawChanged(r, b[i], st.change)
          slice.push(`v${s}`)
        }
      })
      return { base: b, cand: cv, attrs: { slice } }
    }
  }
}

/**
 * Seed replicates with outliers: per side S seeds; score = a_q + [candidate: b_q + Δ] + g_s + e_sq, g_s training
 * luck with, per seed, a chance of an outlying run (±4–8 training SDs, symmetric: the truth stays Δ).
 */
function seedsDesign(d: Draws, index: number): DrawnSeedDesign {
  const n = logInt(d, 30, 500)
  const baselineSeeds = 2 + floor(d.uniform() * 4)
  const candidateSeeds = 2 + floor(d.uniform() * 4)
  const training = between(d, 0, 0.04)
  const outliers = between(d, 0, 0.3)
  const effect = between(d, 0.02, 0.15)
  const noise = between(d, 0.01, 0.08)
  const margin = between(d, 0, 0.03)
  const c = queryChecks({ truth: -margin, level: 0, better: 'higher', binary: false, independent: true })
  const checks = c.checks.filter((x) => x.kind === 'non_inferior')
  return {
    family: 'seeds',
    index,
    label: `${n} queries, ${baselineSeeds} vs ${candidateSeeds} seeds, training SD ${fmt(training, 3)}, ${fmt(outliers * 100, 0)}% outlying seeds, truth −${fmt(margin, 4)}`,
    queries: n,
    rules: rulesText({
      metric: '{ better: higher }',
      checks: c.yaml.filter(([name]) => name === 'ni'),
      statistics: `, seeds: { baseline: ${baselineSeeds}, candidate: ${candidateSeeds} }`
    }),
    checks,
    truth: { difference: -margin, level: 0 },
    better: 'higher',
    baselineSeeds,
    candidateSeeds,
    sample(r) {
      const a = Float64Array.from({ length: n }, () => 0.5 + 0.2 * r.normal())
      const b = Float64Array.from({ length: n }, () => effect * r.normal())
      const side = (seeds: number, change: boolean): Float64Array[] =>
        Array.from({ length: seeds }, () => {
          const out =
            r.uniform() < outliers ? (r.uniform() < 0.5 ? -1 : 1) * between(r, 4, 8) * max(training, 0.005) : 0
          const g = training * r.normal() + out
          return Float64Array.from(
            { length: n },
            (_, q) => a[q] + (change ? b[q] - margin : 0) + g + noise * r.normal()
          )
        })
      return { base: side(baselineSeeds, false), cand: side(candidateSeeds, true) }
    }
  }
}

/** Judge anchors: items with 2–5 labels of drawn shares; the candidate judge's kappa is the baseline's minus max_drop. */
function judgeDesign(d: Draws, index: number): DrawnJudgeDesign {
  const items = logInt(d, 20, 400)
  const k = 2 + floor(d.uniform() * 4)
  const raw = Array.from({ length: k }, () => gamma(d, 1.5))
  const total = raw.reduce((a, b) => a + b, 0)
  const labels = raw.map((x) => max(0.02, x / total))
  const norm = labels.reduce((a, b) => a + b, 0)
  const kappa = between(d, 0.35, 0.9)
  const drop = between(d, 0.03, 0.2)
  return {
    family: 'judge',
    index,
    label: `${items} items, ${k} labels (${labels.map((x) => fmt(x / norm, 2)).join('/')}), kappa ${fmt(kappa, 2)} → ${fmt(kappa - drop, 2)}`,
    items,
    labels: labels.map((x) => x / norm),
    kappa,
    drop
  }
}

/** The families and how each draws a design (null: the draw was infeasible, draw again). */
export const FAMILIES: Array<[string, (d: Draws, index: number) => DrawnDesign | null]> = [
  ['binary', binaryDesign],
  ['bounded', boundedDesign],
  ['heavy', heavyDesign],
  ['heavier', (d, i) => heavyDesign(d, i, 'heavier')],
  ['clusters', clusterDesign],
  ['strata', strataDesign],
  ['slices', slicesDesign],
  ['seeds', seedsDesign],
  ['judge', judgeDesign]
]

/** `count` designs per family, drawn from the seed (the same seed and count, the same designs). */
export function drawDesigns(seed: string, count: number, only?: (family: string) => boolean): DrawnDesign[] {
  const out: DrawnDesign[] = []
  for (const [name, draw] of FAMILIES) {
    if (only && !only(name)) continue
    let made = 0
    for (let attempt = 0; made < count && attempt < count * 20; attempt++) {
      const design = draw(drawsOf(seed, `design/${name}`, attempt), made)
      if (design !== null) {
        out.push(design)
        made++
      }
    }
  }
  return out
}

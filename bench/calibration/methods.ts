import { bcaInterval, percentileInterval } from '../../src/stats/bca.js'
import { acceleration, momentsOfDesign, summarise } from '../../src/stats/moments.js'
import { bootstrapPlan, type ResampleDraw } from '../../src/stats/bootstrap.js'
import { buildDesign, estimate, type Design } from '../../src/stats/design.js'
import { studentInterval } from '../../src/stats/interval.js'
import { blockState, xoshiro128ss } from '../../src/stats/rng.js'
import { normalQuantile, tQuantile } from '../../src/stats/special.js'
import { seedInterval } from '../../src/capabilities/seeds/interval.js'
import { kappaWeighted, kappaWeighting } from '../../src/capabilities/judge/kappa.js'
import { quantileSorted } from '../../src/util/quantile.js'
import type { StatisticsRules } from '../../src/config/types.js'
import type { PairedTable } from '../../src/align/pair.js'
import { SYNC_RUNNER } from '../../src/stats/threads.js'

/**
 * The interval methods the calibration study compares with the gate's own (src/stats/closed-form-interval.ts,
 * seed-interval.ts, judge-agreement.ts): the bootstraps the gate used before (percentile, BCa, the two-level seed
 * bootstrap, the percentile bootstrap of kappa), the textbook alternatives the issue named (Student's t,
 * cluster-robust t with clusters − 1 df, the studentized bootstrap, the wild cluster bootstrap, Newcombe's hybrid
 * score interval), each as the literature defines it. Not used by the product.
 */

/** The first column's bootstrap resamples, sorted (a bootstrap plan run on this thread). */
export function sortedResamples(design: Design, draw: ResampleDraw): Float64Array {
  const plan = bootstrapPlan(design, draw)
  SYNC_RUNNER.run(plan.jobs)
  return plan.finish()[0].sort()
}

const STATS: StatisticsRules = {
  confidence: 0.95,
  resamples: 1000,
  seed: 'calibration',
  interval: 'percentile',
  permutations: 1000,
  cluster: undefined,
  clusterWeighting: 'query',
  weights: undefined,
  multiplicity: 'none'
}

/** The design of one simulated evaluation: independent queries, or clusters by `labels`. */
export function designFor(diff: Float64Array, labels?: string[]): Design {
  const table = { attrs: new Map(labels ? [['cluster', labels]] : []) } as unknown as PairedTable
  const members = Int32Array.from({ length: diff.length }, (_, i) => i)
  return buildDesign(table, members, [diff], { statistics: labels ? { ...STATS, cluster: 'cluster' } : STATS })
}

/** Percentile and BCa bootstrap intervals from the gate's own resampling kernels (seeded per simulation). */
export function bootstrapIntervals(
  design: Design,
  resamples: number,
  stream: string,
  confidence = 0.95
): { percentile: [number, number]; bca: [number, number] } {
  const sorted = sortedResamples(design, { resamples, seed: 'calibration', stream })
  return {
    percentile: percentileInterval(sorted, confidence),
    bca: bcaInterval(sorted, estimate(design, 0), acceleration(momentsOfDesign(design, 0)), confidence).ci
  }
}

/** Student's t (n − 1 df; clusters − 1 with clusters: the cluster-robust standard error), or the point when there is no spread. */
export function studentT(design: Design, confidence = 0.95): [number, number] {
  return studentInterval(summarise(momentsOfDesign(design, 0)), confidence)
}

/**
 * The studentized (bootstrap-t) interval of a mean (Efron & Tibshirani 1993, ch. 12): T* = (mean* − mean)/se*
 * over resamples of the queries; [mean − t*_{1−α/2}·se, mean − t*_{α/2}·se]. A resample without spread has T* =
 * 0 when its mean is the estimate, else ±∞ (an infinite end: such an interval never passes).
 */
export function bootstrapT(diff: Float64Array, resamples: number, stream: string, confidence = 0.95): [number, number] {
  const n = diff.length
  let sum = 0
  for (const x of diff) sum += x
  const mean = sum / n
  let ss = 0
  for (const x of diff) ss += (x - mean) * (x - mean)
  const se = Math.sqrt(ss / (n - 1) / n)
  if (!(se > 0)) return [mean, mean]
  const t = new Float64Array(resamples)
  const next = xoshiro128ss(blockState('calibration', `${stream}\u0000t`, 0))
  for (let r = 0; r < resamples; r++) {
    let s = 0
    let s2 = 0
    for (let j = 0; j < n; j++) {
      const x = diff[Math.floor((next() * n) / 4294967296)]
      s += x
      s2 += x * x
    }
    const m = s / n
    const v = Math.max(0, (s2 - n * m * m) / (n - 1) / n)
    t[r] = v > 0 ? (m - mean) / Math.sqrt(v) : m === mean ? 0 : m > mean ? Infinity : -Infinity
  }
  t.sort()
  const alpha = 1 - confidence
  return [mean - quantileFinite(t, 1 - alpha / 2) * se, mean - quantileFinite(t, alpha / 2) * se]
}

/** A type-7 quantile that is infinite when an end it interpolates is (Float64Array sorted ascending). */
function quantileFinite(sorted: Float64Array, p: number): number {
  const h = (sorted.length - 1) * p
  const lo = Math.floor(h)
  const hi = Math.ceil(h)
  if (!Number.isFinite(sorted[lo]) || !Number.isFinite(sorted[hi]))
    return sorted[!Number.isFinite(sorted[hi]) ? hi : lo]
  return quantileSorted(sorted, p)
}

/**
 * Newcombe's (1998) method 10 for the difference of paired proportions (candidate − baseline), with the
 * continuity-corrected correlation ψ as R's contingencytables::Newcombe_square_and_add_CI_paired_2x2 computes it
 * (a = both hit, b = candidate only, c = baseline only, d = neither).
 */
export function newcombeInterval(base: Float64Array, cand: Float64Array, confidence = 0.95): [number, number] {
  let a = 0
  let b = 0
  let c = 0
  let d = 0
  for (let i = 0; i < base.length; i++) {
    if (cand[i] === 1 && base[i] === 1) a++
    else if (cand[i] === 1) b++
    else if (base[i] === 1) c++
    else d++
  }
  const n = a + b + c + d
  const z = normalQuantile(1 - (1 - confidence) / 2)
  const wilson = (x: number): [number, number] => {
    const p = x / n
    const den = 1 + (z * z) / n
    const centre = (p + (z * z) / (2 * n)) / den
    const half = (z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n))) / den
    return [centre - half, centre + half]
  }
  const p1 = (a + b) / n
  const p2 = (a + c) / n
  const [l1, u1] = wilson(a + b)
  const [l2, u2] = wilson(a + c)
  let psi = 0
  if (a + b > 0 && c + d > 0 && a + c > 0 && b + d > 0) {
    const prod = (a + b) * (c + d) * (a + c) * (b + d)
    const A = a * d - b * c
    psi = A > n / 2 ? (A - n / 2) / Math.sqrt(prod) : A >= 0 ? 0 : A / Math.sqrt(prod)
  }
  const est = p1 - p2
  const lower = est - Math.sqrt(Math.max(0, (p1 - l1) ** 2 + (u2 - p2) ** 2 - 2 * psi * (p1 - l1) * (u2 - p2)))
  const upper = est + Math.sqrt(Math.max(0, (p2 - l2) ** 2 + (u1 - p1) ** 2 - 2 * psi * (p2 - l2) * (u1 - p1)))
  return [lower, upper]
}

/** Webb's six-point weights (±√1.5, ±1, ±√0.5, equally likely), recommended below about 12 clusters. */
const WEBB = [-Math.sqrt(1.5), -1, -Math.SQRT1_2, Math.SQRT1_2, 1, Math.sqrt(1.5)]

/**
 * The wild cluster restricted bootstrap (Cameron, Gelbach & Miller 2008; Webb's weights) of the query-weighted
 * mean, as a test of H0: μ = μ0: per cluster the residual total under H0, u_g = S_g − μ0·n_g, is multiplied by a
 * weight w_g; t* = (m* − μ0)/se*(CR1) against t = (m − μ0)/se. Returns the one-sided p-values of the truth
 * "too low" (the lower end of the inverted interval is above μ0: a false pass) and "too high".
 */
export function wildClusterTest(
  design: Design,
  mu0: number,
  resamples: number,
  stream: string
): { pUpper: number; pLower: number } {
  const { units, values, counts } = design
  const sizes = counts as Float64Array
  let total = 0
  let queries = 0
  for (let g = 0; g < units; g++) {
    total += values[g]
    queries += sizes[g]
  }
  const cr = (sums: (g: number) => number, m: number): number => {
    let ss = 0
    for (let g = 0; g < units; g++) {
      const e = sums(g) - m * sizes[g]
      ss += e * e
    }
    return Math.sqrt((units / (units - 1)) * ss) / queries
  }
  const m = total / queries
  const t = (m - mu0) / cr((g) => values[g], m)
  const u = Float64Array.from({ length: units }, (_, g) => values[g] - mu0 * sizes[g])
  const next = xoshiro128ss(blockState('calibration', `${stream}\u0000wild`, 0))
  const w = new Float64Array(units)
  let above = 0
  let below = 0
  for (let r = 0; r < resamples; r++) {
    let s = 0
    for (let g = 0; g < units; g++) {
      w[g] = WEBB[Math.floor((next() * 6) / 4294967296)]
      s += w[g] * u[g]
    }
    const mStar = mu0 + s / queries
    const tStar = (mStar - mu0) / cr((g) => mu0 * sizes[g] + w[g] * u[g], mStar)
    if (tStar >= t) above++
    if (tStar <= t) below++
  }
  return { pUpper: (1 + above) / (1 + resamples), pLower: (1 + below) / (1 + resamples) }
}

/**
 * The percentile bootstrap over anchor items the judge guards used before: kappa of each side and their paired
 * difference, from `resamples` item resamples; null when fewer than half the resamples have a defined kappa.
 */
export function kappaBootstrap(
  anchors: ReadonlyArray<readonly [number, number, number]>,
  k: number,
  resamples: number,
  stream: string,
  confidence = 0.95
): { baseline: [number, number] | null; drift: [number, number] | null } {
  const weighting = kappaWeighting(k, 'none')
  const tb = new Float64Array(k * k)
  const tc = new Float64Array(k * k)
  const next = xoshiro128ss(blockState('calibration', `${stream}\u0000kappa`, 0))
  const base: number[] = []
  const drift: number[] = []
  const m = anchors.length
  for (let r = 0; r < resamples; r++) {
    tb.fill(0)
    tc.fill(0)
    for (let p = 0; p < m; p++) {
      const [h, b, c] = anchors[Math.floor((next() * m) / 4294967296)]
      tb[h * k + b]++
      tc[h * k + c]++
    }
    const kb = kappaWeighted(tb, weighting).kappa
    const kc = kappaWeighted(tc, weighting).kappa
    if (kb !== null) base.push(kb)
    if (kb !== null && kc !== null) drift.push(kc - kb)
  }
  const alpha = 1 - confidence
  const interval = (xs: number[]): [number, number] | null => {
    if (xs.length < resamples / 2) return null
    const s = Float64Array.from(xs).sort()
    return [quantileSorted(s, alpha / 2), quantileSorted(s, 1 - alpha / 2)]
  }
  return { baseline: interval(base), drift: interval(drift) }
}

/**
 * The gate's t over seeds and queries (src/capabilities/seeds/interval.ts) with Welch–Satterthwaite degrees of freedom over
 * three parts (queries; baseline seeds, S_b − 1; candidate seeds, S_c − 1) instead of Hsu's min(S_b, S_c) − 1 for the
 * seed part: the alternative it was chosen against. Both sides need two seeds or more.
 */
export function welchSeedInterval(
  cols: { base: Float64Array[]; cand: Float64Array[] },
  confidence = 0.95
): [number, number] {
  const t = seedInterval(cols, confidence)
  if (t === null) return [Number.NaN, Number.NaN]
  const sb = cols.base.length
  const sc = cols.cand.length
  const n = cols.base[0].length
  const meanVar = (rows: Float64Array[]): number => {
    const means = rows.map((r) => r.reduce((a, x) => a + x, 0) / r.length)
    const m = means.reduce((a, x) => a + x, 0) / means.length
    return means.reduce((a, x) => a + (x - m) * (x - m), 0) / (means.length - 1)
  }
  const vb = meanVar(cols.base) / sb
  const vc = meanVar(cols.cand) / sc
  const v = t.queryVariance + vb + vc
  const per =
    (t.queryVariance > 0 ? (t.queryVariance * t.queryVariance) / (n - 1) : 0) +
    (vb * vb) / (sb - 1) +
    (vc * vc) / (sc - 1)
  const q = tQuantile(1 - (1 - confidence) / 2, (v * v) / per)
  return [t.estimate - q * Math.sqrt(v), t.estimate + q * Math.sqrt(v)]
}

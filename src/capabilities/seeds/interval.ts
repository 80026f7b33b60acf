import { seedMean, seedSpread, type SeedColumns } from '../../stats/seed-bootstrap.js'
import { tQuantile } from '../../stats/special.js'

/** Whose training variance an interval over seeds measured. */
export type TrainingVariance =
  /** Both sides have two seeds or more: each side's spread between seed means. */
  | 'measured'
  /** One side has a single seed: its training variance is taken to be the other side's (the same training, stated in the report). */
  | 'assumed_from_baseline'
  | 'assumed_from_candidate'

/** A t interval over seeds and queries, with what it was made of (power reads se and df). */
export interface SeedInterval {
  estimate: number
  ci: [number, number]
  se: number
  df: number
  /** The query part and the seed part of the variance of the estimate. */
  queryVariance: number
  seedVariance: number
  training: TrainingVariance
}

/**
 * The interval of the difference of seed-averaged means, Δ = mean_q [mean_s C[s][q] − mean_s B[s][q]], when a side
 * has several independently trained seeds. The seeds, not the queries, are the units of training variance: a
 * bootstrap that draws two or three seeds per side cannot learn their spread (false pass 0.108 with 2 seeds per
 * side, 0.193 with 1 against 5 or 10, docs/statistics.md). Under the model score = a_q + [candidate: b_q] + g_s +
 * e_sq (query, change, training luck, noise):
 *
 *   Var(Δ) = σ_b²/n + (σ_g² + σ_e²/n)·(1/S_b + 1/S_c),
 *
 * estimated without bias by V = V_query + V_seed:
 * - V_seed: each side's sample variance of its seed means (which estimates σ_g² + σ_e²/n) over its seeds,
 *   s_b²/S_b + s_c²/S_c; with one seed on a side, the other side's s² stands for both, s²·(1/S_b + 1/S_c)
 *   (assumed: the same training procedure is as noisy on both sides; said in the report);
 * - V_query: (var_q of the seed-averaged differences − σ̂_e²·(1/S_b + 1/S_c)) / n, floored at 0, with σ̂_e² the
 *   pooled seed-by-query residual variance of the two-way (seed × query) layout of each side with two seeds or more.
 *
 * Degrees of freedom (Satterthwaite 1946): V² / (V_query²/(n − 1) + V_seed²/f), with f = min(S_b, S_c) − 1 when
 * both sides have seeds (Hsu's conservative choice for unequal variances: Welch's f overstates it with few seeds on
 * a side, false pass 0.038 with 2 against 5 seeds and 0.044 when the side with 2 is the noisier, where this gives 0.012
 * and 0.026; docs/statistics.md) or S − 1 of the measured side.
 * Null when a side has no seed or no query, or when neither side has two seeds (nothing measures training variance).
 */
export function seedInterval(columns: SeedColumns, confidence: number): SeedInterval | null {
  const sb = columns.base.length
  const sc = columns.cand.length
  const n = columns.base[0]?.length ?? 0
  if (sb === 0 || sc === 0 || n === 0 || (sb < 2 && sc < 2)) return null
  const d = new Float64Array(n)
  for (let q = 0; q < n; q++) d[q] = seedMean(columns.cand, q) - seedMean(columns.base, q)
  const estimate = meanOf(d)
  const both = 1 / sb + 1 / sc
  // Seed-by-query residual variance, pooled over the sides that have two seeds or more.
  let residual = 0
  let residualDf = 0
  for (const rows of [columns.base, columns.cand]) {
    if (rows.length < 2 || n < 2) continue
    const r = twoWayResidual(rows)
    residual += r.ss
    residualDf += r.df
  }
  const noise = residualDf > 0 ? residual / residualDf : 0
  const queryVariance = n > 1 ? Math.max(0, varianceOf(d) - noise * both) / n : 0
  const varB = sb > 1 ? varianceOf(seedSpread(columns.base).means) : null
  const varC = sc > 1 ? varianceOf(seedSpread(columns.cand).means) : null
  let seedVariance: number
  let seedDf: number
  let training: TrainingVariance
  if (varB !== null && varC !== null) {
    seedVariance = varB / sb + varC / sc
    seedDf = Math.min(sb, sc) - 1
    training = 'measured'
  } else {
    seedVariance = ((varB ?? varC) as number) * both
    seedDf = (varB !== null ? sb : sc) - 1
    training = varB !== null ? 'assumed_from_baseline' : 'assumed_from_candidate'
  }
  const variance = queryVariance + seedVariance
  const perDf =
    (queryVariance > 0 && n > 1 ? (queryVariance * queryVariance) / (n - 1) : 0) +
    (seedVariance > 0 ? (seedVariance * seedVariance) / seedDf : 0)
  const df = perDf > 0 ? (variance * variance) / perDf : 0
  const se = Math.sqrt(variance)
  if (!(df > 0) || !(se > 0))
    return { estimate, ci: [estimate, estimate], se, df, queryVariance, seedVariance, training }
  const t = tQuantile(1 - (1 - confidence) / 2, df)
  return { estimate, ci: [estimate - t * se, estimate + t * se], se, df, queryVariance, seedVariance, training }
}

function meanOf(x: ArrayLike<number>): number {
  let s = 0
  for (let i = 0; i < x.length; i++) s += x[i]
  return s / x.length
}

/** Sample variance (n − 1). */
function varianceOf(x: ArrayLike<number>): number {
  const m = meanOf(x)
  let ss = 0
  for (let i = 0; i < x.length; i++) ss += (x[i] - m) * (x[i] - m)
  return ss / (x.length - 1)
}

/** Σ (x_sq − x̄_s· − x̄_·q + x̄)² and its (S − 1)(n − 1) degrees of freedom. */
function twoWayResidual(rows: Float64Array[]): { ss: number; df: number } {
  const s = rows.length
  const n = rows[0].length
  const seeds = seedSpread(rows).means
  const grand = meanOf(seeds)
  let ss = 0
  for (let q = 0; q < n; q++) {
    const query = seedMean(rows, q)
    for (let k = 0; k < s; k++) {
      const r = rows[k][q] - seeds[k] - query + grand
      ss += r * r
    }
  }
  return { ss, df: (s - 1) * (n - 1) }
}

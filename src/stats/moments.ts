import { denominator, stratumSum, type Design } from './design.js'

/**
 * The sufficient statistics every decision is made from (docs/statistics.md, "One decision core"): per stratum of a
 * subset, per column (a metric's differences, or its candidate values), the sums a warehouse computes. Rows are
 * reduced to them (from a design, {@link momentsOfDesign}); `gate --aggregates` reads them from the SQL's sums. The
 * estimate, its linearised standard error, its skewness, Satterthwaite's degrees of freedom, the effective number of
 * units and BCa's acceleration all follow from them by the functions below, the same for either source.
 */

/** One stratum of one column. */
export interface StratumMoments {
  /** Units resampled in the stratum: queries, or clusters. */
  units: number
  /** Its estimate's denominator: its queries (per-query values, or query-weighted clusters) or its units (cluster means). */
  den: number
  /** Weight in the estimate: the target share renormalised over the strata present (1 without target weights). */
  weight: number
  /** Σ count_u² over the units (= units when every unit is one query or one cluster mean): Kish's effective size is den² / this. */
  countSq: number
  /** Σ value over the units. */
  sum: number
  /**
   * Σ e_u² and Σ e_u³ of the linearised terms e_u = value_u − (sum / den)·count_u: the centred second and third
   * moments for per-query values, their ratio-estimator analogue for query-weighted clusters.
   */
  m2: number
  m3: number
}

/** What the closed-form laws read of a column's strata. */
export interface Summary {
  estimate: number
  /** Linearised standard error (sd/√n for a plain mean, cluster-robust, stratified). */
  se: number
  /** Satterthwaite's degrees of freedom over strata (n − 1 for one stratum of n units). */
  df: number
  /** Skewness of the estimate: Σ e³ / (Σ e²)^{3/2} over the weighted linearised terms (γ/√n for a plain mean). */
  skew: number
  /** Kish's effective number of units over the whole subset: 1 / Σ_s weight_s²·countSq_s / den_s². */
  effective: number
}

/** The per-stratum moments of column `c` of a design (two passes: the stratum's estimate, then the linearised terms). */
export function momentsOfDesign(design: Design, c: number): StratumMoments[] {
  const { k, values, counts } = design
  return design.strata.map((s) => {
    const den = denominator(design, s)
    const sum = stratumSum(design, c, s)
    const ratio = sum / den
    let m2 = 0
    let m3 = 0
    let countSq = 0
    for (let u = s.start; u < s.start + s.size; u++) {
      const count = counts ? counts[u] : 1
      const e = values[u * k + c] - ratio * count
      m2 += e * e
      m3 += e * e * e
      countSq += count * count
    }
    return { units: s.size, den, weight: s.weight, countSq, sum, m2, m3 }
  })
}

/**
 * The per-stratum moments of a column of the table (a side's values) on the design's units, without copying the
 * column into a design of its own: a unit's value is its member's (or, for a cluster, the sum or mean of its
 * members'), gathered once into a units-long array. The same numbers as a design built over the column would give.
 */
export function momentsOfColumn(design: Design, column: Float64Array, members: Int32Array): StratumMoments[] {
  const values = new Float64Array(design.units)
  const { unitOfMember, counts } = design
  for (let j = 0; j < members.length; j++) {
    const x = column[members[j]]
    values[unitOfMember[j]] += x - x === 0 ? x + 0 : Number.NaN
  }
  // Cluster means (cluster weighting): each unit counts once, its value the mean of its queries.
  if (design.clusters !== null && counts === null) {
    const size = new Float64Array(design.units)
    for (let j = 0; j < members.length; j++) size[unitOfMember[j]]++
    for (let u = 0; u < design.units; u++) values[u] /= size[u]
  }
  return momentsOfDesign({ ...design, k: 1, values }, 0)
}

/**
 * The estimate Σ_s weight_s·sum_s/den_s and what the laws read of it. A stratum of one unit adds its value but no
 * variance (its variability cannot be estimated: the reliability rule refuses such a design for a pass).
 */
export function summarise(strata: readonly StratumMoments[]): Summary {
  let estimate = 0
  let second = 0
  let third = 0
  let total = 0
  let perDf = 0
  let kish = 0
  for (const s of strata) {
    const f = s.weight / s.den
    estimate += f * s.sum
    kish += f * f * s.countSq
    if (s.units < 2) continue
    const ss = f * f * s.m2
    second += ss
    third += f * f * f * s.m3
    const v = (s.units / (s.units - 1)) * ss
    total += v
    perDf += (v * v) / (s.units - 1)
  }
  return {
    estimate: strata.length === 0 ? Number.NaN : estimate,
    se: Math.sqrt(total),
    df: perDf > 0 ? welchDf(strata, total, perDf) : 0,
    skew: second > 0 ? third / Math.pow(second, 1.5) : 0,
    effective: kish > 0 ? 1 / kish : 0
  }
}

/**
 * Welch–Satterthwaite's degrees of freedom total² / Σ v_s² / (units_s − 1). On values near 1e77 and beyond, v² or
 * total² overflows (Infinity / Infinity is NaN, which reads as "no spread"): then the same sum on v_s / total, which
 * cannot overflow. Where the plain form is finite it is kept, bit for bit.
 */
function welchDf(strata: readonly StratumMoments[], total: number, perDf: number): number {
  const df = (total * total) / perDf
  if (Number.isFinite(df) || !Number.isFinite(total)) return df
  let scaled = 0
  for (const s of strata) {
    if (s.units < 2) continue
    const f = s.weight / s.den
    const r = ((s.units / (s.units - 1)) * f * f * s.m2) / total
    scaled += (r * r) / (s.units - 1)
  }
  return 1 / scaled
}

/** Each stratum's own estimate sum/den (the range bound widens each by its share of what its unseen units could change). */
export function stratumEstimates(strata: readonly StratumMoments[]): number[] {
  return strata.map((s) => s.sum / s.den)
}

/** Kish's effective units of one stratum: den² / Σ count² (its units when every unit counts once). */
export function effectiveUnits(s: StratumMoments): number {
  return s.countSq > 0 ? (s.den * s.den) / s.countSq : 0
}

/**
 * BCa's acceleration from the jackknife, Σ D³ / (6 (Σ D²)^{3/2}): leaving unit u of stratum s out moves the estimate
 * by D_u = weight_s·e_u / (den_s − count_u) ≈ weight_s·e_u / (den_s − 1), so the sums are the strata's third and
 * second moments (exactly the jackknife's for per-query values and cluster means; its first-order form for
 * query-weighted clusters). NaN when a stratum has one unit or nothing varies.
 */
export function acceleration(strata: readonly StratumMoments[]): number {
  let num = 0
  let den = 0
  for (const s of strata) {
    if (s.units < 2) return Number.NaN
    const f = s.weight / (s.den - s.den / s.units)
    num += f * f * f * s.m3
    den += f * f * s.m2
  }
  return den > 0 ? num / (6 * Math.pow(den, 1.5)) : Number.NaN
}

/**
 * Cohen's kappa: agreement between two raters beyond what their label frequencies give by chance,
 * (p_o - p_e) / (1 - p_e). Weighted kappa counts near misses of graded labels partly, with agreement weights
 * 1 - |i - j| / (k - 1) (linear) or 1 - (i - j)^2 / (k - 1)^2 (quadratic) over positions on the scale; this is
 * the same kappa as statsmodels' `cohens_kappa(table, wt='linear'|'quadratic')`, which writes the disagreement
 * weights |i - j| and (i - j)^2 (kappa does not change when the weights are rescaled).
 */

import type { KappaWeights } from '../../config/judge-rules.js'

/** Agreement weight of positions i and j on a scale of k labels (1 on the diagonal). */
export function agreementWeight(i: number, j: number, k: number, weights: KappaWeights): number {
  if (i === j) return 1
  if (weights === 'none' || k < 2) return 0
  const d = Math.abs(i - j) / (k - 1)
  return weights === 'linear' ? 1 - d : 1 - d * d
}

/** Kappa of a k x k contingency table (rows: first rater, columns: second), with observed agreement. */
export interface KappaValue {
  /** Null when undefined: chance agreement is 1 (both raters gave one same label to everything), or the table is empty. */
  kappa: number | null
  /** Weighted observed agreement p_o (raw agreement when weights are none); null for an empty table. */
  observed: number | null
  expected: number | null
}

/** The k x k agreement weights (row-major), computed once per scale rather than per cell of every resample. */
export function weightMatrix(k: number, weights: KappaWeights): Float64Array {
  const w = new Float64Array(k * k)
  for (let i = 0; i < k; i++) for (let j = 0; j < k; j++) w[i * k + j] = agreementWeight(i, j, k, weights)
  return w
}

/**
 * Kappa from a contingency table `counts` (row-major k x k; may hold fractional or resampled counts).
 * Undefined (null, never NaN) when the table is empty or chance agreement reaches 1.
 */
export function kappaOfTable(counts: ArrayLike<number>, k: number, weights: KappaWeights): KappaValue {
  return kappaWeighted(counts, kappaWeighting(k, weights))
}

/**
 * What {@link kappaWeighted} reads besides the table, built once per scale: its k labels, the agreement weights
 * ({@link weightMatrix}) and two scratch arrays of length k for the margins. Reused across tables, so a caller
 * computing a kappa per resample or per left-out item allocates nothing per kappa.
 */
export interface KappaWeighting {
  k: number
  w: Float64Array
  rows: Float64Array
  cols: Float64Array
}

/** The {@link KappaWeighting} of a scale of k labels under `weights`. */
export function kappaWeighting(k: number, weights: KappaWeights): KappaWeighting {
  return { k, w: weightMatrix(k, weights), rows: new Float64Array(k), cols: new Float64Array(k) }
}

/** {@link kappaOfTable} under a {@link KappaWeighting} (its scratch arrays are overwritten). */
export function kappaWeighted(counts: ArrayLike<number>, weighting: KappaWeighting): KappaValue {
  const { k, w, rows, cols } = weighting
  rows.fill(0)
  cols.fill(0)
  let n = 0
  let po = 0
  for (let i = 0; i < k; i++) {
    for (let j = 0; j < k; j++) {
      const c = counts[i * k + j]
      n += c
      rows[i] += c
      cols[j] += c
      po += w[i * k + j] * c
    }
  }
  if (n === 0) return { kappa: null, observed: null, expected: null }
  let pe = 0
  for (let i = 0; i < k; i++) {
    if (rows[i] === 0) continue
    for (let j = 0; j < k; j++) pe += w[i * k + j] * rows[i] * cols[j]
  }
  po /= n
  pe /= n * n
  // Chance agreement of 1 (to rounding): every item got one same label from both raters; kappa is 0/0.
  const kappa = 1 - pe <= 1e-12 ? null : (po - pe) / (1 - pe)
  return { kappa, observed: po, expected: pe }
}

/** Raw agreement (share of exact matches) of a contingency table, or null when empty. */
export function rawAgreement(counts: ArrayLike<number>, k: number): number | null {
  let n = 0
  let same = 0
  for (let i = 0; i < k; i++) {
    for (let j = 0; j < k; j++) {
      n += counts[i * k + j]
      if (i === j) same += counts[i * k + j]
    }
  }
  return n === 0 ? null : same / n
}

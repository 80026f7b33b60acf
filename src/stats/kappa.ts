/**
 * Cohen's kappa: agreement between two raters beyond what their label frequencies give by chance,
 * (p_o - p_e) / (1 - p_e). Weighted kappa counts near misses of graded labels partly, with agreement weights
 * 1 - |i - j| / (k - 1) (linear) or 1 - (i - j)^2 / (k - 1)^2 (quadratic) over positions on the scale; this is
 * the same kappa as statsmodels' `cohens_kappa(table, wt='linear'|'quadratic')`, which writes the disagreement
 * weights |i - j| and (i - j)^2 (kappa does not change when the weights are rescaled).
 */

import type { KappaWeights } from '../config/judge-rules.js'

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

/**
 * Kappa from a contingency table `counts` (row-major k x k; may hold fractional or resampled counts).
 * Undefined (null, never NaN) when the table is empty or chance agreement reaches 1.
 */
export function kappaOfTable(counts: ArrayLike<number>, k: number, weights: KappaWeights): KappaValue {
  let n = 0
  const rows = new Float64Array(k)
  const cols = new Float64Array(k)
  for (let i = 0; i < k; i++) {
    for (let j = 0; j < k; j++) {
      const c = counts[i * k + j]
      n += c
      rows[i] += c
      cols[j] += c
    }
  }
  if (n === 0) return { kappa: null, observed: null, expected: null }
  let po = 0
  let pe = 0
  for (let i = 0; i < k; i++) {
    for (let j = 0; j < k; j++) {
      const w = agreementWeight(i, j, k, weights)
      if (w === 0) continue
      po += (w * counts[i * k + j]) / n
      pe += (w * rows[i] * cols[j]) / (n * n)
    }
  }
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

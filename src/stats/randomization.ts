import { denominator, type Design } from './design.js'
import { BLOCK, blockState } from './rng.js'

/** Local bindings: a global lookup of Math per call is slow in some hosts (Jest's vm context: 100x). */
const { imul, abs, min } = Math

/** Result of the paired randomization (sign-flip) test of "no difference" for every column of a design. */
export interface Randomization {
  /** Two-sided p-value per column. */
  pValues: Float64Array
  /** Sign patterns used: all 2^units when `exact`, else the number of random flips. */
  permutations: number
  /** True when every sign pattern was enumerated (the p-value is then exact). */
  exact: boolean
}

/** Largest number of units enumerated exactly (2^20 patterns), whatever `permutations` says. */
const EXACT_UNITS = 20

/**
 * Paired randomization test (Fisher's sign-flip test, the usual significance test in IR evaluation): under
 * "no difference" every unit's difference is as likely to have the opposite sign, so the statistic
 * T = Σ_u ± y_u, with y_u the unit's contribution to the estimate (see {@link Design}), is compared with
 * its distribution under random signs. Clusters are flipped whole, strata keep their weights.
 *
 * Two-sided p = share of sign patterns with |T*| >= |T| (a tolerance of 1e-9 · Σ|y_u| absorbs rounding,
 * so mathematically equal sums tie). When 2^units <= permutations every pattern is enumerated and the
 * p-value is exact; otherwise p = (1 + hits) / (1 + permutations) over random patterns, which is never 0.
 *
 * Speed: one uint32 gives 32 signs; units are taken four at a time through a 16-entry table of the four
 * signed partial sums (one table per column, small enough to stay in cache), so a flip costs a quarter of
 * the additions. All columns share the signs.
 */
export function signFlipTest(design: Design, permutations: number, seed: string, stream: string): Randomization {
  const { k, units } = design
  const y = contributions(design)
  const observed = new Float64Array(k)
  const tol = new Float64Array(k)
  for (let c = 0; c < k; c++) {
    let s = 0
    let a = 0
    for (let u = 0; u < units; u++) {
      s += y[u * k + c]
      a += abs(y[u * k + c])
    }
    observed[c] = abs(s)
    tol[c] = 1e-9 * a
  }
  const hits = new Float64Array(k)
  if (units === 0) return { pValues: new Float64Array(k).fill(1), permutations: 0, exact: true }
  const exact = units <= EXACT_UNITS && 2 ** units <= Math.max(permutations, 1)
  if (exact) {
    const patterns = 2 ** units
    const t = new Float64Array(k)
    for (let mask = 0; mask < patterns; mask++) {
      t.fill(0)
      for (let u = 0; u < units; u++) {
        const sign = (mask >>> u) & 1 ? -1 : 1
        for (let c = 0; c < k; c++) t[c] += sign * y[u * k + c]
      }
      for (let c = 0; c < k; c++) if (abs(t[c]) >= observed[c] - tol[c]) hits[c]++
    }
    return { pValues: hits.map((h) => h / patterns), permutations: patterns, exact: true }
  }
  const groups = Math.ceil(units / 4)
  const tables = Array.from({ length: k }, (_, c) => nibbleTable(y, k, c, units, groups))
  const words = Math.ceil(groups / 8)
  const signs = new Int32Array(words)
  const full = groups >>> 3
  for (let p0 = 0, block = 0; p0 < permutations; p0 += BLOCK, block++) {
    const state = blockState(seed, stream, block)
    let s0 = state[0] | 0
    let s1 = state[1] | 0
    let s2 = state[2] | 0
    let s3 = state[3] | 0
    const to = min(permutations, p0 + BLOCK)
    for (let p = p0; p < to; p++) {
      // One pattern: 32 signs per uint32, shared by every column.
      for (let w = 0; w < words; w++) {
        const x = imul(s1, 5)
        signs[w] = imul((x << 7) | (x >>> 25), 9)
        const tt = s1 << 9
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= tt
        s3 = (s3 << 11) | (s3 >>> 21)
      }
      for (let c = 0; c < k; c++) {
        // Column by column with a scalar accumulator: each column's table (16 entries per 4 units) stays in cache.
        const table = tables[c]
        let t = 0
        let g = 0
        for (let w = 0; w < full; w++, g += 8) {
          const bits = signs[w]
          t += table[(g << 4) | (bits & 15)]
          t += table[((g + 1) << 4) | ((bits >>> 4) & 15)]
          t += table[((g + 2) << 4) | ((bits >>> 8) & 15)]
          t += table[((g + 3) << 4) | ((bits >>> 12) & 15)]
          t += table[((g + 4) << 4) | ((bits >>> 16) & 15)]
          t += table[((g + 5) << 4) | ((bits >>> 20) & 15)]
          t += table[((g + 6) << 4) | ((bits >>> 24) & 15)]
          t += table[((g + 7) << 4) | (bits >>> 28)]
        }
        for (; g < groups; g++) t += table[(g << 4) | ((signs[g >>> 3] >>> ((g & 7) << 2)) & 15)]
        if (abs(t) >= observed[c] - tol[c]) hits[c]++
      }
    }
  }
  return { pValues: hits.map((h) => (h + 1) / (permutations + 1)), permutations, exact: false }
}

/** y[u * k + c]: the unit's contribution to the estimate of column c, weight · value / stratum denominator. */
export function contributions(design: Design): Float64Array {
  const { k, values } = design
  const y = new Float64Array(values.length)
  for (const s of design.strata) {
    const f = s.weight / denominator(design, s)
    for (let u = s.start; u < s.start + s.size; u++) for (let c = 0; c < k; c++) y[u * k + c] = f * values[u * k + c]
  }
  return y
}

/** table[g * 16 + mask] = Σ_{j < 4} (bit j of mask ? −1 : +1) · y[4g + j, c] for one column c (absent units count 0). */
function nibbleTable(y: Float64Array, k: number, c: number, units: number, groups: number): Float64Array {
  const table = new Float64Array(groups * 16)
  for (let g = 0; g < groups; g++) {
    for (let mask = 0; mask < 16; mask++) {
      let s = 0
      for (let j = 0; j < 4; j++) {
        const u = g * 4 + j
        if (u < units) s += ((mask >>> j) & 1 ? -1 : 1) * y[u * k + c]
      }
      table[(g << 4) | mask] = s
    }
  }
  return table
}

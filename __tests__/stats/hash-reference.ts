/**
 * The Poisson weights and hashed signs of src/stats/poisson-weights.ts one value at a time, as its module comment
 * defines them: the reference the kernels (which inline these steps) and the warehouse SQL are tested against.
 */
import { HASH_M1, HASH_M2, HASH_STEP, POISSON_THRESHOLDS } from '../../src/stats/poisson-weights.js'

/** The weight of a 16-bit u (0 .. 65535): Poisson(1) by inversion. */
export function poissonWeight(u16: number): number {
  let w = 0
  while (w < POISSON_THRESHOLDS.length && u16 >= POISSON_THRESHOLDS[w]) w++
  return w
}

/** The hash of a unit's keys (k1, k2), a seed key s and word j, as an unsigned 32-bit integer. */
export function unitHash(k1: number, k2: number, s: number, j: number): number {
  let x = ((k1 ^ s) + Math.imul(j, HASH_STEP)) | 0
  x ^= x >>> 16
  x = Math.imul(x, HASH_M1)
  x ^= x >>> 13
  x = Math.imul(x ^ k2, HASH_M2)
  x ^= x >>> 16
  return x >>> 0
}

/** Unit (k1, k2)'s Poisson weight in resample b under seed key s. */
export function unitWeight(k1: number, k2: number, s: number, b: number): number {
  const x = unitHash(k1, k2, s, b >>> 1)
  return poissonWeight(b & 1 ? x >>> 16 : x & 0xffff)
}

/** Unit (k1, k2)'s sign (+1 or −1) in sign pattern p under seed key s. */
export function unitSign(k1: number, k2: number, s: number, p: number): number {
  return (unitHash(k1, k2, s, p >>> 5) >>> (p & 31)) & 1 ? -1 : 1
}

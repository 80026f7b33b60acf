import { md5Head } from '../util/md5.js'

/**
 * The Poisson bootstrap's weights and the sign-flip test's signs as pure functions of (seed, unit, index), so
 * that any engine holding the rows computes the same ones (docs/scale.md, "Beyond one machine"): the kernels of
 * src/stats/kernels.ts inline these steps, src/stats/warehouse-sql.ts writes them as SQL, and the tests' reference
 * (__tests__/stats/hash-reference.ts) computes them one value at a time. Everything is 32-bit unsigned arithmetic
 * (xor, shifts, multiplication and addition modulo 2^32), which JavaScript has (Math.imul) and which SQL engines
 * compute exactly in 64-bit integers (each product split in 16-bit halves).
 *
 * - A unit's key: the MD5 of its id (the query id, or the cluster's value) as UTF-8; K1 = its bytes 0..3 and
 *   K2 = its bytes 4..7, big-endian (the first 16 hex digits of md5(id), a function DuckDB, Spark SQL and
 *   BigQuery all have). Two keys make 64 bits: at 10^9 units about 0.03 pairs share both.
 * - A seed's key: bytes 0..3 of md5(`retrieval-gate/weights\0${seed}`) for the weights, of
 *   md5(`retrieval-gate/signs\0${seed}`) for the signs.
 * - The hash of (unit, word j): x = (K1 xor S) + j·0x9E3779B9; x ^= x >> 16; x *= 0x85EBCA6B; x ^= x >> 13;
 *   x = (x xor K2) · 0xC2B2AE35; x ^= x >> 16 (MurmurHash3's finaliser with the second key mixed in).
 * - Weights: word j gives resamples 2j (its low 16 bits) and 2j + 1 (its high 16 bits); a weight is Poisson(1)
 *   by inversion of those 16 bits, {@link POISSON_THRESHOLDS}.
 * - Signs: word j gives patterns 32j .. 32j + 31; bit t set means the unit's sign is −1 in pattern 32j + t.
 */

/** The golden-ratio increment of the word index (Weyl sequence), MurmurHash3's two finaliser multipliers. */
export const HASH_STEP = 0x9e3779b9
export const HASH_M1 = 0x85ebca6b
export const HASH_M2 = 0xc2b2ae35

/**
 * T_k = round(65536 · P(X ≤ k)) for X ~ Poisson(1), k = 0 .. 7 (scipy: `[round(65536 * poisson.cdf(k, 1)) for k in
 * range(8)]`). A 16-bit u gives the weight #{k : u ≥ T_k}: P(w = k) is Poisson(1)'s rounded to a multiple of
 * 2^-16 (the last, 8, takes the tail), so the weights' mean is exactly 1 and their variance 0.99997.
 */
export const POISSON_THRESHOLDS: readonly number[] = [24109, 48219, 60273, 64292, 65296, 65497, 65531, 65535]

/** The seed keys of the weights and of the signs (see the module comment). */
export function seedKeys(seed: string): { weights: number; signs: number } {
  return {
    weights: md5Head(`retrieval-gate/weights\u0000${seed}`)[0],
    signs: md5Head(`retrieval-gate/signs\u0000${seed}`)[0]
  }
}

/**
 * The keys of a list of ids, as two aligned arrays (what a Poisson or hashed-sign job takes), allocated by `alloc`
 * (src/stats/resampling.ts passes workerInts: arrays the kernels' threads share).
 */
export function keysOf(
  ids: readonly string[],
  alloc: (length: number) => Int32Array = (length) => new Int32Array(length)
): { keys1: Int32Array; keys2: Int32Array } {
  const keys1 = alloc(ids.length)
  const keys2 = alloc(ids.length)
  ids.forEach((id, i) => {
    const [a, b] = md5Head(id)
    keys1[i] = a
    keys2[i] = b
  })
  return { keys1, keys2 }
}

import seedrandom from 'seedrandom'

/** Local bindings: a global lookup of Math per call is slow in some hosts (Jest's vm context: 100x). */
const { imul } = Math

/**
 * Resampling is done in fixed blocks of this many resamples, each block with its own stream. The result
 * therefore does not depend on how blocks are scheduled (one thread or several), and raising `resamples`
 * keeps the first resamples unchanged.
 */
export const BLOCK = 1000

/**
 * The 128-bit state of a xoshiro128** generator for one block of one stream, seeded from seedrandom's
 * Alea (so the rules' seed string keeps its meaning). xoshiro128** (Blackman & Vigna) produces a uint32
 * per step with four xors, shifts and rotations: several times faster than a closure call per double,
 * and the resampling kernels inline it. An all-zero state (the one state xoshiro cannot leave) is
 * replaced by a fixed non-zero one.
 */
export function blockState(seed: string, stream: string, block: number): Uint32Array {
  const alea = seedrandom.alea(`${seed}\u0000${stream}\u0000${block}`)
  const s = new Uint32Array(4)
  for (let i = 0; i < 4; i++) s[i] = alea.int32() >>> 0
  if ((s[0] | s[1] | s[2] | s[3]) === 0) s[0] = 0x9e3779b9
  return s
}

/**
 * A stand-alone xoshiro128** generator over a state from {@link blockState}, returning uint32 values. The
 * hot loops inline the same steps instead of calling this; it exists for the rarer uses and for tests
 * (reference sequence: xoshiro128** of state [1, 2, 3, 4] begins 11520, 0, 5927040, 70819200, the values
 * of the authors' C reference implementation).
 */
export function xoshiro128ss(state: Uint32Array): () => number {
  let s0 = state[0] | 0
  let s1 = state[1] | 0
  let s2 = state[2] | 0
  let s3 = state[3] | 0
  return () => {
    const x = imul(s1, 5)
    const r = imul((x << 7) | (x >>> 25), 9) >>> 0
    const t = s1 << 9
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = (s3 << 11) | (s3 >>> 21)
    return r
  }
}

/** The states of blocks 0 .. blocks - 1 of a stream (see {@link blockState}), 4 words per block, for the kernels. */
export function blockStates(seed: string, stream: string, blocks: number): Uint32Array {
  const out = new Uint32Array(4 * blocks)
  for (let b = 0; b < blocks; b++) out.set(blockState(seed, stream, b), 4 * b)
  return out
}

/**
 * The block streams of several columns drawn by counts, column after column: column c's stream is
 * `${stream}\u0000counts\u0000${c}` (c its index among the design's columns), so a column's draws do not
 * depend on which other columns are drawn by counts. Shared by the bootstrap and the sign-flip test.
 */
export function countsStates(seed: string, stream: string, columns: readonly number[], blocks: number): Uint32Array {
  const states = new Uint32Array(4 * blocks * columns.length)
  columns.forEach((c, i) => states.set(blockStates(seed, `${stream}\u0000counts\u0000${c}`, blocks), 4 * blocks * i))
  return states
}

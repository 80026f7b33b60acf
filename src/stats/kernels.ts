/**
 * The numeric kernels that may run on worker threads: the bootstrap's resampling blocks and the sign-flip
 * test's blocks of random sign patterns. {@link statsKernels} is self-contained on purpose (no import, no
 * reference outside its own body, only the built-ins Math and typed arrays): its source text is what a
 * worker thread evaluates (src/stats/threads.ts), so the main thread and every worker run the very same
 * code, and a unit of work gives the same bits wherever it runs.
 *
 * A job is cut into units; a unit writes only its own slots of `out`, so units may run in any order, on any
 * thread, and the result is the same bytes.
 */

/** Resampling blocks of the bootstrap: unit u = column group floor(u / blocks), block u % blocks. */
export interface BootstrapJob {
  kind: 'bootstrap'
  units: number
  /** Size of the job, about a nanosecond a unit of work (decides whether threads are worth starting). */
  work: number
  blocks: number
  /** Resamples per block (the last block may be short). */
  block: number
  resamples: number
  /** Number of columns; groups of at most 8 columns, group i holds columns [8i, 8i + width). */
  k: number
  /** Per column group, its columns of the design's values, row-major (values[u * width + c]). */
  vs: Float64Array[]
  /** Queries per unit (query-weighted clusters), or null. */
  counts: Float64Array | null
  /** Per stratum: first unit, number of units, weight. */
  starts: Int32Array
  sizes: Int32Array
  weights: Float64Array
  /** xoshiro128** state of each block, 4 words per block. */
  states: Uint32Array
  /** out[c * resamples + b]: resample b's estimate of column c (unsorted). */
  out: Float64Array
}

/** Blocks of random sign patterns of the sign-flip test: unit = block. */
export interface FlipJob {
  kind: 'flip'
  units: number
  work: number
  block: number
  permutations: number
  k: number
  /** Groups of four units, and uint32 words of signs per pattern (8 groups per word). */
  groups: number
  /** Per column c, tables[c * groups * 16 + g * 16 + mask]: the signed partial sums of group g. */
  tables: Float64Array
  /** Per column, |T| observed and the tie tolerance. */
  observed: Float64Array
  tol: Float64Array
  states: Uint32Array
  /** out[block * k + c]: patterns of the block with |T*| >= |T| - tol, column c. */
  out: Float64Array
}

export type KernelJob = BootstrapJob | FlipJob

export interface Kernels {
  /** Computes one unit of a job into its slots of job.out. */
  runUnit(job: KernelJob, unit: number): void
}

/**
 * The kernels, built from nothing but this function's body (see the module comment: keep it self-contained).
 * Local bindings of Math: a global lookup per call is slow in some hosts (Jest's vm context: 100x).
 */
export function statsKernels(): Kernels {
  const imul = Math.imul
  const abs = Math.abs
  const min = Math.min
  /** 2^-32: maps a uint32 r to an index floor(r * m / 2^32) in [0, m) (multiply-shift, Lemire). */
  const twoPowMinus32 = 2.3283064365386963e-10

  /** 1 column of a block (columns g .. g + 0), accumulated in locals. Generated code: keep the kernels identical but for their width. */
  function kernel1(v: Float64Array, counts: Float64Array | null, starts: Int32Array, sizes: Int32Array, weights: Float64Array, state: Uint32Array, from: number, to: number, total: number, flat: Float64Array, g: number): void {
    let s0 = state[0] | 0
    let s1 = state[1] | 0
    let s2 = state[2] | 0
    let s3 = state[3] | 0
    for (let b = from; b < to; b++) {
      let e0 = 0
      for (let si = 0; si < sizes.length; si++) {
        const size = sizes[si]
        const start = starts[si]
      // size · 2^-32 is exact, so r · scale is the same double as r · size · 2^-32.
      const scale = size * twoPowMinus32
        let a0 = 0
        let denom = size
        if (counts === null) {
          for (let j = 0; j < size; j++) {
            const x = imul(s1, 5)
            const r = imul((x << 7) | (x >>> 25), 9) >>> 0
            const t = s1 << 9
            s2 ^= s0
            s3 ^= s1
            s1 ^= s2
            s0 ^= s3
            s2 ^= t
            s3 = (s3 << 11) | (s3 >>> 21)
            const u = start + ((r * scale) | 0)
            const base = u
            a0 += v[base]
          }
        } else {
          denom = 0
          for (let j = 0; j < size; j++) {
            const x = imul(s1, 5)
            const r = imul((x << 7) | (x >>> 25), 9) >>> 0
            const t = s1 << 9
            s2 ^= s0
            s3 ^= s1
            s1 ^= s2
            s0 ^= s3
            s2 ^= t
            s3 = (s3 << 11) | (s3 >>> 21)
            const u = start + ((r * scale) | 0)
            const base = u
            a0 += v[base]
            denom += counts[u]
          }
        }
        const w = weights[si]
        e0 += (w * a0) / denom
      }
      flat[g * total + b] = e0
    }
  }

  /** 2 columns of a block (columns g .. g + 1), accumulated in locals. Generated code: keep the kernels identical but for their width. */
  function kernel2(v: Float64Array, counts: Float64Array | null, starts: Int32Array, sizes: Int32Array, weights: Float64Array, state: Uint32Array, from: number, to: number, total: number, flat: Float64Array, g: number): void {
    let s0 = state[0] | 0
    let s1 = state[1] | 0
    let s2 = state[2] | 0
    let s3 = state[3] | 0
    for (let b = from; b < to; b++) {
      let e0 = 0, e1 = 0
      for (let si = 0; si < sizes.length; si++) {
        const size = sizes[si]
        const start = starts[si]
      // size · 2^-32 is exact, so r · scale is the same double as r · size · 2^-32.
      const scale = size * twoPowMinus32
        let a0 = 0, a1 = 0
        let denom = size
        if (counts === null) {
          for (let j = 0; j < size; j++) {
            const x = imul(s1, 5)
            const r = imul((x << 7) | (x >>> 25), 9) >>> 0
            const t = s1 << 9
            s2 ^= s0
            s3 ^= s1
            s1 ^= s2
            s0 ^= s3
            s2 ^= t
            s3 = (s3 << 11) | (s3 >>> 21)
            const u = start + ((r * scale) | 0)
            const base = u * 2
            a0 += v[base]
            a1 += v[base + 1]
          }
        } else {
          denom = 0
          for (let j = 0; j < size; j++) {
            const x = imul(s1, 5)
            const r = imul((x << 7) | (x >>> 25), 9) >>> 0
            const t = s1 << 9
            s2 ^= s0
            s3 ^= s1
            s1 ^= s2
            s0 ^= s3
            s2 ^= t
            s3 = (s3 << 11) | (s3 >>> 21)
            const u = start + ((r * scale) | 0)
            const base = u * 2
            a0 += v[base]
            a1 += v[base + 1]
            denom += counts[u]
          }
        }
        const w = weights[si]
        e0 += (w * a0) / denom
        e1 += (w * a1) / denom
      }
      flat[g * total + b] = e0
      flat[(g + 1) * total + b] = e1
    }
  }

  /** 3 columns of a block (columns g .. g + 2), accumulated in locals. Generated code: keep the kernels identical but for their width. */
  function kernel3(v: Float64Array, counts: Float64Array | null, starts: Int32Array, sizes: Int32Array, weights: Float64Array, state: Uint32Array, from: number, to: number, total: number, flat: Float64Array, g: number): void {
    let s0 = state[0] | 0
    let s1 = state[1] | 0
    let s2 = state[2] | 0
    let s3 = state[3] | 0
    for (let b = from; b < to; b++) {
      let e0 = 0, e1 = 0, e2 = 0
      for (let si = 0; si < sizes.length; si++) {
        const size = sizes[si]
        const start = starts[si]
      // size · 2^-32 is exact, so r · scale is the same double as r · size · 2^-32.
      const scale = size * twoPowMinus32
        let a0 = 0, a1 = 0, a2 = 0
        let denom = size
        if (counts === null) {
          for (let j = 0; j < size; j++) {
            const x = imul(s1, 5)
            const r = imul((x << 7) | (x >>> 25), 9) >>> 0
            const t = s1 << 9
            s2 ^= s0
            s3 ^= s1
            s1 ^= s2
            s0 ^= s3
            s2 ^= t
            s3 = (s3 << 11) | (s3 >>> 21)
            const u = start + ((r * scale) | 0)
            const base = u * 3
            a0 += v[base]
            a1 += v[base + 1]
            a2 += v[base + 2]
          }
        } else {
          denom = 0
          for (let j = 0; j < size; j++) {
            const x = imul(s1, 5)
            const r = imul((x << 7) | (x >>> 25), 9) >>> 0
            const t = s1 << 9
            s2 ^= s0
            s3 ^= s1
            s1 ^= s2
            s0 ^= s3
            s2 ^= t
            s3 = (s3 << 11) | (s3 >>> 21)
            const u = start + ((r * scale) | 0)
            const base = u * 3
            a0 += v[base]
            a1 += v[base + 1]
            a2 += v[base + 2]
            denom += counts[u]
          }
        }
        const w = weights[si]
        e0 += (w * a0) / denom
        e1 += (w * a1) / denom
        e2 += (w * a2) / denom
      }
      flat[g * total + b] = e0
      flat[(g + 1) * total + b] = e1
      flat[(g + 2) * total + b] = e2
    }
  }

  /** 4 columns of a block (columns g .. g + 3), accumulated in locals. Generated code: keep the kernels identical but for their width. */
  function kernel4(v: Float64Array, counts: Float64Array | null, starts: Int32Array, sizes: Int32Array, weights: Float64Array, state: Uint32Array, from: number, to: number, total: number, flat: Float64Array, g: number): void {
    let s0 = state[0] | 0
    let s1 = state[1] | 0
    let s2 = state[2] | 0
    let s3 = state[3] | 0
    for (let b = from; b < to; b++) {
      let e0 = 0, e1 = 0, e2 = 0, e3 = 0
      for (let si = 0; si < sizes.length; si++) {
        const size = sizes[si]
        const start = starts[si]
      // size · 2^-32 is exact, so r · scale is the same double as r · size · 2^-32.
      const scale = size * twoPowMinus32
        let a0 = 0, a1 = 0, a2 = 0, a3 = 0
        let denom = size
        if (counts === null) {
          for (let j = 0; j < size; j++) {
            const x = imul(s1, 5)
            const r = imul((x << 7) | (x >>> 25), 9) >>> 0
            const t = s1 << 9
            s2 ^= s0
            s3 ^= s1
            s1 ^= s2
            s0 ^= s3
            s2 ^= t
            s3 = (s3 << 11) | (s3 >>> 21)
            const u = start + ((r * scale) | 0)
            const base = u * 4
            a0 += v[base]
            a1 += v[base + 1]
            a2 += v[base + 2]
            a3 += v[base + 3]
          }
        } else {
          denom = 0
          for (let j = 0; j < size; j++) {
            const x = imul(s1, 5)
            const r = imul((x << 7) | (x >>> 25), 9) >>> 0
            const t = s1 << 9
            s2 ^= s0
            s3 ^= s1
            s1 ^= s2
            s0 ^= s3
            s2 ^= t
            s3 = (s3 << 11) | (s3 >>> 21)
            const u = start + ((r * scale) | 0)
            const base = u * 4
            a0 += v[base]
            a1 += v[base + 1]
            a2 += v[base + 2]
            a3 += v[base + 3]
            denom += counts[u]
          }
        }
        const w = weights[si]
        e0 += (w * a0) / denom
        e1 += (w * a1) / denom
        e2 += (w * a2) / denom
        e3 += (w * a3) / denom
      }
      flat[g * total + b] = e0
      flat[(g + 1) * total + b] = e1
      flat[(g + 2) * total + b] = e2
      flat[(g + 3) * total + b] = e3
    }
  }

  /** 5 columns of a block (columns g .. g + 4), accumulated in locals. Generated code: keep the kernels identical but for their width. */
  function kernel5(v: Float64Array, counts: Float64Array | null, starts: Int32Array, sizes: Int32Array, weights: Float64Array, state: Uint32Array, from: number, to: number, total: number, flat: Float64Array, g: number): void {
    let s0 = state[0] | 0
    let s1 = state[1] | 0
    let s2 = state[2] | 0
    let s3 = state[3] | 0
    for (let b = from; b < to; b++) {
      let e0 = 0, e1 = 0, e2 = 0, e3 = 0, e4 = 0
      for (let si = 0; si < sizes.length; si++) {
        const size = sizes[si]
        const start = starts[si]
      // size · 2^-32 is exact, so r · scale is the same double as r · size · 2^-32.
      const scale = size * twoPowMinus32
        let a0 = 0, a1 = 0, a2 = 0, a3 = 0, a4 = 0
        let denom = size
        if (counts === null) {
          for (let j = 0; j < size; j++) {
            const x = imul(s1, 5)
            const r = imul((x << 7) | (x >>> 25), 9) >>> 0
            const t = s1 << 9
            s2 ^= s0
            s3 ^= s1
            s1 ^= s2
            s0 ^= s3
            s2 ^= t
            s3 = (s3 << 11) | (s3 >>> 21)
            const u = start + ((r * scale) | 0)
            const base = u * 5
            a0 += v[base]
            a1 += v[base + 1]
            a2 += v[base + 2]
            a3 += v[base + 3]
            a4 += v[base + 4]
          }
        } else {
          denom = 0
          for (let j = 0; j < size; j++) {
            const x = imul(s1, 5)
            const r = imul((x << 7) | (x >>> 25), 9) >>> 0
            const t = s1 << 9
            s2 ^= s0
            s3 ^= s1
            s1 ^= s2
            s0 ^= s3
            s2 ^= t
            s3 = (s3 << 11) | (s3 >>> 21)
            const u = start + ((r * scale) | 0)
            const base = u * 5
            a0 += v[base]
            a1 += v[base + 1]
            a2 += v[base + 2]
            a3 += v[base + 3]
            a4 += v[base + 4]
            denom += counts[u]
          }
        }
        const w = weights[si]
        e0 += (w * a0) / denom
        e1 += (w * a1) / denom
        e2 += (w * a2) / denom
        e3 += (w * a3) / denom
        e4 += (w * a4) / denom
      }
      flat[g * total + b] = e0
      flat[(g + 1) * total + b] = e1
      flat[(g + 2) * total + b] = e2
      flat[(g + 3) * total + b] = e3
      flat[(g + 4) * total + b] = e4
    }
  }

  /** 6 columns of a block (columns g .. g + 5), accumulated in locals. Generated code: keep the kernels identical but for their width. */
  function kernel6(v: Float64Array, counts: Float64Array | null, starts: Int32Array, sizes: Int32Array, weights: Float64Array, state: Uint32Array, from: number, to: number, total: number, flat: Float64Array, g: number): void {
    let s0 = state[0] | 0
    let s1 = state[1] | 0
    let s2 = state[2] | 0
    let s3 = state[3] | 0
    for (let b = from; b < to; b++) {
      let e0 = 0, e1 = 0, e2 = 0, e3 = 0, e4 = 0, e5 = 0
      for (let si = 0; si < sizes.length; si++) {
        const size = sizes[si]
        const start = starts[si]
      // size · 2^-32 is exact, so r · scale is the same double as r · size · 2^-32.
      const scale = size * twoPowMinus32
        let a0 = 0, a1 = 0, a2 = 0, a3 = 0, a4 = 0, a5 = 0
        let denom = size
        if (counts === null) {
          for (let j = 0; j < size; j++) {
            const x = imul(s1, 5)
            const r = imul((x << 7) | (x >>> 25), 9) >>> 0
            const t = s1 << 9
            s2 ^= s0
            s3 ^= s1
            s1 ^= s2
            s0 ^= s3
            s2 ^= t
            s3 = (s3 << 11) | (s3 >>> 21)
            const u = start + ((r * scale) | 0)
            const base = u * 6
            a0 += v[base]
            a1 += v[base + 1]
            a2 += v[base + 2]
            a3 += v[base + 3]
            a4 += v[base + 4]
            a5 += v[base + 5]
          }
        } else {
          denom = 0
          for (let j = 0; j < size; j++) {
            const x = imul(s1, 5)
            const r = imul((x << 7) | (x >>> 25), 9) >>> 0
            const t = s1 << 9
            s2 ^= s0
            s3 ^= s1
            s1 ^= s2
            s0 ^= s3
            s2 ^= t
            s3 = (s3 << 11) | (s3 >>> 21)
            const u = start + ((r * scale) | 0)
            const base = u * 6
            a0 += v[base]
            a1 += v[base + 1]
            a2 += v[base + 2]
            a3 += v[base + 3]
            a4 += v[base + 4]
            a5 += v[base + 5]
            denom += counts[u]
          }
        }
        const w = weights[si]
        e0 += (w * a0) / denom
        e1 += (w * a1) / denom
        e2 += (w * a2) / denom
        e3 += (w * a3) / denom
        e4 += (w * a4) / denom
        e5 += (w * a5) / denom
      }
      flat[g * total + b] = e0
      flat[(g + 1) * total + b] = e1
      flat[(g + 2) * total + b] = e2
      flat[(g + 3) * total + b] = e3
      flat[(g + 4) * total + b] = e4
      flat[(g + 5) * total + b] = e5
    }
  }

  /** 7 columns of a block (columns g .. g + 6), accumulated in locals. Generated code: keep the kernels identical but for their width. */
  function kernel7(v: Float64Array, counts: Float64Array | null, starts: Int32Array, sizes: Int32Array, weights: Float64Array, state: Uint32Array, from: number, to: number, total: number, flat: Float64Array, g: number): void {
    let s0 = state[0] | 0
    let s1 = state[1] | 0
    let s2 = state[2] | 0
    let s3 = state[3] | 0
    for (let b = from; b < to; b++) {
      let e0 = 0, e1 = 0, e2 = 0, e3 = 0, e4 = 0, e5 = 0, e6 = 0
      for (let si = 0; si < sizes.length; si++) {
        const size = sizes[si]
        const start = starts[si]
      // size · 2^-32 is exact, so r · scale is the same double as r · size · 2^-32.
      const scale = size * twoPowMinus32
        let a0 = 0, a1 = 0, a2 = 0, a3 = 0, a4 = 0, a5 = 0, a6 = 0
        let denom = size
        if (counts === null) {
          for (let j = 0; j < size; j++) {
            const x = imul(s1, 5)
            const r = imul((x << 7) | (x >>> 25), 9) >>> 0
            const t = s1 << 9
            s2 ^= s0
            s3 ^= s1
            s1 ^= s2
            s0 ^= s3
            s2 ^= t
            s3 = (s3 << 11) | (s3 >>> 21)
            const u = start + ((r * scale) | 0)
            const base = u * 7
            a0 += v[base]
            a1 += v[base + 1]
            a2 += v[base + 2]
            a3 += v[base + 3]
            a4 += v[base + 4]
            a5 += v[base + 5]
            a6 += v[base + 6]
          }
        } else {
          denom = 0
          for (let j = 0; j < size; j++) {
            const x = imul(s1, 5)
            const r = imul((x << 7) | (x >>> 25), 9) >>> 0
            const t = s1 << 9
            s2 ^= s0
            s3 ^= s1
            s1 ^= s2
            s0 ^= s3
            s2 ^= t
            s3 = (s3 << 11) | (s3 >>> 21)
            const u = start + ((r * scale) | 0)
            const base = u * 7
            a0 += v[base]
            a1 += v[base + 1]
            a2 += v[base + 2]
            a3 += v[base + 3]
            a4 += v[base + 4]
            a5 += v[base + 5]
            a6 += v[base + 6]
            denom += counts[u]
          }
        }
        const w = weights[si]
        e0 += (w * a0) / denom
        e1 += (w * a1) / denom
        e2 += (w * a2) / denom
        e3 += (w * a3) / denom
        e4 += (w * a4) / denom
        e5 += (w * a5) / denom
        e6 += (w * a6) / denom
      }
      flat[g * total + b] = e0
      flat[(g + 1) * total + b] = e1
      flat[(g + 2) * total + b] = e2
      flat[(g + 3) * total + b] = e3
      flat[(g + 4) * total + b] = e4
      flat[(g + 5) * total + b] = e5
      flat[(g + 6) * total + b] = e6
    }
  }

  /** 8 columns of a block (columns g .. g + 7), accumulated in locals. Generated code: keep the kernels identical but for their width. */
  function kernel8(v: Float64Array, counts: Float64Array | null, starts: Int32Array, sizes: Int32Array, weights: Float64Array, state: Uint32Array, from: number, to: number, total: number, flat: Float64Array, g: number): void {
    let s0 = state[0] | 0
    let s1 = state[1] | 0
    let s2 = state[2] | 0
    let s3 = state[3] | 0
    for (let b = from; b < to; b++) {
      let e0 = 0, e1 = 0, e2 = 0, e3 = 0, e4 = 0, e5 = 0, e6 = 0, e7 = 0
      for (let si = 0; si < sizes.length; si++) {
        const size = sizes[si]
        const start = starts[si]
      // size · 2^-32 is exact, so r · scale is the same double as r · size · 2^-32.
      const scale = size * twoPowMinus32
        let a0 = 0, a1 = 0, a2 = 0, a3 = 0, a4 = 0, a5 = 0, a6 = 0, a7 = 0
        let denom = size
        if (counts === null) {
          for (let j = 0; j < size; j++) {
            const x = imul(s1, 5)
            const r = imul((x << 7) | (x >>> 25), 9) >>> 0
            const t = s1 << 9
            s2 ^= s0
            s3 ^= s1
            s1 ^= s2
            s0 ^= s3
            s2 ^= t
            s3 = (s3 << 11) | (s3 >>> 21)
            const u = start + ((r * scale) | 0)
            const base = u * 8
            a0 += v[base]
            a1 += v[base + 1]
            a2 += v[base + 2]
            a3 += v[base + 3]
            a4 += v[base + 4]
            a5 += v[base + 5]
            a6 += v[base + 6]
            a7 += v[base + 7]
          }
        } else {
          denom = 0
          for (let j = 0; j < size; j++) {
            const x = imul(s1, 5)
            const r = imul((x << 7) | (x >>> 25), 9) >>> 0
            const t = s1 << 9
            s2 ^= s0
            s3 ^= s1
            s1 ^= s2
            s0 ^= s3
            s2 ^= t
            s3 = (s3 << 11) | (s3 >>> 21)
            const u = start + ((r * scale) | 0)
            const base = u * 8
            a0 += v[base]
            a1 += v[base + 1]
            a2 += v[base + 2]
            a3 += v[base + 3]
            a4 += v[base + 4]
            a5 += v[base + 5]
            a6 += v[base + 6]
            a7 += v[base + 7]
            denom += counts[u]
          }
        }
        const w = weights[si]
        e0 += (w * a0) / denom
        e1 += (w * a1) / denom
        e2 += (w * a2) / denom
        e3 += (w * a3) / denom
        e4 += (w * a4) / denom
        e5 += (w * a5) / denom
        e6 += (w * a6) / denom
        e7 += (w * a7) / denom
      }
      flat[g * total + b] = e0
      flat[(g + 1) * total + b] = e1
      flat[(g + 2) * total + b] = e2
      flat[(g + 3) * total + b] = e3
      flat[(g + 4) * total + b] = e4
      flat[(g + 5) * total + b] = e5
      flat[(g + 6) * total + b] = e6
      flat[(g + 7) * total + b] = e7
    }
  }

  const KERNELS = [kernel1, kernel1, kernel2, kernel3, kernel4, kernel5, kernel6, kernel7, kernel8]

  function bootstrapUnit(job: BootstrapJob, unit: number): void {
    const gi = (unit / job.blocks) | 0
    const block = unit - gi * job.blocks
    const g = gi * 8
    const width = min(8, job.k - g)
    const from = block * job.block
    const to = min(job.resamples, from + job.block)
    const state = job.states.subarray(block * 4, block * 4 + 4)
    KERNELS[width](job.vs[gi], job.counts, job.starts, job.sizes, job.weights, state, from, to, job.resamples, job.out, g)
  }

  /**
   * One block of sign patterns: 32 signs per uint32 (shared by every column), units taken four at a time
   * through the 16-entry tables, column by column (each column's table stays in cache). Four patterns are
   * summed side by side, each in its own scalar accumulator and in the same group order as one at a time:
   * the same bits, but four independent chains of additions instead of one (a single chain waits on the
   * latency of every addition).
   */
  function flipUnit(job: FlipJob, block: number): void {
    const { k, groups, observed, tol, out } = job
    const words = Math.ceil(groups / 8)
    const full = groups >>> 3
    const signs = new Int32Array(4 * words)
    const tables: Float64Array[] = []
    for (let c = 0; c < k; c++) tables.push(job.tables.subarray(c * groups * 16, (c + 1) * groups * 16))
    const hits = new Float64Array(k)
    const state = job.states
    let s0 = state[block * 4] | 0
    let s1 = state[block * 4 + 1] | 0
    let s2 = state[block * 4 + 2] | 0
    let s3 = state[block * 4 + 3] | 0
    const p0 = block * job.block
    const to = min(job.permutations, p0 + job.block)
    for (let p = p0; p < to; p += 4) {
      const n = min(4, to - p)
      // The signs of patterns p .. p + n - 1, in stream order.
      for (let w = 0; w < n * words; w++) {
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
        const table = tables[c]
        const limit = observed[c] - tol[c]
        if (n === 4) {
          let t0 = 0
          let t1 = 0
          let t2 = 0
          let t3 = 0
          let g = 0
          for (let w = 0; w < full; w++, g += 8) {
            const b0 = signs[w]
            const b1 = signs[words + w]
            const b2 = signs[2 * words + w]
            const b3 = signs[3 * words + w]
            for (let j = 0; j < 8; j++) {
              const row = (g + j) << 4
              const sh = j << 2
              t0 += table[row | ((b0 >>> sh) & 15)]
              t1 += table[row | ((b1 >>> sh) & 15)]
              t2 += table[row | ((b2 >>> sh) & 15)]
              t3 += table[row | ((b3 >>> sh) & 15)]
            }
          }
          for (; g < groups; g++) {
            const row = g << 4
            const sh = (g & 7) << 2
            const w = g >>> 3
            t0 += table[row | ((signs[w] >>> sh) & 15)]
            t1 += table[row | ((signs[words + w] >>> sh) & 15)]
            t2 += table[row | ((signs[2 * words + w] >>> sh) & 15)]
            t3 += table[row | ((signs[3 * words + w] >>> sh) & 15)]
          }
          if (abs(t0) >= limit) hits[c]++
          if (abs(t1) >= limit) hits[c]++
          if (abs(t2) >= limit) hits[c]++
          if (abs(t3) >= limit) hits[c]++
        } else {
          for (let i = 0; i < n; i++) {
            let t = 0
            for (let g = 0; g < groups; g++) t += table[(g << 4) | ((signs[i * words + (g >>> 3)] >>> ((g & 7) << 2)) & 15)]
            if (abs(t) >= limit) hits[c]++
          }
        }
      }
    }
    for (let c = 0; c < k; c++) out[block * k + c] = hits[c]
  }

  return {
    runUnit(job: KernelJob, unit: number): void {
      if (job.kind === 'bootstrap') bootstrapUnit(job, unit)
      else flipUnit(job, unit)
    }
  }
}

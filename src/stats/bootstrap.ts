import type { Design, Stratum } from './design.js'
import { BLOCK, TWO_POW_MINUS_32, blockState } from './rng.js'

/** Local bindings: a global lookup of Math per call is slow in some hosts (Jest's vm context: 100x). */
const { imul } = Math

/**
 * The bootstrap distribution of every column's estimate under one shared resampling plan: per resample,
 * units are drawn with replacement within each stratum (queries, or whole clusters) and every column is
 * accumulated in the same pass over a row-major typed array, one local accumulator per column. Returns per column the resampled estimates
 * sorted ascending (any quantile, hence any confidence level, is read from them).
 *
 * Speed: the generator (xoshiro128**) is inlined, indices come from one uint32 by multiply-shift
 * (floor(r·size / 2^32); its bias is below size / 2^32, about 2e-6 for 7,000 queries), and nothing is
 * allocated per resample. Resamples are made in blocks of {@link BLOCK}, each with its own stream derived
 * from (seed, stream, block), so the bytes do not depend on scheduling.
 */
export function bootstrapDistribution(design: Design, resamples: number, seed: string, stream: string): Float64Array[] {
  const { k } = design
  const flat = new Float64Array(k * resamples)
  if (design.units === 0) flat.fill(Number.NaN)
  else {
    // Columns in groups of at most 8, each by the kernel of its exact width; every group replays the same block streams.
    for (let g = 0; g < k; g += 8) {
      const width = Math.min(8, k - g)
      const v = columnsOf(design, g, width)
      const kernel = KERNELS[width]
      for (let b0 = 0, block = 0; b0 < resamples; b0 += BLOCK, block++) {
        kernel(v, design.counts, design.strata, blockState(seed, stream, block), b0, Math.min(resamples, b0 + BLOCK), resamples, flat, g)
      }
    }
  }
  const out: Float64Array[] = []
  for (let c = 0; c < k; c++) out.push(flat.subarray(c * resamples, (c + 1) * resamples).sort())
  return out
}

/** Columns [g, g + width) of the design's row-major values as their own row-major array (one cache line per drawn unit). */
function columnsOf(design: Design, g: number, width: number): Float64Array {
  const { k, units, values } = design
  if (g === 0 && width === k) return values
  const out = new Float64Array(units * width)
  for (let u = 0; u < units; u++) for (let c = 0; c < width; c++) out[u * width + c] = values[u * k + g + c]
  return out
}

/** 1 column of a block (columns g .. g + 0), accumulated in locals. Generated code: keep the kernels identical but for their width. */
function kernel1(v: Float64Array, counts: Float64Array | null, strata: Stratum[], state: Uint32Array, from: number, to: number, total: number, flat: Float64Array, g: number): void {
  let s0 = state[0] | 0
  let s1 = state[1] | 0
  let s2 = state[2] | 0
  let s3 = state[3] | 0
  for (let b = from; b < to; b++) {
    let e0 = 0
    for (let si = 0; si < strata.length; si++) {
      const st = strata[si]
      const size = st.size
      const start = st.start
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
          const u = start + ((r * size * TWO_POW_MINUS_32) | 0)
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
          const u = start + ((r * size * TWO_POW_MINUS_32) | 0)
          const base = u
          a0 += v[base]
          denom += counts[u]
        }
      }
      const w = st.weight
      e0 += (w * a0) / denom
    }
    flat[g * total + b] = e0
  }
}

/** 2 columns of a block (columns g .. g + 1), accumulated in locals. Generated code: keep the kernels identical but for their width. */
function kernel2(v: Float64Array, counts: Float64Array | null, strata: Stratum[], state: Uint32Array, from: number, to: number, total: number, flat: Float64Array, g: number): void {
  let s0 = state[0] | 0
  let s1 = state[1] | 0
  let s2 = state[2] | 0
  let s3 = state[3] | 0
  for (let b = from; b < to; b++) {
    let e0 = 0, e1 = 0
    for (let si = 0; si < strata.length; si++) {
      const st = strata[si]
      const size = st.size
      const start = st.start
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
          const u = start + ((r * size * TWO_POW_MINUS_32) | 0)
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
          const u = start + ((r * size * TWO_POW_MINUS_32) | 0)
          const base = u * 2
          a0 += v[base]
          a1 += v[base + 1]
          denom += counts[u]
        }
      }
      const w = st.weight
      e0 += (w * a0) / denom
      e1 += (w * a1) / denom
    }
    flat[g * total + b] = e0
    flat[(g + 1) * total + b] = e1
  }
}

/** 3 columns of a block (columns g .. g + 2), accumulated in locals. Generated code: keep the kernels identical but for their width. */
function kernel3(v: Float64Array, counts: Float64Array | null, strata: Stratum[], state: Uint32Array, from: number, to: number, total: number, flat: Float64Array, g: number): void {
  let s0 = state[0] | 0
  let s1 = state[1] | 0
  let s2 = state[2] | 0
  let s3 = state[3] | 0
  for (let b = from; b < to; b++) {
    let e0 = 0, e1 = 0, e2 = 0
    for (let si = 0; si < strata.length; si++) {
      const st = strata[si]
      const size = st.size
      const start = st.start
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
          const u = start + ((r * size * TWO_POW_MINUS_32) | 0)
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
          const u = start + ((r * size * TWO_POW_MINUS_32) | 0)
          const base = u * 3
          a0 += v[base]
          a1 += v[base + 1]
          a2 += v[base + 2]
          denom += counts[u]
        }
      }
      const w = st.weight
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
function kernel4(v: Float64Array, counts: Float64Array | null, strata: Stratum[], state: Uint32Array, from: number, to: number, total: number, flat: Float64Array, g: number): void {
  let s0 = state[0] | 0
  let s1 = state[1] | 0
  let s2 = state[2] | 0
  let s3 = state[3] | 0
  for (let b = from; b < to; b++) {
    let e0 = 0, e1 = 0, e2 = 0, e3 = 0
    for (let si = 0; si < strata.length; si++) {
      const st = strata[si]
      const size = st.size
      const start = st.start
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
          const u = start + ((r * size * TWO_POW_MINUS_32) | 0)
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
          const u = start + ((r * size * TWO_POW_MINUS_32) | 0)
          const base = u * 4
          a0 += v[base]
          a1 += v[base + 1]
          a2 += v[base + 2]
          a3 += v[base + 3]
          denom += counts[u]
        }
      }
      const w = st.weight
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
function kernel5(v: Float64Array, counts: Float64Array | null, strata: Stratum[], state: Uint32Array, from: number, to: number, total: number, flat: Float64Array, g: number): void {
  let s0 = state[0] | 0
  let s1 = state[1] | 0
  let s2 = state[2] | 0
  let s3 = state[3] | 0
  for (let b = from; b < to; b++) {
    let e0 = 0, e1 = 0, e2 = 0, e3 = 0, e4 = 0
    for (let si = 0; si < strata.length; si++) {
      const st = strata[si]
      const size = st.size
      const start = st.start
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
          const u = start + ((r * size * TWO_POW_MINUS_32) | 0)
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
          const u = start + ((r * size * TWO_POW_MINUS_32) | 0)
          const base = u * 5
          a0 += v[base]
          a1 += v[base + 1]
          a2 += v[base + 2]
          a3 += v[base + 3]
          a4 += v[base + 4]
          denom += counts[u]
        }
      }
      const w = st.weight
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
function kernel6(v: Float64Array, counts: Float64Array | null, strata: Stratum[], state: Uint32Array, from: number, to: number, total: number, flat: Float64Array, g: number): void {
  let s0 = state[0] | 0
  let s1 = state[1] | 0
  let s2 = state[2] | 0
  let s3 = state[3] | 0
  for (let b = from; b < to; b++) {
    let e0 = 0, e1 = 0, e2 = 0, e3 = 0, e4 = 0, e5 = 0
    for (let si = 0; si < strata.length; si++) {
      const st = strata[si]
      const size = st.size
      const start = st.start
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
          const u = start + ((r * size * TWO_POW_MINUS_32) | 0)
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
          const u = start + ((r * size * TWO_POW_MINUS_32) | 0)
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
      const w = st.weight
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
function kernel7(v: Float64Array, counts: Float64Array | null, strata: Stratum[], state: Uint32Array, from: number, to: number, total: number, flat: Float64Array, g: number): void {
  let s0 = state[0] | 0
  let s1 = state[1] | 0
  let s2 = state[2] | 0
  let s3 = state[3] | 0
  for (let b = from; b < to; b++) {
    let e0 = 0, e1 = 0, e2 = 0, e3 = 0, e4 = 0, e5 = 0, e6 = 0
    for (let si = 0; si < strata.length; si++) {
      const st = strata[si]
      const size = st.size
      const start = st.start
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
          const u = start + ((r * size * TWO_POW_MINUS_32) | 0)
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
          const u = start + ((r * size * TWO_POW_MINUS_32) | 0)
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
      const w = st.weight
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
function kernel8(v: Float64Array, counts: Float64Array | null, strata: Stratum[], state: Uint32Array, from: number, to: number, total: number, flat: Float64Array, g: number): void {
  let s0 = state[0] | 0
  let s1 = state[1] | 0
  let s2 = state[2] | 0
  let s3 = state[3] | 0
  for (let b = from; b < to; b++) {
    let e0 = 0, e1 = 0, e2 = 0, e3 = 0, e4 = 0, e5 = 0, e6 = 0, e7 = 0
    for (let si = 0; si < strata.length; si++) {
      const st = strata[si]
      const size = st.size
      const start = st.start
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
          const u = start + ((r * size * TWO_POW_MINUS_32) | 0)
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
          const u = start + ((r * size * TWO_POW_MINUS_32) | 0)
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
      const w = st.weight
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

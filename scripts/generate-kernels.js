// Writes src/stats/kernels.ts, the numeric kernels of the statistics, from the templates below.
//
// Why generated: the bootstrap's inner loop keeps one local accumulator variable per column (a0, a1, ...),
// chosen for speed over an array of accumulators (docs/statistics.md). So there is one kernel per
// column-group width 1 .. MAX_WIDTH, identical but for their width, and writing them by hand lets one width
// drift from the others. Everything else in the file (the job types, the dispatch, the sign-flip kernel) is
// written out here once, as it appears in the output.
//
// Usage: `npm run generate:kernels` (writes the file) or `node scripts/generate-kernels.js --stdout` (prints
// it; the test __tests__/stats/kernels-generated.test.ts compares that with the committed file, so a hand
// edit of src/stats/kernels.ts, or a generator change without regenerating, fails `npm test`).
// Plain Node, no dependency. The output follows the repository's style (2 spaces, single quotes, no
// semicolons, long lines as in the rest of src/). A formatter must either leave the file alone (list it in
// its ignore file) or the templates here must emit its style: otherwise the two undo each other.
import { writeFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { ACC, CHUNK, KEYS2, poissonModule, VALUES } from './wasm-poisson.js'

/**
 * Widest column group. src/stats/bootstrap.ts cuts the columns into groups of at most this many
 * (`Math.min(8, k - g)`): change both together.
 */
const MAX_WIDTH = 8

/**
 * Widest column group of the Poisson kernel: two resamples per unit (one hash gives both weights), each with a
 * local per column and one for the weights' sum, so 2 · (width + 1) locals; wider groups spill them to memory.
 */
const MAX_POISSON_WIDTH = 6

/**
 * Units summed into one partial sum of a Poisson resample before it is added to the resample's total: the values
 * of a chunk stay in the first-level cache across the block's resamples. A constant, so the order of the
 * additions (hence every bit) does not depend on the number of threads or on the block size.
 */
const POISSON_CHUNK = 512

/** The hash of src/stats/poisson-weights.ts, inlined: x from the unit's keys k1, k2, the seed key and jj = j · step. */
function hashLines(pad, k1, k2) {
  return [
    `let x = ((${k1} ^ seed) + jj) | 0`,
    'x ^= x >>> 16',
    'x = imul(x, 0x85ebca6b)',
    'x ^= x >>> 13',
    `x = imul(x ^ ${k2}, 0xc2b2ae35)`,
    'x ^= x >>> 16'
  ].map((line) => pad + line)
}

const OUTPUT = 'src/stats/kernels.ts'

/** 0 .. n - 1. */
const range = (n) => Array.from({ length: n }, (_, i) => i)

/** Column c's offset from the drawn unit's first value: `base` for column 0, `base + c` after. */
const at = (c) => (c === 0 ? 'base' : `base + ${c}`)

/** The output slot of column g + c of resample b. */
const slot = (c) => (c === 0 ? 'g * total + b' : `(g + ${c}) * total + b`)

/** One xoshiro128** step, inlined: r is the output, the state (s0 .. s3) advances. Indented by `pad`. */
function xoshiroStep(pad) {
  return [
    'const x = imul(s1, 5)',
    'const r = imul((x << 7) | (x >>> 25), 9) >>> 0',
    'const t = s1 << 9',
    's2 ^= s0',
    's3 ^= s1',
    's1 ^= s2',
    's0 ^= s3',
    's2 ^= t',
    's3 = (s3 << 11) | (s3 >>> 21)'
  ].map((line) => pad + line)
}

/**
 * The kernel of width w: columns g .. g + w - 1 of blocks' resamples from..to. Per resample, per stratum,
 * `size` units are drawn (multiply-shift of one uint32) and each column's drawn values are added in draw
 * order into its own local; the stratum's term is weight · sum / denominator (its size, or the drawn
 * queries when `counts` is given), added to the estimate in stratum order.
 */
function kernel(w) {
  const cols = range(w)
  const list = (name) => cols.map((c) => `${name}${c} = 0`).join(', ')
  const pad12 = '            '
  const draw = (withCounts) => [
    ...xoshiroStep(pad12),
    `${pad12}const u = start + ((r * scale) | 0)`,
    `${pad12}const base = ${w === 1 ? 'u' : `u * ${w}`}`,
    ...cols.map((c) => `${pad12}a${c} += v[${at(c)}]`),
    ...(withCounts ? [`${pad12}denom += counts[u]`] : [])
  ]
  return [
    `  /** ${w} column${w === 1 ? '' : 's'} of a block (columns g .. g + ${w - 1}), one local accumulator per column. */`,
    `  function kernel${w}(v: Float64Array, counts: Float64Array | null, starts: Int32Array, sizes: Int32Array, weights: Float64Array, state: Uint32Array, from: number, to: number, total: number, flat: Float64Array, g: number): void {`,
    '    let s0 = state[0] | 0',
    '    let s1 = state[1] | 0',
    '    let s2 = state[2] | 0',
    '    let s3 = state[3] | 0',
    '    for (let b = from; b < to; b++) {',
    `      let ${list('e')}`,
    '      for (let si = 0; si < sizes.length; si++) {',
    '        const size = sizes[si]',
    '        const start = starts[si]',
    '        // size · 2^-32 is exact, so r · scale is the same double as r · size · 2^-32.',
    '        const scale = size * twoPowMinus32',
    `        let ${list('a')}`,
    '        let denom = size',
    '        if (counts === null) {',
    '          for (let j = 0; j < size; j++) {',
    ...draw(false),
    '          }',
    '        } else {',
    '          denom = 0',
    '          for (let j = 0; j < size; j++) {',
    ...draw(true),
    '          }',
    '        }',
    '        const w = weights[si]',
    ...cols.map((c) => `        e${c} += (w * a${c}) / denom`),
    '      }',
    ...cols.map((c) => `      flat[${slot(c)}] = e${c}`),
    '    }',
    '  }'
  ].join('\n')
}

/**
 * The Poisson kernel of width w: columns g .. g + w - 1 of resamples from .. to (from even). Per stratum, per
 * chunk of {@link POISSON_CHUNK} units, per pair of resamples (2j, 2j + 1): one hash per unit gives both
 * weights, each column's weighted values and the weights (or weighted queries) are added in unit order into
 * locals, then into the pair's per-stratum sums; the stratum's term is weight · Σ w·v / Σ w·n, added to the
 * estimate in stratum order. A stratum whose weights are all 0 contributes weight · its observed estimate.
 */
function poissonKernel(w) {
  const cols = range(w)
  const even = (name) => cols.map((c) => `${name}${c} = 0`).join(', ')
  const pad = '              '
  const loop = (withCounts) => [
    '            for (let u = c0; u < c1; u++) {',
    ...hashLines(pad, 'keys1[u]', 'keys2[u]'),
    `${pad}let wa = WEIGHTS[(x >>> 4) & 4095]`,
    `${pad}if (wa < 0) wa = weightOf(x & 65535)`,
    `${pad}let wb = WEIGHTS[x >>> 20]`,
    `${pad}if (wb < 0) wb = weightOf(x >>> 16)`,
    `${pad}const base = ${w === 1 ? 'u' : `u * ${w}`}`,
    ...cols.map((c) => `${pad}const x${c} = v[${at(c)}]`),
    ...cols.map((c) => `${pad}a${c} += wa * x${c}`),
    ...cols.map((c) => `${pad}z${c} += wb * x${c}`),
    withCounts ? `${pad}ma += wa * counts[u]` : `${pad}ma += wa`,
    withCounts ? `${pad}mb += wb * counts[u]` : `${pad}mb += wb`,
    '            }'
  ]
  return [
    `  /** ${w} column${w === 1 ? '' : 's'} (g .. g + ${w - 1}) of Poisson-weighted resamples from .. to: see {@link PoissonJob}. */`,
    `  function poisson${w}(job: PoissonJob, v: Float64Array, g: number, from: number, to: number): void {`,
    '    const { keys1, keys2, counts, starts, sizes, weights, seed, means, out } = job',
    '    const total = job.resamples',
    '    const strata = sizes.length',
    '    const pairs = (to - from + 1) >> 1',
    '    const j0 = from >> 1',
    `    const stride = ${2 * (w + 1)}`,
    '    const acc = new Float64Array(pairs * stride)',
    ...cols.map((c) => `    for (let b = from; b < to; b++) out[${c === 0 ? 'g' : `(g + ${c})`} * total + b] = 0`),
    '    for (let si = 0; si < sizes.length; si++) {',
    '      const start = starts[si]',
    '      const end = start + sizes[si]',
    '      acc.fill(0)',
    `      for (let c0 = start; c0 < end; c0 += ${POISSON_CHUNK}) {`,
    `        const c1 = min(end, c0 + ${POISSON_CHUNK})`,
    '        for (let p = 0; p < pairs; p++) {',
    '          const jj = imul(j0 + p, 0x9e3779b9)',
    `          let ${even('a')}, ma = 0`,
    `          let ${even('z')}, mb = 0`,
    '          if (counts === null) {',
    ...loop(false),
    '          } else {',
    ...loop(true),
    '          }',
    '          const o = p * stride',
    ...cols.map((c) => `          acc[o${c === 0 ? '' : ` + ${c}`}] += a${c}`),
    `          acc[o + ${w}] += ma`,
    ...cols.map((c) => `          acc[o + ${w + 1 + c}] += z${c}`),
    `          acc[o + ${2 * w + 1}] += mb`,
    '        }',
    '      }',
    '      const sw = weights[si]',
    '      for (let p = 0; p < pairs; p++) {',
    '        const o = p * stride',
    '        const b = from + 2 * p',
    `        const na = acc[o + ${w}]`,
    ...cols.map(
      (c) =>
        `        out[${c === 0 ? 'g' : `(g + ${c})`} * total + b] += na > 0 ? (sw * acc[o${c === 0 ? '' : ` + ${c}`}]) / na : sw * means[${c === 0 ? 'g' : `(g + ${c})`} * strata + si]`
    ),
    '        if (b + 1 < to) {',
    `          const nb = acc[o + ${2 * w + 1}]`,
    ...cols.map(
      (c) =>
        `          out[${c === 0 ? 'g' : `(g + ${c})`} * total + b + 1] += nb > 0 ? (sw * acc[o + ${w + 1 + c}]) / nb : sw * means[${c === 0 ? 'g' : `(g + ${c})`} * strata + si]`
    ),
    '        }',
    '      }',
    '    }',
    '  }'
  ].join('\n')
}

const HEADER = `/**
 * GENERATED by scripts/generate-kernels.js (npm run generate:kernels): do not edit by hand. Change the
 * generator and regenerate; npm test fails when this file differs from the generator's output.
 *
 * The numeric kernels that may run on worker threads: the bootstrap's resampling blocks and the sign-flip
 * test's blocks of random sign patterns. {@link statsKernels} is self-contained on purpose (no import, no
 * reference outside its own body, only the built-ins Math and typed arrays): its source text is what a
 * worker thread evaluates (src/stats/threads.ts), so the main thread and every worker run the very same
 * code, and a unit of work gives the same bits wherever it runs.
 *
 * A job is cut into units; a unit writes only its own slots of \`out\`, so units may run in any order, on any
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
  /** Number of columns; groups of at most ${MAX_WIDTH} columns, group i holds columns [${MAX_WIDTH}i, ${MAX_WIDTH}i + width). */
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

/**
 * Resampling blocks of the bootstrap for columns with few distinct values (src/stats/bootstrap.ts): per
 * resample and stratum, the counts of the distinct values are one multinomial draw (conditional binomials),
 * the exact law of the drawn units' counts. Unit u = column floor(u / blocks), block u % blocks.
 */
export interface MultinomialJob {
  kind: 'multinomial'
  units: number
  work: number
  blocks: number
  block: number
  resamples: number
  /** Number of columns in the job. */
  k: number
  /** Per column, its distinct groups (stratum by stratum): value, units holding it, queries per unit (or 1). */
  values: Float64Array[]
  multiplicity: Float64Array[]
  queries: Float64Array[]
  /** Per column, the first group of each stratum and one past the last (strata + 1 entries). */
  offsets: Int32Array[]
  /** Per stratum: number of units and weight. */
  sizes: Int32Array
  weights: Float64Array
  /** True when the denominator is the drawn queries (query-weighted clusters), else the stratum's size. */
  ratio: boolean
  /** xoshiro128** state of each block of each column, 4 words per block: column c's block b at (c * blocks + b) * 4. */
  states: Uint32Array
  /** out[c * resamples + b] (unsorted). */
  out: Float64Array
}

/**
 * Blocks of random sign patterns of the sign-flip test for columns with few distinct |y| (src/stats/randomization.ts):
 * the m units holding one distinct value v add v · (2 · plus − m) to T, plus ~ binomial(m, ½) (the number of
 * plus signs among m fair, independent signs), so a pattern costs one draw per distinct value, exactly the law
 * of flipping every unit. Unit u = column floor(u / blocks), block u % blocks.
 */
export interface SignCountJob {
  kind: 'signcount'
  units: number
  work: number
  blocks: number
  block: number
  permutations: number
  k: number
  /** Per column, its distinct nonzero |y| in ascending order, and how many units hold each. */
  values: Float64Array[]
  multiplicity: Float64Array[]
  /** Per column, |T| observed and the tie tolerance. */
  observed: Float64Array
  tol: Float64Array
  /** xoshiro128** state of each block of each column: column c's block b at (c * blocks + b) * 4. */
  states: Uint32Array
  /** out[c * blocks + block]: patterns of the block with |T*| >= |T| - tol. */
  out: Float64Array
}

/**
 * Resampling blocks of the Poisson bootstrap (src/stats/poisson.ts): in resample b every unit u gets an independent
 * Poisson(1) weight, a pure function of (seed, u's keys, b) (src/stats/poisson-weights.ts), and a stratum's term is
 * weight · Σ w·v / Σ w·n. Unit u = column group floor(u / blocks) (groups of at most ${MAX_POISSON_WIDTH} columns), block u % blocks.
 */
export interface PoissonJob {
  kind: 'poisson'
  units: number
  work: number
  blocks: number
  /** Resamples per block: even, since one hash gives a pair of resamples. */
  block: number
  resamples: number
  k: number
  /** Per column group, its columns of the design's values, row-major. */
  vs: Float64Array[]
  /** Per unit, the two 32-bit halves of its key (md5 of its id). */
  keys1: Int32Array
  keys2: Int32Array
  /** The seed's key for the weights. */
  seed: number
  /** Queries per unit (query-weighted clusters: the denominator is Σ w·n), or null (Σ w). */
  counts: Float64Array | null
  starts: Int32Array
  sizes: Int32Array
  weights: Float64Array
  /** means[c * strata + s]: stratum s's estimate of column c, its term in a resample where it drew no unit. */
  means: Float64Array
  /** out[c * resamples + b] (unsorted). */
  out: Float64Array
}

/**
 * Blocks of sign patterns of the sign-flip test with every unit's sign a pure function of (seed, its keys, the
 * pattern) (src/stats/poisson-weights.ts), so that shards of the units can be summed apart. Unit = block.
 */
export interface HashFlipJob {
  kind: 'hashflip'
  units: number
  work: number
  /** Patterns per block: a multiple of 32 (one hash gives a unit's signs in 32 patterns). */
  block: number
  permutations: number
  k: number
  /** Design units. */
  n: number
  /** Contributions y[u * k + c] (src/stats/randomization.ts). */
  y: Float64Array
  keys1: Int32Array
  keys2: Int32Array
  /** The seed's key for the signs. */
  seed: number
  observed: Float64Array
  tol: Float64Array
  /** out[block * k + c]: patterns of the block with |T*| >= |T| - tol. */
  out: Float64Array
}

export type KernelJob = BootstrapJob | FlipJob | MultinomialJob | SignCountJob | PoissonJob | HashFlipJob

/** The one Poisson function of each width the WebAssembly module exports (scripts/wasm-poisson.js). */
type PoissonFn = (len: number, j0: number, pairs: number, seed: number) => void

/** The part of the WebAssembly API the kernels use (the project's TypeScript library has no DOM types). */
interface WasmApi {
  Memory: new (limits: { initial: number }) => { buffer: ArrayBuffer }
  Module: new (bytes: Uint8Array) => object
  Instance: new (module: object, imports: object) => { exports: Record<string, PoissonFn> }
}

export interface Kernels {
  /** Computes one unit of a job into its slots of job.out. */
  runUnit(job: KernelJob, unit: number): void
  /** True when the Poisson kernel runs in WebAssembly SIMD (the same bits as without; tests check both ran). */
  readonly simd: boolean
  /** \`count\` draws of the number of plus signs among m fair signs (tests check it against binomial(m, ½)). */
  plusSigns(state: Uint32Array, m: number, count: number): Float64Array
  /** \`count\` binomial(n, p) variates from a xoshiro128** state (tests check the sampler against the exact law). */
  binomials(state: Uint32Array, n: number, p: number, count: number): Float64Array
}

/**
 * The kernels, built from nothing but this function's body (see the module comment: keep it self-contained).
 * Local bindings of Math: a global lookup per call is slow in some hosts (Jest's vm context: 100x).
 */
export function statsKernels(useWasm = true): Kernels {
  const imul = Math.imul
  const abs = Math.abs
  const min = Math.min
  const floor = Math.floor
  const sqrt = Math.sqrt
  const log = Math.log
  const pow = Math.pow
  const clz32 = Math.clz32
  /** 2^-32: maps a uint32 r to an index floor(r * m / 2^32) in [0, m) (multiply-shift, Lemire). */
  const twoPowMinus32 = 2.3283064365386963e-10
`

const widths = range(MAX_WIDTH).map((i) => i + 1)

const DISPATCH = `  /** By width: KERNELS[w] accumulates w columns (index 0 is never used: a group has at least one column). */
  const KERNELS = [kernel1, ${widths.map((w) => `kernel${w}`).join(', ')}]

  function bootstrapUnit(job: BootstrapJob, unit: number): void {
    const gi = (unit / job.blocks) | 0
    const block = unit - gi * job.blocks
    const g = gi * ${MAX_WIDTH}
    const width = min(${MAX_WIDTH}, job.k - g)
    const from = block * job.block
    const to = min(job.resamples, from + job.block)
    const state = job.states.subarray(block * 4, block * 4 + 4)
    KERNELS[width](job.vs[gi], job.counts, job.starts, job.sizes, job.weights, state, from, to, job.resamples, job.out, g)
  }
`

const BINOMIAL = `  /**
   * The generator state of the binomial sampler: a unit loads its block's state here, draws, and is done
   * (units run one at a time on a thread, and each thread has its own copy of these kernels).
   */
  let g0 = 0
  let g1 = 0
  let g2 = 0
  let g3 = 0
  function next(): number {
    const x = imul(g1, 5)
    const r = imul((x << 7) | (x >>> 25), 9) >>> 0
    const t = g1 << 9
    g2 ^= g0
    g3 ^= g1
    g1 ^= g2
    g0 ^= g3
    g2 ^= t
    g3 = (g3 << 11) | (g3 >>> 21)
    return r
  }
  /** A uniform double in [0, 1) with 53 random bits (two steps). */
  function uniform(): number {
    return ((next() >>> 5) * 67108864 + (next() >>> 6)) * 1.1102230246251565e-16
  }
  /** Stirling's series correction log(k!) − [(k + ½) log(k + 1) − (k + 1) + ½ log 2π], exact values below 10 (Hörmann 1993). */
  const FC = [0.08106146679532726, 0.04134069595540929, 0.02767792568499834, 0.02079067210376509, 0.01664469118982119, 0.01387612882307075, 0.01189670994589177, 0.01041126526197209, 0.009255462182712733, 0.008330563433362871]
  function fc(k: number): number {
    if (k < 10) return FC[k]
    const r = 1 / (k + 1)
    const rr = r * r
    return (1 / 12 - (1 / 360 - rr / 1260) * rr) * r
  }
  /**
   * A binomial(n, p) variate, p <= 0.5: inversion (sequential search from 0) when n·p < 10, else BTRD,
   * Hörmann's transformed rejection with decomposition ("The generation of binomial random variates",
   * J. Statist. Comput. Simul. 46, 1993; the algorithm of Boost's binomial_distribution), O(1) per draw.
   */
  function binomialLow(n: number, p: number): number {
    const q = 1 - p
    if (n * p < 10) {
      const s = p / q
      const a = (n + 1) * s
      const r0 = pow(q, n)
      for (;;) {
        let u = uniform()
        let r = r0
        let x = 0
        while (u > r) {
          u -= r
          x++
          if (x > n) break
          r *= a / x - s
        }
        if (x <= n) return x
      }
    }
    const spq = sqrt(n * p * q)
    const b = 1.15 + 2.53 * spq
    const a = -0.0873 + 0.0248 * b + 0.01 * p
    const c = n * p + 0.5
    const alpha = (2.83 + 5.1 / b) * spq
    const vr = 0.92 - 4.2 / b
    const urvr = 0.86 * vr
    const m = floor((n + 1) * p)
    const r = p / q
    const nr = (n + 1) * r
    const npq = n * p * q
    for (;;) {
      let v = uniform()
      let u: number
      if (v <= urvr) {
        u = v / vr - 0.43
        return floor(((2 * a) / (0.5 - abs(u)) + b) * u + c)
      }
      if (v >= vr) {
        u = uniform() - 0.5
      } else {
        u = v / vr - 0.93
        u = (u < 0 ? -0.5 : 0.5) - u
        v = uniform() * vr
      }
      const us = 0.5 - abs(u)
      const k = floor(((2 * a) / us + b) * u + c)
      if (k < 0 || k > n) continue
      v = (v * alpha) / (a / (us * us) + b)
      const km = abs(k - m)
      if (km <= 15) {
        let f = 1
        if (m < k) {
          for (let i = m + 1; i <= k; i++) f *= nr / i - r
        } else if (m > k) {
          for (let i = k + 1; i <= m; i++) v *= nr / i - r
        }
        if (v <= f) return k
        continue
      }
      v = log(v)
      const rho = (km / npq) * (((km / 3 + 0.625) * km + 1 / 6) / npq + 0.5)
      const t = (-km * km) / (2 * npq)
      if (v < t - rho) return k
      if (v > t + rho) continue
      const nm = n - m + 1
      const h = (m + 0.5) * log((m + 1) / (r * nm)) + fc(m) + fc(n - m)
      const nk = n - k + 1
      if (v <= h + (n + 1) * log(nm / nk) + (k + 0.5) * log((nk * r) / (k + 1)) - fc(k) - fc(n - k)) return k
    }
  }
  /** A binomial(n, p) variate for any p in [0, 1] (p > 0.5 by symmetry). */
  function binomial(n: number, p: number): number {
    if (n <= 0 || p <= 0) return 0
    if (p >= 1) return n
    return p > 0.5 ? n - binomialLow(n, 1 - p) : binomialLow(n, p)
  }
  function load(states: Uint32Array, at: number): void {
    g0 = states[at] | 0
    g1 = states[at + 1] | 0
    g2 = states[at + 2] | 0
    g3 = states[at + 3] | 0
  }

  /**
   * One block of one column of a multinomial job: per resample, per stratum, the counts of its distinct
   * groups by conditional binomials (group j gets binomial(units left, its share of the groups left)), and
   * the stratum's term weight · Σ count · value / denominator, summed in group order.
   */
  function multinomialUnit(job: MultinomialJob, unit: number): void {
    const c = (unit / job.blocks) | 0
    const block = unit - c * job.blocks
    load(job.states, (c * job.blocks + block) * 4)
    const values = job.values[c]
    const mult = job.multiplicity[c]
    const queries = job.queries[c]
    const offsets = job.offsets[c]
    const { sizes, weights, ratio, out } = job
    const from = block * job.block
    const to = min(job.resamples, from + job.block)
    for (let b = from; b < to; b++) {
      let e = 0
      for (let si = 0; si < sizes.length; si++) {
        const size = sizes[si]
        let left = size
        let groupsLeft = size
        let a = 0
        let denom = ratio ? 0 : size
        const end = offsets[si + 1]
        for (let j = offsets[si]; j < end && left > 0; j++) {
          const m = mult[j]
          const drawn = j === end - 1 ? left : binomial(left, m / groupsLeft)
          groupsLeft -= m
          left -= drawn
          a += drawn * values[j]
          if (ratio) denom += drawn * queries[j]
        }
        e += (weights[si] * a) / denom
      }
      out[c * job.resamples + b] = e
    }
  }
`

const SIGNCOUNT = `  /** Units above which the plus signs are one binomial(m, ½) draw (BTRD, ~150 ns) rather than m random bits counted (~3 ns a word). */
  const BITS_MAX = 2048
  function popcount(x: number): number {
    x = x - ((x >>> 1) & 0x55555555)
    x = (x & 0x33333333) + ((x >>> 2) & 0x33333333)
    x = (x + (x >>> 4)) & 0x0f0f0f0f
    return imul(x, 0x01010101) >>> 24
  }
  /** Plus signs among m units with fair, independent signs: binomial(m, ½) exactly (the bits of the generator counted, or BTRD). */
  function plusSigns(m: number): number {
    if (m > BITS_MAX) return binomialLow(m, 0.5)
    let s = 0
    let left = m
    for (; left >= 32; left -= 32) s += popcount(next())
    if (left > 0) s += popcount(next() >>> (32 - left))
    return s
  }
  /** One block of one column of a sign-count job: per pattern, T = Σ_j v_j · (2 · plus_j − m_j) in value order. */
  function signCountUnit(job: SignCountJob, unit: number): void {
    const c = (unit / job.blocks) | 0
    const block = unit - c * job.blocks
    load(job.states, (c * job.blocks + block) * 4)
    const values = job.values[c]
    const mult = job.multiplicity[c]
    const limit = job.observed[c] - job.tol[c]
    const from = block * job.block
    const to = min(job.permutations, from + job.block)
    let hits = 0
    for (let p = from; p < to; p++) {
      let t = 0
      for (let j = 0; j < values.length; j++) {
        const m = mult[j]
        t += values[j] * (2 * plusSigns(m) - m)
      }
      if (abs(t) >= limit) hits++
    }
    job.out[c * job.blocks + block] = hits
  }
`

const FLIP = `  /**
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
    get simd(): boolean {
      return wasmKernel() !== null
    },
    runUnit(job: KernelJob, unit: number): void {
      if (job.kind === 'bootstrap') bootstrapUnit(job, unit)
      else if (job.kind === 'poisson') poissonUnit(job, unit)
      else if (job.kind === 'hashflip') hashFlipUnit(job, unit)
      else if (job.kind === 'multinomial') multinomialUnit(job, unit)
      else if (job.kind === 'signcount') signCountUnit(job, unit)
      else flipUnit(job, unit)
    },
    plusSigns(state: Uint32Array, m: number, count: number): Float64Array {
      load(state, 0)
      const out = new Float64Array(count)
      for (let i = 0; i < count; i++) out[i] = plusSigns(m)
      return out
    },
    binomials(state: Uint32Array, n: number, p: number, count: number): Float64Array {
      load(state, 0)
      const out = new Float64Array(count)
      for (let i = 0; i < count; i++) out[i] = binomial(n, p)
      return out
    }
  }
}
`

const poissonWidths = range(MAX_POISSON_WIDTH).map((i) => i + 1)

const POISSON = `  /** T_k = round(65536 · P(X ≤ k)), X ~ Poisson(1): src/stats/poisson-weights.ts (a test holds the two equal). */
  const THRESHOLDS = [24109, 48219, 60273, 64292, 65296, 65497, 65531, 65535]
  /** The Poisson(1) weight of a 16-bit u by inversion: #{k : u >= T_k}. */
  function weightOf(u: number): number {
    let w = 0
    while (w < 8 && u >= THRESHOLDS[w]) w++
    return w
  }
  /** The weight of every 16-bit u whose top 12 bits are i, or -1 where a threshold falls inside those 16 values. */
  const WEIGHTS = new Int32Array(4096)
  for (let i = 0; i < 4096; i++) {
    const low = weightOf(i * 16)
    WEIGHTS[i] = low === weightOf(i * 16 + 15) ? low : -1
  }

  /** By width: POISSON[w] (index 0 is never used). */
  const POISSON = [poisson1, ${poissonWidths.map((w) => `poisson${w}`).join(', ')}]

  /** Bytes from base64 (a decoder of its own: the kernels use nothing outside their body). */
  function fromBase64(text: string): Uint8Array {
    const digits = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'
    const clean = text.replace(/=+$/, '')
    const out = new Uint8Array((clean.length * 3) >> 2)
    let bits = 0
    let count = 0
    let at = 0
    for (let i = 0; i < clean.length; i++) {
      bits = (bits << 6) | digits.indexOf(clean[i])
      count += 6
      if (count >= 8) {
        count -= 8
        out[at++] = (bits >>> count) & 255
      }
    }
    return out
  }

  /**
   * The same kernel in WebAssembly SIMD (scripts/wasm-poisson.js; its bytes below), about three times faster, with
   * the same operations in the same order: the same bits. Null where WebAssembly SIMD cannot be compiled (then the
   * kernels above run) or when \`useWasm\` is false (tests compare the two).
   */
  const WASM_BASE64 = '${Buffer.from(poissonModule(MAX_POISSON_WIDTH)).toString('base64')}'
  type Wasm = { memory: { buffer: ArrayBuffer }; fns: PoissonFn[] } | null
  /** Compiled on the first Poisson job (a gate that draws none never compiles it): undefined until then. */
  let compiled: Wasm | undefined
  function wasmKernel(): Wasm {
    if (compiled !== undefined) return compiled
    compiled = null
    if (!useWasm) return compiled
    try {
      const api = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly
      const memory = new api.Memory({ initial: 1 })
      const exports = new api.Instance(new api.Module(fromBase64(WASM_BASE64)), { k: { m: memory } }).exports
      compiled = { memory, fns: [${['p1', ...poissonWidths.map((w) => `p${w}`)].map((f) => `exports.${f}`).join(', ')}] }
    } catch {
      compiled = null
    }
    return compiled
  }

  /** {@link poisson1} .. with the WebAssembly kernel: each chunk of ${CHUNK} units is copied into its memory, then summed into every pair of the block. */
  function poissonWasm(job: PoissonJob, v: Float64Array, g: number, from: number, to: number, w: number): void {
    const { memory, fns } = wasmKernel() as NonNullable<Wasm>
    const fn = fns[w]
    const { keys1, keys2, starts, sizes, weights, seed, means, out } = job
    const total = job.resamples
    const strata = sizes.length
    const pairs = (to - from + 1) >> 1
    const j0 = from >> 1
    const k1 = new Int32Array(memory.buffer, 0, ${CHUNK})
    const k2 = new Int32Array(memory.buffer, ${KEYS2}, ${CHUNK})
    const vals = new Float64Array(memory.buffer, ${VALUES}, ${CHUNK} * w)
    const acc = new Float64Array(memory.buffer, ${ACC}, pairs * (w + 1) * 2)
    for (let c = 0; c < w; c++) for (let b = from; b < to; b++) out[(g + c) * total + b] = 0
    for (let si = 0; si < strata; si++) {
      const start = starts[si]
      const end = start + sizes[si]
      acc.fill(0)
      for (let c0 = start; c0 < end; c0 += ${CHUNK}) {
        const c1 = min(end, c0 + ${CHUNK})
        k1.set(keys1.subarray(c0, c1))
        k2.set(keys2.subarray(c0, c1))
        vals.set(v.subarray(c0 * w, c1 * w))
        fn(c1 - c0, j0, pairs, seed)
      }
      const sw = weights[si]
      for (let p = 0; p < pairs; p++) {
        const o = p * (w + 1) * 2
        const b = from + 2 * p
        const na = acc[o + 2 * w]
        const nb = acc[o + 2 * w + 1]
        for (let c = 0; c < w; c++) {
          const mean = sw * means[(g + c) * strata + si]
          out[(g + c) * total + b] += na > 0 ? (sw * acc[o + 2 * c]) / na : mean
          if (b + 1 < to) out[(g + c) * total + b + 1] += nb > 0 ? (sw * acc[o + 2 * c + 1]) / nb : mean
        }
      }
    }
  }

  function poissonUnit(job: PoissonJob, unit: number): void {
    const gi = (unit / job.blocks) | 0
    const block = unit - gi * job.blocks
    const g = gi * ${MAX_POISSON_WIDTH}
    const from = block * job.block
    const to = min(job.resamples, from + job.block)
    const w = min(${MAX_POISSON_WIDTH}, job.k - g)
    // WebAssembly for the usual case; query-weighted clusters (a denominator of weighted queries) in JavaScript.
    if (job.counts === null && wasmKernel() !== null && job.block <= ${2 * Math.floor((65536 - ACC) / ((MAX_POISSON_WIDTH + 1) * 16))}) poissonWasm(job, job.vs[gi], g, from, to, w)
    else POISSON[w](job, job.vs[gi], g, from, to)
  }

  /** In place: after it, a[t] bit i is bit t of a[i] before (a 32 x 32 bit matrix transposed by block swaps). */
  function transpose32(a: Int32Array): void {
    for (let s = 16, mask = 0x0000ffff; s > 0; s >>>= 1, mask ^= mask << s) {
      for (let k = 0; k < 32; k = (k + s + 1) & ~s) {
        const t = ((a[k] >>> s) ^ a[k + s]) & mask
        a[k] ^= t << s
        a[k + s] ^= t
      }
    }
  }

  /**
   * One block of hashed sign patterns. Units are taken 32 at a time: per column, four 256-entry tables hold the
   * signed sums of each 8 of them (table[mask] = Σ_i (bit i of mask ? −y : +y)); per word of 32 patterns, the 32
   * units' hashes are transposed so that pattern t's signs are one uint32, whose 4 bytes index the tables. T of a
   * pattern is the sum over the chunks, in unit order, of the chunk's four table entries.
   */
  function hashFlipUnit(job: HashFlipJob, unit: number): void {
    const { k, n, y, keys1, keys2, seed, observed, tol, out } = job
    const from = unit * job.block
    const to = min(job.permutations, from + job.block)
    const count = to - from
    const words = (count + 31) >> 5
    const j0 = from >> 5
    const sums = new Float64Array(count * k)
    const tables = new Float64Array(k * 1024)
    const eight = new Float64Array(8)
    const h = new Int32Array(32)
    for (let c0 = 0; c0 < n; c0 += 32) {
      const len = min(32, n - c0)
      for (let c = 0; c < k; c++) {
        for (let g = 0; g < 4; g++) {
          // The 8 units' contributions (0 past the last unit): entry m is entry m without its lowest bit, that unit flipped.
          for (let i = 0; i < 8; i++) eight[i] = 8 * g + i < len ? y[(c0 + 8 * g + i) * k + c] : 0
          const base = c * 1024 + g * 256
          tables[base] = eight[0] + eight[1] + eight[2] + eight[3] + eight[4] + eight[5] + eight[6] + eight[7]
          for (let m = 1; m < 256; m++) {
            const low = m & -m
            tables[base + m] = tables[base + (m ^ low)] - 2 * eight[31 - clz32(low)]
          }
        }
      }
      for (let wj = 0; wj < words; wj++) {
        const jj = imul(j0 + wj, 0x9e3779b9)
        for (let i = 0; i < len; i++) {
          const u = c0 + i
${hashLines('          ', 'keys1[u]', 'keys2[u]').join('\n')}
          h[i] = x
        }
        for (let i = len; i < 32; i++) h[i] = 0
        transpose32(h)
        const tmax = min(32, count - 32 * wj)
        for (let t = 0; t < tmax; t++) {
          const word = h[t]
          const b0 = word & 255
          const b1 = 256 + ((word >>> 8) & 255)
          const b2 = 512 + ((word >>> 16) & 255)
          const b3 = 768 + (word >>> 24)
          const o = (32 * wj + t) * k
          for (let c = 0; c < k; c++) {
            const tc = c * 1024
            sums[o + c] += tables[tc + b0] + tables[tc + b1] + tables[tc + b2] + tables[tc + b3]
          }
        }
      }
    }
    for (let c = 0; c < k; c++) {
      const limit = observed[c] - tol[c]
      let hits = 0
      for (let p = 0; p < count; p++) if (abs(sums[p * k + c]) >= limit) hits++
      out[unit * k + c] = hits
    }
  }
`

/** The whole text of src/stats/kernels.ts. */
export function kernelsSource() {
  return [
    HEADER,
    ...widths.map((w) => kernel(w) + '\n'),
    ...poissonWidths.map((w) => poissonKernel(w) + '\n'),
    DISPATCH,
    BINOMIAL,
    SIGNCOUNT,
    POISSON,
    FLIP
  ].join('\n')
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const text = kernelsSource()
  if (process.argv.includes('--stdout')) process.stdout.write(text)
  else {
    const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
    writeFileSync(path.join(root, OUTPUT), text)
    console.log(`wrote ${OUTPUT} (${text.length} bytes)`)
  }
}

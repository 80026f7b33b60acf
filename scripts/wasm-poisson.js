// The WebAssembly module of the Poisson kernel (scripts/generate-kernels.js embeds its bytes in src/stats/kernels.ts).
//
// Why WebAssembly: per unit and resample the Poisson bootstrap hashes, inverts a weight and adds the weighted
// values; in JavaScript that is about 3 ns (about 30 s of CPU at 10^6 queries x 5 metrics x 10^4 resamples), bound
// by the number of instructions. Its 128-bit SIMD hashes four units at once (i32x4), inverts eight weights at once
// (i16x8 comparisons) and adds a unit's value into two resamples at once (f64x2), about a third of the
// instructions. The arithmetic is the JavaScript kernel's, operation for operation and in the same order: every
// lane of an f64x2 is one resample's sum, units are added one after the other, and WebAssembly never fuses a
// multiplication and an addition, so the two kernels give the same bits (a test holds them equal).
//
// The module imports one page of memory, laid out by the caller (statsKernels in src/stats/kernels.ts) for one
// chunk of at most 512 units of one stratum:
//   KEYS1  (512 x i32)   the units' first key halves     KEYS2 the second
//   VALUES (512 x w x f64) the chunk's values, row-major
//   ACC    (pairs x (w + 1) x f64x2): per pair of resamples (2j, 2j + 1) and column, the two sums; the last of
//          each pair's w + 1 is the two sums of the weights. The function adds the chunk's sums into them.
// It exports p1 .. p6 (one per column width w): p_w(len, j0, pairs, seed), pairs j0 .. j0 + pairs - 1.
// Plain Node, no dependency: an assembler of the few instructions used, by their binary encodings (WebAssembly
// Core Specification, 5.4 Instructions; SIMD opcodes after the 0xfd prefix as LEB128).

export const KEYS1 = 0
export const KEYS2 = 2048
export const VALUES = 4096
export const ACC = 28672
export const CHUNK = 512

const uleb = (n) => {
  const out = []
  do {
    let b = n & 0x7f
    n >>>= 7
    if (n !== 0) b |= 0x80
    out.push(b)
  } while (n !== 0)
  return out
}
const sleb = (n) => {
  const out = []
  for (;;) {
    const b = n & 0x7f
    n >>= 7
    if ((n === 0 && (b & 0x40) === 0) || (n === -1 && (b & 0x40) !== 0)) return [...out, b]
    out.push(b | 0x80)
  }
}
const simd = (code) => [0xfd, ...uleb(code)]
const mem = (align, offset) => [align, ...uleb(offset)]

const I = {
  block: [0x02, 0x40],
  loop: [0x03, 0x40],
  br: (d) => [0x0c, d],
  brIf: (d) => [0x0d, d],
  end: [0x0b],
  get: (l) => [0x20, ...uleb(l)],
  set: (l) => [0x21, ...uleb(l)],
  tee: (l) => [0x22, ...uleb(l)],
  i32: (n) => [0x41, ...sleb(n | 0)],
  add: [0x6a],
  sub: [0x6b],
  mul: [0x6c],
  and: [0x71],
  shl: [0x74],
  ltU: [0x49],
  geU: [0x4f],
  load32: (offset) => [0x28, ...mem(2, offset)],
  v128load: (offset) => [...simd(0x00), ...mem(4, offset)],
  v128store: (offset) => [...simd(0x0b), ...mem(4, offset)],
  load64Splat: (offset) => [...simd(0x0a), ...mem(3, offset)],
  v128const0: [...simd(0x0c), ...new Array(16).fill(0)],
  shuffleHigh64: [...simd(0x0d), 8, 9, 10, 11, 12, 13, 14, 15, 8, 9, 10, 11, 12, 13, 14, 15],
  i16splat: simd(0x10),
  i32splat: simd(0x11),
  i16geU: simd(0x36),
  xor: simd(0x51),
  i16sub: simd(0x91),
  i32extendLowU: simd(0xa9),
  i32extendHighU: simd(0xaa),
  i32shrU: simd(0xad),
  i32add: simd(0xae),
  i32mul: simd(0xb5),
  f64add: simd(0xf0),
  f64mul: simd(0xf2),
  f64convertLowU: simd(0xff)
}

const THRESHOLDS = [24109, 48219, 60273, 64292, 65296, 65497, 65531, 65535]

/** The body of p_w: locals after the 4 parameters (len, j0, pairs, seed). */
function body(w) {
  // i32 locals
  const p = 4
  const u = 5
  const lim = 6
  const acc = 7
  // v128 locals
  const seedv = 8
  const jj = 9
  const x = 10
  const wv = 11
  const half = 12
  const wt = 13
  const an = 14
  const m1 = 15
  const m2 = 16
  const th = (t) => 17 + t
  const base = 25
  const a = (c) => 26 + c
  const code = []
  const emit = (...parts) => parts.forEach((part) => code.push(...part))
  // The hash of the four keys at KEYS1 + off / KEYS2 + off (address on the stack twice: see callers), into x.
  const hashFrom = (load1, load2) => {
    emit(load1, I.get(seedv), I.xor, I.get(jj), I.i32add, I.set(x))
    emit(I.get(x), I.get(x), I.i32(16), I.i32shrU, I.xor, I.set(x))
    emit(I.get(x), I.get(m1), I.i32mul, I.set(x))
    emit(I.get(x), I.get(x), I.i32(13), I.i32shrU, I.xor, I.set(x))
    emit(I.get(x), load2, I.xor, I.get(m2), I.i32mul, I.set(x))
    emit(I.get(x), I.get(x), I.i32(16), I.i32shrU, I.xor, I.set(x))
    // Eight weights: 0 minus the count of thresholds each 16-bit lane reaches (a true comparison is -1).
    emit(I.v128const0, I.set(wv))
    THRESHOLDS.forEach((_, t) => emit(I.get(wv), I.get(x), I.get(th(t)), I.i16geU, I.i16sub, I.set(wv)))
  }
  // Adds unit (u + k)'s two weights (in wt, as f64x2) times its values into the accumulators.
  const addUnit = (k) => {
    emit(I.get(an), I.get(wt), I.f64add, I.set(an))
    for (let c = 0; c < w; c++)
      emit(
        I.get(a(c)),
        I.get(wt),
        I.get(base),
        I.load64Splat(VALUES + (k * w + c) * 8),
        I.f64mul,
        I.f64add,
        I.set(a(c))
      )
  }
  emit(I.get(3), I.i32splat, I.set(seedv))
  emit(I.i32(0x85ebca6b), I.i32splat, I.set(m1), I.i32(0xc2b2ae35), I.i32splat, I.set(m2))
  THRESHOLDS.forEach((t, i) => emit(I.i32(t), I.i16splat, I.set(th(i))))
  emit(I.get(0), I.i32(-4), I.and, I.set(lim))
  emit(I.i32(0), I.set(p))
  emit(I.block, I.loop)
  emit(I.get(p), I.get(2), I.geU, I.brIf(1))
  emit(I.get(1), I.get(p), I.add, I.i32(0x9e3779b9), I.mul, I.i32splat, I.set(jj))
  for (let c = 0; c < w; c++) emit(I.v128const0, I.set(a(c)))
  emit(I.v128const0, I.set(an))
  emit(I.i32(0), I.set(u))
  // Four units at a time.
  emit(I.block, I.loop)
  emit(I.get(u), I.get(lim), I.geU, I.brIf(1))
  hashFrom(
    [...I.get(u), ...I.i32(4), ...I.mul, ...I.v128load(KEYS1)],
    [...I.get(u), ...I.i32(4), ...I.mul, ...I.v128load(KEYS2)]
  )
  emit(I.get(u), I.i32(w * 8), I.mul, I.set(base))
  for (const [extend, k0] of [
    [I.i32extendLowU, 0],
    [I.i32extendHighU, 2]
  ]) {
    emit(I.get(wv), extend, I.set(half))
    emit(I.get(half), I.f64convertLowU, I.set(wt))
    addUnit(k0)
    emit(I.get(half), I.get(half), I.shuffleHigh64, I.f64convertLowU, I.set(wt))
    addUnit(k0 + 1)
  }
  emit(I.get(u), I.i32(4), I.add, I.set(u))
  emit(I.br(0), I.end, I.end)
  // The last len % 4 units one at a time (every lane holds the same unit).
  emit(I.block, I.loop)
  emit(I.get(u), I.get(0), I.geU, I.brIf(1))
  hashFrom(
    [...I.get(u), ...I.i32(4), ...I.mul, ...I.load32(KEYS1), ...I.i32splat],
    [...I.get(u), ...I.i32(4), ...I.mul, ...I.load32(KEYS2), ...I.i32splat]
  )
  emit(I.get(wv), I.i32extendLowU, I.f64convertLowU, I.set(wt))
  emit(I.get(u), I.i32(w * 8), I.mul, I.set(base))
  addUnit(0)
  emit(I.get(u), I.i32(1), I.add, I.set(u))
  emit(I.br(0), I.end, I.end)
  // acc = ACC + p * (w + 1) * 16: add the chunk's sums into the pair's.
  emit(I.get(p), I.i32((w + 1) * 16), I.mul, I.set(acc))
  for (let c = 0; c <= w; c++) {
    emit(
      I.get(acc),
      I.get(acc),
      I.v128load(ACC + c * 16),
      I.get(c === w ? an : a(c)),
      I.f64add,
      I.v128store(ACC + c * 16)
    )
  }
  emit(I.get(p), I.i32(1), I.add, I.set(p))
  emit(I.br(0), I.end, I.end)
  emit(I.end)
  // i32: p, u, lim, acc; v128: seedv .. an, m1, m2, eight thresholds; i32: base; v128: the w accumulators.
  const locals = [...uleb(4), ...uleb(4), 0x7f, ...uleb(17), 0x7b, ...uleb(1), 0x7f, ...uleb(w), 0x7b]
  return [...locals, ...code]
}

const section = (id, bytes) => [id, ...uleb(bytes.length), ...bytes]
const vec = (items) => [...uleb(items.length), ...items.flat()]
const name = (s) => [...uleb(s.length), ...Buffer.from(s, 'utf8')]

/** The module's bytes, for widths 1 .. maxWidth. */
export function poissonModule(maxWidth) {
  const widths = Array.from({ length: maxWidth }, (_, i) => i + 1)
  const type = section(1, vec([[0x60, 4, 0x7f, 0x7f, 0x7f, 0x7f, 0]]))
  const imports = section(2, vec([[...name('k'), ...name('m'), 0x02, 0x00, 0x01]]))
  const funcs = section(3, vec(widths.map(() => [0])))
  const exports = section(7, vec(widths.map((w, i) => [...name(`p${w}`), 0x00, ...uleb(i)])))
  const code = section(
    10,
    vec(
      widths.map((w) => {
        const b = body(w)
        return [...uleb(b.length), ...b]
      })
    )
  )
  return Uint8Array.from([
    0x00,
    0x61,
    0x73,
    0x6d,
    0x01,
    0x00,
    0x00,
    0x00,
    ...type,
    ...imports,
    ...funcs,
    ...exports,
    ...code
  ])
}

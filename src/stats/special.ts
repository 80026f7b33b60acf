/**
 * The few special functions the statistics need (normal and Student t distributions), written out so the
 * core has no numeric dependency and gives the same bits on every platform. Accuracy is checked against
 * scipy.special / scipy.stats in __tests__/stats/special.test.ts (relative error below 1e-12 for the normal
 * functions, 1e-10 for t).
 */

const LANCZOS = [
  0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
  12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7
]

/** ln Γ(x) for x > 0 (Lanczos, g = 7): relative error about 1e-15. */
function lgamma(x: number): number {
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - lgamma(1 - x)
  const z = x - 1
  let a = LANCZOS[0]
  const t = z + 7.5
  for (let i = 1; i < 9; i++) a += LANCZOS[i] / (z + i)
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(a)
}

/**
 * ln Γ(a) − ln Γ(a + b) without the cancellation of two large logarithms when a is large (the t
 * distribution with thousands of degrees of freedom): a Stirling-series difference above 20, plain
 * differences below.
 */
function lgammaRatio(a: number, b: number): number {
  if (a < 20) return lgamma(a) - lgamma(a + b)
  // ln Γ(x) = (x − ½) ln x − x + ½ ln 2π + Σ B2k / (2k(2k−1) x^(2k−1))
  const c = (x: number): number => {
    const x2 = x * x
    return (1 / 12 - (1 / 360 - (1 / 1260 - 1 / (1680 * x2)) / x2) / x2) / x
  }
  const ab = a + b
  // (a − ½) ln a − (ab − ½) ln ab + b, written with log1p for the part that cancels.
  const main = (a - 0.5) * -Math.log1p(b / a) - b * Math.log(ab) + b
  return main + c(a) - c(ab)
}

/** The floor of a continued fraction's denominators in the modified Lentz algorithm (no division by zero). */
const TINY = 1e-300

/** One modified Lentz step of a continued fraction's term a / (b + …): updates `s` and returns the factor h takes. */
function lentzStep(s: { c: number; d: number }, a: number, b: number): number {
  let d = b + a * s.d
  if (Math.abs(d) < TINY) d = TINY
  let c = b + a / s.c
  if (Math.abs(c) < TINY) c = TINY
  s.d = 1 / d
  s.c = c
  return s.d * c
}

/** Continued fraction of the regularized incomplete beta function (modified Lentz). */
function betaContinuedFraction(x: number, a: number, b: number): number {
  let d = 1 - ((a + b) * x) / (a + 1)
  if (Math.abs(d) < TINY) d = TINY
  const s = { c: 1, d: 1 / d }
  let h = s.d
  for (let m = 1; m <= 10000; m++) {
    const m2 = 2 * m
    h *= lentzStep(s, (m * (b - m) * x) / ((a + m2 - 1) * (a + m2)), 1)
    const del = lentzStep(s, (-(a + m) * (a + b + m) * x) / ((a + m2) * (a + m2 + 1)), 1)
    h *= del
    if (Math.abs(del - 1) < 1e-16) break
  }
  return h
}

/** Regularized incomplete beta I_x(a, b) (scipy.special.betainc). */
export function incompleteBeta(x: number, a: number, b: number): number {
  if (!(x >= 0 && x <= 1) || !(a > 0) || !(b > 0)) return Number.NaN
  if (x === 0 || x === 1) return x
  // ln of x^a (1−x)^b / B(a, b), with B(a, b) = Γ(a)Γ(b)/Γ(a+b): keep the large argument in lgammaRatio.
  const front = (p: number, q: number, y: number): number => {
    const big = Math.max(p, q)
    const small = Math.min(p, q)
    const lnB = lgamma(small) + lgammaRatio(big, small)
    return Math.exp(p * Math.log(y) + q * Math.log1p(-y) - lnB)
  }
  if (x < (a + 1) / (a + b + 2)) return (front(a, b, x) * betaContinuedFraction(x, a, b)) / a
  return 1 - (front(b, a, 1 - x) * betaContinuedFraction(1 - x, b, a)) / b
}

/** Regularized upper incomplete gamma Q(a, x) (series below a + 1, continued fraction above). */
function upperGamma(a: number, x: number): number {
  if (x <= 0) return 1
  const lnFront = a * Math.log(x) - x - lgamma(a)
  if (x < a + 1) {
    let sum = 1 / a
    let term = sum
    for (let n = 1; n < 10000; n++) {
      term *= x / (a + n)
      sum += term
      if (Math.abs(term) < Math.abs(sum) * 1e-17) break
    }
    return 1 - sum * Math.exp(lnFront)
  }
  let b = x + 1 - a
  const s = { c: 1 / TINY, d: 1 / b }
  let h = s.d
  for (let i = 1; i < 10000; i++) {
    b += 2
    const del = lentzStep(s, -i * (i - a), b)
    h *= del
    if (Math.abs(del - 1) < 1e-16) break
  }
  return Math.exp(lnFront) * h
}

/** Standard normal distribution function Φ(z) (scipy.special.ndtr). */
export function normalCdf(z: number): number {
  if (Number.isNaN(z)) return Number.NaN
  if (z === Infinity) return 1
  if (z === -Infinity) return 0
  const q = 0.5 * upperGamma(0.5, (z * z) / 2)
  return z < 0 ? q : 1 - q
}

/**
 * Standard normal quantile Φ⁻¹(p) (scipy.special.ndtri): Wichura's AS 241 (PPND16, relative error about
 * 1e-16), which needs no refinement.
 */
export function normalQuantile(p: number): number {
  if (!(p >= 0 && p <= 1)) return Number.NaN
  if (p === 0) return -Infinity
  if (p === 1) return Infinity
  const q = p - 0.5
  if (Math.abs(q) <= 0.425) {
    const r = 0.180625 - q * q
    return (
      (q *
        (((((((2509.0809287301226727 * r + 33430.575583588128105) * r + 67265.770927008700853) * r +
          45921.953931549871457) *
          r +
          13731.693765509461125) *
          r +
          1971.5909503065514427) *
          r +
          133.14166789178437745) *
          r +
          3.387132872796366608)) /
      (((((((5226.495278852854561 * r + 28729.085735721942674) * r + 39307.89580009271061) * r +
        21213.794301586595867) *
        r +
        5394.1960214247511077) *
        r +
        687.1870074920579083) *
        r +
        42.313330701600911252) *
        r +
        1)
    )
  }
  let r = q < 0 ? p : 1 - p
  r = Math.sqrt(-Math.log(r))
  let x: number
  if (r <= 5) {
    r -= 1.6
    x =
      (((((((7.7454501427834140764e-4 * r + 0.0227238449892691845833) * r + 0.24178072517745061177) * r +
        1.27045825245236838258) *
        r +
        3.64784832476320460504) *
        r +
        5.7694972214606914055) *
        r +
        4.6303378461565452959) *
        r +
        1.42343711074968357734) /
      (((((((1.05075007164441684324e-9 * r + 5.475938084995344946e-4) * r + 0.0151986665636164571966) * r +
        0.14810397642748007459) *
        r +
        0.68976733498510000455) *
        r +
        1.6763848301838038494) *
        r +
        2.05319162663775882187) *
        r +
        1)
  } else {
    r -= 5
    x =
      (((((((2.01033439929228813265e-7 * r + 2.71155556874348757815e-5) * r + 0.0012426609473880784386) * r +
        0.026532189526576123093) *
        r +
        0.29656057182850489123) *
        r +
        1.7848265399172913358) *
        r +
        5.4637849111641143699) *
        r +
        6.6579046435011037772) /
      (((((((2.04426310338993978564e-15 * r + 1.4215117583164458887e-7) * r + 1.8463183175100546818e-5) * r +
        7.868691311456132591e-4) *
        r +
        0.0148753612908506148525) *
        r +
        0.13692988092273580531) *
        r +
        0.59983220655588793769) *
        r +
        1)
  }
  return q < 0 ? -x : x
}

/** Two-sided tail probability P(|T| >= |t|), computed directly (no 1 − cdf cancellation). */
export function tTwoSided(t: number, df: number): number {
  if (Number.isNaN(t) || !(df > 0)) return Number.NaN
  if (!Number.isFinite(t)) return 0
  return incompleteBeta(df / (df + t * t), df / 2, 0.5)
}

/** Student t quantile (scipy.stats.t.ppf): Newton's method on the upper tail ½ I_{df/(df+x²)}(df/2, ½), started from the normal quantile. */
export function tQuantile(p: number, df: number): number {
  if (!(p > 0 && p < 1) || !(df > 0)) return p === 0 ? -Infinity : p === 1 ? Infinity : Number.NaN
  if (p === 0.5) return 0
  if (p < 0.5) return -tQuantile(1 - p, df)
  // Upper tail: solve tail(x) = 1 − p with tail(x) = ½ I_{df/(df+x²)}(df/2, ½), monotone decreasing.
  const target = 1 - p
  const tail = (x: number): number => 0.5 * incompleteBeta(df / (df + x * x), df / 2, 0.5)
  const lnC = lgamma((df + 1) / 2) - lgamma(df / 2) - 0.5 * Math.log(df * Math.PI)
  const pdf = (x: number): number => Math.exp(lnC - ((df + 1) / 2) * Math.log1p((x * x) / df))
  let lo = 0
  let hi = Infinity
  let x = Math.max(normalQuantile(p), 1e-8)
  if (df < 3) x = Math.max(x, df === 1 ? Math.tan(Math.PI * (p - 0.5)) : x)
  for (let i = 0; i < 200; i++) {
    const f = tail(x) - target
    if (f > 0) lo = x
    else hi = x
    let next = x + f / pdf(x)
    if (!(next > lo && next < hi)) next = hi === Infinity ? 2 * x + 1 : (lo + hi) / 2
    if (Math.abs(next - x) <= 1e-15 * Math.abs(x)) return next
    x = next
  }
  return x
}

/**
 * The p quantile of the Beta(a, b) distribution (scipy.stats.beta.ppf): the x with I_x(a, b) = p, by bisection to
 * the last bit of x (I is increasing in x), so the result depends on (p, a, b) alone. The ends of the
 * Clopper–Pearson interval of a proportion (src/stats/level-interval.ts) are such quantiles.
 */
export function betaQuantile(p: number, a: number, b: number): number {
  if (!(p >= 0 && p <= 1) || !(a > 0) || !(b > 0)) return Number.NaN
  if (p === 0) return 0
  if (p === 1) return 1
  let lo = 0
  let hi = 1
  for (let i = 0; i < 1100; i++) {
    const mid = lo + (hi - lo) / 2
    if (mid <= lo || mid >= hi) break
    if (incompleteBeta(mid, a, b) < p) lo = mid
    else hi = mid
  }
  return lo + (hi - lo) / 2
}

/**
 * Order statistics of a bootstrap distribution, which is all an interval reads from it: a few quantiles, the
 * smallest and largest value, and how many resamples lie below a point. Sorting 10,000 resamples to read four
 * of them cost most of a gate with a thousand slice values (docs/scale.md); selecting them costs a few passes.
 *
 * Both views give the same numbers, to the bit: the value of a rank under the order Float64Array.prototype.sort
 * uses (ascending, -0 before 0, NaN last) is one and the same whatever the arrangement it is selected from.
 */

/** A bootstrap distribution as the intervals read it (src/stats/bca.ts). */
export interface Resamples {
  readonly size: number
  /** The value of rank r (0-based) in ascending order. */
  at: (r: number) => number
  /** How many resamples are below x (strict) or at most x; x finite. */
  rank: (x: number, strict: boolean) => number
}

/** A view of resamples already sorted ascending (Float64Array.prototype.sort): ranks are positions. */
export function sortedResamples(sorted: Float64Array): Resamples {
  return {
    size: sorted.length,
    at: (r) => sorted[r],
    rank(x, strict) {
      let lo = 0
      let hi = sorted.length
      while (lo < hi) {
        const mid = (lo + hi) >>> 1
        if (strict ? sorted[mid] < x : sorted[mid] <= x) lo = mid + 1
        else hi = mid
      }
      return lo
    }
  }
}

/**
 * A view of resamples in any order that finds a rank by selection (Floyd & Rivest 1975: a pivot chosen from a
 * sample lands next to the rank, so a selection costs about one pass), rearranging `values` in place (the
 * multiset, hence every answer, stays the same). Every position a partition settles is remembered, so the next
 * rank (the neighbour a type 7 quantile interpolates with, the other end of the interval, another confidence)
 * only partitions the gap between two settled positions. Resamples holding a NaN or a -0 (where `<` is not
 * the sort's order) are simply sorted first.
 */
export function selectableResamples(values: Float64Array): Resamples {
  const n = values.length
  for (let i = 0; i < n; i++) {
    const v = values[i]
    if (v !== v || (v === 0 && 1 / v < 0)) return sortedResamples(values.sort())
  }
  /** Settled positions, ascending: each holds the value of its rank, with every value before it at most that, every value after at least. */
  const settled: number[] = []
  const settle = (j: number): void => {
    const at = insertionPoint(settled, j)
    if (settled[at] !== j) settled.splice(at, 0, j)
  }
  return {
    size: n,
    at(r) {
      const next = insertionPoint(settled, r)
      if (settled[next] === r) return values[r]
      const lo = next > 0 ? settled[next - 1] + 1 : 0
      const hi = next < settled.length ? settled[next] - 1 : n - 1
      if (r === lo || r === hi) extreme(values, lo, hi, r === lo)
      else select(values, r, lo, hi, settle)
      settle(r)
      return values[r]
    },
    rank(x, strict) {
      let c = 0
      if (strict) for (let i = 0; i < n; i++) c += values[i] < x ? 1 : 0
      else for (let i = 0; i < n; i++) c += values[i] <= x ? 1 : 0
      return c
    }
  }
}

/** Local bindings: a global lookup of Math per call is slow in some hosts (Jest's vm context). */
const { exp, floor, log, max, min, sqrt } = Math

/** The first index of the ascending list whose value is at least x. */
function insertionPoint(list: number[], x: number): number {
  let lo = 0
  let hi = list.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (list[mid] < x) lo = mid + 1
    else hi = mid
  }
  return lo
}

/** Moves the smallest (or largest) value of a[lo..hi] to lo (or hi): one pass, for the ends BCa reads. */
function extreme(a: Float64Array, lo: number, hi: number, smallest: boolean): void {
  let best = smallest ? lo : hi
  for (let i = lo; i <= hi; i++) if (smallest ? a[i] < a[best] : a[i] > a[best]) best = i
  const to = smallest ? lo : hi
  const v = a[best]
  a[best] = a[to]
  a[to] = v
}

/**
 * Floyd-Rivest selection (as in the `quickselect` package): rearranges a[left..right] so that position k holds
 * the value of its rank, smaller-or-equal values before it, larger-or-equal after. No NaN in the range. Each
 * partition's pivot position is reported to `settle` (the recursive call on a sample settles positions of the
 * sample only, so it reports nothing).
 */
function select(a: Float64Array, k: number, left: number, right: number, settle: (j: number) => void): void {
  while (right > left) {
    if (right - left > 600) {
      const n = right - left + 1
      const m = k - left + 1
      const z = log(n)
      const s = 0.5 * exp((2 * z) / 3)
      const sd = 0.5 * sqrt((z * s * (n - s)) / n) * (m - n / 2 < 0 ? -1 : 1)
      select(a, k, max(left, floor(k - (m * s) / n + sd)), min(right, floor(k + ((n - m) * s) / n + sd)), ignore)
    }
    const t = a[k]
    let i = left
    let j = right
    swap(a, left, k)
    if (a[right] > t) swap(a, left, right)
    while (i < j) {
      swap(a, i, j)
      i++
      j--
      while (a[i] < t) i++
      while (a[j] > t) j--
    }
    if (a[left] === t) swap(a, left, j)
    else swap(a, ++j, right)
    settle(j)
    if (j <= k) left = j + 1
    if (k <= j) right = j - 1
  }
}

const ignore = (): void => undefined

function swap(a: Float64Array, i: number, j: number): void {
  const v = a[i]
  a[i] = a[j]
  a[j] = v
}

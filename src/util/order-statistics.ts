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
 * A view of resamples in any order that finds a rank by selection, rearranging `values` in place (the
 * multiset, hence every answer, stays the same). The first rank asked partitions the whole array once around
 * two thresholds taken from a sample, one just beyond that rank and one at its mirror (n - 1 - r): an
 * interval's two ends then lie in two small parts, each finished by Floyd-Rivest selection (a pivot from a
 * sample lands next to the rank). Every boundary a partition settles is remembered, so the next rank (the
 * neighbour a type 7 quantile interpolates with, the other end, another confidence) only partitions the gap
 * between two of them. Resamples holding a NaN or a -0 (where `<` is not the sort's order) are sorted instead.
 *
 * Selection is linear on average, but its pivots are taken at fixed places, so values arranged by an
 * adversary (the zero-hit table selects quantiles of metric values in query order, which the candidate
 * controls) could make it quadratic: after {@link STEPS_PER_VALUE} steps per value the view sorts the array
 * instead (O(n log n) whatever the order; the values are the same). `stepsPerValue` is for tests.
 */
export function selectableResamples(values: Float64Array, stepsPerValue = STEPS_PER_VALUE): Resamples {
  const n = values.length
  /** Cuts, ascending, 0 and n included: every value before a cut is at most every value from it on. */
  const cuts = [0, n]
  let sorted = false
  let started = false
  const budget = { steps: stepsPerValue * n + 4 * MAX_CUTS }
  const cut = (c: number): void => {
    const at = insertionPoint(cuts, c)
    // Cuts only spare later ranks work (fewer cuts, larger gaps, the same values), so their number is capped.
    if (cuts[at] !== c && cuts.length < MAX_CUTS) cuts.splice(at, 0, c)
  }
  const sortAll = (): void => {
    sorted = true
    values.sort()
  }
  const settle = (j: number): void => {
    cut(j)
    cut(j + 1)
  }
  const selection: Selection = { a: values, settle, budget }
  const first = (r: number): void => {
    started = true
    const split = n > SAMPLE * 4 ? tails(values, r) : ordinary(values) ? [] : null
    if (split === null) sortAll()
    else split.forEach(cut)
  }
  return {
    size: n,
    at(r) {
      if (!started) first(r)
      if (sorted) return values[r]
      const next = insertionPoint(cuts, r + 1)
      const lo = cuts[next - 1]
      const hi = cuts[next] - 1
      if (hi === lo) return values[r]
      if (hi - lo < SMALL_GAP) {
        insertionSort(values, lo, hi)
        for (let c = lo + 1; c <= hi; c++) cut(c)
        return values[r]
      }
      if (r === lo || r === hi) extreme(values, lo, hi, r === lo)
      else if (!select(selection, r, lo, hi)) {
        // Out of steps: the array is still the same values, rearranged; sorted, every rank is its position.
        sortAll()
        return values[r]
      }
      settle(r)
      return values[r]
    },
    rank(x, strict) {
      // Counting needs no order: NaN is below nothing and -0 equals 0, in the array as in its sorted copy.
      let c = 0
      if (strict) for (let i = 0; i < n; i++) c += values[i] < x ? 1 : 0
      else for (let i = 0; i < n; i++) c += values[i] <= x ? 1 : 0
      return c
    }
  }
}

/** Sample drawn (by stride) to place the first partition's thresholds; arrays of at most 4 samples skip that partition. */
const SAMPLE = 256

/** Gaps shorter than this are sorted whole. */
const SMALL_GAP = 16

/** Steps (values a partition pass looks at) a view may spend per value before it sorts instead. */
const STEPS_PER_VALUE = 32

/** Most cuts a view remembers; a pass is charged this much on top of its length, for the cut it inserts. */
const MAX_CUTS = 256

/** Sorts a[lo..hi] (no NaN in it): for a few values, faster than a typed array's sort. */
function insertionSort(a: Float64Array, lo: number, hi: number): void {
  for (let i = lo + 1; i <= hi; i++) {
    const v = a[i]
    let j = i - 1
    while (j >= lo && a[j] > v) {
      a[j + 1] = a[j]
      j--
    }
    a[j + 1] = v
  }
}

/** True when no value is NaN or -0. */
function ordinary(a: Float64Array): boolean {
  for (let i = 0; i < a.length; i++) {
    const v = a[i]
    if (v !== v || (v === 0 && 1 / v < 0)) return false
  }
  return true
}

/**
 * One pass over the whole array: values at most a low threshold to the front, values at least a high one to
 * the back, so that rank r and its mirror very likely fall in those two small parts. Returns the cuts made ([]
 * when the thresholds do not separate: few distinct values, or r near the middle), or null when a NaN or -0 was
 * met (the caller sorts).
 */
function tails(a: Float64Array, r: number): number[] | null {
  const n = a.length
  const sample = new Float64Array(SAMPLE)
  const stride = n / SAMPLE
  for (let i = 0; i < SAMPLE; i++) sample[i] = a[floor(i * stride)]
  // A NaN in the sample would mislead the selection in it (and the array would be sorted anyway).
  if (!ordinary(sample)) return null
  const low = min(r, n - 1 - r)
  const q = low / (n - 1)
  // Three standard deviations of the sample rank beyond the rank's expected place: rarely short of it.
  const index = min(SAMPLE - 1, ceil(q * (SAMPLE - 1) + 3 * sqrt(q * (1 - q) * SAMPLE) + 1))
  // 256 values: even a quadratic selection is cheap here, so no budget.
  const sampled: Selection = { a: sample, settle: ignore, budget: { steps: Infinity } }
  select(sampled, index, 0, SAMPLE - 1)
  const tLow = sample[index]
  select(sampled, SAMPLE - 1 - index, index + 1 <= SAMPLE - 1 - index ? index + 1 : 0, SAMPLE - 1)
  const tHigh = sample[SAMPLE - 1 - index]
  if (!(tLow < tHigh)) return ordinary(a) ? [] : null
  let lt = 0
  let gt = n - 1
  let i = 0
  while (i <= gt) {
    const v = a[i]
    if (v <= tLow) {
      if (v === 0 && 1 / v < 0) return null
      a[i++] = a[lt]
      a[lt++] = v
    } else if (v >= tHigh) {
      if (v === 0 && 1 / v < 0) return null
      a[i] = a[gt]
      a[gt--] = v
    } else if (v !== v || (v === 0 && 1 / v < 0)) return null
    else i++
  }
  return [lt, gt + 1].filter((c) => c > 0 && c < n)
}

/** Local bindings: a global lookup of Math per call is slow in some hosts (Jest's vm context). */
const { ceil, exp, floor, log, max, min, sqrt } = Math

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

/** The array a selection rearranges, who is told what it settles, and what it may spend. */
interface Selection {
  a: Float64Array
  /** Told each partition's pivot position (a boundary: nothing on either side of it moves across again). */
  settle: (j: number) => void
  /** Steps left (values a pass looks at); a selection that runs out stops unfinished. */
  budget: { steps: number }
}

/**
 * Floyd-Rivest selection (as in the `quickselect` package): rearranges a[left..right] so that position k holds
 * the value of its rank, smaller-or-equal values before it, larger-or-equal after. No NaN in the range. Each
 * partition's pivot position is reported to `settle` (the recursive call on a sample settles positions of the
 * sample only, so it reports nothing). Every pass is charged to `budget`; false when it ran out (the range is
 * then rearranged but unfinished).
 */
function select(selection: Selection, k: number, left: number, right: number): boolean {
  const { a, settle, budget } = selection
  let sampling: Selection | undefined
  while (right > left) {
    budget.steps -= right - left + 1 + MAX_CUTS
    if (budget.steps < 0) return false
    if (right - left > 600) {
      const n = right - left + 1
      const m = k - left + 1
      const z = log(n)
      const s = 0.5 * exp((2 * z) / 3)
      const sd = 0.5 * sqrt((z * s * (n - s)) / n) * (m - n / 2 < 0 ? -1 : 1)
      sampling ??= { a, settle: ignore, budget }
      if (!select(sampling, k, max(left, floor(k - (m * s) / n + sd)), min(right, floor(k + ((n - m) * s) / n + sd))))
        return false
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
  return true
}

const ignore = (): void => undefined

function swap(a: Float64Array, i: number, j: number): void {
  const v = a[i]
  a[i] = a[j]
  a[j] = v
}

/**
 * Sums in a fixed order with Neumaier compensation: the result does not depend on the platform, and a mean
 * of many small values keeps its last digits (a plain running sum of 0.1s drifts).
 */
export function sum(values: ArrayLike<number>, members?: ArrayLike<number>): number {
  let s = 0
  let c = 0
  const n = members ? members.length : values.length
  for (let k = 0; k < n; k++) {
    const x = members ? values[members[k]] : values[k]
    const t = s + x
    c += Math.abs(s) >= Math.abs(x) ? s - t + x : x - t + s
    s = t
  }
  return s + c
}

/** Mean over all values, or over the listed members; NaN for an empty set (callers check). */
export function mean(values: ArrayLike<number>, members?: ArrayLike<number>): number {
  const n = members ? members.length : values.length
  return n === 0 ? Number.NaN : sum(values, members) / n
}

/** Sample standard deviation (n - 1), NaN below two values. */
export function sampleSd(values: ArrayLike<number>, members?: ArrayLike<number>): number {
  const n = members ? members.length : values.length
  if (n < 2) return Number.NaN
  const m = mean(values, members)
  let ss = 0
  for (let k = 0; k < n; k++) {
    const x = (members ? values[members[k]] : values[k]) - m
    ss += x * x
  }
  return Math.sqrt(ss / (n - 1))
}

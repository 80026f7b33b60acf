/**
 * Smallest / largest of a list, in a loop. `Math.min(...values)` passes every element as an argument, and
 * V8 runs out of stack at around 45,000 of them ("Maximum call stack size exceeded"): the per_slice path
 * died that way on a slice attribute with many values. Use these for any list whose length the input sets.
 */

/** The smallest value (Infinity for an empty list, as Math.min() gives); NaN if any value is NaN. */
export function minOf(values: Iterable<number>): number {
  let min = Infinity
  for (const v of values) {
    if (Number.isNaN(v)) return NaN
    if (v < min) min = v
  }
  return min
}

/** The largest value (-Infinity for an empty list, as Math.max() gives); NaN if any value is NaN. */
export function maxOf(values: Iterable<number>): number {
  let max = -Infinity
  for (const v of values) {
    if (Number.isNaN(v)) return NaN
    if (v > max) max = v
  }
  return max
}

/** Appends every item to `target` one by one (`target.push(...items)` has the same argument limit). */
export function pushAll<T>(target: T[], items: Iterable<T>): void {
  for (const item of items) target.push(item)
}

/**
 * A list an answer input can grow is never written whole: the ids a candidate invents, the manifest fields it adds.
 * 60,000 invented ids grew a 100 KB JSON report to 1 MB; a report lists the first {@link MAX_LISTED} of such a list
 * (already in a stable order) and gives the count, so its size follows the exam and the rules, not the answer.
 */

/** How many items of an answer-grown list a report writes out. */
export const MAX_LISTED = 20

/** The first items of `list`, at most {@link MAX_LISTED}. */
export function firstListed<T>(list: readonly T[]): T[] {
  return list.slice(0, MAX_LISTED)
}

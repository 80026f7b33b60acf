import { clean } from './escape.js'

/** Longest name or value a slice label quotes (a hostile 10,000-character slice value is cut, not repeated). */
const NAME = 60

/** "segment = new, category = faq" or "all queries"; each name and value cut at 60 code points (RAW text). */
export function sliceLabel(slice: ReadonlyArray<readonly [string, string]>): string {
  return slice.length === 0 ? 'all queries' : slice.map(([k, v]) => `${clean(k, NAME)} = ${clean(v, NAME)}`).join(', ')
}

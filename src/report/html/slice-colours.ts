import type { Rules } from '../../config/types.js'
import type { PairedTable } from '../../align/pair.js'

/**
 * The colours of the scatter's points: one per value of the first slice attribute of the rules (`slices[0]`),
 * for its {@link SLICE_COLOURS} largest values (most queries first, ties in code-unit order of the value, so the
 * same inputs give the same colours), and one more, grey, for every other value. Seven is about as many colours
 * as a reader tells apart (the Okabe-Ito set in style.ts, chosen to stay distinct with colour-blindness).
 */
export const SLICE_COLOURS = 7

export interface SliceColours {
  attribute: string
  /** The coloured values, colour 0 first, with their query counts. */
  values: Array<{ value: string; count: number }>
  /**
   * Queries of the values without a colour of their own (drawn grey), how many such values there are, and the
   * value itself when it is the only one (the legend names it rather than saying "1 other value").
   */
  other: { count: number; values: number; only?: string }
  /** The colour of table row `i`: 0 .. SLICE_COLOURS - 1, or SLICE_COLOURS for grey. */
  of: (i: number) => number
  /** The slice value of table row `i` (for a point's tooltip). */
  valueAt: (i: number) => string
}

/** The colours, or null when the rules declare no slice attribute (every point then has one colour). */
export function sliceColours(rules: Rules, table: PairedTable): SliceColours | null {
  const attribute = rules.slices[0]
  const column = attribute === undefined ? undefined : table.attrs.get(attribute)
  if (attribute === undefined || column === undefined) return null
  const counts = new Map<string, number>()
  for (const v of column) counts.set(v, (counts.get(v) ?? 0) + 1)
  const ranked = [...counts.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
  const values = ranked.slice(0, SLICE_COLOURS).map(([value, count]) => ({ value, count }))
  const index = new Map(values.map((v, k) => [v.value, k]))
  const rest = ranked.slice(SLICE_COLOURS)
  return {
    attribute,
    values,
    other: {
      count: rest.reduce((n, [, c]) => n + c, 0),
      values: rest.length,
      ...(rest.length === 1 ? { only: rest[0][0] } : {})
    },
    of: (i) => index.get(column[i]) ?? SLICE_COLOURS,
    valueAt: (i) => column[i]
  }
}

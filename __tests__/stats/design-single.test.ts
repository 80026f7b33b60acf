/**
 * A design of single queries (no clusters) is built without an array per query (src/stats/design.ts): every
 * unit's value must still be what the compensated sum of its one member gives, bit for bit (-0 becomes 0, an
 * infinite value NaN), in strata order.
 */
import { describe, expect, it } from '@jest/globals'
import { designOf } from './helpers.js'

/** The compensated sum of one term, as buildDesign computes it for a cluster. */
function oneTerm(x: number): number {
  let s = 0
  let comp = 0
  const t = s + x
  comp += Math.abs(s) >= Math.abs(x) ? s - t + x : x - t + s
  s = t
  return s + comp
}

describe('single-query designs', () => {
  it('hold each value as the one-term compensated sum, in strata order', () => {
    const column = [0.25, -0, 0, Infinity, -Infinity, Number.NaN, -3.5, 1e-320, 7]
    const seg = ['b', 'a', 'b', 'a', 'b', 'a', 'b', 'a', 'b']
    const weights = {
      by: 'seg',
      target: [
        ['a', 0.5],
        ['b', 0.5]
      ] as Array<[string, number]>
    }
    for (const design of [designOf([column]), designOf([column], { seg }, { weights })]) {
      const order = design.strata.length === 1 ? column.map((_, i) => i) : [1, 3, 5, 7, 0, 2, 4, 6, 8]
      expect(Array.from(design.values)).toEqual(order.map((i) => oneTerm(column[i])))
      expect(Object.is(design.values[order.indexOf(1)], 0)).toBe(true)
      expect(Array.from(design.unitOfMember)).toEqual(column.map((_, i) => order.indexOf(i)))
    }
  })
})

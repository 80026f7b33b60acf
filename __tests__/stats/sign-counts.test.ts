/**
 * The sign-flip test by counts (src/stats/randomization.ts, the sign-count kernel of src/stats/kernels.ts): a
 * column with few distinct |y| draws, per pattern, the number of plus signs among the m units holding each value
 * (binomial(m, ½): counted random bits, or BTRD above 2048 units) instead of flipping every unit. The law of T is
 * the same; the p-values are checked against the exact binomial law (scipy calls next to each value).
 */
import { describe, expect, it } from '@jest/globals'
import { signFlipPlan } from '../../src/stats/randomization.js'
import { statsKernels } from '../../src/stats/kernels.js'
import { blockState } from '../../src/stats/rng.js'
import { createRunner } from '../../src/stats/threads.js'
import { designOf, signFlipTest } from './helpers.js'

/** n values: `plus` of +1, `minus` of −1, the rest 0. */
const column = (n: number, plus: number, minus: number): number[] =>
  Array.from({ length: n }, (_, i) => (i < plus ? 1 : i < plus + minus ? -1 : 0))

describe('plus signs among m fair signs', () => {
  const kernels = statsKernels()
  // m = 5: one partial word; 100: three words and a remainder; 5000: one BTRD binomial(5000, ½) draw.
  for (const m of [5, 100, 5000]) {
    it(`m = ${m}: integers in [0, m] with mean m/2 and variance m/4 (binomial(m, ½), by hand)`, () => {
      const draws = 40_000
      const x = kernels.plusSigns(blockState('7', `plus ${m}`, 0), m, draws)
      let mean = 0
      for (const v of x) mean += v
      mean /= draws
      let m2 = 0
      for (const v of x) m2 += (v - mean) ** 2
      const variance = m2 / (draws - 1)
      expect(x.every((v) => Number.isInteger(v) && v >= 0 && v <= m)).toBe(true)
      expect(Math.abs(mean - m / 2)).toBeLessThan(5 * Math.sqrt(m / 4 / draws))
      expect(Math.abs(variance / (m / 4) - 1)).toBeLessThan(5 * Math.sqrt(2 / draws))
    })
  }

  it('m = 5: the frequency of every count is C(5, k) / 32 (hand calculation), within 5 standard errors', () => {
    const draws = 64_000
    const x = kernels.plusSigns(blockState('7', 'plus 5 law', 0), 5, draws)
    const exact = [1, 5, 10, 10, 5, 1].map((c) => c / 32)
    exact.forEach((p, k) => {
      const share = x.filter((v) => v === k).length / draws
      expect(Math.abs(share - p)).toBeLessThan(5 * Math.sqrt((p * (1 - p)) / draws))
    })
  })
})

describe('sign-flip test by counts', () => {
  it('a binary difference is drawn by counts, a continuous one is flipped unit by unit', () => {
    const continuous = Array.from({ length: 100 }, (_, i) => Math.sin(i + 1))
    const plan = signFlipPlan(designOf([column(100, 30, 10), continuous]), {
      permutations: 2000,
      seed: '1',
      stream: 'all'
    })
    expect(plan.jobs.map((j) => [j.kind, j.k])).toEqual([
      ['flip', 1],
      ['signcount', 1]
    ])
  })

  it('30 of 40 nonzero differences positive: p matches the exact sign test', () => {
    // Flipping 40 units of |y| = 1/100: |T*| >= |T| iff the plus signs are >= 30 or <= 10, so
    // p = 2 · P(Bin(40, ½) >= 30) = 0.0022214337732293643 (/usr/bin/python3: scipy.stats.binomtest(30, 40, 0.5).pvalue).
    const permutations = 200_000
    const r = signFlipTest(designOf([column(100, 30, 10)]), { permutations, seed: '1', stream: 'all' })
    const exact = 0.0022214337732293643
    expect(r.exact).toBe(false)
    expect(r.permutations).toBe(permutations)
    expect(Math.abs(r.pValues[0] - exact)).toBeLessThan(5 * Math.sqrt((exact * (1 - exact)) / permutations))
  })

  it('5000 units (one BTRD draw per pattern): p matches the exact sign test, and the same bits on worker threads', () => {
    // 2550 plus, 2450 minus: p = 2 · P(Bin(5000, ½) >= 2550) = 0.16148522239737653
    // (/usr/bin/python3: 2 * scipy.stats.binom.sf(2549, 5000, 0.5)).
    const permutations = 20_000
    const design = designOf([column(5000, 2550, 2450), column(5000, 2450, 2550)])
    const r = signFlipTest(design, { permutations, seed: '1', stream: 'all' })
    const exact = 0.16148522239737653
    for (const p of r.pValues)
      expect(Math.abs(p - exact)).toBeLessThan(5 * Math.sqrt((exact * (1 - exact)) / permutations))
    const threaded = signFlipTest(design, { permutations, seed: '1', stream: 'all' }, createRunner(2, { minWork: 0 }))
    expect([...threaded.pValues]).toEqual([...r.pValues])
  })

  it('does not depend on the order of the units', () => {
    const c = column(300, 120, 60).map((v, i) => v * (1 + (i % 7)))
    const reversed = [...c].reverse()
    const a = signFlipTest(designOf([c]), { permutations: 5000, seed: '1', stream: 'all' })
    const b = signFlipTest(designOf([reversed]), { permutations: 5000, seed: '1', stream: 'all' })
    expect(signFlipPlan(designOf([c]), { permutations: 5000, seed: '1', stream: 'all' }).jobs[0].kind).toBe('signcount')
    expect([...b.pValues]).toEqual([...a.pValues])
  })
})

/**
 * Judge anchors and diagnostics (rules `judge:`, docs/trust.md "Judge anchors"). Reference values come from
 * statsmodels 0.13.5 and scipy 1.10.1 (Debian's /usr/bin/python3), each with its exact call beside it.
 */
import { MAX_SLICE_VALUES } from '../../src/align/slice-values.js'
import { describe, expect, it } from '@jest/globals'
import { kappaOfTable } from '../../src/capabilities/judge/kappa.js'
import { pearson, slope, spearman } from '../../src/stats/correlation.js'
import { judgeAgreement, sliceAgreement } from '../../src/capabilities/judge/agreement.js'
import type { AnchorItem } from '../../src/capabilities/judge/anchors.js'
import { refusal } from '../helpers.js'

// Two 0..2 and 0..3 graded tables (rows: human, columns: judge).
const T3 = [5, 2, 0, 1, 6, 2, 0, 1, 3]
const T4 = [8, 3, 1, 0, 2, 7, 3, 1, 0, 2, 6, 2, 1, 0, 2, 4]

describe("Cohen's kappa against statsmodels", () => {
  // /usr/bin/python3 -c "from statsmodels.stats.inter_rater import cohens_kappa; import numpy as np; t=np.array([[5,2,0],[1,6,2],[0,1,3]]); print([cohens_kappa(t, wt=w).kappa for w in (None, 'linear', 'quadratic')])"
  // -> [0.5330739299610894, 0.620253164556962, 0.7235023041474654]
  it('3 labels: unweighted, linear, quadratic', () => {
    expect(kappaOfTable(T3, 3, 'none').kappa).toBeCloseTo(0.5330739299610894, 12)
    expect(kappaOfTable(T3, 3, 'linear').kappa).toBeCloseTo(0.620253164556962, 12)
    expect(kappaOfTable(T3, 3, 'quadratic').kappa).toBeCloseTo(0.7235023041474654, 12)
  })

  // /usr/bin/python3 -c "from statsmodels.stats.inter_rater import cohens_kappa; import numpy as np; t=np.array([[8,3,1,0],[2,7,3,1],[0,2,6,2],[1,0,2,4]]); print([cohens_kappa(t, wt=w).kappa for w in (None, 'linear', 'quadratic')])"
  // -> [0.4537107880642693, 0.5714285714285714, 0.6646058732612055]
  // statsmodels writes disagreement weights |i-j| and (i-j)^2; we write agreement weights 1-|i-j|/(k-1) and
  // 1-(i-j)^2/(k-1)^2. Kappa does not change when the weights are rescaled, so both give these values.
  it('4 labels: unweighted, linear, quadratic', () => {
    expect(kappaOfTable(T4, 4, 'none').kappa).toBeCloseTo(0.4537107880642693, 12)
    expect(kappaOfTable(T4, 4, 'linear').kappa).toBeCloseTo(0.5714285714285714, 12)
    expect(kappaOfTable(T4, 4, 'quadratic').kappa).toBeCloseTo(0.6646058732612055, 12)
  })

  // /usr/bin/python3 -c "from statsmodels.stats.inter_rater import cohens_kappa; import numpy as np; print(cohens_kappa(np.array([[7]])).kappa)"
  // -> nan (0/0: chance agreement is 1). The gate says null, never NaN.
  it('one label only: kappa is undefined (null), never NaN', () => {
    expect(kappaOfTable([7], 1, 'none').kappa).toBeNull()
    expect(kappaOfTable([7, 0, 0, 0], 2, 'linear').kappa).toBeNull()
    expect(kappaOfTable([0, 0, 0, 0], 2, 'none')).toEqual({ kappa: null, observed: null, expected: null })
  })
})

/** Anchor items with the human label as row and the judge's as column of a k x k table. */
function itemsOf(table: number[], k: number, candidate?: number[]): AnchorItem[] {
  const items: AnchorItem[] = []
  const cand: string[] = []
  if (candidate)
    candidate.forEach((c, cell) => {
      for (let r = 0; r < c; r++) cand.push(String(cell % k))
    })
  table.forEach((count, cell) => {
    for (let r = 0; r < count; r++) {
      const id = `i${String(items.length).padStart(3, '0')}`
      const judge = String(cell % k)
      items.push({
        id,
        line: items.length + 1,
        human: String(Math.floor(cell / k)),
        attrs: new Map(),
        scorings: [
          {
            line: items.length + 1,
            baseline: judge,
            candidate: candidate ? cand[items.length] : judge,
            baselineSwapped: null,
            candidateSwapped: null
          }
        ]
      })
    }
  })
  return items
}

describe('agreement over anchor items', () => {
  const options = { weights: 'linear' as const, confidence: 0.95 }
  it("the point kappa and raw agreement are the table's (statsmodels value above); the interval holds it and depends on nothing else", () => {
    const a = sliceAgreement({ slice: [], items: itemsOf(T3, 3), sameJudge: true }, ['0', '1', '2'], options)
    expect(a.baseline.kappa).toBeCloseTo(0.620253164556962, 12)
    expect(a.baseline.raw).toBeCloseTo(14 / 20, 12) // hand: diagonal 5 + 6 + 3 of 20
    const [lo, hi] = a.baseline.interval as [number, number]
    expect(lo).toBeLessThan(0.620253164556962)
    expect(hi).toBeGreaterThan(0.620253164556962)
    expect(
      sliceAgreement({ slice: [], items: [...itemsOf(T3, 3)].reverse(), sameJudge: true }, ['0', '1', '2'], options)
        .baseline.interval
    ).toEqual(a.baseline.interval)
    expect(a.baseline.undefinedLeaveOneOut).toBe(0)
  })

  it('a per_slice attribute with more than MAX_SLICE_VALUES values (an id, not a task) is refused before any resampling', async () => {
    const items = Array.from({ length: MAX_SLICE_VALUES + 1 }, (_, i): AnchorItem => ({
      id: `a${i}`,
      line: i + 1,
      human: '1',
      attrs: new Map([['task', `t${i}`]]),
      scorings: [{ line: i + 1, baseline: '1', candidate: '1', baselineSwapped: null, candidateSwapped: null }]
    }))
    const e = await refusal(() =>
      judgeAgreement(
        { source: 'anchors.jsonl', candidateSource: null, sameJudge: true, items, labels: new Set(['1']) },
        ['1'],
        'task',
        options
      )
    )
    expect(e.where).toMatchObject({ file: 'anchors.jsonl', key: 'judge.per_slice' })
  })

  it('the same labels on both sides: drift 0 without an interval (a point is no evidence, so max_drop stays undecided)', () => {
    const a = sliceAgreement({ slice: [], items: itemsOf(T3, 3, T3), sameJudge: false }, ['0', '1', '2'], options)
    expect(a.drift).toEqual({ delta: 0, interval: null, unitSkew: -0 })
  })
})

describe('length bias against scipy', () => {
  // /usr/bin/python3 -c "from scipy import stats; x=[120,-40,300,0,75,-10,200,50,0,-120]; y=[0.2,-0.1,0.5,0.0,0.1,0.1,0.3,0.0,-0.2,-0.3]; print(stats.spearmanr(x,y).correlation, stats.pearsonr(x,y)[0], stats.linregress(x,y).slope)"
  // -> 0.8654474719182605 0.9411309464370866 0.0018146611341632087
  const x = [120, -40, 300, 0, 75, -10, 200, 50, 0, -120]
  const y = [0.2, -0.1, 0.5, 0.0, 0.1, 0.1, 0.3, 0.0, -0.2, -0.3]
  it('Spearman (ties at mid-ranks), Pearson, slope', () => {
    expect(spearman(x, y)).toBeCloseTo(0.8654474719182605, 12)
    expect(pearson(x, y)).toBeCloseTo(0.9411309464370866, 12)
    expect(slope(x, y)).toBeCloseTo(0.0018146611341632087, 14)
  })
  it('a constant column or fewer than 3 pairs: undefined (null)', () => {
    expect(spearman([1, 1, 1], [1, 2, 3])).toBeNull()
    expect(pearson([1, 2], [1, 2])).toBeNull()
    expect(slope([2, 2, 2], [1, 2, 3])).toBeNull()
  })
  it('a non-finite value: null, never NaN', () => {
    expect(pearson([1, 2, Number.NaN], [1, 2, 3])).toBeNull()
    expect(pearson([1, 2, Infinity], [1, 2, 3])).toBeNull()
    expect(slope([1, 2, 3], [1, Number.NaN, 3])).toBeNull()
  })
})

/**
 * The intervals statistics.interval auto chooses (src/stats/interval-choice.ts), against reference values.
 * Provenance: __tests__/stats/reference-intervals.py (Debian's /usr/bin/python3: scipy 1.10.1, numpy 1.24.2,
 * statsmodels 0.13.5) printed every number below from the published definitions, by other routes than the gate's
 * (Tango: a numerical maximum likelihood, not the closed-form root; kappa: statsmodels' cohens_kappa per table).
 */
import { describe, expect, it } from '@jest/globals'
import { chooseInterval, unreliableInterval } from '../../src/stats/interval-choice.js'
import { jackknifeT, sliceAgreement } from '../../src/stats/judge-agreement.js'
import { pairedScoreInterval } from '../../src/stats/score-interval.js'
import { seedInterval } from '../../src/stats/seed-interval.js'
import { inverseHall, skewTInterval } from '../../src/stats/skew-t.js'
import { tiedBound } from '../../src/stats/tied-bound.js'
import type { AnchorItem } from '../../src/readers/anchors.js'
import { designOf } from './helpers.js'

const close = (actual: number, expected: number, tol: number): void => {
  expect(Math.abs(actual - expected)).toBeLessThanOrEqual(tol)
}

describe("Tango's score interval for paired proportions", () => {
  it('matches the published example: contingencytables::Tango_asymptotic_score_CI_paired_2x2(cavo_2012)', () => {
    // R contingencytables 3.0.0 tests: "score CI: estimate = -0.0621 (95% CI -0.1240 to -0.0054)" for
    // n = [[59, 6], [16, 80]] (n12 = 6, n21 = 16); reference-intervals.py: [-0.12402343245293418, -0.005433395251982244].
    const [lo, hi] = pairedScoreInterval(6, 16, 161, 0.95)
    close(lo, -0.12402343245293418, 1e-9)
    close(hi, -0.005433395251982244, 1e-9)
    expect(lo.toFixed(4)).toBe('-0.1240')
    expect(hi.toFixed(4)).toBe('-0.0054')
  })

  it('matches a numerical maximum likelihood on small and sparse tables (reference-intervals.py "tango")', () => {
    const cases: Array<[number, number, number, [number, number]]> = [
      [1, 4, 40, [-0.21138459262522258, 0.046564178552977765]],
      [0, 3, 30, [-0.25621083284466506, 0.02486473371079602]],
      [12, 5, 50, [-0.023181151536468176, 0.2999794563877058]],
      [3, 0, 10, [-0.06079263931647362, 0.6032218525388603]]
    ]
    for (const [g, l, n, [lo, hi]] of cases) {
      const ci = pairedScoreInterval(g, l, n, 0.95)
      close(ci[0], lo, 1e-8)
      close(ci[1], hi, 1e-8)
    }
    const ci99 = pairedScoreInterval(1, 4, 40, 0.99)
    close(ci99[0], -0.26550770770949955, 1e-8)
    close(ci99[1], 0.10300299974481208, 1e-8)
  })

  it('never collapses: 40 queries all tied give ±0.0876, which a 0.05 margin cannot pass', () => {
    const [lo, hi] = pairedScoreInterval(0, 0, 40, 0.95)
    close(lo, -0.08762160504944823, 1e-8)
    close(hi, 0.08762160119729466, 1e-8)
    expect(lo).toBeLessThan(-0.05)
  })

  it('reaches -1 and 1 at the ends and refuses impossible counts', () => {
    expect(pairedScoreInterval(0, 30, 30, 0.95)[0]).toBe(-1)
    expect(pairedScoreInterval(30, 0, 30, 0.95)[1]).toBe(1)
    expect(pairedScoreInterval(3, 3, 5, 0.95)[0]).toBeNaN()
    expect(pairedScoreInterval(0, 0, 0, 0.95)[0]).toBeNaN()
  })
})

describe("Hall's skew-corrected t", () => {
  // 30 unchanged queries, 13 small gains, two large losses (reference-intervals.py "hall_skewed").
  const skewed = [
    ...Array.from({ length: 30 }, () => 0),
    0.02,
    0.05,
    0.01,
    0.03,
    0.04,
    0.02,
    0.06,
    0.01,
    0.03,
    0.05,
    0.02,
    0.04,
    0.01,
    -0.6,
    -0.45
  ]

  it('equals the formula with scipy.stats.skew(bias=True) and scipy.stats.t.ppf, and reaches much lower than t', () => {
    const t = skewTInterval(designOf([skewed]), 0, 0.95)
    expect(t).not.toBeNull()
    close(t!.se, 0.01693600551571364, 1e-15)
    close(t!.skew, -0.6573083724743309, 1e-12)
    expect(t!.df).toBe(44)
    close(t!.ci[0], -0.14876095512884704, 1e-9)
    close(t!.ci[1], 0.009364714117397137, 1e-9)
    // scipy.stats.t.interval(0.95, 44, loc=mean, scale=sem): the symmetric interval stops at -0.0488.
    expect(t!.ci[0]).toBeLessThan(-0.048798942946902624 - 0.09)
  })

  it('uses the cluster-robust terms with clusters - 1 df for query-weighted clusters (reference "hall_clusters")', () => {
    const groups = [
      [0.1, 0.0, 0.2],
      [0.0, -0.1],
      [0.3, 0.1, 0.0, 0.2],
      [-0.5, -0.4, -0.6],
      [0.05, 0.0],
      [0.1, 0.1, 0.0]
    ]
    const values = groups.flat()
    const labels = groups.flatMap((g, i) => g.map(() => `c${i}`))
    const t = skewTInterval(designOf([values], { user: labels }, { cluster: 'user' }), 0, 0.95)
    expect(t!.df).toBe(5)
    close(t!.se, 0.10688110272676625, 1e-14)
    close(t!.skew, -0.534200538531301, 1e-12)
    close(t!.ci[0], -1.0764793477367145, 1e-9)
    close(t!.ci[1], 0.168540566178471, 1e-9)
  })

  it('is the t interval without skew, and g^-1 is precise near zero skew', () => {
    expect(inverseHall(2.0, 0)).toBe(2.0)
    // g(T) = T + aT²/3 + a²T³/27 + a/6 inverted: g(g⁻¹(x)) = x for tiny and large a.
    for (const a of [1e-10, -1e-6, 0.3, -2]) {
      const x = 1.96
      const t = inverseHall(x, a)
      close(t + (a * t * t) / 3 + (a * a * t * t * t) / 27 + a / 6, x, 1e-12)
    }
  })

  it('is null without spread (rounding of equal differences is no spread)', () => {
    expect(skewTInterval(designOf([[0.1, 0.1, 0.1]]), 0, 0.95)).toBeNull()
    expect(skewTInterval(designOf([[0, 0, 0, 0]]), 0, 0.95)).toBeNull()
  })
})

describe('equal differences: the rule-of-three bound', () => {
  it('bounds the share of unseen queries that could differ, 1 - (alpha/2)^(1/n), times the range', () => {
    // python: 1 - 0.025 ** (1 / 1000) = 0.00368208389686564; n = 40: 0.08809730287880235, and with c = 0.02
    // (range 1): 0.02 - p * 1.02 = -0.0698592489363784, 0.02 + p * 0.98 = 0.1063353568212263.
    const [lo, hi] = tiedBound(0, 1000, 1, 0.95)
    close(lo, -0.00368208389686564, 1e-15)
    close(hi, 0.00368208389686564, 1e-15)
    const shifted = tiedBound(0.02, 40, 1, 0.95)
    close(shifted[0], -0.0698592489363784, 1e-15)
    close(shifted[1], 0.1063353568212263, 1e-15)
    expect(tiedBound(0.5, 2, 1, 0.95)[1]).toBeLessThanOrEqual(1)
  })
})

describe('t over seeds and queries', () => {
  const base2 = [
    [0.5, 0.61, 0.42, 0.7, 0.55, 0.38, 0.66, 0.47],
    [0.53, 0.6, 0.47, 0.69, 0.58, 0.41, 0.64, 0.5]
  ].map((r) => Float64Array.from(r))
  const cand3 = [
    [0.65, 0.51, 0.4, 0.88, 0.49, 0.55, 0.7, 0.38],
    [0.62, 0.55, 0.49, 0.84, 0.5, 0.5, 0.66, 0.41],
    [0.68, 0.53, 0.45, 0.9, 0.52, 0.57, 0.73, 0.4]
  ].map((r) => Float64Array.from(r))

  it('2 and 3 seeds: both sides measured, Hsu df min(2, 3) - 1 for the seed part (reference "seeds_2_3")', () => {
    const t = seedInterval({ base: base2, cand: cand3 }, 0.95)!
    expect(t.training).toBe('measured')
    close(t.estimate, 0.03520833333333337, 1e-15)
    close(t.queryVariance, 0.0013740079365079367, 1e-15)
    close(t.seedVariance, 0.00014639756944444447, 1e-16)
    close(t.df, 7.940155720708139, 1e-9)
    close(t.ci[0], -0.054826348873558514, 1e-9)
    close(t.ci[1], 0.12524301554022527, 1e-9)
  })

  it('1 and 3 seeds: the baseline\'s training variance is taken to be the candidate\'s (reference "seeds_1_3")', () => {
    const t = seedInterval({ base: base2.slice(0, 1), cand: cand3 }, 0.95)!
    expect(t.training).toBe('assumed_from_candidate')
    close(t.seedVariance, 0.00032152777777777464, 1e-16)
    close(t.df, 8.97438736840887, 1e-9)
    close(t.ci[0], -0.04740537564911946, 1e-9)
    close(t.ci[1], 0.13407204231578618, 1e-9)
  })

  it('is null with one seed on each side: nothing measured training variance', () => {
    expect(seedInterval({ base: base2.slice(0, 1), cand: cand3.slice(0, 1) }, 0.95)).toBeNull()
  })
})

describe('kappa intervals by the jackknife over items', () => {
  // (human, baseline judge, candidate judge) on 0..2, as in reference-intervals.py.
  const rows: Array<[number, number, number]> = [
    [0, 0, 0],
    [0, 0, 1],
    [0, 1, 0],
    [0, 0, 0],
    [0, 0, 0],
    [0, 0, 1],
    [1, 1, 1],
    [1, 1, 2],
    [1, 0, 1],
    [1, 1, 1],
    [1, 2, 1],
    [1, 1, 0],
    [1, 1, 1],
    [1, 1, 2],
    [2, 2, 2],
    [2, 2, 1],
    [2, 1, 2],
    [2, 2, 2],
    [2, 2, 1],
    [2, 2, 2],
    [0, 0, 0],
    [1, 1, 1],
    [2, 2, 0],
    [0, 1, 1]
  ]
  const items: AnchorItem[] = rows.map(([h, b, c], i) => ({
    id: `a${String(i).padStart(2, '0')}`,
    line: i + 1,
    human: String(h),
    attrs: new Map(),
    scorings: [
      { line: i + 1, baseline: String(b), candidate: String(c), baselineSwapped: null, candidateSwapped: null }
    ]
  }))

  it('linear weights: kappa on the atanh scale and the paired drift (statsmodels cohens_kappa per leave-one-out table)', () => {
    const a = sliceAgreement({ slice: [], items, sameJudge: false }, ['0', '1', '2'], {
      weights: 'linear',
      confidence: 0.95
    })
    close(a.baseline.kappa as number, 0.7530864197530864, 1e-12)
    close(a.baseline.interval![0], 0.41672261327810955, 1e-10)
    close(a.baseline.interval![1], 0.9080639348706233, 1e-10)
    close(a.candidate!.interval![0], 0.11692492586308886, 1e-10)
    close(a.candidate!.interval![1], 0.7486940936079292, 1e-10)
    close(a.drift!.delta as number, -0.25728810042535544, 1e-12)
    close(a.drift!.interval![0], -0.6651172704448198, 1e-10)
    close(a.drift!.interval![1], 0.150541069594109, 1e-10)
  })

  it('unweighted: the same construction (reference "kappa_jackknife_none")', () => {
    const a = sliceAgreement({ slice: [], items, sameJudge: false }, ['0', '1', '2'], {
      weights: 'none',
      confidence: 0.95
    })
    close(a.baseline.interval![0], 0.29171136394176334, 1e-10)
    close(a.baseline.interval![1], 0.8802013296491497, 1e-10)
    close(a.drift!.interval![0], -0.7131916968160832, 1e-10)
    close(a.drift!.interval![1], 0.20327126800424916, 1e-10)
  })

  it('gives no interval (never a point) when the leave-one-out values do not vary', () => {
    expect(jackknifeT(0.5, [0.5, 0.5, 0.5], 2)).toBeNull()
  })
})

describe('which interval, and when it is no evidence', () => {
  it('auto: score for binary metrics on independent queries, skew-corrected t otherwise; the rules may ask for the bootstrap', () => {
    expect(chooseInterval('auto', true, true)).toBe('score')
    expect(chooseInterval('auto', true, false)).toBe('skew-t')
    expect(chooseInterval('auto', false, true)).toBe('skew-t')
    expect(chooseInterval('percentile', true, true)).toBe('percentile')
    expect(chooseInterval('bca', false, true)).toBe('bca')
  })

  it('a zero-width interval, one cluster, a one-unit stratum, or too few units for the skew-corrected t cannot support a pass', () => {
    const forty = Array.from({ length: 40 }, (_, i) => (i % 7) / 100)
    expect(unreliableInterval('skew-t', designOf([forty]), [-0.01, 0.02])).toBeNull()
    expect(unreliableInterval('skew-t', designOf([forty.slice(0, 39)]), [-0.01, 0.02])).toBe('few_queries')
    expect(unreliableInterval('score', designOf([forty.slice(0, 39)]), [-0.01, 0.02])).toBeNull()
    expect(unreliableInterval('percentile', designOf([[0, 0, 0]]), [0, 0])).toBe('no_spread')
    const labels = (g: number): string[] => forty.map((_, i) => `c${i % g}`)
    expect(
      unreliableInterval('skew-t', designOf([forty], { user: labels(1) }, { cluster: 'user' }), [-0.01, 0.02])
    ).toBe('few_clusters')
    expect(
      unreliableInterval('percentile', designOf([forty], { user: labels(1) }, { cluster: 'user' }), [-0.01, 0.02])
    ).toBe('few_clusters')
    expect(
      unreliableInterval('skew-t', designOf([forty], { user: labels(19) }, { cluster: 'user' }), [-0.01, 0.02])
    ).toBe('few_clusters')
    expect(
      unreliableInterval('skew-t', designOf([forty], { user: labels(20) }, { cluster: 'user' }), [-0.01, 0.02])
    ).toBeNull()
    expect(unreliableInterval('percentile', designOf([[0.1]]), [0.1, 0.1])).toBe('single_unit_stratum')
  })
})

/**
 * The intervals of the decision core (src/stats/law.ts, interval.ts, reliability.ts), against reference values.
 * Provenance: __tests__/stats/reference-intervals.py (Debian's /usr/bin/python3: scipy 1.10.1, numpy 1.24.2,
 * statsmodels 0.13.5) printed every number below from the published definitions, by other routes than the gate's
 * (Tango: a numerical maximum likelihood, not the closed-form root; kappa: statsmodels' cohens_kappa per table).
 */
import { describe, expect, it } from '@jest/globals'
import { jackknifeT, sliceAgreement } from '../../src/capabilities/judge/agreement.js'
import { pairedScoreInterval } from '../../src/stats/score-interval.js'
import { seedInterval } from '../../src/capabilities/seeds/interval.js'
import { inverseHall } from '../../src/stats/skew-t.js'
import { closedFormInterval, exactProportion } from '../../src/stats/interval.js'
import { momentsOfDesign, summarise } from '../../src/stats/moments.js'
import { rangeBound, smallestMargin, unitsForMargin, unreliability } from '../../src/stats/reliability.js'
import { differenceLaw, levelLaw } from '../../src/stats/law.js'
import type { AnchorItem } from '../../src/capabilities/judge/anchors.js'
import type { Design } from '../../src/stats/design.js'
import type { MetricRule } from '../../src/config/types.js'
import { designOf, statistics } from './helpers.js'

/** The skew-corrected t of a design's column 0 through the core (no range: no range bound). */
function skewT(design: Design, bounds?: [number, number]) {
  return closedFormInterval({
    law: 'skew-t',
    strata: momentsOfDesign(design, 0),
    bounds,
    confidence: 0.95,
    better: 'higher'
  })
}

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
    const t = skewT(designOf([skewed]))
    close(t.summary.se, 0.01693600551571364, 1e-15)
    close(t.summary.skew, -0.6573083724743309, 1e-12)
    expect(t.summary.df).toBe(44)
    close(t.ci[0], -0.14876095512884704, 1e-9)
    // scipy.stats.t.interval(0.95, 44, loc=mean, scale=sem): the symmetric interval stops at -0.0488.
    expect(t.ci[0]).toBeLessThan(-0.048798942946902624 - 0.09)
  })

  it("never narrower than Student's t: Hall's upper end 0.00936 is replaced by t's 0.01947 (issue 32 item 1)", () => {
    // Hall's own upper end here is 0.009364714117397137 (reference-intervals.py "hall_skewed"); the estimated skew
    // shortens it, and on the samples that pass (those short of the rare losses) it would shorten the deciding end.
    // scipy.stats.t.interval(0.95, 44, loc=-0.014666666666666665, scale=0.01693600551571364)[1] = 0.019465609613569298
    const t = skewT(designOf([skewed]))
    close(t.ci[1], 0.019465609613569298, 1e-9)
    expect(t.widened).toBe('student')
    // Mirrored (the long tail on the gain side): the deciding lower end is t's, not Hall's shorter one.
    const mirrored = skewT(designOf([skewed.map((x) => -x)]))
    close(mirrored.ci[0], -0.019465609613569298, 1e-9)
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
    const t = skewT(designOf([values], { user: labels }, { cluster: 'user' }))
    expect(t.summary.df).toBe(5)
    close(t.summary.se, 0.10688110272676625, 1e-14)
    close(t.summary.skew, -0.534200538531301, 1e-12)
    close(t.ci[0], -1.0764793477367145, 1e-9)
    // Hall's upper end 0.168540566178471 is narrower than t's: t's stands.
    expect(t.ci[1]).toBeGreaterThan(0.168540566178471)
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

  it('without spread it is the point, which a metric without a range cannot pass on (no_spread)', () => {
    const flat = designOf([[0.1, 0.1, 0.1]])
    const t = skewT(flat)
    expect(t.ci[0]).toBeCloseTo(t.ci[1], 15)
    const s = summarise(momentsOfDesign(flat, 0))
    expect(
      unreliability({ strata: momentsOfDesign(flat, 0), summary: s, bounds: undefined, clusters: false, scale: 0.1 })
    ).toBe('no_spread')
  })
})

describe("the range's bound: what unseen queries could change (the rule of three, generalised)", () => {
  it('an unchanged candidate: 1 - (alpha/2)^(1/n) of the range on either side', () => {
    // python: 1 - 0.025 ** (1 / 1000) = 0.00368208389686564; n = 40: 0.08809730287880235, and with c = 0.02
    // (range 1): 0.02 - p * 1.02 = -0.0698592489363784, 0.02 + p * 0.98 = 0.1063353568212263.
    const zeros = momentsOfDesign(designOf([Array.from({ length: 1000 }, () => 0)]), 0)
    const [lo, hi] = rangeBound(zeros, [-1, 1], 0.95)
    close(lo, -0.00368208389686564, 1e-15)
    close(hi, 0.00368208389686564, 1e-15)
    const shifted = rangeBound(momentsOfDesign(designOf([Array.from({ length: 40 }, () => 0.02)]), 0), [-1, 1], 0.95)
    close(shifted[0], -0.0698592489363784, 1e-15)
    close(shifted[1], 0.1063353568212263, 1e-15)
    close(smallestMargin(40, 1, 0.95), 0.08809730287880235, 1e-15)
  })

  it('widens the worse end only, continuously: a 1e-9 nudge on one query changes nothing (issue 32 item 4)', () => {
    const tied = Array.from({ length: 400 }, () => 0)
    const nudged = [...tied.slice(1), 1e-9]
    const a = skewT(designOf([tied]), [-1, 1])
    const b = skewT(designOf([nudged]), [-1, 1])
    // python: 1 - 0.025 ** (1 / 400) = 0.009179804583665296; the nudge moves the end by about 1e-9 / 400.
    close(a.ci[0], -0.009179804583665296, 1e-15)
    close(b.ci[0], a.ci[0], 1e-9)
    expect(a.widened).toBe('range')
    // The better end is the data's own: a shown change rests on what was seen.
    expect(a.ci[1]).toBe(0)
  })

  it('effective sizes: unequal clusters count as den^2 / sum m^2 (Kish), and each weighted stratum by its own units', () => {
    // 10 clusters: one of 91 queries, nine of 1: Kish's effective number is 100^2 / (91^2 + 9) = 1.2.
    const labels = [...Array.from({ length: 91 }, () => 'big'), ...Array.from({ length: 9 }, (_, i) => `s${i}`)]
    const d = designOf([Array.from({ length: 100 }, (_, i) => (i % 3) / 100)], { user: labels }, { cluster: 'user' })
    const s = summarise(momentsOfDesign(d, 0))
    close(s.effective, 10000 / (91 * 91 + 9), 1e-12)
  })

  it('the fewest queries for a margin: p(n) * range <= margin (what init and explain state)', () => {
    // python: math.ceil(math.log(0.025) / math.log1p(-0.01)) = 368; margin 0.1158 of the range: 30 queries.
    expect(unitsForMargin(0.01, 1, 0.95)).toBe(368)
    expect(unitsForMargin(0.1158, 1, 0.95)).toBe(30)
    expect(unitsForMargin(0, 1, 0.95)).toBeNull()
  })
})

describe("a binary metric's level: Clopper-Pearson (issue 32 item 3)", () => {
  it('equals scipy.stats.beta.ppf at both ends; 98 of 100 hits does not show at_least 0.95', () => {
    // /usr/bin/python3 -c "import scipy.stats as st; print(st.beta.ppf(0.025, 98, 3), st.beta.ppf(0.975, 99, 2))"
    // -> 0.9296160675289299 0.9975686631760574
    const [lo, hi] = exactProportion(98, 100, 0.95)
    close(lo, 0.9296160675289299, 1e-12)
    close(hi, 0.9975686631760574, 1e-12)
    expect(lo).toBeLessThan(0.95)
    // 0 of 30 and 30 of 30: st.beta.ppf(0.975, 1, 30) = 0.11570330822202779, st.beta.ppf(0.025, 30, 1) = 0.8842966917779722
    close(exactProportion(0, 30, 0.95)[1], 0.11570330822202779, 1e-12)
    close(exactProportion(30, 30, 0.95)[0], 0.8842966917779722, 1e-12)
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

describe('the law comes from the exam, never from the answer (issue 32)', () => {
  const metric = (binary: boolean): MetricRule => ({
    name: 'm',
    better: 'higher',
    binary,
    range: [0, 1],
    unit: '',
    fill: 0
  })
  it('auto: score for binary metrics on independent queries, skew-corrected t otherwise; the rules may ask for the bootstrap', () => {
    expect(differenceLaw(statistics({ interval: 'auto' }), metric(true))).toBe('score')
    expect(differenceLaw(statistics({ interval: 'auto', cluster: 'user' }), metric(true))).toBe('skew-t')
    expect(differenceLaw(statistics({ interval: 'auto' }), metric(false))).toBe('skew-t')
    expect(differenceLaw(statistics({ interval: 'percentile' }), metric(true))).toBe('percentile')
    expect(differenceLaw(statistics({ interval: 'bca' }), metric(false))).toBe('bca')
    expect(levelLaw(statistics({ interval: 'auto' }), metric(true))).toBe('exact')
    expect(levelLaw(statistics({ interval: 'auto', weights: { by: 's', target: [['a', 1]] } }), metric(true))).toBe(
      'skew-t'
    )
  })

  it('one cluster or a one-unit stratum cannot support a pass; without a range, neither can too few units for the skew', () => {
    const forty = Array.from({ length: 40 }, (_, i) => (i % 7) / 100)
    const rule = (d: Design, bounds?: [number, number]) => {
      const strata = momentsOfDesign(d, 0)
      return unreliability({ strata, summary: summarise(strata), bounds, clusters: d.clusters !== null, scale: 1 })
    }
    expect(rule(designOf([forty]))).toBeNull()
    const labels = (g: number): string[] => forty.map((_, i) => `c${i % g}`)
    expect(rule(designOf([forty], { user: labels(1) }, { cluster: 'user' }), [-1, 1])).toBe('few_clusters')
    expect(rule(designOf([forty], { user: labels(2) }, { cluster: 'user' }), [-1, 1])).toBeNull()
    expect(rule(designOf([[0.1]]), [-1, 1])).toBe('single_unit_stratum')
    // 39 zeros and one loss: skewness -6.1 per unit, Sugden's 28 + 25·skew² ≈ 960 units; with a range, the range bound decides.
    const spike = [...Array.from({ length: 39 }, () => 0), -0.5]
    expect(rule(designOf([spike]))).toBe('few_units')
    expect(rule(designOf([spike]), [-1, 1])).toBeNull()
  })
})

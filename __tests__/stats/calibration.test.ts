/**
 * A small, deterministic version of every design of the calibration study (the full one: npm run calibrate, the
 * tables in docs/statistics.md). Each design runs the gate's own method and fails if it regresses: a false-pass
 * rate above what the study measured plus Monte Carlo slack, or coverage far below 0.95. The binary designs are
 * exact (every multinomial outcome enumerated), the others seeded simulations (Monte Carlo standard error of a
 * rate near 0.025 over 400 simulations: 0.008). Beside each, the method the gate used before (or a textbook one)
 * fails the same bound, so each bound can fail.
 */
import { describe, expect, it } from '@jest/globals'
import { pairedScoreInterval } from '../../src/stats/score-interval.js'
import { normalQuantile } from '../../src/stats/special.js'
import {
  drawsOf,
  exponentialDesign,
  fewClustersDesign,
  judgeScoreDesign,
  rareLossDesign,
  type ClusterDesign,
  type QueryDesign,
  type SeedDesign
} from '../../bench/calibration/designs.js'
import { designFor, studentT } from '../../bench/calibration/methods.js'
import {
  runClusterDesign,
  runJudgeDesign,
  runLooksDesign,
  runQueryDesign,
  runSeedDesign,
  STUDY_SEED,
  type Row
} from '../../bench/calibration/study.js'

/** log of the multinomial probability of (gained, lost, tied) among n. */
function logMultinomial(n: number, g: number, l: number, pg: number, pl: number): number {
  let s = 0
  for (let i = 2; i <= n; i++) s += Math.log(i)
  for (let i = 2; i <= g; i++) s -= Math.log(i)
  for (let i = 2; i <= l; i++) s -= Math.log(i)
  for (let i = 2; i <= n - g - l; i++) s -= Math.log(i)
  return (
    s +
    (g > 0 ? g * Math.log(pg) : 0) +
    (l > 0 ? l * Math.log(pl) : 0) +
    (n - g - l > 0 ? (n - g - l) * Math.log(1 - pg - pl) : 0)
  )
}

/** Exact false-pass rate and coverage of an interval of (gained − lost)/n when the truth pg − pl sits at the margin. */
function exact(
  n: number,
  pl: number,
  pg: number,
  interval: (g: number, l: number, n: number) => [number, number]
): { falsePass: number; coverage: number } {
  const truth = pg - pl
  let falsePass = 0
  let coverage = 0
  for (let g = 0; g <= n; g++) {
    for (let l = 0; g + l <= n; l++) {
      const p = Math.exp(logMultinomial(n, g, l, pg, pl))
      if (p < 1e-16) continue
      const [lo, hi] = interval(g, l, n)
      if (lo >= truth - 1e-12) falsePass += p
      if (lo <= truth + 1e-12 && truth - 1e-12 <= hi) coverage += p
    }
  }
  return { falsePass, coverage }
}

/** The Wald interval of a paired difference: what a symmetric normal interval (and, roughly, resampling) claims. */
function wald(g: number, l: number, n: number): [number, number] {
  const d = (g - l) / n
  const se = Math.sqrt((g + l) / n - d * d) / Math.sqrt(n)
  const z = normalQuantile(0.975)
  return [d - z * se, d + z * se]
}

/** The false-pass rate of Student's t (clusters − 1 df with clusters) on the same simulations the study draws. */
function studentTFalsePass(design: QueryDesign | ClusterDesign, simulations: number): number {
  let passed = 0
  for (let s = 0; s < simulations; s++) {
    const key = 'queries' in design ? `${design.name}/${design.queries}` : `${design.name}/${design.clusters}`
    const sample = design.draw(drawsOf(STUDY_SEED, key, s))
    const ci = studentT(designFor(sample.diff, 'labels' in sample ? sample.labels : undefined))
    if (ci[0] >= design.truth) passed++
  }
  return passed / simulations
}

const score = (g: number, l: number, n: number): [number, number] => pairedScoreInterval(g, l, n, 0.95)
const rate = (r: Row, what: 'passed' | 'covered' | 'guarded' | 'kappaCovered'): number => (r[what] ?? 0) / r.simulations
const gateRow = (rows: Row[]): Row => rows.find((r) => r.gate) as Row
const named = (rows: Row[], prefix: string): Row => rows.find((r) => r.method.startsWith(prefix)) as Row

describe('binary metrics, independent queries: the score interval, exactly', () => {
  it.each([
    // design (n, lost, gained), measured false pass of the score interval (this enumeration)
    [30, 0.08, 0.03],
    [50, 0.08, 0.03],
    [100, 0.08, 0.03],
    [40, 0.06, 0.01],
    [50, 0.16, 0.14],
    [100, 0.16, 0.14]
  ])('n = %d, %f lost, %f gained: false pass at most 0.035, coverage at least 0.93', (n, pl, pg) => {
    const r = exact(n, pl, pg, score)
    expect(r.falsePass).toBeLessThanOrEqual(0.035)
    expect(r.coverage).toBeGreaterThanOrEqual(0.93)
  })

  it('the Wald interval fails the same bound on the sparse designs (so the bound can fail)', () => {
    expect(exact(40, 0.06, 0.01, wald).falsePass).toBeGreaterThan(0.05)
    expect(exact(30, 0.08, 0.03, wald).falsePass).toBeGreaterThan(0.05)
  })
})

describe('continuous metrics: the skew-corrected t, with its 40-query rule', () => {
  const options = { simulations: 400, resamples: 300 }
  it('70% unchanged, 10% large losses: never passes at 30 queries; at most 0.045 at 40 and 50, where Student t passes about 10% of the time', () => {
    expect(rate(gateRow(runQueryDesign(rareLossDesign('rare', 30, 0.1, 0.2), options, false)), 'passed')).toBe(0)
    for (const n of [40, 50]) {
      const gate = gateRow(runQueryDesign(rareLossDesign('rare', n, 0.1, 0.2), options, false))
      expect(rate(gate, 'passed')).toBeLessThanOrEqual(0.045)
      expect(rate(gate, 'covered')).toBeGreaterThanOrEqual(0.92)
    }
    // Student's t on the same simulations passes about 10% of the time (the study: 0.102).
    expect(studentTFalsePass(rareLossDesign('rare', 40, 0.1, 0.2), 400)).toBeGreaterThan(0.06)
  })

  it('rare losses at 200 queries, judge scores, and the friendly right-skewed design hold too', () => {
    for (const design of [
      rareLossDesign('rare', 200, 0.03, 0.27),
      judgeScoreDesign('judge', 50),
      exponentialDesign('exp', 50, -0.02),
      exponentialDesign('exp', 200, -0.02)
    ]) {
      const gate = gateRow(runQueryDesign(design, options, false))
      expect(rate(gate, 'passed')).toBeLessThanOrEqual(0.045)
      expect(rate(gate, 'covered')).toBeGreaterThanOrEqual(0.91)
    }
  })
})

describe('clusters: the skew-corrected t with clusters - 1 df, and no pass below 20 clusters', () => {
  const options = { simulations: 400, resamples: 300 }
  it('10 clusters never pass; 20 clusters with the effect in 20% of them hold, where clusters - 1 t does not', () => {
    expect(rate(gateRow(runClusterDesign(fewClustersDesign('few', 10, 0.3), options, false)), 'passed')).toBe(0)
    const design = fewClustersDesign('few', 20, 0.2)
    expect(rate(gateRow(runClusterDesign(design, options, false)), 'passed')).toBeLessThanOrEqual(0.045)
    expect(studentTFalsePass(design, 400)).toBeGreaterThan(0.05)
  })
})

describe('seed replicates: the t interval over seeds and queries', () => {
  const options = { simulations: 400, resamples: 300 }
  const design = (b: number, c: number): SeedDesign => ({
    name: 'dominant',
    baselineSeeds: b,
    candidateSeeds: c,
    seedSd: 0.03,
    queries: 100
  })
  it('2 vs 2, 3 vs 3, 1 vs 5, 5 vs 1 and 2 vs 5 seeds under dominant training noise hold; the two-level bootstrap did not', () => {
    for (const [b, c] of [
      [2, 2],
      [3, 3],
      [1, 5],
      [5, 1],
      [2, 5]
    ]) {
      const gate = gateRow(runSeedDesign(design(b, c), options, false))
      expect(rate(gate, 'passed')).toBeLessThanOrEqual(0.045)
      expect(rate(gate, 'covered')).toBeGreaterThanOrEqual(0.91)
    }
    expect(
      rate(named(runSeedDesign(design(1, 5), { simulations: 100, resamples: 200 }), 'two-level'), 'passed')
    ).toBeGreaterThan(0.1)
  })
})

describe('judge anchors: jackknife-t intervals at the default 40 items', () => {
  const options = { simulations: 300, resamples: 300 }
  it('the drift guard holds at 40 items (rare labels too) and never passes at 10; the percentile bootstrap at 10 passed far more often', () => {
    for (const labels of [
      [0.3, 0.4, 0.3],
      [0.8, 0.2],
      [0.9, 0.1]
    ]) {
      const gate = gateRow(
        runJudgeDesign(
          { name: 'j', items: 40, labels, kappa: labels.length === 3 ? 0.7 : 0.6, drop: 0.1 },
          options,
          false
        )
      )
      expect(rate(gate, 'passed')).toBeLessThanOrEqual(0.05)
      expect(rate(gate, 'covered')).toBeGreaterThanOrEqual(0.9)
      expect(rate(gate, 'kappaCovered')).toBeGreaterThanOrEqual(0.9)
    }
    const ten = runJudgeDesign(
      { name: 'j', items: 10, labels: [0.3, 0.4, 0.3], kappa: 0.7, drop: 0.1 },
      { simulations: 300, resamples: 200 }
    )
    expect(rate(gateRow(ten), 'passed')).toBe(0)
    expect(rate(named(ten, 'percentile'), 'passed')).toBeGreaterThan(0.07)
  })
})

describe('looks over a release: the regression budget with reference.looks', () => {
  it('sharing the error rate over the allowance holds the release at 0.025; one look at 95% per attempt did not', () => {
    const [before, gate] = runLooksDesign({ name: 'l', attempts: 8, queries: 200 }, { simulations: 80, resamples: 0 })
    expect(gate.gate).toBe(true)
    expect(rate(gate, 'passed')).toBeLessThanOrEqual(0.035)
    expect(rate(before, 'passed')).toBeGreaterThan(0.06)
  })
})

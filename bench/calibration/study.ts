import { sliceAgreement } from '../../src/capabilities/judge/agreement.js'
import { gateInterval } from './gate-interval.js'
import { percentileInterval } from '../../src/stats/bca.js'
import { seedBootstrap, seedMean } from '../../src/stats/seed-bootstrap.js'
import { seedInterval } from '../../src/capabilities/seeds/interval.js'
import { DEFAULT_MIN_ANCHOR_ITEMS } from '../../src/config/judge-rules.js'
import type { AnchorItem } from '../../src/capabilities/judge/anchors.js'
import {
  drawAnchors,
  drawSeeds,
  drawsOf,
  exponentialDesign,
  fewClustersDesign,
  friendlyClusterDesign,
  hitDesign,
  judgeScoreDesign,
  rareLossDesign,
  trueKappa,
  accuracyFor,
  type ClusterDesign,
  type JudgeDesign,
  type QueryDesign,
  type SeedDesign
} from './designs.js'
import {
  bootstrapIntervals,
  bootstrapT,
  designFor,
  kappaBootstrap,
  newcombeInterval,
  studentT,
  welchSeedInterval,
  wildClusterTest
} from './methods.js'

/**
 * The calibration study: every design of issue 25's table and the friendly ones, every method on the same
 * simulated evaluations. A design's truth sits exactly at the check's margin, so a pass is a false pass (target
 * at most 0.035 at nominal one-sided 0.025); coverage is that of the two-sided 95% interval (target 0.93–0.97).
 * The gate's row applies its own rule: a pass needs an interval that can support one (src/stats/reliability.ts).
 */

/** One method's tally on one design. */
export interface Row {
  family: 'queries' | 'clusters' | 'seeds' | 'judge' | 'looks'
  design: string
  /** Queries, clusters, seeds (b+c) or anchor items, as shown. */
  size: string
  method: string
  /** The gate's own method (statistics.interval auto, default rules). */
  gate: boolean
  simulations: number
  covered: number
  passed: number
  /** Simulations the gate left inconclusive because the interval could not support a pass. */
  guarded: number
  /** Judge family: simulations whose baseline kappa interval covered the true kappa. */
  kappaCovered?: number
}

/** Options: simulations per design and resamples per bootstrap. */
export interface StudyOptions {
  simulations: number
  resamples: number
  /** Fewer designs (the fast test suite's version). */
  only?: (name: string) => boolean
}

/** Every query design of the study, friendly first. */
export function queryDesigns(): QueryDesign[] {
  return [
    ...[50, 200, 1000].map((n) => hitDesign('hit@k, 16% lost / 14% gained (friendly)', n, 0.16, 0.14)),
    ...[50, 200, 1000].map((n) => exponentialDesign('continuous, right-skewed (friendly)', n, -0.02)),
    ...[30, 50, 100].map((n) => hitDesign('hit@k, 8% lost / 3% gained', n, 0.08, 0.03)),
    hitDesign('hit@k, 6% lost / 1% gained', 40, 0.06, 0.01),
    ...[30, 40, 50].map((n) => rareLossDesign('70% unchanged, 10% lose 0.3–0.9', n, 0.1, 0.2)),
    ...[200, 500].map((n) => rareLossDesign('70% unchanged, 3% lose 0.3–0.9', n, 0.03, 0.27)),
    ...[30, 50, 100].map((n) => judgeScoreDesign('judge score, 10% lose 0.3–0.6', n))
  ]
}

export function clusterDesigns(): ClusterDesign[] {
  return [
    friendlyClusterDesign('hit@k in clusters of 10 (friendly)', true, 50, 10),
    friendlyClusterDesign('continuous in clusters of 10 (friendly)', false, 20, 10),
    friendlyClusterDesign('continuous in clusters of 10 (friendly)', false, 100, 10),
    fewClustersDesign('effect in 30% of the clusters', 10, 0.3),
    fewClustersDesign('effect in 20% of the clusters', 10, 0.2),
    fewClustersDesign('effect in 30% of the clusters', 20, 0.3),
    fewClustersDesign('effect in 20% of the clusters', 20, 0.2)
  ]
}

export function seedDesigns(): SeedDesign[] {
  const out: SeedDesign[] = []
  for (const [label, sd] of [
    ['none', 0],
    ['comparable', 0.01],
    ['dominant', 0.03]
  ] as const) {
    for (const s of [2, 3, 5])
      out.push({
        name: `training noise ${label} (${sd})`,
        baselineSeeds: s,
        candidateSeeds: s,
        seedSd: sd,
        queries: 100
      })
  }
  for (const [b, c] of [
    [1, 5],
    [1, 10],
    [5, 1],
    [2, 5]
  ])
    out.push({
      name: 'training noise dominant (0.03)',
      baselineSeeds: b,
      candidateSeeds: c,
      seedSd: 0.03,
      queries: 100
    })
  // Unequal training noise, the side with fewer seeds the noisier: where Welch's degrees of freedom overstate.
  out.push({
    name: 'baseline (2 seeds) noise 0.03, candidate (5 seeds) 0.015',
    baselineSeeds: 2,
    candidateSeeds: 5,
    seedSd: 0.015,
    baselineSeedSd: 0.03,
    queries: 100
  })
  return out
}

export function judgeDesigns(): JudgeDesign[] {
  const out: JudgeDesign[] = []
  for (const items of [10, 40]) {
    out.push({ name: '3 labels (0.3 / 0.4 / 0.3), kappa 0.7', items, labels: [0.3, 0.4, 0.3], kappa: 0.7, drop: 0.1 })
    out.push({ name: '2 labels (0.8 / 0.2), kappa 0.6', items, labels: [0.8, 0.2], kappa: 0.6, drop: 0.1 })
    out.push({ name: '2 labels (0.9 / 0.1), kappa 0.5', items, labels: [0.9, 0.1], kappa: 0.5, drop: 0.1 })
    out.push({ name: '5 labels, kappa 0.5', items, labels: [0.1, 0.2, 0.3, 0.25, 0.15], kappa: 0.5, drop: 0.05 })
  }
  return out
}

/** The study's seed: every simulated evaluation's stream is (this seed, design and size, index). */
export const STUDY_SEED = 'calibration-25'

type Tally = Omit<Row, 'family' | 'design' | 'size' | 'method' | 'gate' | 'simulations'>

/** Counts one interval: covered, passed (its lower end at or above the truth, and no guard), guarded (the gate's rule said no pass). */
function tally(
  rows: Map<string, Tally>,
  method: string,
  ci: readonly [number, number],
  truth: number,
  guard = false
): void {
  const t = rows.get(method) ?? { covered: 0, passed: 0, guarded: 0 }
  if (ci[0] <= truth && truth <= ci[1]) t.covered++
  if (guard) t.guarded++
  else if (ci[0] >= truth) t.passed++
  rows.set(method, t)
}

function rowsOf(
  family: Row['family'],
  design: string,
  size: string,
  simulations: number,
  tallies: Map<string, Tally>,
  gateMethod: string
): Row[] {
  return [...tallies].map(([method, t]) => ({
    family,
    design,
    size,
    method,
    gate: method === gateMethod,
    simulations,
    ...t
  }))
}

/** Independent queries: percentile, BCa, t, bootstrap-t (and Newcombe for binary) against the gate's choice. */
export function runQueryDesign(design: QueryDesign, options: StudyOptions, methods = true): Row[] {
  const tallies = new Map<string, Tally>()
  const gateName = `gate: ${design.binary ? 'Tango score' : 'skew-corrected t'}`
  for (let s = 0; s < options.simulations; s++) {
    const sample = design.draw(drawsOf(STUDY_SEED, `${design.name}/${design.queries}`, s))
    const d = designFor(sample.diff)
    const stream = `${design.name}/${design.queries}/${s}`
    let gained = 0
    let lost = 0
    for (const x of sample.diff) {
      if (x > 0) gained++
      else if (x < 0) lost++
    }
    const gate = gateInterval(d, { binary: design.binary, range: design.range, gained, lost })
    tally(tallies, gateName, gate.ci, design.truth, gate.unreliable !== null)
    if (!methods) continue
    const boot = bootstrapIntervals(d, options.resamples, stream)
    tally(tallies, 'percentile bootstrap (the gate before)', boot.percentile, design.truth)
    tally(tallies, 'BCa bootstrap', boot.bca, design.truth)
    tally(tallies, 'Student t', studentT(d), design.truth)
    if (design.binary)
      tally(
        tallies,
        'Newcombe method 10',
        newcombeInterval(sample.base as Float64Array, sample.cand as Float64Array),
        design.truth
      )
    else tally(tallies, 'bootstrap-t (studentized)', bootstrapT(sample.diff, options.resamples, stream), design.truth)
  }
  return rowsOf('queries', design.name, String(design.queries), options.simulations, tallies, gateName)
}

/** Clusters: cluster percentile bootstrap, cluster-robust t (G − 1), wild cluster bootstrap against the gate's choice. */
export function runClusterDesign(design: ClusterDesign, options: StudyOptions, methods = true): Row[] {
  const tallies = new Map<string, Tally>()
  const gateName = 'gate: skew-corrected t (clusters − 1)'
  const wild = { covered: 0, passed: 0, guarded: 0 }
  for (let s = 0; s < options.simulations; s++) {
    const sample = design.draw(drawsOf(STUDY_SEED, `${design.name}/${design.clusters}`, s))
    const d = designFor(sample.diff, sample.labels)
    const stream = `${design.name}/${design.clusters}/${s}`
    const gate = gateInterval(d, { binary: false, range: design.range })
    tally(tallies, gateName, gate.ci, design.truth, gate.unreliable !== null)
    if (!methods) continue
    tally(
      tallies,
      'cluster percentile bootstrap (the gate before)',
      bootstrapIntervals(d, options.resamples, stream).percentile,
      design.truth
    )
    tally(tallies, 'cluster-robust t, clusters − 1 df', studentT(d), design.truth)
    const w = wildClusterTest(d, design.truth, options.resamples, stream)
    if (w.pUpper > 0.025 && w.pLower > 0.025) wild.covered++
    if (w.pUpper <= 0.025) wild.passed++
    if (design.name.includes('friendly'))
      tally(
        tallies,
        'row percentile (ignores clusters)',
        bootstrapIntervals(designFor(sample.diff), options.resamples, `${stream}/rows`).percentile,
        design.truth
      )
  }
  if (methods) tallies.set('wild cluster bootstrap (restricted, Webb weights)', wild)
  const size = `${design.clusters}${design.name.includes('friendly') ? ` of ${design.name.includes('hit') ? 500 / 50 : 10}` : ' (5–20 queries)'}`
  return rowsOf('clusters', design.name, size, options.simulations, tallies, gateName)
}

/** Seeds: the two-level bootstrap and the query-only interval against the gate's t over seeds and queries. */
export function runSeedDesign(design: SeedDesign, options: StudyOptions, methods = true): Row[] {
  const tallies = new Map<string, Tally>()
  const gateName = 'gate: t over seeds and queries'
  const name = `${design.name}/${design.baselineSeeds}/${design.candidateSeeds}`
  for (let s = 0; s < options.simulations; s++) {
    const cols = drawSeeds(design, drawsOf(STUDY_SEED, name, s))
    const t = seedInterval(cols, 0.95)
    if (t !== null) tally(tallies, gateName, t.ci, 0, !(t.ci[1] > t.ci[0]))
    if (!methods) continue
    tally(
      tallies,
      'two-level bootstrap (the gate before)',
      percentileInterval(seedBootstrap(cols, options.resamples, STUDY_SEED, `${name}/${s}`), 0.95),
      0
    )
    if (design.baselineSeeds > 1 && design.candidateSeeds > 1)
      tally(tallies, "t over seeds and queries, Welch's df", welchSeedInterval(cols), 0)
    const averaged = (rows: Float64Array[]): Float64Array =>
      Float64Array.from({ length: design.queries }, (_, q) => seedMean(rows, q))
    tally(
      tallies,
      'queries only (seeds averaged away)',
      percentileInterval(
        seedBootstrap(
          { base: [averaged(cols.base)], cand: [averaged(cols.cand)] },
          options.resamples,
          STUDY_SEED,
          `${name}/${s}/q`
        ),
        0.95
      ),
      0
    )
  }
  return rowsOf(
    'seeds',
    design.name,
    `${design.baselineSeeds} vs ${design.candidateSeeds}`,
    options.simulations,
    tallies,
    gateName
  )
}

/** Judge anchors: the percentile bootstrap over items against the gate's jackknife-t, at the design's item count. */
export function runJudgeDesign(design: JudgeDesign, options: StudyOptions, methods = true): Row[] {
  const k = design.labels.length
  const kb = trueKappa(design.labels, accuracyFor(design.labels, design.kappa))
  const drift = trueKappa(design.labels, accuracyFor(design.labels, design.kappa - design.drop)) - kb
  const scale = design.labels.map((_, i) => String(i))
  const gateName = `gate: jackknife-t (min_items ${DEFAULT_MIN_ANCHOR_ITEMS})`
  const rows = new Map<string, Tally & { kappaCovered: number }>()
  const add = (method: string, kappa: [number, number] | null, d: [number, number] | null, guard: boolean): void => {
    const t = rows.get(method) ?? { covered: 0, passed: 0, guarded: 0, kappaCovered: 0 }
    if (kappa !== null && kappa[0] <= kb && kb <= kappa[1]) t.kappaCovered++
    if (d !== null && d[0] <= drift && drift <= d[1]) t.covered++
    if (guard) t.guarded++
    else if (d !== null && d[0] >= -design.drop) t.passed++
    rows.set(method, t)
  }
  const name = `${design.name}/${design.items}`
  for (let s = 0; s < options.simulations; s++) {
    const anchors = drawAnchors(design, drawsOf(STUDY_SEED, name, s))
    const items: AnchorItem[] = anchors.map(([h, b, c], i) => ({
      id: `a${i}`,
      line: i + 1,
      human: String(h),
      attrs: new Map(),
      scorings: [
        { line: i + 1, baseline: String(b), candidate: String(c), baselineSwapped: null, candidateSwapped: null }
      ]
    }))
    const a = sliceAgreement({ slice: [], items, sameJudge: false }, scale, { weights: 'none', confidence: 0.95 })
    add(gateName, a.baseline.interval, a.drift?.interval ?? null, design.items < DEFAULT_MIN_ANCHOR_ITEMS)
    if (!methods) continue
    add('jackknife-t, min_items 10', a.baseline.interval, a.drift?.interval ?? null, design.items < 10)
    const boot = kappaBootstrap(anchors, k, options.resamples, `${name}/${s}`)
    add('percentile bootstrap (the gate before, min_items 10)', boot.baseline, boot.drift, design.items < 10)
  }
  return [...rows].map(([method, t]) => ({
    family: 'judge',
    design: design.name,
    size: String(design.items),
    method,
    gate: method === gateName,
    simulations: options.simulations,
    ...t
  }))
}

/** A release whose budget is spent exactly: `attempts` PR runs each look at it; the release ships on any pass. */
export interface LooksDesign {
  name: string
  attempts: number
  queries: number
}

export function looksDesigns(): LooksDesign[] {
  return [6, 10, 15].map((attempts) => ({
    name: 'budget over a release, each attempt one look',
    attempts,
    queries: 200
  }))
}

/**
 * The budget over a release (issue 25, "looks"): the drop since the reference is exactly the budget (truth at the
 * margin), and each of the release's PR attempts gates it again on freshly measured per-query differences (skewed,
 * as judge-scored metrics are). A release passing on any attempt ships a spent budget: that is its false pass.
 * Coverage is per look. Each look at the rules' 95% (the gate before, and the gate without reference.looks) against
 * reference.looks = attempts (each look at 1 − 0.05 / attempts: Bonferroni over the allowance).
 */
export function runLooksDesign(design: LooksDesign, options: StudyOptions): Row[] {
  const budget = 0.02
  const unshared = { covered: 0, passed: 0, guarded: 0 }
  const shared = { covered: 0, passed: 0, guarded: 0 }
  const sample = rareLossDesign('looks', design.queries, 0.1, 0.2)
  for (let s = 0; s < options.simulations; s++) {
    let passedOnce = false
    let passedShared = false
    for (let a = 0; a < design.attempts; a++) {
      const drawn = sample.draw(drawsOf(STUDY_SEED, `${design.name}/${design.attempts}/${s}`, a))
      // Shift the differences so their true mean is exactly -budget: the budget is spent.
      const diff = drawn.diff.map((x) => x - sample.truth - budget)
      const d = designFor(diff)
      const look = (confidence: number): [number, number] =>
        gateInterval(d, { binary: false, range: undefined, confidence }).ci
      const one = look(0.95)
      const each = look(1 - 0.05 / design.attempts)
      if (one[0] <= -budget && -budget <= one[1]) unshared.covered++
      if (each[0] <= -budget && -budget <= each[1]) shared.covered++
      if (one[0] >= -budget) passedOnce = true
      if (each[0] >= -budget) passedShared = true
    }
    if (passedOnce) unshared.passed++
    if (passedShared) shared.passed++
  }
  const looks = options.simulations * design.attempts
  const row = (method: string, gate: boolean, t: typeof shared): Row => ({
    family: 'looks',
    design: design.name,
    size: `${design.attempts} attempts × ${design.queries} queries`,
    method,
    gate,
    simulations: options.simulations,
    // Coverage per look, scaled to the release count so the table's shares read alike.
    covered: Math.round((t.covered / looks) * options.simulations),
    passed: t.passed,
    guarded: 0
  })
  return [
    row('every look at 95% (the gate before; no reference.looks)', false, unshared),
    row(`gate: reference.looks: ${design.attempts}`, true, shared)
  ]
}

/** Every design of the study, in table order. */
export function runStudy(options: StudyOptions): Row[] {
  const keep = options.only ?? (() => true)
  const out: Row[] = []
  for (const d of queryDesigns()) if (keep(d.name)) out.push(...runQueryDesign(d, options))
  for (const d of clusterDesigns()) if (keep(d.name)) out.push(...runClusterDesign(d, options))
  for (const d of seedDesigns()) if (keep(d.name)) out.push(...runSeedDesign(d, options))
  for (const d of judgeDesigns()) if (keep(d.name)) out.push(...runJudgeDesign(d, options))
  for (const d of looksDesigns()) if (keep(d.name)) out.push(...runLooksDesign(d, options))
  return out
}

/** Wilson's score interval for a binomial proportion (two-sided 95%). */
export function wilson(successes: number, trials: number): [number, number] {
  if (trials === 0) return [0, 1]
  const z = 1.959963984540054
  const p = successes / trials
  const den = 1 + (z * z) / trials
  const centre = (p + (z * z) / (2 * trials)) / den
  const half = (z * Math.sqrt((p * (1 - p)) / trials + (z * z) / (4 * trials * trials))) / den
  return [Math.max(0, centre - half), Math.min(1, centre + half)]
}

/** Whether a row meets the targets, in words. */
export function verdict(row: Row): string {
  const fp = row.passed / row.simulations
  // Judge rows: the kappa interval and the drift interval must both cover.
  const cov = Math.min(row.covered, row.kappaCovered ?? row.covered) / row.simulations
  if (row.guarded === row.simulations) return 'yes: never passes (too few for the method)'
  if (fp > 0.035) return '**no**'
  if (cov < 0.93) return 'no (coverage)'
  if (cov > 0.97) return 'yes (conservative)'
  return 'yes'
}

const share = (k: number, n: number): string => {
  const [lo, hi] = wilson(k, n)
  return `${(k / n).toFixed(3)} [${lo.toFixed(3)}, ${hi.toFixed(3)}]`
}

/** The Markdown tables of a study's rows, one per family. */
export function tables(rows: readonly Row[]): string[] {
  const out: string[] = []
  const families: Array<[Row['family'], string, string]> = [
    ['queries', 'Independent queries (the margin is −truth; binary designs are hit@k differences)', 'queries'],
    ['clusters', 'Clusters (query-weighted mean)', 'clusters'],
    ['seeds', 'Seed replicates (100 queries, true difference 0; seeds per side as baseline vs candidate)', 'seeds'],
    [
      'judge',
      'Judge anchors (drift guard: candidate kappa = baseline kappa − max_drop, so a pass is a false pass)',
      'items'
    ],
    [
      'looks',
      'Looks over a release (the budget is spent exactly; a release that passes on any attempt is a false pass; coverage per look)',
      'attempts'
    ]
  ]
  for (const [family, title, size] of families) {
    const rs = rows.filter((r) => r.family === family)
    if (rs.length === 0) continue
    out.push(`**${title}**`, '')
    const judge = family === 'judge'
    out.push(
      `| design | ${size} | method | ${judge ? 'kappa coverage | drift coverage' : 'coverage'} | false pass | gate inconclusive (guard) | within targets |`
    )
    out.push(`| - | - | - | ${judge ? '- | - ' : '- '}| - | - | - |`)
    for (const r of rs) {
      const method = r.gate ? `**${r.method}**` : r.method
      const cov = judge
        ? `${share(r.kappaCovered ?? 0, r.simulations)} | ${share(r.covered, r.simulations)}`
        : share(r.covered, r.simulations)
      const guarded = r.gate ? (r.guarded / r.simulations).toFixed(3) : '-'
      out.push(
        `| ${r.design} | ${r.size} | ${method} | ${cov} | ${share(r.passed, r.simulations)} | ${guarded} | ${verdict(r)} |`
      )
    }
    out.push('')
  }
  return out
}

import { whyNoPass } from './interval-words.js'
import type { GateResult } from '../decide/result.js'
import type { Comparison } from '../stats/compare.js'
import { metricFamily, type MetricFamily } from './metric-family.js'
import { gatedMetrics } from './regressions.js'
import { clean } from './escape.js'
import { fixed } from './format.js'
import { metricOf, sliceLabel } from './words.js'
import { fileOrHow, type WrittenFiles } from './files.js'

/**
 * "What to look at next": observed patterns mapped to the layer of a retrieval system they usually point
 * to. A pattern is shown only when the data shows it. The thresholds are fixed here (and documented in
 * docs/report.md) so the advice never depends on anything but the numbers in the report.
 */

/** Hit@k below this (a share of queries) is low: 3 in 10 queries find nothing relevant in the top k. */
const HIT_LOW = 0.7
/** MRR below this share of Hit@k: when something is found, the first relevant result sits below rank 2 on average. */
const RR_TO_HIT = 0.5
/** Recall below this share of Hit@k: queries find one relevant document but miss most of the others. */
const RECALL_TO_HIT = 0.6
/** Recall at or above this is high... */
const RECALL_HIGH = 0.7
/** ...and precision below this is low: most of what is returned is noise. */
const PRECISION_LOW = 0.3
/** Mean improved, yet at least this share of queries got worse: the average hides regressions. */
const LOSS_SHARE = 0.1

/** One pattern that applies: raw text (callers escape it), with where it was seen. */
export interface NextStep {
  /** Stable code for tests and tools. */
  code: 'first_stage' | 'ranking' | 'evidence' | 'precision' | 'hidden_regressions' | 'wide_interval'
  pattern: string
  /** The likely layer or the next step, as an imperative. */
  lookAt: string
  /** "all queries: hit@10 0.74 → 0.66" lines, at most {@link MAX_EVIDENCE}, then "and N more". */
  evidence: string[]
}

const MAX_EVIDENCE = 3

const LOOK_AT: Record<NextStep['code'], [string, string]> = {
  first_stage: [
    'Hit@k is low or fell: relevant documents are not retrieved at all',
    'check the embeddings, hybrid (lexical + dense) search and chunk boundaries'
  ],
  ranking: [
    'Hit@k is fine but MRR is low or fell: relevant documents are found but ranked low',
    'check the reranker and exact-term weighting'
  ],
  evidence: [
    'Hit@k is fine but Recall is low or fell: one relevant document is found, the others are missed',
    'try multi-evidence retrieval, query decomposition or a larger candidate set'
  ],
  precision: [
    'Recall is high but Precision is low or fell: the right documents come with a lot of noise',
    'try context denoising or a dynamic k'
  ],
  // The look-at of hidden_regressions names the regression set's file, or how to write it (nextSteps).
  hidden_regressions: [
    'The mean improved, but many queries got worse',
    'keep the regressed queries as a regression set'
  ],
  wide_interval: [
    'An interval is too wide to decide',
    'add more representative, independent queries; not more easy or near-duplicate ones, which narrow nothing that matters'
  ]
}

const share = (x: number): boolean => Number.isFinite(x) && x >= 0 && x <= 1
/** The change is shown to be in the worse direction: the whole interval is on the worse side of 0. */
const shownWorse = (c: Comparison, higher: boolean): boolean => (higher ? c.ci[1] < 0 : c.ci[0] > 0)
const two = (x: number): string => fixed(x, 2)

/** The change did not improve the metric (an improvement is never listed under a "low or fell" pattern). */
const notImproved = (c: Comparison, higher: boolean): boolean => (higher ? !(c.delta > 0) : !(c.delta < 0))

/**
 * The patterns that apply to this result, in a fixed order. A pattern lists only what matches it: a
 * "low or fell" pattern lists a metric that is low and did not improve, or that was shown worse; never a
 * metric the change improved. `files`: the output files written beside the report (the regression set is
 * named only when written).
 */
export function nextSteps(result: GateResult, files?: WrittenFiles): NextStep[] {
  const { rules } = result
  const found = new Map<NextStep['code'], string[]>()
  const add = (code: NextStep['code'], line: string): void => {
    const list = found.get(code) ?? []
    list.push(line)
    found.set(code, list)
  }
  // Group comparisons by scope (all queries, then each slice value), keeping the first metric of each family.
  const scopes = new Map<string, { label: string; byFamily: Map<MetricFamily, Comparison> }>()
  for (const c of result.comparisons) {
    const key = JSON.stringify(c.slice)
    let scope = scopes.get(key)
    if (!scope) scopes.set(key, (scope = { label: sliceLabel(c.slice), byFamily: new Map() }))
    const fam = metricFamily(c.metric)
    const higher = rules.metrics.get(c.metric)?.better !== 'lower'
    if (fam && higher && !scope.byFamily.has(fam.family) && share(c.baseline) && share(c.candidate))
      scope.byFamily.set(fam.family, c)
  }
  for (const { label, byFamily } of scopes.values()) {
    const hit = byFamily.get('hit')
    const rank = byFamily.get('rr') ?? byFamily.get('ndcg')
    const recall = byFamily.get('recall')
    const precision = byFamily.get('precision')
    const moved = (c: Comparison): string => `${clean(c.metric, 60)} ${two(c.baseline)} → ${two(c.candidate)}`
    const hitBad = hit !== undefined && (hit.candidate < HIT_LOW || shownWorse(hit, true))
    if (hit && hitBad && notImproved(hit, true)) add('first_stage', `${label}: ${moved(hit)}`)
    if (hit && !hitBad) {
      if (rank && notImproved(rank, true) && (rank.candidate < RR_TO_HIT * hit.candidate || shownWorse(rank, true)))
        add('ranking', `${label}: ${moved(hit)}, ${moved(rank)}`)
      if (
        recall &&
        notImproved(recall, true) &&
        (recall.candidate < RECALL_TO_HIT * hit.candidate || shownWorse(recall, true))
      )
        add('evidence', `${label}: ${moved(hit)}, ${moved(recall)}`)
    }
    if (
      recall &&
      precision &&
      notImproved(precision, true) &&
      !shownWorse(recall, true) &&
      ((recall.candidate >= RECALL_HIGH && precision.candidate < PRECISION_LOW) || shownWorse(precision, true))
    ) {
      add('precision', `${label}: ${moved(recall)}, ${moved(precision)}`)
    }
  }
  for (const name of gatedMetrics(result)) {
    const c = result.comparisons.find((x) => x.metric === name && x.slice.length === 0)
    const higher = rules.metrics.get(name)?.better !== 'lower'
    if (c && c.n > 0 && (higher ? c.delta > 0 : c.delta < 0) && c.losses > 0 && c.losses >= LOSS_SHARE * c.n) {
      add(
        'hidden_regressions',
        `${clean(name, 60)}: mean ${higher ? 'rose' : 'fell'}, yet ${c.losses} of ${c.n} queries got worse`
      )
    }
  }
  for (const check of result.decision.checks) {
    for (const unit of check.units) {
      // Inconclusive because the holdout was looked at too often: no interval is too wide, more queries settle nothing.
      if (unit.status !== 'inconclusive' || unit.settledByQueries === false) continue
      const c = unit.comparison
      const why =
        unit.reason === 'too_few_queries'
          ? `only ${c.n} queries`
          : unit.reason === 'interval_unreliable'
            ? whyNoPass(unit, metricOf(result, c.metric))
            : 'the interval straddles the limit'
      add('wide_interval', `${clean(check.rule.name, 60)} (${sliceLabel(unit.slice)}): ${why}`)
    }
  }
  const out: NextStep[] = []
  for (const code of Object.keys(LOOK_AT) as Array<NextStep['code']>) {
    const lines = found.get(code)
    if (!lines) continue
    const evidence = lines.slice(0, MAX_EVIDENCE)
    if (lines.length > MAX_EVIDENCE) evidence.push(`and ${lines.length - MAX_EVIDENCE} more`)
    let lookAt = LOOK_AT[code][1]
    if (code === 'hidden_regressions') {
      const where = fileOrHow(files, 'regressions')
      lookAt += where.file !== undefined ? ` (${where.file})` : ` (to write it, ${where.how})`
    }
    out.push({ code, pattern: LOOK_AT[code][0], lookAt, evidence })
  }
  return out
}

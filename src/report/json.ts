import type { Comparison } from '../stats/compare.js'
import type { GateResult } from '../decide/result.js'
import type { UnitResult } from '../decide/evaluate.js'
import { decidedByName } from '../decide/decided-by.js'
import { TOOL_NAME, VERSION } from '../version.js'
import { trustJson } from './trust-lines.js'
import { judgeJson } from './judge.js'
import { seedsJson } from './seeds.js'
import { provenanceJson } from './provenance.js'
import { budgetsJson } from './budget.js'
import { candidateOnlyLine } from './sections.js'
import { jsonNumbers } from '../util/json-number.js'
import { holdoutJson } from './holdout.js'
import { historyJson } from './history-json.js'

/** Numbers in the JSON report: a non-finite value becomes null (JSON has no NaN), never a silent 0. */
function num(x: number): number | null {
  return Number.isFinite(x) ? x : null
}

function comparisonJson(c: Comparison): Record<string, unknown> {
  return {
    metric: c.metric,
    slice: Object.fromEntries(c.slice),
    n: c.n,
    baseline: num(c.baseline),
    candidate: num(c.candidate),
    delta: num(c.delta),
    relative_delta: c.relativeDelta === null ? null : num(c.relativeDelta),
    ci: [num(c.ci[0]), num(c.ci[1])],
    confidence: c.confidence,
    p_value: c.pValue === null ? null : num(c.pValue),
    test: c.test,
    gained: c.gained,
    lost: c.lost,
    wins: c.wins,
    losses: c.losses,
    ties: c.ties,
    // Issue 4: the interval actually used, the randomization test, the t cross-check, the design.
    interval: c.interval,
    interval_note: c.intervalNote,
    interval_unreliable: c.unreliable,
    randomization: { p_value: num(c.randomization.pValue), permutations: c.randomization.permutations, exact: c.randomization.exact },
    t_test: c.tTest === null ? null : { ci: [num(c.tTest.ci[0]), num(c.tTest.ci[1])], p_value: num(c.tTest.pValue), df: c.tTest.df, se: num(c.tTest.se) },
    se: num(c.se),
    df: num(c.df),
    clusters: c.clusters,
    mix: c.mix === null ? null : mixJson(c.mix),
    notes: c.notes
  }
}

function mixJson(m: NonNullable<Comparison['mix']>): Record<string, unknown> {
  return {
    by: m.by,
    strata: m.strata.map((s) => ({ value: s.value, queries: s.queries, observed_share: num(s.observed), target_share: num(s.target) })),
    observed_mix: { baseline: num(m.observed.baseline), candidate: num(m.observed.candidate), delta: num(m.observed.delta) }
  }
}

function unitJson(u: UnitResult): Record<string, unknown> {
  return {
    slice: Object.fromEntries(u.slice),
    status: u.status,
    reason: u.reason,
    margin: num(u.margin),
    regressions: u.regressions,
    regression_limit: u.regressionLimit,
    comparison: comparisonJson(u.comparison),
    p_value: u.pValue === null ? null : num(u.pValue),
    p_adjusted: u.pAdjusted === null ? null : num(u.pAdjusted),
    p_test: u.pTest,
    power: u.power === null ? null : { mde: num(u.power.mde), power: 0.8, more_queries: u.power.moreQueries },
    // Regression budget against the rules' reference (only budgeted units; the same figures as `budgets`).
    ...(u.budget
      ? { budget: { reference: u.budget.reference, status: u.budget.status, reason: u.budget.reason, budget: num(u.budget.budget), used: num(u.budget.used), used_ci: [num(u.budget.usedCi[0]), num(u.budget.usedCi[1])] } }
      : {}),
    ...(u.holdoutLooks ? { holdout_looks: { this_pr: u.holdoutLooks.thisPr, max_per_pr: u.holdoutLooks.maxPerPr } } : {})
  }
}

/**
 * The JSON report: a stable contract for other tools (top-level `verdict`, `checks` in rule order with
 * `rule`, `status` and evidence, `comparisons`). Keys are written in a fixed order and nothing depends on
 * time or environment, so the same inputs give the same bytes; every number is written by
 * {@link jsonNumbers} (12 significant digits, docs/report.md).
 */
export function toJsonReport(result: GateResult): string {
  const { rules, decision, coverage } = result
  const report = {
    tool: { name: TOOL_NAME, version: VERSION },
    verdict: decision.verdict,
    decided_by: decision.decidedBy === null ? null : decidedByName(decision.decidedBy),
    publishable: result.trust ? { value: result.trust.publishable.value, reasons: result.trust.publishable.reasons, unchecked: result.trust.publishable.unchecked } : null,
    rules: {
      file: rules.source.file,
      sha256: rules.source.sha256,
      on_inconclusive: rules.onInconclusive,
      on_too_few: rules.onTooFew,
      statistics: {
        confidence: rules.statistics.confidence,
        resamples: rules.statistics.resamples,
        seed: rules.statistics.seed,
        interval: rules.statistics.interval === 'auto' ? 'auto (per comparison: see comparisons[].interval)' : rules.statistics.interval === 'bca' ? 'bca paired bootstrap' : 'percentile paired bootstrap',
        permutations: rules.statistics.permutations,
        cluster: rules.statistics.cluster ?? null,
        cluster_weighting: rules.statistics.cluster === undefined ? null : rules.statistics.clusterWeighting,
        weights: rules.statistics.weights ? { by: rules.statistics.weights.by, target: Object.fromEntries(rules.statistics.weights.target) } : null,
        multiplicity: { method: decision.family.method, family_size: decision.family.size, interval_confidence: decision.family.confidence }
      },
      queries: { missing: rules.queries.missing, min_per_slice: rules.queries.minPerSlice }
    },
    inputs: result.inputs,
    ...(result.provenance ? { provenance: provenanceJson(result.provenance) } : {}),
    coverage: {
      baseline_rows: coverage.baselineRows,
      candidate_rows: coverage.candidateRows,
      paired: coverage.paired,
      only_in_baseline: coverage.onlyInBaseline,
      only_in_candidate: coverage.onlyInCandidate,
      candidate_only_ignored: coverage.candidateOnlyIgnored,
      attributes: { from: 'baseline', names: coverage.attributes.names, candidate_values_compared: coverage.attributes.candidateValuesCompared },
      missing_policy: coverage.missingPolicy,
      filled: coverage.filled,
      notes: candidateOnlyLine(coverage) === null ? coverage.notes : [...coverage.notes, candidateOnlyLine(coverage) as string]
    },
    checks: decision.checks.map((c) => ({
      rule: c.rule.name,
      index: c.rule.index,
      metric: c.rule.metric,
      kind: c.rule.kind.type,
      where: Object.fromEntries(c.rule.where),
      per_slice: c.rule.perSlice ?? null,
      status: c.status,
      counts_as: c.counts,
      units: c.units.map(unitJson)
    })),
    comparisons: result.comparisons.map(comparisonJson),
    regressions: {
      metric: result.primaryMetric,
      count: result.regressions.length,
      queries: result.regressions.map((r) => ({ query_id: r.id, baseline: r.baseline, candidate: r.candidate, delta: r.delta, attributes: Object.fromEntries(r.attrs) }))
    },
    // Issue 5: trust checks (src/report/trust-lines.ts)
    trust: result.trust ? trustJson(result.trust, decision) : null,
    // Regression budget against the rules' reference (src/report/budget.ts); only when the rules name one.
    ...(result.reference ? { budgets: budgetsJson(result, num) } : {}),
    // Only with `judge` rules, so reports without them keep their bytes (src/report/judge.ts, docs/report.md).
    ...(result.judge ? { judge: judgeJson(result.judge) } : {}),
    // Additive: present only with an evaluation set (holdout accounting) and with history (PR runs).
    ...(result.holdout ? { holdout: holdoutJson(result.holdout) } : {}),
    ...(result.history ? { history: historyJson(result.history) } : {}),
    // Seed replicates (src/report/seeds.ts): only when several seed files or statistics.min_seeds were given.
    ...(result.seeds ? { seeds: seedsJson(result.seeds) } : {})
  }
  return JSON.stringify(report, jsonNumbers, 2) + '\n'
}

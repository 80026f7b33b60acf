import type { Comparison } from '../stats/compare.js'
import type { GateResult } from '../gate.js'
import type { UnitResult } from '../decide/evaluate.js'
import { TOOL_NAME, VERSION } from '../version.js'

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
    ties: c.ties
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
    comparison: comparisonJson(u.comparison)
  }
}

/**
 * The JSON report: a stable contract for other tools (top-level `verdict`, `checks` in rule order with
 * `rule`, `status` and evidence, `comparisons`). Keys are written in a fixed order and nothing depends on
 * time or environment, so the same inputs give the same bytes.
 */
export function toJsonReport(result: GateResult): string {
  const { rules, decision, coverage } = result
  const report = {
    tool: { name: TOOL_NAME, version: VERSION },
    verdict: decision.verdict,
    decided_by: decision.decidedBy ? decision.decidedBy.rule.name : null,
    rules: {
      file: rules.source.file,
      sha256: rules.source.sha256,
      on_inconclusive: rules.onInconclusive,
      statistics: {
        confidence: rules.statistics.confidence,
        resamples: rules.statistics.resamples,
        seed: rules.statistics.seed,
        interval: 'percentile paired bootstrap'
      },
      queries: { missing: rules.queries.missing, min_per_slice: rules.queries.minPerSlice }
    },
    inputs: result.inputs,
    coverage: {
      baseline_rows: coverage.baselineRows,
      candidate_rows: coverage.candidateRows,
      paired: coverage.paired,
      only_in_baseline: coverage.onlyInBaseline,
      only_in_candidate: coverage.onlyInCandidate,
      missing_policy: coverage.missingPolicy,
      filled: coverage.filled,
      notes: coverage.notes
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
    }
  }
  return JSON.stringify(report, null, 2) + '\n'
}

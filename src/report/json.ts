import type { Comparison } from '../stats/compare.js'
import type { GateResult } from '../decide/result.js'
import type { RunQueries } from '../model/rows.js'
import type { CheckResult, UnitResult } from '../decide/evaluate.js'
import { capabilityJson, unitJsonExtras } from './slots.js'
import { listableRegressions } from './holdout.js'
import { decidedByName } from '../decide/decided-by.js'
import { TOOL_NAME, VERSION } from '../version.js'
import { trustJson } from './trust-lines.js'
import { provenanceJson } from './provenance.js'
import { candidateOnlyLine } from './sections.js'
import { jsonChunks, StreamedArray } from './json/stream.js'
import { resamplingLaw } from './resampling.js'
import { firstListed } from './listed.js'

function comparisonJson(c: Comparison): Record<string, unknown> {
  return {
    metric: c.metric,
    slice: Object.fromEntries(c.slice),
    n: c.n,
    baseline: c.baseline,
    candidate: c.candidate,
    delta: c.delta,
    relative_delta: c.relativeDelta,
    ci: c.ci,
    own_ci: c.ownCi,
    confidence: c.confidence,
    p_value: c.pValue,
    test: c.test,
    gained: c.gained,
    lost: c.lost,
    wins: c.wins,
    losses: c.losses,
    ties: c.ties,
    // Issue 4: the interval actually used, the randomization test, the t cross-check, the design.
    interval: c.interval,
    interval_widened: c.widened,
    interval_note: c.intervalNote,
    interval_unreliable: c.unreliable,
    resampling: c.resampling,
    randomization: {
      p_value: c.randomization.pValue,
      permutations: c.randomization.permutations,
      exact: c.randomization.exact
    },
    t_test:
      c.tTest === null
        ? null
        : {
            ci: c.tTest.ci,
            p_value: c.tTest.pValue,
            df: c.tTest.df,
            se: c.tTest.se
          },
    se: c.se,
    df: c.df,
    effective_units: c.effective,
    unit_skewness: c.unitSkew,
    clusters: c.clusters,
    mix: c.mix === null ? null : mixJson(c.mix),
    notes: c.notes
  }
}

function mixJson(m: NonNullable<Comparison['mix']>): Record<string, unknown> {
  return {
    by: m.by,
    strata: m.strata.map((s) => ({
      value: s.value,
      queries: s.queries,
      observed_share: s.observed,
      target_share: s.target
    })),
    observed_mix: {
      baseline: m.observed.baseline,
      candidate: m.observed.candidate,
      delta: m.observed.delta
    }
  }
}

function unitJson(result: GateResult, check: CheckResult, u: UnitResult): Record<string, unknown> {
  const out: Record<string, unknown> = {
    slice: Object.fromEntries(u.slice),
    status: u.status,
    reason: u.reason,
    margin: u.margin,
    regressions: u.regressions,
    regression_limit: u.regressionLimit,
    comparison: comparisonJson(u.comparison),
    p_value: u.pValue,
    p_adjusted: u.pAdjusted,
    p_test: u.pTest,
    power: u.power === null ? null : { mde: u.power.mde, power: 0.8, more_queries: u.power.moreQueries },
    // at_least / at_most: the candidate's mean the check judged, and its interval (only those units).
    ...(u.level
      ? {
          level: {
            mean: u.level.mean,
            ci: u.level.ci,
            own_ci: u.level.ownCi,
            confidence: u.level.confidence,
            method: u.level.method,
            df: u.level.df,
            widened: u.level.widened,
            interval_unreliable: u.level.unreliable
          }
        }
      : {})
  }
  // The capabilities' keys (the budget, the holdout looks), only on the units they concern.
  for (const [key, value] of unitJsonExtras(result, u, check)) out[key] = value
  return out
}

/** The JSON report's `rules` key: the rules file and the statistics in force. */
function rulesJson(result: GateResult): Record<string, unknown> {
  const { rules, decision } = result
  const s = rules.statistics
  return {
    file: rules.source.file,
    sha256: rules.source.sha256,
    on_inconclusive: rules.onInconclusive,
    on_too_few: rules.onTooFew,
    statistics: {
      confidence: s.confidence,
      resamples: s.resamples,
      seed: s.seed,
      interval:
        s.interval === 'auto'
          ? 'auto (per comparison: see comparisons[].interval)'
          : s.interval === 'bca'
            ? 'bca paired bootstrap'
            : 'percentile paired bootstrap',
      method: s.method ?? 'auto',
      resampling: resamplingLaw(result),
      permutations: s.permutations,
      cluster: s.cluster ?? null,
      cluster_weighting: s.cluster === undefined ? null : s.clusterWeighting,
      weights: s.weights ? { by: s.weights.by, target: Object.fromEntries(s.weights.target) } : null,
      multiplicity: {
        method: decision.family.method,
        family_size: decision.family.size,
        interval_confidence: decision.family.confidence
      }
    },
    queries: { missing: rules.queries.missing, min_per_slice: rules.queries.minPerSlice }
  }
}

/** The JSON report's `coverage` key: what happened to every query. */
function coverageJson(coverage: GateResult['coverage']): Record<string, unknown> {
  const ignored = candidateOnlyLine(coverage)
  return {
    baseline_rows: coverage.baselineRows,
    candidate_rows: coverage.candidateRows,
    paired: coverage.paired,
    // answer-grown lists: the first ids (sorted) and how many there are (src/report/listed.ts)
    only_in_baseline: firstListed(coverage.onlyInBaseline),
    only_in_baseline_count: coverage.onlyInBaseline.length,
    only_in_candidate: firstListed(coverage.onlyInCandidate),
    only_in_candidate_count: coverage.onlyInCandidate.length,
    candidate_only_ignored: coverage.candidateOnlyIgnored,
    attributes: {
      from: 'baseline',
      names: coverage.attributes.names,
      candidate_values_compared: coverage.attributes.candidateValuesCompared
    },
    missing_policy: coverage.missingPolicy,
    filled: coverage.filled,
    // additive: only when a side's rows were computed from a run and judgments (the run's own queries)
    ...(coverage.runs.baseline === null && coverage.runs.candidate === null
      ? {}
      : { runs: { baseline: runJson(coverage.runs.baseline), candidate: runJson(coverage.runs.candidate) } }),
    notes: ignored === null ? coverage.notes : [...coverage.notes, ignored]
  }
}

/** A side's run in the JSON report's `coverage.runs` (null for rows read as they are). */
function runJson(run: RunQueries | null): Record<string, number> | null {
  return run === null
    ? null
    : {
        queries: run.queries,
        absent_scored_zero: run.absentScoredZero,
        without_judgments_ignored: run.withoutJudgmentsIgnored
      }
}

/** The JSON report's `checks` key: every check in rule order with its units. */
function checksJson(result: GateResult): Array<Record<string, unknown>> {
  return result.decision.checks.map((c) => ({
    rule: c.rule.name,
    index: c.rule.index,
    metric: c.rule.metric,
    // The rules key: non_inferior, superior, max_regressions, at_least or at_most.
    kind: c.rule.kind.type === 'level' ? c.rule.kind.bound : c.rule.kind.type,
    where: Object.fromEntries(c.rule.where),
    per_slice: c.rule.perSlice ?? null,
    status: c.status,
    counts_as: c.counts,
    units: c.units.map((u) => unitJson(result, c, u))
  }))
}

/**
 * The JSON report's `regressions` key. Its queries (half of them at worst: 5*10^5 at 10^6 queries) are a
 * StreamedArray, each made while it is written. Holdout queries are counted, never listed (holdout.ts).
 */
function regressionsJson(result: GateResult): Record<string, unknown> {
  const listable = listableRegressions(result)
  return {
    metric: result.primaryMetric,
    count: result.regressions.length,
    queries: new StreamedArray(
      (function* () {
        for (const r of listable.shown)
          yield {
            query_id: r.id,
            baseline: r.baseline,
            candidate: r.candidate,
            delta: r.delta,
            attributes: Object.fromEntries(r.attrs)
          }
      })()
    ),
    ...(listable.withheld > 0 ? { withheld: listable.withheld } : {})
  }
}

/**
 * The JSON report as a value to write (jsonChunks): a stable contract for other tools (top-level `verdict`,
 * `checks` in rule order with `rule`, `status` and evidence, `comparisons`). Keys are in a fixed order and
 * nothing depends on time or environment, so the same inputs give the same bytes; every number is written by
 * {@link jsonNumber} (12 significant digits, docs/report.md).
 */
function jsonReport(result: GateResult): Record<string, unknown> {
  const { decision } = result
  const trust = result.trust
  const out: Record<string, unknown> = {
    tool: { name: TOOL_NAME, version: VERSION },
    verdict: decision.verdict,
    decided_by: decision.decidedBy === null ? null : decidedByName(decision.decidedBy),
    // { value, reasons, unchecked }, in that order (src/trust/trust.ts)
    publishable: trust?.publishable ?? null,
    rules: rulesJson(result),
    inputs: result.inputs,
    ...(result.provenance ? { provenance: provenanceJson(result.provenance) } : {}),
    coverage: coverageJson(result.coverage),
    checks: checksJson(result),
    comparisons: result.comparisons.map(comparisonJson),
    regressions: regressionsJson(result),
    // Issue 5: trust checks (src/report/trust-lines.ts)
    trust: trust ? trustJson(result) : null
  }
  // The capabilities' keys (budgets, judge, holdout, history, seeds), each only when it ran, in registry order.
  for (const [key, value] of capabilityJson(result)) out[key] = value
  return out
}

/**
 * The JSON report in chunks of about 64 K characters, to write one by one: at 10^6 queries the report is
 * ~79 MiB, never held whole (json/stream.ts).
 */
export function jsonReportChunks(result: GateResult): Iterable<string> {
  return jsonChunks(jsonReport(result))
}

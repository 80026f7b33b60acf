import { pairRows, type Coverage, type PairedTable } from './align/pair.js'
import { refuseTooManySliceValues } from './align/slice-values.js'
import type { Rules } from './config/types.js'
import type { Provenance } from './report/provenance.js'
import { decide, type Decision } from './decide/evaluate.js'
import type { SideRows } from './model.js'
import { createStats, type Comparison, type StatsEngine, type StatsOptions } from './stats/compare.js'
import { valuesOf } from './stats/subsets.js'
import { comparabilityEntries } from './checks/report-lines.js'
import { assessTrust, type TrustEvidence, type TrustResult } from './checks/trust.js'

/** How many regressed queries the report lists (the regression set file holds all of them). */
export const TOP_REGRESSIONS = 10

/** A query that got worse on the primary metric, with both values and its attributes. */
export interface RegressedQuery {
  id: string
  baseline: number
  candidate: number
  delta: number
  attrs: Array<[string, string]>
}

/** Everything the gate found, ready for any report format: a pure function of rules and inputs. */
export interface GateResult {
  rules: Rules
  inputs: { baseline: string; candidate: string }
  coverage: Coverage
  decision: Decision
  /** Every metric over all queries, then every metric for every value of every `slices` attribute. */
  comparisons: Comparison[]
  /** The metric of the first check: the one the regression list and pictures are about. */
  primaryMetric: string
  /** All queries that got worse on the primary metric, worst first (ties by id). */
  regressions: RegressedQuery[]
  /** Per-query differences of the primary metric, in the table's order (for histograms). */
  primaryDifferences: Float64Array
  /** The paired per-query values and attributes (for the regression set file). */
  table: PairedTable
  /** Where the rules and the baseline came from (set by the action after runGate; the CLI leaves it out). */
  provenance?: Provenance
  /**
   * Whether the two sides can be compared (corpus snapshot, judge, unjudged share, ...), one entry per aspect,
   * filled by comparability checks when they run; the report's comparability section lists every entry.
   */
  comparability?: Array<{ aspect: string; status: 'same' | 'differs' | 'unknown'; detail: string }>
  /**
   * The trust checks (docs/trust.md): dataset summary, snapshot comparability, pooling bias, whole-class
   * failures, two-stage diagnostics, publishable. A trust rule that counts as fail fails the verdict first
   * (`decision.decidedBy` is then that guard; `decision.guards` says how each guard counts).
   */
  trust?: TrustResult
}

/**
 * The pure pipeline after reading: align -> stats -> decide. Same rules and rows (in any order) give the
 * same result, to the bit.
 */
export function runGate(rules: Rules, baseline: SideRows, candidate: SideRows, evidence?: TrustEvidence, options: StatsOptions = {}): GateResult {
  const table = pairRows(rules, baseline, candidate)
  refuseTooManySliceValues(rules, table)
  const stats = createStats(table, rules, options)
  const trust = assessTrust(rules, table, evidence)
  const decision = decide(rules, table, stats, trust.guards)
  return {
    rules,
    inputs: { baseline: baseline.source, candidate: candidate.source },
    coverage: table.coverage,
    decision,
    comparisons: allComparisons(rules, table, stats),
    primaryMetric: rules.checks[0].metric,
    regressions: regressedQueries(rules, table, stats, rules.checks[0].metric),
    primaryDifferences: stats.differences(rules.checks[0].metric),
    table,
    comparability: comparabilityEntries(trust),
    trust
  }
}

function allComparisons(rules: Rules, table: PairedTable, stats: StatsEngine): Comparison[] {
  const out: Comparison[] = []
  for (const metric of rules.metrics.keys()) out.push(stats.compare(metric, []))
  for (const attr of rules.slices) {
    for (const value of valuesOf(table, attr, stats.members([]))) {
      for (const metric of rules.metrics.keys()) out.push(stats.compare(metric, [[attr, value]]))
    }
  }
  return out
}

function regressedQueries(rules: Rules, table: PairedTable, stats: StatsEngine, metric: string): RegressedQuery[] {
  const sign = rules.metrics.get(metric)?.better === 'lower' ? -1 : 1
  const d = stats.differences(metric)
  const { base, cand } = table.metrics.get(metric) as { base: Float64Array; cand: Float64Array }
  const attrNames = [...table.attrs.keys()].sort()
  const rows: RegressedQuery[] = []
  for (let i = 0; i < d.length; i++) {
    if (sign * d[i] < 0) {
      rows.push({ id: table.ids[i], baseline: base[i], candidate: cand[i], delta: d[i], attrs: attrNames.map((a) => [a, (table.attrs.get(a) as string[])[i]]) })
    }
  }
  rows.sort((a, b) => sign * a.delta - sign * b.delta || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
  return rows
}

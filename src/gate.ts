import { pairRows, type PairedTable } from './align/pair.js'
import { refuseTooManySliceValues } from './align/slice-values.js'
import type { Rules } from './config/types.js'
import { decide } from './decide/evaluate.js'
import type { SideRows } from './model/rows.js'
import { createStats, type Comparison, type StatsEngine, type StatsOptions } from './stats/compare.js'
import { valuesOf } from './stats/subsets.js'
import { comparabilityEntries } from './report/trust-lines.js'
import { assessTrust, type TrustEvidence } from './trust/trust.js'
import type { SeedSides } from './align/seeds.js'
import { seedRules, withSeeds } from './stats/seeds.js'
import type { GateResult, RegressedQuery } from './decide/result.js'

/**
 * The pure pipeline after reading: align -> stats -> decide. Same rules and rows (in any order) give the
 * same result, to the bit.
 */
export function runGate(givenRules: Rules, baseline: SideRows, candidate: SideRows, evidence?: TrustEvidence, options: StatsOptions & { seeds?: SeedSides } = {}): GateResult {
  const rules = options.seeds === undefined ? givenRules : seedRules(givenRules, options.seeds)
  const table = pairRows(rules, baseline, candidate)
  refuseTooManySliceValues(rules, table)
  // Seed replicates (several files per side, already averaged into baseline/candidate): intervals over seeds and queries.
  const seeded = options.seeds === undefined ? undefined : withSeeds(createStats(table, rules, options), table, rules, options.seeds)
  const stats = seeded?.stats ?? createStats(table, rules, options)
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
    trust,
    ...(seeded === undefined ? {} : { seeds: seeded.summary })
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

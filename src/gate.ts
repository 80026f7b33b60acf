import { pairRows, type PairedTable } from './align/pair.js'
import { refuseTooManySliceValues } from './align/slice-values.js'
import type { Rules } from './config/types.js'
import { decide } from './decide/evaluate.js'
import { capHoldoutLooks, countHoldoutLooks, type PriorLooks } from './decide/holdout.js'
import type { SideRows } from './model/rows.js'
import { createStats, type Comparison, type StatsEngine, type StatsOptions } from './stats/compare.js'
import { valuesOf } from './stats/subsets.js'
import { comparabilityEntries } from './report/trust-lines.js'
import { assessTrust, type TrustEvidence } from './trust/trust.js'
import type { SeedSides } from './align/seeds.js'
import { seedRules, withSeeds } from './stats/seeds.js'
import type { GateResult, RegressedQuery } from './decide/result.js'
import { pairReference } from './align/reference.js'
import { InputError } from './errors.js'
import { quote } from './util/show.js'
import type { Manifest } from './readers/manifest.js'
import { checkReferenceSnapshot } from './trust/reference-snapshot.js'

/** The reference rows the checks' budgets are spent against (rules `reference`), as read, with its label. */
export interface ReferenceInput {
  rows: SideRows
  label: string
  /** Its snapshot manifest, compared with the exam's on comparability.must_match; null when none was given. */
  manifest: Manifest | null
}
import { assessJudge } from './stats/judge.js'

/** What the gate knows besides rules and rows: statistics options, and the holdout looks counted before this run. */
export interface GateOptions extends StatsOptions {
  /** Earlier looks at the holdout (the action reads them from the PR comment and history); default: none known, not a PR. */
  holdoutLooks?: PriorLooks
  /** Seed replicates: every seed file per side (baseline/candidate are their per-query averages). */
  seeds?: SeedSides
}

/**
 * The pure pipeline after reading: align -> stats -> decide. Same rules and rows (in any order) give the
 * same result, to the bit.
 */
export function runGate(givenRules: Rules, baseline: SideRows, candidate: SideRows, evidence?: TrustEvidence, options: GateOptions = {}, reference?: ReferenceInput): GateResult {
  const rules = options.seeds === undefined ? givenRules : seedRules(givenRules, options.seeds)
  refuseMissingReference(rules, reference)
  const table = pairRows(rules, baseline, candidate)
  refuseTooManySliceValues(rules, table)
  // Seed replicates (several files per side, already averaged into baseline/candidate): intervals over seeds and queries.
  const seeded = options.seeds === undefined ? undefined : withSeeds(createStats(table, rules, options), table, rules, options.seeds)
  const stats = seeded?.stats ?? createStats(table, rules, options)
  const assessed = assessTrust(rules, table, evidence)
  // The judge guards (the ruler) follow the other trust guards; they count toward the verdict like them.
  const judge = assessJudge(rules, { table, baseline, candidate, anchors: evidence?.anchors ?? null })
  const trust = judge === null ? assessed : { ...assessed, guards: [...assessed.guards, ...judge.guards] }
  // The budget: the candidate against the reference on the same table layout, so the same plan per subset.
  const snapshot = reference && checkReferenceSnapshot(rules, reference.manifest, { baseline: evidence?.manifests.baseline ?? null, dataset: evidence?.manifests.dataset ?? null }, reference.label)
  const refStats = reference && { stats: createStats(pairReference(rules, table, reference.rows, reference.label), rules, options), label: reference.label }
  const holdout = countHoldoutLooks(rules, table, options.holdoutLooks ?? { thisPr: null })
  const decision = capHoldoutLooks(rules, table, stats, decide(rules, table, stats, trust.guards, refStats), holdout)
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
    ...(reference ? { reference: { label: reference.label, file: reference.rows.source, rows: reference.rows.ids.length, snapshot: snapshot ?? null } } : {}),
    ...(judge === null ? {} : { judge }),
    holdout,
    ...(seeded === undefined ? {} : { seeds: seeded.summary })
  }
}

/**
 * Budgets are never skipped silently: rules that name a reference need its rows, and rows given for a
 * reference the rules do not name have no budget to be spent against.
 */
function refuseMissingReference(rules: Rules, reference: ReferenceInput | undefined): void {
  if (rules.reference !== undefined && reference === undefined) {
    throw new InputError(
      { file: rules.source.file, key: 'reference' },
      `the rules spend budgets against the reference ${quote(rules.reference.label)}, but its rows were not read`,
      rules.reference.path !== undefined && rules.reference.ref === undefined
        ? `pass --reference ${rules.reference.path}`
        : "pass the reference rows with --reference FILE (the action reads them from the rules' path/ref or artifact)"
    )
  }
  if (rules.reference === undefined && reference !== undefined) {
    throw new InputError(
      { file: reference.rows.source },
      'a reference was given, but the rules name none, so no check has a budget to spend against it',
      'add reference: and budget: to the rules (they are pre-registered, like the margins), or leave the reference out'
    )
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

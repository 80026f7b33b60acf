import { pairRows, type PairedTable } from './align/pair.js'
import { refuseTooManySliceValues } from './align/slice-values.js'
import type { MetricRule, Rules } from './config/types.js'
import { unitCounts } from './decide/counts.js'
import { decideVerdict } from './decide/decided-by.js'
import { decide, type Decision } from './decide/evaluate.js'
import { CORE_REASONS, type CheckResult, type Status, type UnitResult } from './decide/types.js'
import type { GateResult, RegressedQuery } from './decide/result.js'
import { createStats, type Comparison, type StatsEngine, type StatsOptions } from './stats/compare.js'
import { sliceValues } from './stats/engine-queries.js'
import { fromAggregates } from './capabilities/aggregates.js'
import { trustSection, type GuardReason, type TrustEvidence, type WordedGuard } from './trust/trust.js'
import type { SideRows } from './model/rows.js'
import { sideFormat } from './model/format.js'
import type { SeedSides } from './align/seeds.js'
import { outcomeOf, type AssessContext, type Assessed, type Capability } from './capabilities/contract.js'
import { activeCapabilities, CAPABILITIES, type Active, type GateInputs } from './capabilities/registry.js'

export type { GateInputs } from './capabilities/registry.js'

/**
 * Gate inputs from two sides already in hand (a library caller, a test): per-query rows, the trust evidence when
 * they are runs, each side's seed files, and the evidence of any capability that reads files of its own (a
 * reference's rows, judge anchors). A capability whose evidence is absent runs on none (no earlier holdout
 * looks, one judge) or refuses as it does when its file was not read.
 */
export function sidesInputs(
  rules: Rules,
  baseline: SideRows,
  candidate: SideRows,
  extra: { trust?: TrustEvidence; seeds?: SeedSides; evidence?: Readonly<Record<string, unknown>> } = {}
): GateInputs {
  const trust = extra.trust ?? {
    runs: null,
    dataset: null,
    manifests: { baseline: null, candidate: null, dataset: null }
  }
  const seeds = extra.seeds ?? { baseline: [baseline], candidate: [candidate] }
  return { rules, core: { baseline, candidate, trust, seeds }, evidence: new Map(Object.entries(extra.evidence ?? {})) }
}

/** How the gate may compute (threads, cache): changes the time and the memory, never a byte. */
export type GateOptions = StatsOptions

/**
 * The pure pipeline after reading: pair -> statistics -> every capability's assessment -> decide -> every
 * capability's unit adjustments -> one verdict. Same inputs (in any row order) give the same result, to the bit.
 * No capability is named here: each plugs in through src/capabilities/contract.ts.
 */
export function runGate(
  inputs: GateInputs,
  options: GateOptions = {},
  registry: readonly Capability[] = CAPABILITIES
): GateResult {
  const active = activeCapabilities(inputs.rules, registry)
  const evidenceOf = (a: Active): unknown => inputs.evidence.get(a.capability.name)
  let rules = inputs.rules
  for (const a of active) if (a.capability.prepare) rules = a.capability.prepare(rules, inputs.core)
  let core = inputs.core
  for (const a of active) if (a.capability.sides) core = a.capability.sides(core, evidenceOf(a), rules)
  const { baseline, candidate } = core
  // A warehouse's sums replace the pairing and the rows' sums; everything after is one pipeline.
  const sums =
    inputs.aggregates === undefined ? null : fromAggregates(rules, inputs.aggregates, { ...options, registry })
  const table = sums?.table ?? pairRows(rules, baseline, candidate)
  if (sums === null) refuseTooManySliceValues(rules, table)
  let stats = sums?.stats ?? createStats(table, rules, options)
  const contextOf = (a: Active, engine: StatsEngine): AssessContext<unknown, unknown> => ({
    rules,
    config: a.config,
    evidence: evidenceOf(a),
    table,
    stats: engine,
    core,
    options
  })
  for (const a of active) if (a.capability.stats) stats = a.capability.stats(stats, contextOf(a, stats))
  const assessed: Assessed[] = active.map((a) => ({
    ...a,
    evidence: evidenceOf(a),
    assessment: a.capability.assess(contextOf(a, stats))
  }))
  const guards = uniqueRules(assessed.flatMap(wordedGuards))
  const decision = adjustUnits(decide(rules, table, stats, guards), rules, assessed, (a) => contextOf(a, stats))
  return {
    rules,
    inputs:
      sums === null
        ? {
            baseline: baseline.source,
            candidate: candidate.source,
            formats: { baseline: sideFormat(core.seeds.baseline), candidate: sideFormat(core.seeds.candidate) }
          }
        : { baseline: baseline.source, candidate: candidate.source },
    coverage: table.coverage,
    decision,
    comparisons: allComparisons(rules, table, stats),
    primaryMetric: rules.checks[0].metric,
    regressions: sums === null ? regressedQueries(rules, table, stats, rules.checks[0].metric) : [],
    primaryDifferences: stats.differences(rules.checks[0].metric),
    table,
    trust: trustSection(
      guards,
      assessed.map((a) => a.assessment.trust)
    ),
    capabilities: [...assessed.map(outcomeOf), ...(sums === null ? [] : [sums.outcome])]
  }
}

const RANK: Record<Status, number> = { pass: 0, inconclusive: 1, fail: 2 }

/**
 * Every unit through every capability's `adjust` (registry order), then every check and the verdict decided
 * again, once. An adjustment may only make a unit worse (pass -> inconclusive -> fail), never better: a
 * capability that tried would be a bug, and the gate stops rather than pass on it.
 */
function adjustUnits(
  decision: Decision,
  rules: Rules,
  assessed: readonly Assessed[],
  contextOf: (a: Assessed) => AssessContext<unknown, unknown>
): Decision {
  const adjusting = assessed.filter((a) => a.capability.adjust !== undefined)
  if (adjusting.length === 0) return decision
  let changed = false
  const checks = decision.checks.map((check): CheckResult => {
    const units = check.units.map((unit) => {
      let out: UnitResult = unit
      for (const a of adjusting) {
        const next = (a.capability.adjust as NonNullable<Capability['adjust']>)(out, {
          ...contextOf(a),
          summary: a.assessment.summary,
          check
        })
        const before = out
        out = moveDown(out, next, { capability: a.capability.name, rule: check.rule, rules })
        if (out.reason !== before.reason) wordedReason(out, { check, rules }, a)
      }
      return out
    })
    if (units.every((u, i) => u === check.units[i])) return check
    changed = true
    const status: Status = units.some((u) => u.status === 'fail')
      ? 'fail'
      : units.some((u) => u.status === 'inconclusive')
        ? 'inconclusive'
        : 'pass'
    const counts = units.some((u) => unitCounts(u, check.rule, rules) === 'fail') ? 'fail' : 'pass'
    return { ...check, status, counts, units }
  })
  if (!changed) return decision
  const { verdict, decidedBy, guards } = decideVerdict(rules, decision.guards, checks)
  return { ...decision, verdict, decidedBy, checks, guards }
}

/**
 * A reason the core does not word is the adjusting capability's to word (RenderParts.unitWords), as a guard's reason
 * is: a unit with a reason nobody words would read as the core's sentence for another reason. A bug: the gate stops.
 */
function wordedReason(unit: UnitResult, at: { check: CheckResult; rules: Rules }, a: Assessed): void {
  if ((CORE_REASONS as readonly string[]).includes(unit.reason)) return
  const { check } = at
  const metric = at.rules.metrics.get(check.rule.metric) as MetricRule
  const name = metric.name
  const said = a.assessment.parts.unitWords?.(unit, { check, metric, name, head: name })
  if (said === undefined || said.trim() === '')
    throw new Error(`capability ${a.capability.name} gave a unit the reason ${unit.reason} and no words for it`)
}

/** What {@link moveDown} judges an adjustment by: who made it, and the check's rule under the rules. */
interface Adjusting {
  capability: string
  rule: CheckResult['rule']
  rules: Rules
}

/**
 * The outcome lattice (docs/statistics.md): a unit may only move down, in its status (pass -> inconclusive -> fail)
 * and in how it counts toward the verdict. An inconclusive unit made inconclusive for another reason keeps the
 * reason that counts worse (a holdout cap on a unit with too few queries must not trade on_too_few's fail for
 * on_inconclusive's pass), with what the capability added; any other move up is a bug, and the gate stops.
 */
function moveDown(unit: UnitResult, next: UnitResult, by: Adjusting): UnitResult {
  if (RANK[next.status] < RANK[unit.status])
    throw new Error(
      `capability ${by.capability} made a ${unit.status} unit ${next.status}: an adjustment may only make a unit worse`
    )
  const before = unitCounts(unit, by.rule, by.rules)
  if (before === 'fail' && unitCounts(next, by.rule, by.rules) === 'pass') {
    if (next.status === 'inconclusive' && unit.status === 'inconclusive') {
      // what the capability added stays (its marks); how the unit counts, and whether queries settle it, do not
      const { ownPolicy: _policy, settledByQueries: _settled, ...added } = next
      return {
        ...added,
        reason: unit.reason,
        ...(unit.ownPolicy === undefined ? {} : { ownPolicy: unit.ownPolicy }),
        ...(unit.settledByQueries === undefined ? {} : { settledByQueries: unit.settledByQueries })
      }
    }
    throw new Error(
      `capability ${by.capability} made a unit that counts as fail count as pass: an adjustment may only make a unit worse`
    )
  }
  return next
}

/**
 * A capability's guards with their reasons in its own words (`Capability.words`): the core lists no reason code.
 * A guard whose code the capability gives no words for is a bug in the capability, and the gate stops.
 */
function wordedGuards(a: Assessed): WordedGuard[] {
  return a.assessment.guards.map((g) => {
    // own keys only: a code such as `toString` must not find Object's
    const words = a.capability.words
    const say =
      words !== undefined && Object.hasOwn(words, g.reason.code)
        ? (words[g.reason.code] as (reason: GuardReason) => string)
        : undefined
    const said = say?.(g.reason) ?? ''
    if (said.trim() === '')
      throw new Error(
        `capability ${a.capability.name} returned a guard with reason ${g.reason.code} and no words for it`
      )
    return { ...g, words: said }
  })
}

/**
 * The guards, each rule named once: `decided_by` and the report name a guard by its rule, so two guards of one name
 * (two capabilities claiming a key, or one returning it twice) would be ambiguous. A bug in a capability: the gate stops.
 */
function uniqueRules(guards: WordedGuard[]): WordedGuard[] {
  const seen = new Set<string>()
  for (const g of guards) {
    if (seen.has(g.rule)) throw new Error(`two guards name the rule ${g.rule}: each guard's rule must be its own`)
    seen.add(g.rule)
  }
  return guards
}

function allComparisons(rules: Rules, table: PairedTable, stats: StatsEngine): Comparison[] {
  const out: Comparison[] = []
  for (const metric of rules.metrics.keys()) out.push(stats.compare(metric, []))
  for (const attr of rules.slices) {
    for (const value of sliceValues(table, stats, attr, [])) {
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
      rows.push({
        id: table.ids[i],
        baseline: base[i],
        candidate: cand[i],
        delta: d[i],
        attrs: attrNames.map((a) => [a, (table.attrs.get(a) as string[])[i]])
      })
    }
  }
  rows.sort((a, b) => sign * a.delta - sign * b.delta || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
  return rows
}

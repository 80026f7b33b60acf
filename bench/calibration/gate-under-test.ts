import type { PairedTable } from '../../src/align/pair.js'
import { averageSeeds } from '../../src/align/seeds.js'
import { loadRules } from '../../src/config/rules.js'
import type { CheckRule, Rules } from '../../src/config/types.js'
import { evaluateBudget } from '../../src/capabilities/reference/budget.js'
import { decide } from '../../src/decide/evaluate.js'
import type { UnitResult } from '../../src/decide/types.js'
import { runGate, sidesInputs } from '../../src/gate.js'
import { sideFromRows, type QueryRow } from '../../src/model/rows.js'
import { createStats } from '../../src/stats/compare.js'
import { sliceAgreement } from '../../src/capabilities/judge/agreement.js'
import { DEFAULT_MIN_ANCHOR_ITEMS } from '../../src/config/judge-rules.js'
import type { AnchorItem } from '../../src/capabilities/judge/anchors.js'

/**
 * The gate as the property study calls it: the rules read by the rules loader, the statistics engine and decide
 * (or the whole pipeline, for seeds), each check's status and the lower end of the interval it was decided on, in
 * the metric's better direction (−Infinity when the interval could not support a pass). One place to change when
 * the gate's entry points move.
 */

/** One check's outcome in one simulated evaluation. */
export interface Outcome {
  passed: boolean
  /** The deciding end in the better direction (what must clear the threshold); −Infinity when no pass was possible. */
  deciding: number
}

export function rulesOf(text: string): Rules {
  try {
    return loadRules(text, 'calibration.yml')
  } catch (e) {
    // Before rules could declare seed replicates: several files per side were the design.
    if (text.includes(', seeds: {')) return loadRules(text.replace(/, seeds: \{[^}]*\}/, ''), 'calibration.yml')
    throw e
  }
}

/** A paired table from the sampled columns (ids in order; attributes as given). */
export function tableOf(base: Float64Array, cand: Float64Array, attrs: Record<string, string[]>): PairedTable {
  const n = base.length
  return {
    ids: Array.from({ length: n }, (_, i) => `q${i}`),
    metrics: new Map([['m', { base, cand }]]),
    attrs: new Map(Object.entries(attrs)),
    coverage: {
      baselineRows: n,
      candidateRows: n,
      paired: n,
      onlyInBaseline: [],
      onlyInCandidate: [],
      candidateOnlyIgnored: 0,
      attributes: { names: Object.keys(attrs).sort(), candidateValuesCompared: 0 },
      filled: [],
      missingPolicy: 'error',
      runs: { baseline: null, candidate: null },
      notes: []
    }
  }
}

const deciding = (unit: UnitResult, rules: Rules): number => {
  const sign = (rules.metrics.get('m') as { better: string }).better === 'higher' ? 1 : -1
  if (unit.reason === 'interval_unreliable' || unit.reason === 'too_few_queries') return -Infinity
  if (unit.level !== undefined) {
    if (unit.level.unreliable !== null) return -Infinity
    return sign > 0 ? unit.level.ci[0] : -unit.level.ci[1]
  }
  if (unit.comparison.unreliable !== null) return -Infinity
  const ci = unit.comparison.ci
  return sign > 0 ? ci[0] : -ci[1]
}

/** Every check of the rules on one table, and a budget equal to the non-inferiority margin against the baseline as reference. */
export function decideTable(rules: Rules, table: PairedTable, slice?: [string, string]): Map<string, Outcome> {
  const stats = createStats(table, rules, { threads: 1 })
  const decision = decide(rules, table, stats)
  const out = new Map<string, Outcome>()
  for (const check of decision.checks) {
    // A per_slice check: the deciding end of the slice whose truth is at the threshold.
    const units =
      slice === undefined
        ? check.units
        : check.units.filter((u) => u.slice.some(([k, v]) => k === slice[0] && v === slice[1]))
    const worst = units.reduce((a, u) => Math.min(a, deciding(u, rules)), Infinity)
    out.set(check.rule.name, { passed: check.status === 'pass', deciding: worst })
  }
  const ni = rules.checks.find((c) => c.name === 'ni')
  if (ni !== undefined && ni.kind.type === 'non_inferior' && !ni.kind.margin.relative) {
    const rule: CheckRule = { ...ni, budget: ni.kind.margin }
    const budget = evaluateBudget(
      rule,
      rules,
      { stats, label: 'reference' },
      { filters: [], confidence: rules.statistics.confidence }
    )
    if (budget !== undefined) {
      const sign = (rules.metrics.get('m') as { better: string }).better === 'higher' ? 1 : -1
      const ci = budget.comparison.ci
      out.set('budget', {
        passed: budget.status === 'pass',
        deciding: budget.comparison.unreliable !== null ? -Infinity : sign > 0 ? ci[0] : -ci[1]
      })
    }
  }
  return out
}

/** Seed replicates through the whole pipeline (seed files averaged, the seeds capability's intervals). */
export function decideSeeds(
  rules: Rules,
  sample: { base: Float64Array[]; cand: Float64Array[] }
): Map<string, Outcome> {
  const side = (source: string, values: Float64Array) => {
    const rows: QueryRow[] = Array.from(values, (v, i) => ({
      id: `q${i}`,
      line: i + 1,
      values: new Map([['m', v]]),
      attrs: new Map()
    }))
    return sideFromRows(source, rows, { numericFields: new Set(['m']), attributeFields: new Set(), notes: [] })
  }
  const seeds = {
    baseline: sample.base.map((v, s) => side(`b${s}.jsonl`, v)),
    candidate: sample.cand.map((v, s) => side(`c${s}.jsonl`, v))
  }
  const baseline = averageSeeds(seeds.baseline, 'baseline')
  const candidate = averageSeeds(seeds.candidate, 'candidate')
  const result = runGate(sidesInputs(rules, baseline, candidate, { seeds }), { threads: 1 })
  const out = new Map<string, Outcome>()
  for (const check of result.decision.checks) {
    const worst = check.units.reduce((a, u) => Math.min(a, deciding(u, rules)), Infinity)
    out.set(check.rule.name, { passed: check.status === 'pass', deciding: worst })
  }
  return out
}

/** Judge drift: the agreement of both judges with the humans on the anchors, and the max_drop guard as the gate decides it. */
export function decideDrift(
  anchors: Array<[number, number, number]>,
  maxDrop: number,
  minItems = DEFAULT_MIN_ANCHOR_ITEMS
): Outcome {
  const k = anchors.reduce((a, [h, b, c]) => Math.max(a, h, b, c), 0) + 1
  const scale = Array.from({ length: k }, (_, i) => String(i))
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
  const ci = a.drift?.interval ?? null
  if (anchors.length < minItems || ci === null) return { passed: false, deciding: -Infinity }
  return { passed: ci[0] >= -maxDrop, deciding: ci[0] }
}

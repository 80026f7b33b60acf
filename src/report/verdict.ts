import type { MetricRule } from '../config/types.js'
import type { CheckResult, UnitResult } from '../decide/evaluate.js'
import type { GateResult } from '../decide/result.js'
import { explainUnit } from './words.js'

/** A unit that did not pass, with its plain-words sentence (RAW: escape it for where it goes). */
export interface Finding {
  check: CheckResult
  unit: UnitResult
  sentence: string
}

/** What the first lines of every report format say: the verdict, the check that decided it, the counts. */
export interface VerdictSummary {
  verdict: 'pass' | 'fail'
  /** The finding of the check that decided a failing verdict (decision.decidedBy); null on pass or when a trust rule decided. */
  decidedBy: Finding | null
  counts: { total: number; pass: number; fail: number; inconclusive: number }
  /** Every unit that did not pass, in rules order (the deciding one included). */
  findings: Finding[]
}

/** The verdict, the deciding check and one sentence per unit that did not pass. */
export function summarize(result: GateResult): VerdictSummary {
  const { rules, decision } = result
  const metricOf = (name: string): MetricRule => rules.metrics.get(name) as MetricRule
  const findings: Finding[] = []
  for (const check of decision.checks) {
    for (const unit of check.units) {
      if (unit.status !== 'pass')
        findings.push({
          check,
          unit,
          sentence: explainUnit(check, unit, metricOf(check.rule.metric), {
            minPerSlice: rules.queries.minPerSlice,
            capabilities: result.capabilities
          })
        })
    }
  }
  const deciding = decision.decidedBy
  const decidedBy = deciding?.kind === 'check' ? (findings.find((f) => f.unit === deciding.unit) ?? null) : null
  const count = (s: string): number => decision.checks.filter((c) => c.status === s).length
  return {
    verdict: decision.verdict,
    decidedBy,
    counts: {
      total: decision.checks.length,
      pass: count('pass'),
      fail: count('fail'),
      inconclusive: count('inconclusive')
    },
    findings
  }
}

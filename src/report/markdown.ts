import { markdownTable } from 'markdown-table'
import type { MetricRule } from '../config/types.js'
import type { CheckResult, UnitResult } from '../decide/evaluate.js'
import type { GateResult } from '../gate.js'
import type { Comparison } from '../stats/compare.js'
import { TOOL_NAME, VERSION } from '../version.js'
import { inline } from './escape.js'
import { digitsFor, fixed, pValue, signed } from './format.js'
import { explainUnit, sliceLabel } from './words.js'

const table = (rows: string[][]): string => markdownTable(rows, { alignDelimiters: false })

const STATUS: Record<string, string> = { pass: '✅ pass', fail: '❌ fail', inconclusive: '⚠️ inconclusive' }

/**
 * The Markdown report (PR comment and job summary): verdict and deciding check first, then the checks,
 * plain-words reasons, the most regressed queries, the exploratory slice breakdown, coverage and method.
 * Every piece of text that comes from the inputs goes through {@link inline}.
 */
export function toMarkdown(result: GateResult): string {
  const { rules, decision } = result
  const out: string[] = []
  const metricOf = (name: string): MetricRule => rules.metrics.get(name) as MetricRule
  const passed = decision.checks.filter((c) => c.status === 'pass').length
  const failed = decision.checks.filter((c) => c.status === 'fail').length
  const inconclusive = decision.checks.length - passed - failed
  if (decision.verdict === 'pass') out.push(`## ✅ ${TOOL_NAME}: pass`)
  else out.push(`## ❌ ${TOOL_NAME}: fail, decided by “${inline(decision.decidedBy?.rule.name ?? '')}”`)
  out.push('')
  const counted = inconclusive > 0 ? ` (inconclusive counts as ${rules.onInconclusive})` : ''
  out.push(`${passed} of ${decision.checks.length} checks pass, ${failed} fail, ${inconclusive} inconclusive${counted}; ${result.coverage.paired} queries paired.`)
  out.push('')
  out.push('### Checks')
  out.push('')
  const conf = `${fixed(rules.statistics.confidence * 100, 0)}% CI`
  const rows: string[][] = [['#', 'Check', 'Metric', 'Queries', 'n', 'Baseline', 'Candidate', 'Δ', conf, 'p', 'W/L/T', 'Status']]
  for (const check of decision.checks) {
    for (const unit of check.units) rows.push(checkRow(check, unit, metricOf(check.rule.metric)))
  }
  out.push(table(rows))
  out.push('')
  const reasons: string[] = []
  for (const check of decision.checks) {
    for (const unit of check.units) {
      if (unit.status !== 'pass') reasons.push(`- **${inline(check.rule.name)}** (${unit.status}): ${inline(explainUnit(check, unit, metricOf(check.rule.metric)), 600)}`)
    }
  }
  if (reasons.length > 0) out.push(...reasons, '')
  const primary = metricOf(result.primaryMetric)
  if (result.regressions.length > 0) {
    out.push(`### Most regressed queries (${inline(primary.name)})`)
    out.push('')
    const d = digitsFor(primary.range, result.regressions[0].baseline)
    const attrNames = result.regressions[0].attrs.map(([k]) => k)
    const rr: string[][] = [['Query', 'Baseline', 'Candidate', 'Δ', ...attrNames.map((a) => inline(a))]]
    for (const r of result.regressions.slice(0, 10)) {
      rr.push([inline(r.id), fixed(r.baseline, d), fixed(r.candidate, d), signed(r.delta, d), ...r.attrs.map(([, v]) => inline(v))])
    }
    out.push(table(rr))
    out.push('')
    out.push(`${result.regressions.length} of ${result.coverage.paired} queries got worse on ${inline(primary.name)}.`)
    out.push('')
  }
  const sliceRows = result.comparisons.filter((c) => c.slice.length > 0)
  out.push('### All metrics')
  out.push('')
  out.push(table([['Metric', 'Queries', 'n', 'Baseline', 'Candidate', 'Δ', conf, 'p', 'W/L/T'], ...result.comparisons.filter((c) => c.slice.length === 0).map((c) => comparisonRow(c, metricOf(c.metric)))]))
  out.push('')
  if (sliceRows.length > 0) {
    out.push('<details><summary>Slices (exploratory: shown, never gating unless a check names them)</summary>')
    out.push('')
    out.push(table([['Metric', 'Queries', 'n', 'Baseline', 'Candidate', 'Δ', conf, 'p', 'W/L/T'], ...sliceRows.map((c) => comparisonRow(c, metricOf(c.metric)))]))
    out.push('')
    out.push('</details>')
    out.push('')
  }
  out.push('<details><summary>Coverage and method</summary>')
  out.push('')
  out.push(...coverageLines(result))
  out.push('')
  out.push('</details>')
  out.push('')
  out.push(
    `_This gate enforces the checks written in the rules before the results were seen. A pass means those checks held on these queries; it does not certify that the candidate is better overall, nor anything about metrics, slices or queries the rules do not name._`
  )
  out.push('')
  return out.join('\n')
}

function checkRow(check: CheckResult, unit: UnitResult, metric: MetricRule): string[] {
  const c = unit.comparison
  return [
    String(check.rule.index + 1),
    inline(check.rule.name),
    inline(metric.name),
    inline(sliceLabel(c.slice)),
    String(c.n),
    ...values(c, metric),
    STATUS[unit.status]
  ]
}

function comparisonRow(c: Comparison, metric: MetricRule): string[] {
  return [inline(metric.name), inline(sliceLabel(c.slice)), String(c.n), ...values(c, metric)]
}

function values(c: Comparison, metric: MetricRule): string[] {
  const d = digitsFor(metric.range, c.baseline)
  const rel = c.relativeDelta === null ? '' : ` (${signed(c.relativeDelta * 100, 1)}%)`
  const unit = metric.unit ? ` ${inline(metric.unit, 16)}` : ''
  return [
    fixed(c.baseline, d) + unit,
    fixed(c.candidate, d) + unit,
    signed(c.delta, d) + unit + rel,
    `[${signed(c.ci[0], d)}, ${signed(c.ci[1], d)}]`,
    pValue(c.pValue),
    `${c.wins}/${c.losses}/${c.ties}`
  ]
}

function coverageLines(result: GateResult): string[] {
  const { coverage, rules } = result
  const lines = [
    `- Baseline: ${inline(result.inputs.baseline, 200)} (${coverage.baselineRows} rows); candidate: ${inline(result.inputs.candidate, 200)} (${coverage.candidateRows} rows); ${coverage.paired} queries paired.`
  ]
  const one = coverage.onlyInBaseline.length + coverage.onlyInCandidate.length
  if (one > 0) {
    lines.push(`- ${coverage.onlyInBaseline.length} queries only in the baseline and ${coverage.onlyInCandidate.length} only in the candidate; under \`missing: zero\` their absent side was filled with the metric's fill value.`)
  }
  for (const f of coverage.filled) {
    if (f.baseline + f.candidate > 0) lines.push(`- ${inline(f.metric)}: ${f.baseline} baseline and ${f.candidate} candidate values filled (missing: zero).`)
  }
  for (const note of coverage.notes) lines.push(`- ${inline(note, 400)}`)
  lines.push(
    `- Method: paired differences (candidate − baseline) per query; ${fixed(rules.statistics.confidence * 100, 0)}% percentile bootstrap intervals of the mean difference, ${rules.statistics.resamples} resamples, seed ${inline(rules.statistics.seed, 40)}; exact two-sided McNemar test for binary metrics; a check with fewer than ${rules.queries.minPerSlice} queries is inconclusive; inconclusive counts as ${rules.onInconclusive}.`
  )
  lines.push(`- Rules: ${inline(rules.source.file, 200)} (sha256 ${rules.source.sha256}); ${TOOL_NAME} ${VERSION}.`)
  return lines
}

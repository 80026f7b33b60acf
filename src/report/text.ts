import type { MetricRule } from '../config/types.js'
import type { GateResult } from '../gate.js'
import { TOOL_NAME, VERSION } from '../version.js'
import { plain } from './escape.js'
import { digitsFor, fixed, signed } from './format.js'
import { nextSteps } from './next-steps.js'
import { regressionRecords } from './regressions.js'
import { needs } from './sections.js'
import { summarize } from './verdict.js'
import { sliceLabel } from './words.js'
import { maxOf } from '../util/extent.js'

/** How the terminal report is drawn. The caller (src/cli.ts) decides from the terminal and NO_COLOR. */
export interface TextOptions {
  /** ANSI colours (only for a terminal, and never when NO_COLOR is set). */
  color: boolean
}

/** Regressed queries the terminal report lists. */
const TOP = 5

const CODES = { red: 31, green: 32, yellow: 33, bold: 1, dim: 2 } as const
type Style = keyof typeof CODES
const COLOUR: Record<string, Style> = { pass: 'green', fail: 'red', inconclusive: 'yellow' }
const wordOf = (status: string): string => (status === '' ? '' : status.toUpperCase())

/**
 * The same report as the Markdown one, for a terminal: verdict and deciding sentence, the checks as aligned
 * columns, the other findings, the worst queries, what to look at next, and the method in one line. Text
 * from the inputs goes through {@link plain} (control characters, including ESC sequences that could rewrite
 * the terminal, and bidi overrides are removed). Without colour the output is plain ASCII-and-UTF-8 text.
 */
export function toText(result: GateResult, options: TextOptions): string {
  const paint = (style: Style, s: string): string => (options.color ? `\u001b[${CODES[style]}m${s}\u001b[0m` : s)
  const statusWord = (s: string): string => paint(COLOUR[s], wordOf(s))
  const { rules } = result
  const summary = summarize(result)
  const primary = rules.metrics.get(result.primaryMetric) as MetricRule
  const out: string[] = []
  const d = result.decision.decidedBy
  // A trust rule (issue 5) that fails decides the verdict before any statistical check.
  const trustRule = result.trust?.decidedBy ?? null
  out.push(
    summary.verdict === 'pass'
      ? `${paint('bold', paint('green', 'PASS'))}  ${TOOL_NAME}`
      : trustRule !== null
        ? `${paint('bold', paint('red', 'FAIL'))}  ${TOOL_NAME}, decided by trust rule "${plain(String(trustRule))}"`
        : `${paint('bold', paint('red', 'FAIL'))}  ${TOOL_NAME}, decided by check ${d ? d.rule.index + 1 : '?'} "${plain(d?.rule.name ?? '')}"`
  )
  if (summary.decidedBy) out.push(`  ${plain(summary.decidedBy.sentence, 600)}`)
  const { total, pass, fail, inconclusive } = summary.counts
  const counted = inconclusive > 0 ? ` (inconclusive counts as ${rules.onInconclusive})` : ''
  out.push(paint('dim', `  ${pass} of ${total} checks pass, ${fail} fail, ${inconclusive} inconclusive${counted}; ${result.coverage.paired} queries paired.`))
  out.push('')
  out.push(paint('bold', 'Gated checks'))
  const conf = `${fixed(rules.statistics.confidence * 100, 0)}% CI`
  const rows: string[][] = [['', '#', 'Check', 'Metric', 'Queries', 'n', 'Δ', conf, 'Needs']]
  const statuses: string[] = ['']
  for (const check of result.decision.checks) {
    const metric = rules.metrics.get(check.rule.metric) as MetricRule
    for (const unit of check.units) {
      const c = unit.comparison
      const dg = digitsFor(metric.range, Math.abs(c.baseline))
      statuses.push(unit.status)
      rows.push(['', String(check.rule.index + 1), plain(check.rule.name, 40), plain(metric.name, 24), plain(sliceLabel(c.slice), 32), String(c.n), signed(c.delta, dg), `[${signed(c.ci[0], dg)}, ${signed(c.ci[1], dg)}]`, needs(check, unit, metric)])
    }
  }
  const widths = rows[0].map((_, j) => maxOf(rows.map((r) => width(r[j]))))
  widths[0] = 'INCONCLUSIVE'.length
  rows.forEach((r, i) => {
    const cells = r.map((cell, j) => pad(j === 0 ? wordOf(statuses[i]) : cell, widths[j]))
    if (i > 0) cells[0] = paint(COLOUR[statuses[i]], cells[0])
    const line = '  ' + cells.join('  ').trimEnd()
    out.push(i === 0 ? paint('dim', line) : line)
  })
  const others = summary.findings.filter((f) => f !== summary.decidedBy)
  if (others.length > 0) {
    out.push('')
    for (const f of others) out.push(`  ${statusWord(f.unit.status)} ${plain(f.check.rule.name, 80)}: ${plain(f.sentence, 600)}`)
  }
  if (result.regressions.length > 0) {
    const dg = digitsFor(primary.range, Math.abs(result.regressions[0].baseline))
    out.push('')
    out.push(paint('bold', `Most regressed on ${plain(primary.name, 40)}`) + paint('dim', ` (${result.regressions.length} of ${result.coverage.paired} got worse; ${regressionRecords(result).length} worse on a gated metric)`))
    for (const r of result.regressions.slice(0, TOP)) {
      const attrs = r.attrs.map(([k, v]) => `${plain(k, 24)}=${plain(v, 32)}`).join(' ')
      out.push(`  ${pad(plain(r.id, 40), 12)}  ${fixed(r.baseline, dg)} -> ${fixed(r.candidate, dg)}  ${paint('red', signed(r.delta, dg))}  ${paint('dim', attrs)}`.trimEnd())
    }
  }
  const steps = nextSteps(result)
  if (steps.length > 0) {
    out.push('')
    out.push(paint('bold', 'What to look at next'))
    for (const s of steps) {
      out.push(`  - ${s.pattern}: ${s.lookAt}.`)
      for (const e of s.evidence) out.push(paint('dim', `      ${plain(e, 200)}`))
    }
  }
  const s = rules.statistics
  out.push('')
  out.push(
    paint(
      'dim',
      `Method: ${fixed(s.confidence * 100, 0)}% ${s.interval === 'bca' ? 'BCa' : 'percentile'} paired bootstrap, ${s.resamples} resamples, seed ${plain(s.seed, 40)}, multiplicity ${s.multiplicity}; rules ${plain(rules.source.file, 120)} (sha256 ${rules.source.sha256.slice(0, 12)}); ${TOOL_NAME} ${VERSION}.`
    )
  )
  out.push('')
  return out.join('\n')
}

/** Display width, counting code points (the report avoids wide and combining characters of its own). */
function width(s: string): number {
  return Array.from(s).length
}

function pad(s: string, w: number): string {
  return s + ' '.repeat(Math.max(0, w - width(s)))
}

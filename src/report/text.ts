import type { MetricRule } from '../config/types.js'
import { queryDetails, type GateResult } from '../decide/result.js'
import type { LevelInterval } from '../decide/types.js'
import { TOOL_NAME, VERSION } from '../version.js'
import { plain } from './escape.js'
import { confidenceLabel, digitsFor, fixed, intervalCell, intervalHeading, inconclusiveCounting } from './format.js'
import { nextSteps } from './next-steps.js'
import { regressionCount } from './regressions.js'
import { candidateOnlyLine, familyWords, needs } from './sections.js'
import { reportHead } from './head.js'
import { resamplingShort } from './resampling.js'
import { rowOfId } from '../align/row-of-id.js'
import { pageSentence, type WrittenFiles } from './files.js'
import { cellUnit, changeCell, levelDigits, sliceLabel, unitWord } from './words.js'
import { gatedNotes, methodName, methodRows, slicesList } from './interval-words.js'
import { histogramLines } from './charts.js'
import { countBars } from './count-bars.js'
import { gatedForests } from './forest.js'
import { leftTail, leftTailSentence } from './left-tail.js'
import { maxOf } from '../util/extent.js'
import { textSlot } from './slots.js'
import { listableRegressions } from './holdout.js'
import { spansText } from './doc/text.js'

/** How the terminal report is drawn. The caller (src/cli.ts) decides from the terminal and NO_COLOR. */
export interface TextOptions {
  /** ANSI colours (only for a terminal, and never when NO_COLOR is set). */
  color: boolean
  /** The output files written beside the report (named only when written; otherwise the report says how). */
  files?: WrittenFiles
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
  const head = reportHead(result, options.files)
  const primary = rules.metrics.get(result.primaryMetric) as MetricRule
  const out: string[] = []
  const t: Terminal = { result, paint, primary, files: options.files }
  // The same reasons as the Markdown report (head.ts): a trust rule's own reason when one decides.
  const by = head.decidedBy
  out.push(
    by === null
      ? `${paint('bold', paint('green', 'PASS'))}  ${TOOL_NAME}`
      : by.kind === 'trust'
        ? `${paint('bold', paint('red', 'FAIL'))}  ${TOOL_NAME}, decided by trust rule "${plain(by.rule)}"`
        : `${paint('bold', paint('red', 'FAIL'))}  ${TOOL_NAME}, decided by check ${by.check.rule.index + 1} "${plain(by.check.rule.name)}"`
  )
  if (head.sentence !== null) out.push(`  ${plain(head.sentence, 800)}`)
  const { total, pass, fail, inconclusive } = head.counts
  const counted = inconclusiveCounting(result.decision.checks)
  out.push(
    paint(
      'dim',
      `  ${pass} of ${total} checks pass, ${fail} fail, ${inconclusive} inconclusive${counted}; ${result.coverage.paired} queries paired.`
    )
  )
  const ignored = candidateOnlyLine(result.coverage)
  if (ignored !== null) out.push(paint('dim', `  ${ignored}.`))
  for (const g of head.trust) out.push(`  ${statusWord(g.status)} trust rule ${plain(g.rule)}: ${plain(g.reason, 800)}`)
  out.push('')
  checksColumns(out, t)
  const others = head.findings
  if (others.length > 0) {
    out.push('')
    for (const f of others)
      out.push(`  ${statusWord(f.unit.status)} ${plain(f.check.rule.name, 80)}: ${plain(f.sentence, 600)}`)
  }
  // The reading order of the Markdown report: verdict, the checks, then whether it is publishable and what to judge.
  const after: string[] = []
  const pub = head.publishable
  if (pub !== null)
    after.push(
      `  Publishable: ${pub.label}${pub.detail === '' ? '' : pub.label === 'no' ? `: ${plain(pub.detail, 1300)}` : ` (${plain(pub.detail, 400)})`}`
    )
  if (head.toJudge !== null) after.push(`  ${plain(head.toJudge, 400)}`)
  after.push(...textSlot(result, 'head', options.files))
  const page = pageSentence(options.files)
  if (page !== null) after.push(`  ${plain(page, 600)}`)
  if (after.length > 0) out.push('', ...after)
  const under = textSlot(result, 'underChecks', options.files)
  if (under.length > 0) out.push('', ...under)
  const notes = gatedNotes(result)
  if (notes.length > 0)
    out.push(
      '',
      '  Notes on the intervals of the gated checks:',
      ...notes.map(
        (n) => `    check ${n.check.rule.index + 1} (${plain(slicesList(n.slices), 300)}): ${plain(n.note, 400)}`
      )
    )
  const budget = textSlot(result, 'afterFindings', options.files)
  if (budget.length > 0) out.push('', ...budget)
  picturesLines(out, t)
  regressedLines(out, t)
  stepsAndMethod(out, t)
  out.push('')
  return out.join('\n')
}

/** What the terminal report's parts share: the result, the colouring, the primary metric, the files written. */
interface Terminal {
  result: GateResult
  paint: (style: Style, s: string) => string
  primary: MetricRule
  files: WrittenFiles | undefined
}

/** The gated checks as aligned columns, coloured by status. */
function checksColumns(out: string[], t: Terminal): void {
  const { result, paint } = t
  const { rules } = result
  out.push(paint('bold', 'Gated checks'))
  const conf = intervalHeading(
    result.decision.checks.flatMap((check) => check.units.map((u) => u.comparison.confidence))
  )
  const mixed = conf === 'CI'
  const rows: string[][] = [['', '#', 'Check', 'Metric', 'Queries', 'n', 'Δ', conf, 'Needs']]
  const statuses: string[] = ['']
  for (const check of result.decision.checks) {
    const metric = rules.metrics.get(check.rule.metric) as MetricRule
    // Changes in the report's one unit for the metric (points for a share: words.ts inPoints).
    const change = (x: number, typical: number): string => changeCell(x, metric, typical)
    const unitWords = cellUnit(metric) ? ` ${plain(cellUnit(metric), 16)}` : ''
    for (const unit of check.units) {
      const c = unit.comparison
      const typical = Math.abs(c.baseline)
      statuses.push(unit.status)
      rows.push([
        '',
        String(check.rule.index + 1),
        plain(check.rule.name, 40),
        plain(metric.name, 24),
        plain(sliceLabel(c.slice), 32),
        String(c.n),
        ...(unit.level !== undefined
          ? levelCells(unit.level, metric, typical, mixed)
          : [
              change(c.delta, typical) + unitWords,
              intervalCell(change(c.ci[0], typical), change(c.ci[1], typical), c.confidence, mixed)
            ]),
        spansText(needs(check, unit, metric))
      ])
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
}

/** The same pictures as the Markdown report, in Unicode, and the histogram of changes. */
function picturesLines(out: string[], t: Terminal): void {
  const { result, paint, primary } = t
  // The same pictures as the Markdown report, in Unicode (forest.ts, count-bars.ts, charts.ts).
  for (const f of gatedForests(result)) out.push('', ...f.lines.map((l) => `  ${l}`.trimEnd()))
  for (const b of countBars(result)) out.push('', ...b.lines.map((l) => `  ${l}`.trimEnd()))
  const hist = histogramLines(result, (side, line) =>
    paint(side === 'worse' ? 'red' : side === 'better' ? 'green' : 'dim', line)
  )
  if (hist.length > 0) {
    out.push(
      '',
      `  ${plain(primary.name, 60)}: change per query, candidate − baseline${unitWord(primary) ? ` in ${plain(unitWord(primary), 16)}` : ''} (▼ worse, ▲ better); queries per bin`
    )
    out.push(...hist.map((l) => `  ${l}`))
    const tail = leftTail(result)
    if (tail !== null) out.push(`  ${plain(leftTailSentence(tail), 400)}`)
  }
}

/** The most regressed queries on the primary metric (never a holdout query). */
function regressedLines(out: string[], t: Terminal): void {
  const { result, paint, primary } = t
  if (result.regressions.length > 0) {
    const dg = levelDigits(primary, Math.abs(result.regressions[0].baseline))
    out.push('')
    out.push(
      paint('bold', `Most regressed on ${plain(primary.name, 40)}`) +
        paint(
          'dim',
          ` (${result.regressions.length} of ${result.coverage.paired} got worse; ${regressionCount(result)} worse on a gated metric)`
        )
    )
    const listable = listableRegressions(result)
    for (const r of listable.shown.slice(0, TOP)) {
      const attrs = r.attrs.map(([k, v]) => `${plain(k, 24)}=${plain(v, 32)}`).join(' ')
      const text = queryDetails(result, rowOfId(result.table, r.id)).text
      const delta =
        changeCell(r.delta, primary, Math.abs(result.regressions[0].baseline)) +
        (cellUnit(primary) ? ` ${plain(cellUnit(primary), 16)}` : '')
      out.push(
        `  ${pad(plain(r.id, 40), 12)}  ${fixed(r.baseline, dg)} -> ${fixed(r.candidate, dg)}  ${paint('red', delta)}  ${paint('dim', attrs)}`.trimEnd()
      )
      if (text !== undefined) out.push(paint('dim', `      ${plain(text, 100)}`))
    }
    if (listable.withheld > 0)
      out.push(
        paint(
          'dim',
          `  ${listable.withheld} holdout ${listable.withheld === 1 ? 'query' : 'queries'} that got worse ${listable.withheld === 1 ? 'is' : 'are'} not listed: the holdout is reported in aggregates only.`
        )
      )
  }
}

/** What to look at next, and the method in one line. */
function stepsAndMethod(out: string[], t: Terminal): void {
  const { result, paint } = t
  const { rules } = result
  const steps = nextSteps(result, t.files)
  if (steps.length > 0) {
    out.push('')
    out.push(paint('bold', 'What to look at next'))
    for (const s of steps) {
      out.push(`  - ${s.pattern}: ${plain(s.lookAt, 400)}.`)
      for (const e of s.evidence) out.push(paint('dim', `      ${plain(e, 200)}`))
    }
  }
  const s = rules.statistics
  out.push('')
  out.push(
    paint(
      'dim',
      `Method: ${confidenceLabel(s.confidence)} ${intervalSummary(result)}${familyWords(result)}, seed ${plain(s.seed, 40)}, multiplicity ${s.multiplicity}; rules ${plain(rules.source.file, 120)} (sha256 ${rules.source.sha256.slice(0, 12)}); ${TOOL_NAME} ${VERSION}.`
    )
  )
}

/** An at_least / at_most unit's cells: the candidate's mean and its interval (levels, as the files hold them). */
function levelCells(level: LevelInterval, metric: MetricRule, typical: number, mixed: boolean): [string, string] {
  const d = digitsFor(metric.range, typical)
  return [
    `mean ${fixed(level.mean, d)}`,
    intervalCell(fixed(level.ci[0], d), fixed(level.ci[1], d), level.confidence, mixed)
  ]
}

/**
 * The intervals in a few words: under statistics.interval auto the methods the gated checks used ("intervals by
 * metric type: Tango's score interval (hit@10), Hall's skew-corrected t (recall@10)"), else the bootstrap asked for.
 */
function intervalSummary(result: GateResult): string {
  const s = result.rules.statistics
  if (s.interval !== 'auto')
    return `${s.interval === 'bca' ? 'BCa' : 'percentile'} paired bootstrap${resamplingShort(result)}, ${s.resamples} resamples`
  const byMethod = new Map<string, Set<string>>()
  for (const row of methodRows(result)) {
    const name = methodName(row.method)
    const metrics = byMethod.get(name) ?? new Set<string>()
    metrics.add(plain(row.check.rule.metric, 40))
    byMethod.set(name, metrics)
  }
  const parts = [...byMethod].map(([name, metrics]) => `${name} (${[...metrics].join(', ')})`)
  return `intervals by metric type and design${parts.length > 0 ? `: ${parts.join('; ')}` : ''}`
}

/** Display width, counting code points (the report avoids wide and combining characters of its own). */
function width(s: string): number {
  return Array.from(s).length
}

function pad(s: string, w: number): string {
  return s + ' '.repeat(Math.max(0, w - width(s)))
}

import type { GateResult } from '../../decide/result.js'
import { holdoutQueries } from '../../decide/holdout.js'
import { regressionSetSentence, type WrittenFiles } from '../files.js'
import { reportHead } from '../head.js'
import { nextSteps } from '../next-steps.js'
import { regressionCount } from '../regressions.js'
import { checkDetailsTable, checksTable, comparisonsTable, coverageBody, methodBody } from '../sections.js'
import { shownSliceRows } from '../slice-rows.js'
import { trustBody } from '../trust-lines.js'
import { SCOPE_SENTENCE, statisticsSentences } from '../words.js'
import { TOOL_NAME } from '../../version.js'
import { capabilityParts } from './capabilities.js'
import { htmlDocument } from './document.js'
import { entities, esc } from './escape.js'
import { headHtml } from './head-html.js'
import { markdownToHtml } from './markdown-subset.js'
import { forestSection, querySection, sliceBarsSection, sliceForests } from './pictures-html.js'
import { regressedTable, type QueryDetails } from './regressed-table.js'
import { sliceColours } from './slice-colours.js'

export { HTML_FILE } from '../files.js'
export { POINTS_PER_PLOT } from './points.js'
export { REGRESSED_ROWS, type QueryDetails, type RankedDoc } from './regressed-table.js'

/** What the page knows besides the result. */
export interface HtmlOptions {
  /** The output files written beside the page (named when written; otherwise the page says how). */
  files?: WrittenFiles
  /** Query text and both sides' top documents, when the caller has them (their columns appear then). */
  details?: QueryDetails
  /** Most queries a scatter draws (default POINTS_PER_PLOT) and most regressed queries listed (REGRESSED_ROWS). */
  maxPoints?: number
  maxRows?: number
}

/** A section with a heading and an id the page's contents link to. */
function section(id: string, title: string, body: string): string {
  return body.trim() === '' ? '' : `<section id="${id}">\n<h2>${esc(title, 200)}</h2>\n${body}\n</section>`
}

/** A collapsed section (the Markdown report's `<details>`). */
function collapsed(id: string, title: string, body: string): string {
  return body.trim() === '' ? '' : `<details id="${id}"><summary>${title}</summary>\n${body}\n</details>`
}

/**
 * The HTML page of a gate run: one self-contained file (document.ts: no network, a Content-Security-Policy
 * that allows its own style and script only) with what a reviewer reaches for after the PR comment: the verdict
 * and checks as in the Markdown, a forest plot of every check unit and slice on a numeric axis, per gated metric
 * a baseline-against-candidate scatter of the queries and the histogram of their changes, wins and losses per
 * slice, the regressed queries (sortable, filterable; with their text and both top-k lists when `details` has
 * them), coverage, comparability, trust and method. The words are the Markdown report's, from the same
 * functions (src/report/); the capabilities' parts come through one hook (capabilities.ts).
 *
 * Bounded for any number of queries: a scatter draws at most POINTS_PER_PLOT queries (the worst and a fixed
 * sample, points.ts), the table lists REGRESSED_ROWS, the pictures and slice tables the Markdown's caps, so a
 * page for 10^6 queries stays about the size of one for 10^4. Deterministic: a pure function of the result
 * (same inputs, any row order, same bytes). Holdout queries are never shown one by one (holdout.ts's rule).
 */
export function toHtmlReport(result: GateResult, options: HtmlOptions = {}): string {
  const head = reportHead(result, options.files)
  const parts = capabilityParts(result)
  const isHoldout = holdoutQueries(result.rules, result.table)
  const primary = result.rules.metrics.get(result.primaryMetric)?.name ?? result.primaryMetric

  const checks: string[] = [markdownToHtml([checksTable(result)])]
  for (const s of statisticsSentences(result)) checks.push(`<p class="note">${esc(s, 600)}</p>`)
  if (parts.underChecks !== '') checks.push(parts.underChecks)
  if (head.findings.length > 0) {
    const items = head.findings.map((f) => `<li class="${f.unit.status}"><span class="word">${f.unit.status}</span> <strong>${esc(f.check.rule.name, 120)}</strong>: ${esc(f.sentence, 600)}</li>`)
    checks.push(`<ul class="findings">${items.join('\n')}</ul>`)
  }
  checks.push(collapsed('check-details', 'Check details: baseline, candidate, relative change, wins / losses / ties', markdownToHtml([checkDetailsTable(result)])))

  const overall = result.comparisons.filter((c) => c.slice.length === 0)
  const sliceRows = shownSliceRows(
    result.comparisons.filter((c) => c.slice.length > 0),
    'comparisons'
  )
  const breakdown = [
    sliceForests(result),
    markdownToHtml([comparisonsTable(result, overall)]),
    sliceRows.shown.length > 0 ? markdownToHtml([comparisonsTable(result, sliceRows.shown), '', sliceRows.note ?? '']) : '<p class="note">No slices are declared in the rules.</p>'
  ].join('\n')

  const regressed = regressedTable(result, { isHoldout, details: options.details, maxRows: options.maxRows })
  const regressedBody = [regressed.html]
  if (result.regressions.length > 0 || regressed.withheld > 0) regressedBody.push(`<p class="note">${esc(regressionSetSentence(options.files, regressionCount(result)), 800)}</p>`)

  const trust = result.trust ? [parts.judge, markdownToHtml(trustBody(result.trust))].join('\n') : ''
  const steps = nextSteps(result, options.files)
  const stepsHtml =
    steps.length === 0
      ? ''
      : `<ul>${steps.map((s) => `<li><strong>${esc(s.pattern, 200)}</strong> → ${esc(s.lookAt, 200)}.${s.evidence.length > 0 ? `<ul>${s.evidence.map((e) => `<li>${esc(e, 300)}</li>`).join('')}</ul>` : ''}</li>`).join('\n')}</ul>`

  const nav = [
    ['checks', 'Checks'],
    ['forest', 'Every check on one axis'],
    ['queries', 'Query by query'],
    ['slices', 'Wins and losses per slice'],
    ['regressed', 'Regressed queries'],
    ['details', 'Coverage, trust, method']
  ]
  const body = [
    headHtml(result, head, parts.head),
    `<nav aria-label="Contents"><ul>${nav.map(([id, t]) => `<li><a href="#${id}-section">${t}</a></li>`).join('')}</ul></nav>`,
    '<main>',
    section('checks-section', 'Gated checks', checks.join('\n')),
    parts.budget,
    section('forest-section', 'Every check on one axis', forestSection(result)),
    section('queries-section', 'Query by query', querySection(result, { isHoldout, colours: sliceColours(result.rules, result.table), maxPoints: options.maxPoints })),
    section('slices-section', 'Wins and losses per slice', sliceBarsSection(result)),
    collapsed('breakdown', 'Per-slice breakdown (exploratory: shown, never gating unless a check names the slice)', breakdown),
    parts.history,
    section('regressed-section', `Regressed queries: ${result.regressions.length} of ${result.coverage.paired} got worse on ${primary}`, regressedBody.join('\n')),
    section(
      'details-section',
      'Coverage, comparability, trust and method',
      [
        collapsed('coverage', 'Coverage: what happened to every query', markdownToHtml(coverageBody(result))),
        collapsed('comparability', 'Comparability', parts.comparability),
        collapsed('trust', 'Trust: evaluation set, pooling bias, whole-class failures', trust),
        collapsed('seeds', 'Seeds: the spread between independently trained seeds', parts.seeds),
        collapsed('method', 'Method', markdownToHtml(methodBody(result))),
        collapsed('next', 'What to look at next', stepsHtml)
      ].join('\n')
    ),
    '</main>',
    `<footer><p><em>${entities(SCOPE_SENTENCE)}</em></p></footer>`
  ]
  return htmlDocument(`${TOOL_NAME}: ${result.decision.verdict} · ${primary}`, body.filter((b) => b !== '').join('\n'))
}

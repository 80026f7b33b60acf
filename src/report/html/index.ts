import { isWithheld, type GateResult } from '../../decide/result.js'
import type { WrittenFiles } from '../files.js'
import { reportHead } from '../head.js'
import { SECTION_TITLES } from '../sections.js'
import { SCOPE_SENTENCE } from '../words.js'
import { TOOL_NAME } from '../../version.js'
import { htmlDocument } from './document.js'
import { entities } from './escape.js'
import { headHtml } from './head-html.js'
import { forestSection, sliceBarsSection } from './checks-pictures.js'
import { querySection } from './query-section.js'
import { capabilityDetails, type QueryDetails } from './regressed-table.js'
import { breakdownBody, checksBody, collapsed, detailsBody, regressedBody, section } from './sections-html.js'
import { sliceColours } from './slice-colours.js'
import { slotBlocks } from '../slots.js'
import { toHtml } from '../doc/html.js'

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

/**
 * The HTML page of a gate run: one self-contained file (document.ts: no network, a Content-Security-Policy
 * that allows its own style and script only) with what a reviewer reaches for after the PR comment: the verdict
 * and checks as in the Markdown, a forest plot of every check unit and slice on a numeric axis, per gated metric
 * a baseline-against-candidate scatter of the queries and the histogram of their changes, wins and losses per
 * slice, the regressed queries (sortable, filterable; with their text and both top-k lists when `details` has
 * them), coverage, comparability, trust and method. The words are the Markdown report's, from the same
 * functions (src/report/); the capabilities' parts come through their slots (slots.ts).
 *
 * Bounded for any number of queries: a scatter draws at most POINTS_PER_PLOT queries (the worst and a fixed
 * sample, points.ts), the table lists REGRESSED_ROWS, the pictures and slice tables the Markdown's caps, so a
 * page for 10^6 queries stays about the size of one for 10^4. Deterministic: a pure function of the result
 * (same inputs, any row order, same bytes). Holdout queries are never shown one by one (holdout.ts's rule).
 */
export function toHtmlReport(result: GateResult, options: HtmlOptions = {}): string {
  const { files } = options
  const head = reportHead(result, files)
  const isHoldout = (i: number): boolean => isWithheld(result, i)
  const primary = result.rules.metrics.get(result.primaryMetric)?.name ?? result.primaryMetric
  const colours = sliceColours(result.rules, result.table)
  const regressed = `Regressed queries: ${result.regressions.length} of ${result.coverage.paired} got worse on ${primary}`
  const body = [
    headHtml(result, head, toHtml(slotBlocks(result, 'head', files))),
    contents(),
    '<main>',
    section('checks-section', 'Gated checks', checksBody(result, head, files)),
    toHtml(slotBlocks(result, 'afterFindings', files), 2),
    section('forest-section', 'Every check on one axis', forestSection(result)),
    section(
      'queries-section',
      'Query by query',
      querySection(result, { isHoldout, colours, maxPoints: options.maxPoints })
    ),
    section('slices-section', 'Wins and losses per slice', sliceBarsSection(result)),
    collapsed('breakdown', SECTION_TITLES.breakdown, breakdownBody(result)),
    toHtml(slotBlocks(result, 'afterPictures', files), 2),
    section(
      'regressed-section',
      regressed,
      regressedBody(result, {
        files,
        details: options.details ?? capabilityDetails(result),
        maxRows: options.maxRows
      })
    ),
    section('details-section', 'Coverage, comparability, trust and method', detailsBody(result, files)),
    '</main>',
    `<footer><p><em>${entities(SCOPE_SENTENCE)}</em></p></footer>`
  ]
  return htmlDocument(`${TOOL_NAME}: ${result.decision.verdict} · ${primary}`, body.filter((b) => b !== '').join('\n'))
}

/** The page's table of contents: links to its sections (in-page anchors: nothing is fetched). */
function contents(): string {
  const links: Array<[string, string]> = [
    ['checks', 'Checks'],
    ['forest', 'Every check on one axis'],
    ['queries', 'Query by query'],
    ['slices', 'Wins and losses per slice'],
    ['regressed', 'Regressed queries'],
    ['details', 'Coverage, trust, method']
  ]
  return `<nav aria-label="Contents"><ul>${links.map(([id, t]) => `<li><a href="#${id}-section">${t}</a></li>`).join('')}</ul></nav>`
}

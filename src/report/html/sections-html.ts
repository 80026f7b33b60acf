import type { GateResult } from '../../decide/result.js'
import { regressionSetSentence, type WrittenFiles } from '../files.js'
import type { ReportHead } from '../head.js'
import { nextSteps } from '../next-steps.js'
import { regressionCount } from '../regressions.js'
import {
  breakdownTables,
  checkDetailsTable,
  checksTable,
  comparabilityBody,
  coverageBody,
  methodBody,
  SECTION_TITLES
} from '../sections.js'
import { trustBody } from '../trust-lines.js'
import { capabilitySections, slotBlocks } from '../slots.js'
import { statisticsSentences } from '../words.js'
import { esc } from './escape.js'
import { toHtml } from '../doc/html.js'
import { sliceForests } from './checks-pictures.js'
import { regressedTable, type RegressedOptions } from './regressed-table.js'

/**
 * The page's sections of text and tables, each from the Markdown report's own building blocks (sections.ts,
 * trust-lines.ts, words.ts, next-steps.ts) so the page and the comment say the same: the gated checks, the
 * per-slice breakdown, the regressed queries, and the collapsed coverage, comparability, trust, seeds, method
 * and next-steps sections.
 */

/** A section with a heading (RAW) and an id the page's contents link to; '' when it has no body. */
export function section(id: string, title: string, body: string): string {
  return body.trim() === '' ? '' : `<section id="${id}">\n<h2>${esc(title, 200)}</h2>\n${body}\n</section>`
}

/** A collapsed section, as the Markdown report's `<details>`; `title` is our own words. */
export function collapsed(id: string, title: string, body: string): string {
  return body.trim() === '' ? '' : `<details id="${id}"><summary>${esc(title, 200)}</summary>\n${body}\n</details>`
}

/** A list item for a unit or trust rule that did not pass: its status word, its name, its sentence (RAW). */
export function finding(status: string, name: string, sentence: string): string {
  return `<li class="${status}"><span class="word">${status}</span> <strong>${esc(name, 120)}</strong>: ${esc(sentence, 800)}</li>`
}

/** The gated checks: the table, the statistics' sentences, every other unit that did not pass, the details. */
export function checksBody(result: GateResult, head: ReportHead, files: WrittenFiles | undefined): string {
  const out: string[] = [toHtml([checksTable(result)])]
  for (const s of statisticsSentences(result)) out.push(`<p class="note">${esc(s, 600)}</p>`)
  const underChecks = toHtml(slotBlocks(result, 'underChecks', files))
  if (underChecks !== '') out.push(underChecks)
  if (head.findings.length > 0) {
    const items = head.findings.map((f) => finding(f.unit.status, f.check.rule.name, f.sentence))
    out.push(`<ul class="findings">${items.join('\n')}</ul>`)
  }
  out.push(collapsed('check-details', SECTION_TITLES.checkDetails, toHtml([checkDetailsTable(result)])))
  return out.join('\n')
}

/** The exploratory per-slice breakdown: its forest plots, then every comparison (slice rows capped as in the Markdown). */
export function breakdownBody(result: GateResult): string {
  const { overall, slices } = breakdownTables(result)
  const none = '<p class="note">No slices are declared in the rules.</p>'
  return [sliceForests(result), toHtml([overall]), slices.length > 0 ? toHtml(slices) : none].join('\n')
}

/** The regressed queries: the table (regressed-table.ts) and where the whole regression set is. */
export function regressedBody(result: GateResult, options: RegressedOptions & { files?: WrittenFiles }): string {
  const table = regressedTable(result, options)
  if (result.regressions.length === 0 && table.withheld === 0) return table.html
  return `${table.html}\n<p class="note">${esc(regressionSetSentence(options.files, regressionCount(result)), 800)}</p>`
}

/** What to look at next: each pattern that applies, with its evidence. */
function nextStepsBody(result: GateResult, files: WrittenFiles | undefined): string {
  const steps = nextSteps(result, files)
  if (steps.length === 0) return ''
  const items = steps.map((s) => {
    const evidence =
      s.evidence.length > 0 ? `<ul>${s.evidence.map((e) => `<li>${esc(e, 300)}</li>`).join('')}</ul>` : ''
    return `<li><strong>${esc(s.pattern, 200)}</strong> → ${esc(s.lookAt, 200)}.${evidence}</li>`
  })
  return `<ul>${items.join('\n')}</ul>`
}

/** The collapsed sections after the regressed queries, in the Markdown report's order. */
export function detailsBody(result: GateResult, files: WrittenFiles | undefined): string {
  const judge = toHtml(slotBlocks(result, 'trustDetails', files))
  const trust = result.trust ? `${judge}\n${toHtml(trustBody(result.trust, result, files))}` : ''
  return [
    collapsed('coverage', SECTION_TITLES.coverage, toHtml(coverageBody(result))),
    collapsed('comparability', SECTION_TITLES.comparability, toHtml(comparabilityBody(result))),
    collapsed('trust', SECTION_TITLES.trust, trust),
    ...capabilitySections(result, files).map((s) => collapsed(s.id, s.title, toHtml(s.body))),
    collapsed('method', SECTION_TITLES.method, toHtml(methodBody(result))),
    collapsed('next', SECTION_TITLES.next, nextStepsBody(result, files))
  ].join('\n')
}

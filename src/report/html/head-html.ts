import type { GateResult } from '../../decide/result.js'
import type { ReportHead } from '../head.js'
import { provenanceBlocks } from '../provenance.js'
import { candidateOnlyLine } from '../sections.js'
import { publishableLine } from '../trust-lines.js'
import { TOOL_NAME, VERSION } from '../../version.js'
import { entities, esc } from './escape.js'
import { spansHtml, toHtml } from '../doc/html.js'
import { finding } from './sections-html.js'
import { metricOf } from '../words.js'

/**
 * The head of the page, as the head of the Markdown report (head.ts builds both): the verdict and what decided
 * it, that rule's own sentence, the counts, the trust rules that did not pass, whether the result is
 * publishable, where the unjudged documents are, provenance, and the capabilities' head lines (`extra`).
 */
export function headHtml(result: GateResult, head: ReportHead, extra: string): string {
  const by = head.decided
  const verdict = by === null ? 'pass' : 'fail'
  const title =
    by === null
      ? '<span class="badge">PASS</span>every gated check holds'
      : `<span class="badge">FAIL</span>${entities(by.by)} “${esc(by.name, 80)}”`
  const tool = `<p class="tool">${entities(`${TOOL_NAME} ${VERSION}`)} · rules ${esc(result.rules.source.file, 200)}</p>`
  const out = [`<header class="verdict ${verdict}">`, tool, `<h1>${title}</h1>`]
  if (head.sentence !== null) out.push(`<p class="sentence">${esc(head.sentence, 800)}</p>`)
  const primary = metricOf(result, result.primaryMetric)
  const worse =
    result.regressions.length > 0 ? ` · ${result.regressions.length} got worse on ${esc(primary.name, 60)}` : ''
  out.push(`<p class="counts">${entities(head.checks)} · ${entities(head.paired)}${worse}.</p>`)
  const ignored = candidateOnlyLine(result.coverage)
  if (ignored !== null) out.push(`<p class="note">${entities(ignored)}.</p>`)
  if (head.trust.length > 0) {
    const items = head.trust.map((g) => finding(g.status, `trust rule ${g.rule}`, g.reason))
    out.push(`<ul class="findings">${items.join('\n')}</ul>`)
  }
  if (result.trust) out.push(`<p>${spansHtml(publishableLine(result.trust))}</p>`)
  if (head.toJudge !== null) out.push(`<p>${esc(head.toJudge, 400)}</p>`)
  const provenance = provenanceBlocks(result.provenance)
  if (provenance.length > 0) out.push(toHtml(provenance))
  if (extra !== '') out.push(extra)
  out.push('</header>')
  return out.join('\n')
}

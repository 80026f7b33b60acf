import { queryDetails, TOP_REGRESSIONS, type GateResult } from '../decide/result.js'
import { rowOfId } from '../align/row-of-id.js'
import { cells, em, paragraph, table, text, words, type Block, type Inline } from '../model/document.js'
import { regressionSetSentence, type WrittenFiles } from './files.js'
import { fixed } from './format.js'
import { listableRegressions, withheldSentence } from './holdout.js'
import { regressionCount } from './regressions.js'
import { changeUnit } from './sections.js'
import { topDocumentsBlock } from './top-documents.js'
import { changeCell, levelDigits, metricOf } from './words.js'

/** Regressed queries the terminal report lists (the Markdown lists TOP_REGRESSIONS). */
const TERMINAL_TOP = 5

/**
 * The most regressed queries on the primary metric, dev split only (the holdout's are never listed one by one,
 * holdout.ts), for the Markdown and the terminal report. The Markdown's is a collapsed section (there even when
 * only another gated metric got worse): a lead-in line, the table, both runs' top documents, the holdout's count
 * and where the regression set is. `terminal`: a headline with the counts, the table and the holdout's count.
 */
export function regressedBlocks(result: GateResult, files: WrittenFiles | undefined, terminal: boolean): Block[] {
  const primary = metricOf(result, result.primaryMetric)
  if (result.regressions.length === 0 && terminal) return []
  const worseOnGated = regressionCount(result)
  if (result.regressions.length === 0 && worseOnGated === 0) return []
  const listable = listableRegressions(result)
  const top = terminal ? TERMINAL_TOP : TOP_REGRESSIONS
  const shown = Math.min(top, listable.shown.length)
  const worse = `${result.regressions.length} of ${result.coverage.paired} got worse`
  const body: Block[] = []
  if (shown > 0) {
    if (!terminal)
      body.push(paragraph(words(`The ${shown} queries that lost most on `), text(primary.name), words(':')))
    body.push(regressedTable({ ...result, regressions: listable.shown }, top))
    if (!terminal) body.push(...topDocumentsBlock(result, listable.shown.slice(0, top)))
  }
  const withheld = words(withheldSentence(listable.withheld))
  if (listable.withheld > 0) body.push(paragraph(terminal ? em(withheld) : withheld))
  if (terminal) {
    const gated = em(words(` (${worse}; ${worseOnGated} worse on a gated metric)`))
    return [
      { kind: 'headline', level: 3, spans: [words('Most regressed on '), text(primary.name, 40), gated] },
      ...body
    ]
  }
  body.push(paragraph(text(regressionSetSentence(files, worseOnGated), 800)))
  return [{ kind: 'details', summary: [words(`Regressed queries: ${worse} on `), text(primary.name)], body }]
}

/** The most regressed queries on the primary metric, with their attributes. */
function regressedTable(result: GateResult, limit: number): Block {
  const primary = metricOf(result, result.primaryMetric)
  const shown = result.regressions.slice(0, limit)
  const typical = shown.length > 0 ? Math.abs(shown[0].baseline) : 0
  const d = levelDigits(primary, typical)
  const attrNames = shown.length > 0 ? shown[0].attrs.map(([k]) => k) : []
  // The query's text beside its id, when the rules name a queries file (src/capabilities/queries/capability.ts).
  const texts = shown.map((r) => queryDetails(result, rowOfId(result.table, r.id)).text)
  const withText = texts.some((t) => t !== undefined)
  const head = [
    ...cells('Query', ...(withText ? ['Text'] : []), 'Baseline', 'Candidate', 'Δ'),
    ...attrNames.map((a) => [text(a, 40)])
  ]
  const rows = shown.map((r, k): Inline[] => [
    [text(r.id)],
    ...(withText ? [[text(texts[k] ?? '', 120)]] : []),
    [words(fixed(r.baseline, d))],
    [words(fixed(r.candidate, d))],
    [words(changeCell(r.delta, primary, typical)), ...changeUnit(primary)],
    ...r.attrs.map(([, v]) => [text(v, 40)])
  ])
  return table(head, rows)
}

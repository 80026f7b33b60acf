import type { GateResult } from '../decide/result.js'
import { TOOL_NAME } from '../version.js'
import { sliceForest } from './forest.js'
import { nextSteps } from './next-steps.js'
import { provenanceBlocks } from './provenance.js'
import { gatedMetrics } from './regressions.js'
import {
  checkDetailsTable,
  breakdownTables,
  checksTable,
  comparabilityBody,
  coverageBody,
  foldedBlocks,
  methodBody,
  notPassedLines,
  SECTION_TITLES
} from './sections.js'
import { reportHead, type ReportHead } from './head.js'
import { pageSentence, type WrittenFiles } from './files.js'
import { publishableLine, trustBody } from './trust-lines.js'
import { metricOf, SCOPE_SENTENCE, statisticsSentences } from './words.js'
import { gatedNotes, slicesList } from './interval-words.js'
import { pushAll } from '../util/extent.js'
import { capabilitySections, slotBlocks } from './slots.js'
import { toMarkdownLines } from './doc/markdown.js'
import { picturesBlocks } from './pictures.js'
import { regressedBlocks } from './regressed.js'
import { em, figure, list, paragraph, strong, text, words, type Block, type Inline } from '../model/document.js'

export { REGRESSIONS_FILE } from './files.js'

/** What the Markdown report knows besides the result. */
export interface MarkdownOptions {
  /** The output files written beside the report (named only when written; otherwise the report says how). */
  files?: WrittenFiles
}

/**
 * The Markdown report (PR comment and job summary), built for a reviewer's first thirty seconds:
 *
 * 1. the head: verdict and the check that decided it, its plain-words sentence, the counts, the trust rules
 *    that did not pass;
 * 2. `### Gated checks`: the table (a max_regressions check over slices folded to one row, its slices in a
 *    collapsed list under it), one sentence for every other unit that did not pass, then whether the result is
 *    publishable, the to-judge list, provenance and the holdout's looks;
 * 3. `### Pictures`: each gated metric's forest plot (intervals against its limits on one numeric axis), wins and
 *    losses per slice, the histogram of per-query changes and the slice its tail of losses comes from;
 * 4. collapsible sections: per-slice breakdown, regressed queries, coverage, comparability, method, and
 *    what to look at next (only when a pattern applies).
 *
 * Sections start at a `### ` heading or a top-level `<details>` line, the contract with fit.ts (which drops
 * whole sections, collapsed ones first, from the end, when a comment is too long). Every piece of text from
 * the inputs goes through escape.ts; the output is a pure function of the result (byte-deterministic).
 */
export function toMarkdown(result: GateResult, options: MarkdownOptions = {}): string {
  const head = reportHead(result, options.files)
  return toMarkdownLines(markdownDocument(result, head, options.files)).join('\n')
}

/** The Markdown report as one document of blocks, section by section. */
function markdownDocument(result: GateResult, head: ReportHead, files: WrittenFiles | undefined): Block[] {
  const out: Block[] = []
  headSection(out, result, head)
  pushAll(out, checksBlocks(result, head, files, false))
  pushAll(out, slotBlocks(result, 'afterFindings', files))
  pushAll(out, picturesBlocks(result, false))
  pushAll(out, slotBlocks(result, 'afterPictures', files))
  collapsedSections(out, result, files)
  out.push(paragraph(em(words(SCOPE_SENTENCE))))
  return out
}

/**
 * The counts under the verdict, in the Markdown and the terminal report alike: the checks, the queries paired and how
 * many got worse on the primary metric.
 */
export function countsLine(result: GateResult, head: ReportHead): Inline {
  const primary = metricOf(result, result.primaryMetric)
  const worse: Inline =
    result.regressions.length > 0 ? [words(` · ${result.regressions.length} got worse on `), text(primary.name)] : []
  return [words(`${head.checks} · ${head.paired}`), ...worse, words('.')]
}

/** The head: never dropped by fit.ts; the verdict, its sentence, the counts, the trust rules that did not pass. */
function headSection(out: Block[], result: GateResult, head: ReportHead): void {
  // The same reasons as the terminal report (head.ts).
  const by = head.decided
  const title: Inline =
    by === null
      ? [words(`✅ ${TOOL_NAME}: pass`)]
      : [words(`❌ ${TOOL_NAME}: fail, ${by.by} “`), text(by.name), words('”')]
  const blocks: Block[] = [{ kind: 'headline', level: 2, spans: title }]
  if (head.sentence !== null) blocks.push(paragraph(strong(text(head.sentence, 800))))
  blocks.push(paragraph(...countsLine(result, head)))
  // Trust rules that did not pass (other than the deciding one): part of the verdict.
  if (result.trust && head.trust.length > 0) blocks.push(list(...notPassedLines(head, false).trust))
  pushAll(out, blocks)
}

/**
 * The gated checks (also the terminal's): the table, the statistics' sentences, the capabilities' lines and the notes
 * under it, the other findings, publishable, the to-judge list, provenance, the capabilities' head lines and the
 * page written. `terminal`: every unit in the table (no folded checks), the findings as lines, no provenance.
 */
export function checksBlocks(
  result: GateResult,
  head: ReportHead,
  files: WrittenFiles | undefined,
  terminal: boolean
): Block[] {
  // The table (a max_regressions check over slices folded to one row, its slices collapsed under it).
  const out: Block[] = [{ kind: 'headline', level: 3, spans: [words('Gated checks')] }, checksTable(result, terminal)]
  if (!terminal) pushAll(out, foldedBlocks(result))
  // Issue 4: observed vs target mix (statistics.weights) and the multiplicity in force, under the table.
  const statistics = statisticsSentences(result).map((t) => [terminal ? text(t, 600) : em(text(t, 600))])
  if (statistics.length > 0) out.push({ kind: 'paragraph', lines: statistics })
  pushAll(out, slotBlocks(result, 'underChecks', files))
  pushAll(out, notesBlocks(result))
  const findings = notPassedLines(head, terminal).findings
  if (findings.length > 0) out.push(terminal ? { kind: 'paragraph', lines: findings } : list(...findings))
  // Then whether the result is publishable, the to-judge list, where the exam came from, the holdout's looks.
  if (result.trust) out.push({ kind: 'paragraph', lines: [publishableLine(result.trust)] })
  if (head.toJudge !== null) out.push(paragraph(text(head.toJudge, 400)))
  if (!terminal) pushAll(out, provenanceBlocks(result.provenance))
  pushAll(out, slotBlocks(result, 'head', files))
  const page = pageSentence(files)
  if (page !== null) out.push(paragraph(text(page, 600)))
  return out
}

/** Every note on a gated unit's interval (clusters, strata, fallbacks, seeds): the JSON's notes (also the terminal's). */
export function notesBlocks(result: GateResult): Block[] {
  const notes = gatedNotes(result)
  if (notes.length === 0) return []
  return [
    paragraph(words('Notes on the intervals of the gated checks:')),
    list(
      ...notes.map((n) => [
        words(`check ${n.check.rule.index + 1} (`),
        text(slicesList(n.slices), 300),
        words('): '),
        text(n.note, 400)
      ])
    )
  ]
}

/** A collapsed section: its title (our own words, HTML-safe) and its blocks. */
const section = (title: string, body: Block[]): Block => ({ kind: 'details', summary: [words(title)], body })

/** The collapsible sections, in a fixed order. */
function collapsedSections(out: Block[], result: GateResult, files: WrittenFiles | undefined): void {
  const sliceForests: Block[] = []
  for (const name of gatedMetrics(result)) {
    const lines = sliceForest(result, name)
    if (lines !== null) sliceForests.push(figure(lines))
  }
  const { overall, slices } = breakdownTables(result)
  const none = paragraph(em(words('No slices are declared in the rules.')))
  const blocks: Block[] = [
    section(SECTION_TITLES.checkDetails, [checkDetailsTable(result)]),
    section(SECTION_TITLES.breakdown, [...sliceForests, overall, ...(slices.length > 0 ? slices : [none])]),
    ...regressedBlocks(result, files, false),
    section(SECTION_TITLES.coverage, coverageBody(result)),
    section(SECTION_TITLES.comparability, comparabilityBody(result))
  ]
  if (result.trust)
    blocks.push(
      section(SECTION_TITLES.trust, [
        ...slotBlocks(result, 'trustDetails', files),
        ...trustBody(result.trust, result, files)
      ])
    )
  for (const s of capabilitySections(result, files)) blocks.push(section(s.title, s.body))
  // what to look at next: each pattern that applies, with its evidence
  const steps = nextStepsList(result, files)
  blocks.push(section(SECTION_TITLES.method, methodBody(result)))
  if (steps !== null) blocks.push(section(SECTION_TITLES.next, [steps]))
  pushAll(out, blocks)
}

/** Each pattern that applies, what to look at and its evidence, as a list (also the terminal's); null when none. */
export function nextStepsList(result: GateResult, files: WrittenFiles | undefined): Block | null {
  const steps = nextSteps(result, files)
  if (steps.length === 0) return null
  const items = steps.map((s) => ({
    spans: [strong(text(s.pattern, 200)), words(' → '), text(s.lookAt, 200), words('.')],
    children: s.evidence.map((e) => [text(e, 300)])
  }))
  return { kind: 'list', items }
}

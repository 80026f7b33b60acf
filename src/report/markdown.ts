import type { MetricRule } from '../config/types.js'
import type { GateResult } from '../decide/result.js'
import { TOP_REGRESSIONS } from '../decide/result.js'
import { TOOL_NAME } from '../version.js'
import { histogramChart } from './charts.js'
import { countBars } from './count-bars.js'
import { gatedForests, sliceForest } from './forest.js'
import { leftTail, leftTailSentence } from './left-tail.js'
import { htmlText, inline } from './escape.js'
import { confidenceLabels, inconclusiveCounting } from './format.js'
import { budgetSection } from './budget.js'
import { nextSteps } from './next-steps.js'
import { provenanceLines } from './provenance.js'
import { gatedMetrics, regressionCount } from './regressions.js'
import { checkDetailsTable, checksTable, comparabilityBody, comparisonsTable, coverageBody, methodBody, regressedTable, STATUS } from './sections.js'
import { reportHead } from './head.js'
import { fileOrHow, type WrittenFiles } from './files.js'
import { publishableLine, trustBody } from './trust-lines.js'
import { judgeBody } from './judge.js'
import { statisticsSentences, unitWord } from './words.js'
import { gatedNotes, slicesList } from './interval-words.js'
import { pushAll } from '../util/extent.js'
import { historySection } from './history.js'
import { holdoutSentence, listableRegressions } from './holdout.js'
import { shownSliceRows } from './slice-rows.js'
import { seedSentences, seedsBody } from './seeds.js'

export { REGRESSIONS_FILE } from './files.js'

/** What the Markdown report knows besides the result. */
export interface MarkdownOptions {
  /** The output files written beside the report (named only when written; otherwise the report says how). */
  files?: WrittenFiles
}

/**
 * The Markdown report (PR comment and job summary), built for a reviewer's first thirty seconds:
 *
 * 1. the head: verdict and the check that decided it, its plain-words sentence, the counts, provenance;
 * 2. `### Gated checks`: the table, and one sentence for every other unit that did not pass;
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
  const { rules } = result
  const head = reportHead(result, options.files)
  const out: string[] = []
  const primary = rules.metrics.get(result.primaryMetric) as MetricRule

  // 1. Head: never dropped by fit.ts. The same reasons as the terminal report (head.ts).
  const by = head.decidedBy
  if (by === null) out.push(`## ✅ ${TOOL_NAME}: pass`)
  else if (by.kind === 'trust') out.push(`## ❌ ${TOOL_NAME}: fail, decided by trust rule “${inline(by.rule)}”`)
  else out.push(`## ❌ ${TOOL_NAME}: fail, decided by check ${by.check.rule.index + 1} “${inline(by.check.rule.name)}”`)
  out.push('')
  if (head.sentence !== null) out.push(`**${inline(head.sentence, 800)}**`, '')
  const { total, pass, fail, inconclusive } = head.counts
  const counted = inconclusiveCounting(result.decision.checks)
  const worse = result.regressions.length > 0 ? ` · ${result.regressions.length} got worse on ${inline(primary.name)}` : ''
  out.push(`${pass} of ${total} checks pass, ${fail} fail, ${inconclusive} inconclusive${counted} · ${result.coverage.paired} queries paired${worse}.`)
  out.push('')
  // Trust rules that did not pass (other than the deciding one), whether the result is publishable, the to-judge list.
  if (result.trust) {
    for (const g of head.trust) out.push(`- ${STATUS[g.status]} **trust rule ${inline(g.rule)}**: ${inline(g.reason, 800)}`)
    if (head.trust.length > 0) out.push('')
    out.push(publishableLine(result.trust), '')
    if (head.toJudge !== null) out.push(inline(head.toJudge, 400), '')
  }
  const provenance = provenanceLines(result.provenance)
  if (provenance.length > 0) out.push(...provenance, '')
  const holdout = holdoutSentence(result)
  if (holdout !== null) out.push(inline(holdout, 800), '')

  // 2. Gated checks.
  out.push('### Gated checks', '')
  out.push(checksTable(result), '')
  // Issue 4: observed vs target mix (statistics.weights) and the multiplicity in force, under the table.
  const statistics = statisticsSentences(result)
  if (statistics.length > 0) out.push(...statistics.map((t) => `_${inline(t, 600)}_`), '')
  const seedWords = seedSentences(result)
  if (seedWords.length > 0) out.push(...seedWords.map((t) => `_${inline(t, 600)}_`), '')
  // Every note on a gated unit's interval (clusters, strata, fallbacks, seeds): the JSON's notes, here too.
  const notes = gatedNotes(result)
  if (notes.length > 0) {
    out.push('Notes on the intervals of the gated checks:', '')
    for (const n of notes) out.push(`- check ${n.check.rule.index + 1} (${inline(slicesList(n.slices), 300)}): ${inline(n.note, 400)}`)
    out.push('')
  }
  const others = head.findings
  if (others.length > 0) {
    for (const f of others) out.push(`- ${STATUS[f.unit.status]} **${inline(f.check.rule.name)}**: ${inline(f.sentence, 600)}`)
    out.push('')
  }

  out.push(...budgetSection(result))

  // 3. Pictures: Unicode in fenced blocks (every place the report goes renders them alike), Mermaid only for the histogram.
  const forests = gatedForests(result)
  const bars = countBars(result)
  const hist = histogramChart(result)
  if (forests.length > 0 || bars.length > 0 || hist) {
    out.push('### Pictures', '')
    if (forests.length > 0) {
      out.push(
        `Each row is a check, or one slice of it: its change (●) and ${confidenceWords(result)} interval (├──┤) on one axis in the metric's units; │ is no change, ¦ a check's limit. FAIL rows are drawn ╞══■══╡, inconclusive ├··□··┤.`,
        ''
      )
      for (const f of forests) fence(out, f.lines)
    }
    if (bars.length > 0) {
      out.push('How many queries got worse and better, per slice (a count limit of the rules is drawn ║ where it lies):', '')
      for (const b of bars) fence(out, b.lines)
    }
    if (hist) {
      out.push(
        `How the change of ${inline(primary.name)} is spread over the ${result.coverage.paired} queries, in ${inline(unitWord(primary) || 'its units')} (the mean hides whether it is many small gains or a few large losses):`,
        ''
      )
      out.push('```mermaid', hist, '```', '')
      const tail = leftTail(result)
      if (tail !== null) out.push(inline(leftTailSentence(tail), 400), '')
    }
  }

  pushAll(out, historySection(result))

  // 4. Collapsible sections, in a fixed order.
  const sliceRows = shownSliceRows(
    result.comparisons.filter((c) => c.slice.length > 0),
    'comparisons'
  )
  details(out, 'Check details: baseline, candidate, relative change, wins / losses / ties', [checkDetailsTable(result), ''])
  const sliceForests: string[] = []
  for (const name of gatedMetrics(result)) {
    const lines = sliceForest(result, name)
    if (lines !== null) fence(sliceForests, lines)
  }
  details(out, 'Per-slice breakdown (exploratory: shown, never gating unless a check names the slice)', [
    ...sliceForests,
    comparisonsTable(
      result,
      result.comparisons.filter((c) => c.slice.length === 0)
    ),
    '',
    ...(sliceRows.shown.length > 0 ? [comparisonsTable(result, sliceRows.shown), '', ...(sliceRows.note ? [sliceRows.note, ''] : [])] : ['_No slices are declared in the rules._', ''])
  ])
  const worseOnGated = regressionCount(result)
  if (result.regressions.length > 0 || worseOnGated > 0) {
    // The holdout's queries are never listed one by one (src/report/holdout.ts): the dev split's only.
    const listable = listableRegressions(result)
    const shown = Math.min(TOP_REGRESSIONS, listable.shown.length)
    const body: string[] = []
    if (shown > 0) body.push(`The ${shown} queries that lost most on ${inline(primary.name)}:`, '', regressedTable({ ...result, regressions: listable.shown }, TOP_REGRESSIONS), '')
    if (listable.withheld > 0)
      body.push(`${listable.withheld} holdout ${listable.withheld === 1 ? 'query' : 'queries'} that got worse ${listable.withheld === 1 ? 'is' : 'are'} not listed: the holdout is reported in aggregates only.`, '')
    const where = fileOrHow(options.files, 'regressions')
    body.push(
      where.file !== undefined
        ? `The regression set ${inline(where.file, 200)} lists all ${worseOnGated} queries that got worse on at least one gated metric, with both values and their attributes: keep it as a regression suite.`
        : `${worseOnGated} queries got worse on at least one gated metric. To keep them as a regression suite (both values and their attributes, one JSON line per query), ${inline(where.how, 200)}.`,
      ''
    )
    details(out, `Regressed queries: ${result.regressions.length} of ${result.coverage.paired} got worse on ${htmlText(primary.name)}`, body)
  }
  details(out, 'Coverage: what happened to every query', coverageBody(result))
  details(out, 'Comparability', comparabilityBody(result))
  if (result.trust) details(out, 'Trust: evaluation set, pooling bias, whole-class failures', [...judgeBody(result.judge), ...trustBody(result.trust)])
  if (result.seeds) details(out, 'Seeds: the spread between independently trained seeds', seedsBody(result.seeds, result))
  details(out, 'Method', methodBody(result))
  const steps = nextSteps(result, options.files)
  if (steps.length > 0) {
    const body: string[] = []
    for (const s of steps) {
      body.push(`- **${inline(s.pattern, 200)}** → ${inline(s.lookAt, 200)}.`)
      for (const e of s.evidence) body.push(`  - ${inline(e, 300)}`)
    }
    body.push('')
    details(out, 'What to look at next', body)
  }
  out.push(
    `_This gate enforces the checks written in the rules before the results were seen. A pass means those checks held on these queries; it does not certify that the candidate is better overall, nor anything about metrics, slices or queries the rules do not name._`
  )
  out.push('')
  return out.join('\n')
}

/** "95%", or "95% or 98.33%" when the charted intervals mix confidences (multiplicity and max_regressions). */
function confidenceWords(result: GateResult): string {
  return confidenceLabels(result.decision.checks.flatMap((c) => c.units.map((u) => u.comparison.confidence)))
}

/**
 * A fenced block of Unicode picture lines. The fence is one backtick longer than the longest run of backticks
 * in the lines, so no name can close it (every line also starts with a word or a space, never a fence).
 */
function fence(out: string[], lines: string[]): void {
  let longest = 0
  for (const line of lines) for (const m of line.matchAll(/`+/g)) longest = Math.max(longest, m[0].length)
  const mark = '`'.repeat(Math.max(3, longest + 1))
  out.push(mark + 'text', ...lines, mark, '')
}

/** A collapsed section; `summary` must already be HTML-safe (htmlText for any untrusted part). */
function details(out: string[], summary: string, body: string[]): void {
  out.push(`<details><summary>${summary}</summary>`, '')
  pushAll(out, body)
  out.push('</details>', '')
}

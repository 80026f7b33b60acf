import type { GateResult } from '../decide/result.js'
import { histogramChart, histogramLines } from './charts.js'
import { countBars } from './count-bars.js'
import { gatedForests } from './forest.js'
import { confidenceLabels } from './format.js'
import { leftTail, leftTailSentence } from './left-tail.js'
import { metricOf, unitWord } from './words.js'
import { gatedConfidences } from './sections.js'
import type { Paint } from './doc/text.js'
import { figure, paragraph, text, words, type Block, type Inline, type Span } from '../model/document.js'

/**
 * The pictures of the Markdown and the terminal report: each gated metric's forest plot, wins and losses per slice,
 * the histogram of per-query changes of the primary metric and the slice its tail of losses comes from. Unicode in
 * fenced blocks (every place the report goes renders them alike), Mermaid only for the Markdown's histogram.
 * `terminal`: no heading and no lead-in lines, the histogram as Unicode lines coloured by side with `paint`.
 */
export function picturesBlocks(result: GateResult, terminal: boolean, paint?: Paint): Block[] {
  const forests = gatedForests(result)
  const bars = countBars(result)
  const tone = { worse: 'fail', better: 'pass', same: 'dim' } as const
  // The bins' lines are our own (numbers and bars), coloured before they become a picture.
  const hist = terminal
    ? histogramLines(result, (side, line) => (paint ? paint(tone[side], line) : line))
    : (histogramChart(result)?.split('\n') ?? [])
  if (forests.length === 0 && bars.length === 0 && hist.length === 0) return []
  const lead = (...spans: Span[]): Block[] => (terminal ? [] : [paragraph(...spans)])
  const out: Block[] = terminal ? [] : [{ kind: 'headline', level: 3, spans: [words('Pictures')] }]
  // "95%", or "95% or 98.33%" when the charted intervals mix confidences (multiplicity and max_regressions).
  if (forests.length > 0)
    out.push(
      ...lead(
        words(
          `Each row is a check, or one slice of it: its change (●) and ${confidenceLabels(gatedConfidences(result))} interval (├──┤) on one axis in the metric's units; │ is no change, ¦ a check's limit. FAIL rows are drawn ╞══■══╡, inconclusive ├··□··┤.`
        )
      ),
      ...forests.map((f) => figure(f.lines))
    )
  if (bars.length > 0)
    out.push(
      ...lead(
        words('How many queries got worse and better, per slice (a count limit of the rules is drawn ║ where it lies):')
      ),
      ...bars.map((b) => figure(b.lines))
    )
  if (hist.length === 0) return out
  out.push(histogramLead(result, terminal), figure(hist, terminal ? 'text' : 'mermaid'))
  const tail = leftTail(result)
  if (tail !== null) out.push(paragraph(text(leftTailSentence(tail), 400)))
  return out
}

/** The line above the histogram: what it shows, in the primary metric's units. */
function histogramLead(result: GateResult, terminal: boolean): Block {
  const primary = metricOf(result, result.primaryMetric)
  const unit = unitWord(primary)
  if (!terminal)
    return paragraph(
      words('How the change of '),
      text(primary.name),
      words(` is spread over the ${result.coverage.paired} queries, in `),
      text(unit || 'its units'),
      words(' (the mean hides whether it is many small gains or a few large losses):')
    )
  const lead: Inline = [
    text(primary.name, 60),
    words(': change per query, candidate − baseline'),
    ...(unit ? [words(' in '), text(unit, 16)] : []),
    words(' (▼ worse, ▲ better); queries per bin')
  ]
  return { kind: 'paragraph', lines: [lead], tight: true }
}

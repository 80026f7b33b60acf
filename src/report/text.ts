import type { GateResult } from '../decide/result.js'
import { TOOL_NAME, VERSION } from '../version.js'
import { confidenceLabel } from './format.js'
import { candidateOnlyLine, familyWords, notPassedLines } from './sections.js'
import { reportHead, type ReportHead } from './head.js'
import { resamplingShort } from './resampling.js'
import { type WrittenFiles } from './files.js'
import { methodName, methodRows } from './interval-words.js'
import { pushAll } from '../util/extent.js'
import { slotBlocks } from './slots.js'
import { checksBlocks, countsLine, nextStepsList } from './markdown.js'
import { toTextLines, type Paint } from './doc/text.js'
import { picturesBlocks } from './pictures.js'
import { regressedBlocks } from './regressed.js'
import { commas, em, paragraph, text, toned, words, type Block, type Inline, type Tone } from '../model/document.js'

/** How the terminal report is drawn. The caller (src/cli.ts) decides from the terminal and NO_COLOR. */
export interface TextOptions {
  /** ANSI colours (only for a terminal, and never when NO_COLOR is set). */
  color: boolean
  /** The output files written beside the report (named only when written; otherwise the report says how). */
  files?: WrittenFiles
}

/**
 * SGR codes: each style on, and its own off (22 ends bold and dim, 39 the colour), so a status word inside the bold
 * verdict line leaves the rest of the line bold.
 */
const CODES: Record<Tone | 'bold' | 'dim', [number, number]> = {
  fail: [31, 39],
  pass: [32, 39],
  inconclusive: [33, 39],
  bold: [1, 22],
  dim: [2, 22]
}
const ansi: Paint = (tone, s) => `\u001b[${CODES[tone][0]}m${s}\u001b[${CODES[tone][1]}m`

/**
 * The same report as the Markdown one, for a terminal: the same kind of document (src/model/document.ts), drawn
 * by the terminal renderer (doc/text.ts, the one place its text is made safe). The verdict and deciding
 * sentence, the checks as aligned columns, the other findings, publishable and what to judge, the capabilities'
 * blocks, the pictures and the capabilities' blocks after them (the history), the worst queries, what to look at next, and the method in one line. Where the content is
 * the Markdown report's, the blocks are the same (notes, publishable, the regressed table, next steps, the
 * capabilities' parts). Without colour the output is plain ASCII-and-UTF-8 text.
 */
export function toText(result: GateResult, options: TextOptions): string {
  const head = reportHead(result, options.files)
  const paint = options.color ? ansi : undefined
  return toTextLines(textDocument(result, head, options), '  ', paint).join('\n') + '\n'
}

/** The terminal report as one document of blocks, section by section. */
function textDocument(result: GateResult, head: ReportHead, options: TextOptions): Block[] {
  const files = options.files
  const out: Block[] = [...headBlocks(result, head), ...checksBlocks(result, head, files, true)]
  pushAll(out, slotBlocks(result, 'afterFindings', files))
  pushAll(out, picturesBlocks(result, true, options.color ? ansi : undefined))
  pushAll(out, slotBlocks(result, 'afterPictures', files))
  pushAll(out, regressedBlocks(result, files, true))
  const steps = nextStepsList(result, files)
  if (steps !== null) out.push({ kind: 'headline', level: 3, spans: [words('What to look at next')] }, steps)
  out.push(paragraph(em(...methodLine(result))))
  return out
}

/** The verdict (the same reasons as the Markdown report, head.ts), its sentence, the counts, the trust rules. */
function headBlocks(result: GateResult, head: ReportHead): Block[] {
  const by = head.decided
  const title: Inline =
    by === null
      ? [toned('PASS', 'pass'), words(`  ${TOOL_NAME}`)]
      : [toned('FAIL', 'fail'), words(`  ${TOOL_NAME}, ${by.by} "`), text(by.name), words('"')]
  const lines: Inline[] = []
  if (head.sentence !== null) lines.push([text(head.sentence, 800)])
  lines.push([em(...countsLine(result, head))])
  const ignored = candidateOnlyLine(result.coverage)
  if (ignored !== null) lines.push([em(text(`${ignored}.`, 400))])
  lines.push(...notPassedLines(head, true).trust)
  return [
    { kind: 'headline', level: 2, spans: title },
    { kind: 'paragraph', lines }
  ]
}

/** The method in one line: the intervals, the seed, the multiplicity, the rules file and the tool. */
function methodLine(result: GateResult): Inline {
  const { rules } = result
  const s = rules.statistics
  return [
    words(`Method: ${confidenceLabel(s.confidence)} `),
    ...intervalSummary(result),
    words(`${familyWords(result)}, seed `),
    text(s.seed, 40),
    words(`, multiplicity ${s.multiplicity}; rules `),
    text(rules.source.file, 120),
    words(` (sha256 ${rules.source.sha256.slice(0, 12)}); ${TOOL_NAME} ${VERSION}.`)
  ]
}

/**
 * The intervals in a few words: under statistics.interval auto the methods the gated checks used ("intervals by
 * metric type: Tango's score interval (hit@10), Hall's skew-corrected t (recall@10)"), else the bootstrap asked for.
 */
function intervalSummary(result: GateResult): Inline {
  const s = result.rules.statistics
  if (s.interval !== 'auto')
    return [
      words(
        `${s.interval === 'bca' ? 'BCa' : 'percentile'} paired bootstrap${resamplingShort(result)}, ${s.resamples} resamples`
      )
    ]
  const byMethod = new Map<string, Set<string>>()
  for (const row of methodRows(result)) {
    const name = methodName(row.method)
    const metrics = byMethod.get(name) ?? new Set<string>()
    metrics.add(row.check.rule.metric)
    byMethod.set(name, metrics)
  }
  const out: Inline = [words('intervals by metric type and design')]
  ;[...byMethod].forEach(([name, metrics], i) => {
    out.push(words(`${i === 0 ? ': ' : '; '}${name} (`))
    out.push(...commas([...metrics].map((m) => [text(m, 40)])))
    out.push(words(')'))
  })
  return out
}

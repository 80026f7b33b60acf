import { InputError } from '../../errors.js'
import type { JudgeRules } from '../../config/judge-rules.js'
import { readAnchors, readCandidateJudgeLabels, type JudgeAnchors } from './anchors.js'
import { readFetched } from '../../readers/fetched.js'
import { assessJudge, type JudgeResult } from './guards.js'
import { judgeBody, judgeGuardSentence, judgeJson } from './report.js'
import type { Capability } from '../contract.js'

/** The candidate judge's labels: the action input and CLI option that give them. */
export const CANDIDATE_JUDGE_LABELS = 'candidate-judge-labels'

/**
 * Judge anchors (rules `judge`): is the ruler the same? The LLM judge against human labels, per slice, drift
 * between the two sides' judges, repeatability, position consistency and length bias.
 *
 * Exam: the anchor file (items, human labels, attributes, how often each item is scored, the baseline judge's
 * labels). Answer: the candidate judge's labels of every anchor scoring (`--candidate-judge-labels`), and each
 * side's answer length on every exam query (length bias). Without candidate labels one judge serves both sides.
 */
export const judgeCapability: Capability<JudgeRules, JudgeAnchors | null, JudgeResult> = {
  name: 'judge',
  about: 'a changed or drifting judge: agreement with human anchors, drift between the sides’ judges, length bias',
  files: [
    {
      option: CANDIDATE_JUDGE_LABELS,
      readBy: 'judge.anchors',
      help: "the candidate judge's labels of the rules' judge anchors (an answer; the anchors are the exam)"
    }
  ],
  words: { judge: judgeGuardSentence },
  config: (rules) => rules.judge,
  needsRows: () => 'judge',
  inputs: (j) => [
    ...(j.anchors === undefined
      ? []
      : [
          { role: 'exam' as const, kind: 'file' as const, name: 'judge anchors', path: j.anchors, key: 'judge.anchors' }
        ]),
    {
      role: 'answer',
      kind: 'given',
      name: "candidate judge's labels",
      option: CANDIDATE_JUDGE_LABELS,
      many: false,
      required: false
    }
  ],
  async read(j, inputs) {
    const file = inputs.file('judge anchors')
    const labels = inputs.file("candidate judge's labels")
    if (file === undefined) {
      if (labels !== undefined) throw labelsWithoutAnchors(labels.name)
      return null
    }
    const anchors = await readFetched(file, (path, name) => readAnchors(path, name, j.perSlice))
    return labels === undefined
      ? anchors
      : readFetched(labels, (path, name) => readCandidateJudgeLabels(path, name, anchors))
  },
  assess({ rules, table, core, evidence }) {
    const judge = assessJudge(rules, {
      table,
      baseline: core.baseline,
      candidate: core.candidate,
      anchors: evidence ?? null
    }) as JudgeResult
    return {
      guards: judge.guards,
      summary: judge,
      parts: {
        blocks: { trustDetails: () => judgeBody(judge) },
        json: () => ['judge', judgeJson(judge)]
      }
    }
  }
}

function labelsWithoutAnchors(file: string): InputError {
  return new InputError(
    { file },
    "the candidate judge's labels were given, but the rules name no anchor file to check them against",
    'add judge.anchors to the rules (human-labelled items, read at the base commit), or leave the labels out'
  )
}

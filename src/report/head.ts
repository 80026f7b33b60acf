import { toJudgeOf } from './slots.js'
import type { GateResult } from '../decide/result.js'
import { inconclusiveCounting } from './format.js'
import { fileOrHow, type WrittenFiles } from './files.js'
import { summarize, type Finding } from './verdict.js'

/**
 * What the head of every report format says, built once so the Markdown and the terminal report give the
 * same reasons: the verdict, what decided it (a trust rule or a check) with that rule's OWN sentence (a trust
 * rule's reason, never a check's sentence under a trust rule's name), the other trust rules that did not
 * pass, whether the result is publishable, and every other unit that did not pass. All text is RAW: each
 * renderer escapes it for where it goes.
 */
export interface ReportHead {
  /**
   * What decided a failing verdict (a trust guard or a check, as the decision says): its words and the rule's name
   * each format quotes in its own marks (`decided by check 2` “name”); null on pass.
   */
  decided: { by: string; name: string } | null
  /** The deciding rule's sentence, or null (pass, or nothing to say). */
  sentence: string | null
  /** The counts: "3 of 4 checks pass, 0 fail, 1 inconclusive (inconclusive counts as fail)" (own words). */
  checks: string
  /** The queries compared: "300 queries paired", and how many of them the candidate left out (scored as missing). */
  paired: string
  /** Trust rules that did not pass, except the deciding one (its reason is {@link sentence}). */
  trust: Array<{ rule: string; status: 'fail' | 'inconclusive'; reason: string }>
  /** Where the unjudged pooled documents are listed (or how to list them), when there are any. */
  toJudge: string | null
  /** Every unit that did not pass, except the one whose sentence is {@link sentence}. */
  findings: Finding[]
}

/** The head of the report of `result`; `files` are the output files written beside it. */
export function reportHead(result: GateResult, files?: WrittenFiles): ReportHead {
  const summary = summarize(result)
  const { decidedBy, guards } = result.decision
  // The deciding rule's own sentence: a guard's reason in words, or the deciding check's finding.
  const shown: Finding | null = decidedBy?.kind === 'check' ? summary.decidedBy : null
  const sentence = decidedBy?.kind === 'trust' ? decidedBy.guard.words : (shown?.sentence ?? null)
  const deciding = decidedBy?.kind === 'trust' ? decidedBy.guard : null
  const others = guards.filter((g) => g !== deciding && g.status !== 'pass')
  const { total, pass, fail, inconclusive } = summary.counts
  return {
    decided:
      decidedBy === null
        ? null
        : decidedBy.kind === 'trust'
          ? { by: 'decided by trust rule', name: decidedBy.rule }
          : { by: `decided by check ${decidedBy.check.rule.index + 1}`, name: decidedBy.check.rule.name },
    sentence,
    checks: `${pass} of ${total} checks pass, ${fail} fail, ${inconclusive} inconclusive${inconclusiveCounting(result.decision.checks)}`,
    paired: pairedWords(result.coverage),
    trust: others.map((g) => ({
      rule: g.rule,
      status: g.status as 'fail' | 'inconclusive',
      reason: g.words
    })),
    toJudge: toJudgeSentence(toJudgeOf(result), files),
    findings: summary.findings.filter((f) => f !== shown)
  }
}

/**
 * "300 queries paired"; under `queries.missing: zero` with queries the candidate left out, how many of the compared
 * ones were filled rather than answered (a candidate that leaves out its worst queries is seen in the head, not
 * only in the Coverage section).
 */
function pairedWords(coverage: GateResult['coverage']): string {
  const queries = (n: number): string => `${n} ${n === 1 ? 'query' : 'queries'}`
  const left = coverage.missingPolicy === 'zero' ? coverage.onlyInBaseline.length : 0
  const paired = `${queries(coverage.paired)} ${left > 0 ? 'compared' : 'paired'}`
  return left > 0 ? `${paired}, ${left} of them left out by the candidate and scored with the fill values` : paired
}

/** "The 24 pooled top-10 documents without a grade (3 queries) are listed in to-judge.jsonl.", or how to list them. */
function toJudgeSentence(p: ReturnType<typeof toJudgeOf>, files: WrittenFiles | undefined): string | null {
  if (!p || p.pool.unjudged === 0) return null
  const where = fileOrHow(files, 'toJudge')
  const what = `The ${p.pool.unjudged} pooled top-${p.depth} documents without a grade (${p.pool.queriesWithUnjudged} ${p.pool.queriesWithUnjudged === 1 ? 'query' : 'queries'})`
  return where.file !== undefined
    ? `${what} are listed for judging in ${where.file}.`
    : `${what} are not written to a file; to list them for judging, ${where.how}.`
}

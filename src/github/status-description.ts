import { decidedByName } from '../decide/decided-by.js'
import type { Decision } from '../decide/evaluate.js'
import { isInputError } from '../errors.js'
import { quote } from '../util/show.js'

/** GitHub refuses a commit status description over 140 characters (the API answers 422). */
export const MAX_STATUS_DESCRIPTION = 140

/** Longest check name or file name the description quotes (characters, before escaping). */
const MAX_NAME = 60

/** What the status is about: a verdict with its decision, or no verdict and the error that stopped the gate. */
export type StatusSubject = { verdict: 'pass' | 'fail'; decision: Decision } | { verdict: 'error'; error: unknown }

/**
 * The one line a reviewer sees next to the check in the PR's merge box, starting with the verdict so the word
 * is readable even when GitHub shortens the line: `pass: 3 of 3 checks passed`, `fail: "new users are
 * protected" not met (1 of 3 checks failed)`, `error: no verdict, unusable input in gate.yml line 4`.
 * Names (a check's name, a file name from the PR) are quoted with control characters, line separators and
 * bidi marks escaped (src/util/show.ts), and the whole is cut to {@link MAX_STATUS_DESCRIPTION} characters
 * without splitting a surrogate pair, so GitHub never refuses it and no input reaches it raw.
 */
export function statusDescription(subject: StatusSubject): string {
  return fit(describe(subject))
}

function describe(subject: StatusSubject): string {
  if (subject.verdict === 'error') {
    const error = subject.error
    if (!isInputError(error)) return 'error: no verdict, the gate stopped on an internal error; see the run'
    const w = error.where
    const place = [
      w.file !== undefined ? quote(w.file, MAX_NAME) : '',
      w.line !== undefined ? `line ${w.line}` : '',
      w.key !== undefined ? `key ${quote(w.key, MAX_NAME)}` : ''
    ].filter((p) => p !== '')
    return `error: no verdict, unusable input${place.length > 0 ? ` in ${place.join(' ')}` : ''}; see the run`
  }
  const checks = subject.decision.checks
  const total = `${checks.length} check${checks.length === 1 ? '' : 's'}`
  if (subject.verdict === 'pass') {
    const passed = checks.filter((c) => c.status === 'pass').length
    const inconclusive = checks.filter((c) => c.status === 'inconclusive').length
    return `pass: ${passed} of ${total} passed${inconclusive > 0 ? `, ${inconclusive} inconclusive counted as pass` : ''}`
  }
  const decidedBy = subject.decision.decidedBy
  const failed = checks.filter((c) => c.counts === 'fail').length
  const name =
    decidedBy === null
      ? ''
      : decidedBy.kind === 'trust'
        ? `trust rule ${decidedByName(decidedBy)}`
        : quote(decidedByName(decidedBy), MAX_NAME)
  return `fail: ${name} not met (${failed} of ${total} failed)`
}

/** `text` cut to the limit with an ellipsis, never in the middle of a surrogate pair. */
function fit(text: string): string {
  if (text.length <= MAX_STATUS_DESCRIPTION) return text
  let end = MAX_STATUS_DESCRIPTION - 1
  const last = text.charCodeAt(end - 1)
  if (last >= 0xd800 && last <= 0xdbff) end--
  return text.slice(0, end) + '…'
}

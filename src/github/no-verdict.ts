import { isInputError } from '../errors.js'
import { inline } from '../report/escape.js'

/** The `verdict` output when the gate reached no verdict (unusable input, or a bug). */
export const NO_VERDICT = 'error'

/** Longest part of an error the job summary shows (a message is one line; a path or a hint is a sentence). */
const MAX_PART = 1000

/**
 * The job summary of a run that reached no verdict. Without it the summary of a refused run was empty and the
 * step's red cross looked exactly like a failed rule: a reader had to open the log to learn that a file was
 * wrong. It says that no verdict was reached, where the problem is (file, line, rule key, query), what is wrong
 * and what to do, every part escaped as untrusted text (a file name or a value may come from the pull request).
 * A non-input error is called a bug, with its message (the stack trace stays in the log).
 */
export function noVerdictSummary(error: unknown): string {
  const lead = `The output \`verdict\` is \`${NO_VERDICT}\` (\`fail\` means a rule was not met; here no rule was judged).`
  if (isInputError(error)) {
    const w = error.where
    const place = [
      w.file !== undefined ? inline(w.file, MAX_PART) : '',
      w.line !== undefined ? `line ${w.line}` : '',
      w.key !== undefined ? `key ${inline(w.key, MAX_PART)}` : '',
      w.queryId !== undefined ? `query ${inline(JSON.stringify(w.queryId), MAX_PART)}` : ''
    ].filter((p) => p !== '')
    const lines = [
      '## ⚠️ retrieval-gate: error, no verdict (unusable input)',
      '',
      `The gate could not use its input, so it did not judge this change. ${lead}`,
      ''
    ]
    if (place.length > 0) lines.push(`- **Where:** ${place.join(', ')}`)
    lines.push(`- **What is wrong:** ${inline(error.problem, MAX_PART)}`)
    const todo = error.hint ? inline(withoutFinalStop(error.hint), MAX_PART) : 'correct the input named above'
    lines.push(`- **What to do:** ${todo}, then re-run the job.`)
    return lines.join('\n') + '\n'
  }
  const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error)
  return [
    '## ⚠️ retrieval-gate: internal error, no verdict',
    '',
    `The gate stopped on an error that is not about its input (a bug in retrieval-gate), so it did not judge this change. ${lead}`,
    '',
    `- **Error:** ${inline(message, MAX_PART)}`,
    "- **What to do:** re-run the job; if it fails again, report it with the step's log (it holds the stack trace).",
    ''
  ].join('\n')
}

/** The hint without its closing full stop and spaces (the sentence goes on), in one pass from the end. */
function withoutFinalStop(text: string): string {
  let end = text.length
  while (end > 0 && (text[end - 1] === '.' || text[end - 1] === ' ')) end--
  return text.slice(0, end)
}

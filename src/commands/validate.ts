import { loadCheckedDataset } from '../readers/dataset/load.js'
import { formatViolation } from '../readers/dataset/semantic.js'
import { bare, sanitizeText } from '../util/show.js'

/** Options of the `validate` command. */
export interface ValidateOptions {
  dataset: string
  corpus?: string
  previous?: string
}

/**
 * `validate`: checks an evaluation set against its contract (rules/dataset.schema.json plus the semantic
 * rules in src/readers/dataset/semantic.ts; the corpus listing and the previous copy when given) and lists EVERY
 * violation as `file:line: [id] rule: message`. Returns the exit code: 0 valid, 2 with violations.
 */
export async function validateCommand(
  options: ValidateOptions,
  out: (t: string) => void,
  err: (t: string) => void
): Promise<number> {
  const checked = await loadCheckedDataset(options.dataset, options.corpus, options.previous)
  const { dataset, violations } = checked
  const questions = dataset.entries.length
  let unanswerable = 0
  let disputed = 0
  for (const { q } of dataset.entries) {
    if (!q.answerable) unanswerable++
    if (q.review?.status === 'disputed') disputed++
  }
  const lines: string[] = []
  const splitText = tally(dataset.entries.map(({ q }) => q.split))
    .map(([s, n]) => `${n} ${s}`)
    .join(', ')
  // file names and ids are input: escaped, so each stays on its line (formatViolation does the same)
  const file = (name: string): string => sanitizeText(name, 240)
  lines.push(
    `${file(options.dataset)}: ${questions} well-formed questions (${splitText || 'none'}); ${unanswerable} unanswerable; ${disputed} disputed (kept, excluded from gated metrics)`
  )
  lines.push(
    checked.corpusChunks === null
      ? 'corpus: not given, so chunk existence was not checked (pass --corpus)'
      : `corpus ${file(options.corpus ?? '')}: ${checked.corpusChunks} chunks`
  )
  if (options.previous !== undefined) {
    const removed = checked.removed.slice(0, 20).map((id) => bare(id, 240))
    lines.push(
      `previous ${file(options.previous)}: compared; ${checked.removed.length} ids removed${checked.removed.length ? `: ${removed.join(', ')}${checked.removed.length > 20 ? ', ...' : ''}` : ''}`
    )
  }
  if (violations.length === 0) {
    out(`${lines.join('\n')}\nvalid\n`)
    return 0
  }
  const summary = tally(violations.map((v) => v.rule))
    .map(([r, n]) => `${r} ${n}`)
    .join(', ')
  err(
    `${violations.map(formatViolation).join('\n')}\n${lines.join('\n')}\ninvalid: ${violations.length} ${violations.length === 1 ? 'violation' : 'violations'} (${summary})\n`
  )
  return 2
}

/** How often each value occurs, the values sorted (splits, violated rules). */
function tally(values: readonly string[]): Array<[string, number]> {
  const counts = new Map<string, number>()
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1)
  return [...counts.keys()].sort().map((v) => [v, counts.get(v) as number])
}

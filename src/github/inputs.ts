import { InputError } from '../errors.js'
import { optionalFiles } from '../load.js'
import { parseRowsFormat, type RowsFormat } from '../readers/rows-input.js'
import type { CommentMode } from './comment.js'
import { COMMIT_STATUS_MODES, type CommitStatusMode } from './commit-status.js'
import { isPullRequestEvent } from './context.js'
import type { RulesFrom } from './rules-source.js'

/** The action's inputs, checked and typed (action.yml documents each one). */
export interface ActionInputs {
  rules: string
  baseline: string
  candidate: string
  token: string
  /** The token that creates the commit status (input status-token, e.g. a GitHub App's); empty: `token`. */
  statusToken: string
  reportDir: string
  comment: CommentMode
  commentName: string
  commentAuthor: string
  rulesFrom: RulesFrom
  rulesFromChosenBy: 'input' | 'default'
  baselineArtifact: string
  baselineWorkflow: string
  baselineBranch: string
  /** undefined: no age limit. */
  baselineMaxAgeSeconds: number | undefined
  prNumber: number | undefined
  /** Per-query rows format (jsonl, csv, ragas, deepeval, ...); undefined: detected from the content. */
  inputFormat: RowsFormat | undefined
  /** The query id field of exports without query_id (ragas, deepeval). */
  idField: string | undefined
  /**
   * The optional files given, by action input (src/load.ts, optionalFiles: the sides' snapshot manifests, the
   * reference's manifest, the candidate judge's labels, ...).
   */
  files: ReadonlyMap<string, string>
  /** When to create a commit status on the PR's head (src/github/commit-status.ts). */
  commitStatus: CommitStatusMode
  /**
   * Several files per side, one per independently trained seed (the input's non-empty lines); absent with one
   * line, when `baseline` / `candidate` is the file. See docs/statistics.md, "Seed replicates".
   */
  baselineSeeds?: string[]
  candidateSeeds?: string[]
}

/** Input comment-name: it is a marker in a comment and part of the commit status context. */
const COMMENT_NAME = /^[A-Za-z0-9._-]{1,64}$/

const where = (input: string): { key: string } => ({ key: `input ${input}` })

/**
 * Reads and checks the inputs through `get` (core.getInput in the action, a map in tests). Every refusal names
 * the input and the accepted values.
 */
export function readInputs(get: (name: string) => string, eventName: string): ActionInputs {
  const v = (name: string): string => get(name).trim()
  const rules = v('rules')
  if (!rules)
    throw new InputError(where('rules'), 'is required', 'name the rules file, e.g. .github/retrieval-gate.yml')
  const candidate = v('candidate')
  if (!candidate) throw new InputError(where('candidate'), 'is required', "name the candidate's per-query rows file")
  const baselineArtifact = v('baseline-artifact')
  const baseline = v('baseline')
  if (!baseline && !baselineArtifact)
    throw new InputError(
      where('baseline'),
      'is required (or baseline-artifact)',
      "name the baseline's per-query rows file, or the artifact that holds it"
    )
  const baselineSeeds = lines(baseline)
  const candidateSeeds = lines(candidate)
  if (baselineSeeds.length > 1 && baselineArtifact)
    throw new InputError(
      where('baseline'),
      'names several seed files, but baseline-artifact reads one file from the artifact',
      'give one baseline file with baseline-artifact, or list the seed files without it'
    )
  const comment = oneOf(v('comment') || 'always', ['always', 'on-failure', 'never'] as const, 'comment')
  const commentName = v('comment-name') || 'default'
  if (!COMMENT_NAME.test(commentName))
    throw new InputError(
      where('comment-name'),
      `"${commentName}" is not a valid name`,
      'use up to 64 letters, digits, ".", "_" or "-"'
    )
  const rawFrom = v('rules-from')
  const rulesFrom = rawFrom
    ? oneOf(rawFrom, ['base', 'workspace'] as const, 'rules-from')
    : isPullRequestEvent(eventName)
      ? 'base'
      : 'workspace'
  const rawPr = v('pr-number')
  if (rawPr && !/^[1-9][0-9]{0,9}$/.test(rawPr))
    throw new InputError(
      where('pr-number'),
      `"${rawPr}" is not a pull request number`,
      'pass a positive integer, or leave it empty'
    )
  return {
    rules,
    baseline: baselineSeeds[0] ?? baseline,
    candidate: candidateSeeds[0],
    token: v('github-token'),
    statusToken: v('status-token'),
    reportDir: v('report-dir') || 'retrieval-gate-report',
    comment,
    commentName,
    commentAuthor: v('comment-author'),
    rulesFrom,
    rulesFromChosenBy: rawFrom ? 'input' : 'default',
    baselineArtifact,
    baselineWorkflow: v('baseline-workflow'),
    baselineBranch: v('baseline-branch'),
    baselineMaxAgeSeconds: parseAge(v('baseline-max-age')),
    prNumber: rawPr ? Number(rawPr) : undefined,
    inputFormat: v('input-format') ? parseFormat(v('input-format')) : undefined,
    idField: v('id-field') || undefined,
    files: new Map(
      optionalFiles().flatMap((f): Array<[string, string]> => (v(f.option) ? [[f.option, v(f.option)]] : []))
    ),
    commitStatus: oneOf(v('commit-status') || 'auto', COMMIT_STATUS_MODES, 'commit-status'),
    ...(baselineSeeds.length > 1 || candidateSeeds.length > 1 ? { baselineSeeds, candidateSeeds } : {})
  }
}

/**
 * The two inputs a commit status needs, and its token (status-token, else github-token), read without refusing anything: when another input is unusable the
 * run still reports `error` on the PR's head, so a required check does not wait forever. An invalid value of
 * either gives undefined (no status: its context or its wish is unknown).
 */
export function readStatusInputs(
  get: (name: string) => string
): { commitStatus: CommitStatusMode; commentName: string; token: string } | undefined {
  const mode = get('commit-status').trim() || 'auto'
  const commentName = get('comment-name').trim() || 'default'
  if (!(COMMIT_STATUS_MODES as readonly string[]).includes(mode) || !COMMENT_NAME.test(commentName)) return undefined
  const token = get('status-token').trim() || get('github-token').trim()
  return { commitStatus: mode as CommitStatusMode, commentName, token }
}

/** The non-empty lines of a newline-separated input (one file per seed), trimmed. */
function lines(text: string): string[] {
  return text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '')
}

function parseFormat(text: string): RowsFormat {
  try {
    return parseRowsFormat(text)
  } catch (error) {
    if (!(error instanceof InputError)) throw error
    // The same refusal under the action input's name: its problem and hint, not its place ("format").
    throw new InputError(where('input-format'), error.detail)
  }
}

function oneOf<T extends string>(value: string, allowed: readonly T[], input: string): T {
  if ((allowed as readonly string[]).includes(value)) return value as T
  throw new InputError(where(input), `"${value}" is not one of ${allowed.join(', ')}`)
}

/** "7d", "36h", "90m", "2w" -> seconds; "" or "0" -> no limit. */
export function parseAge(text: string): number | undefined {
  if (text === '' || text === '0') return undefined
  const m = /^(\d+(?:\.\d+)?)\s*(m|min|h|d|w)$/i.exec(text)
  if (!m)
    throw new InputError(
      where('baseline-max-age'),
      `"${text}" is not an age`,
      'write a number and a unit: 90m, 36h, 7d or 2w (or 0 for no limit)'
    )
  const unit = { m: 60, min: 60, h: 3600, d: 86400, w: 604800 }[m[2].toLowerCase() as 'm' | 'min' | 'h' | 'd' | 'w']
  return Math.round(Number(m[1]) * unit)
}

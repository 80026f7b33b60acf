import type { Rules } from '../config/types.js'
import type { PriorLooks } from '../decide/holdout.js'
import type { HistoryInput } from '../model/history.js'
import type { ArtifactDownloader } from './baseline-artifact.js'
import { readPriorHoldoutLooks } from './comment.js'
import type { GateContext, PullRequestRef } from './context.js'
import { fetchHistory, historyLooks } from './history.js'
import type { GitHubClient } from './octokit.js'
import { reportArtifactName } from './report-artifact.js'

export interface PastOptions {
  commentName: string
  commentAuthor?: string
  /** A fresh folder of our own for downloads. */
  tmpDir: string
  now: Date
  download: ArtifactDownloader
}

/**
 * What the gate needs to know about earlier runs before it decides: in a pull request, the history of the
 * default branch (when the rules ask for it) and the holdout looks counted so far (this PR's, from the sticky
 * comment; in total, from the history reports). Never throws: what cannot be read is a note in the history or
 * a warning, and the count restarts from what could be read.
 */
export async function readPast(
  client: GitHubClient | undefined,
  ctx: GateContext,
  pr: PullRequestRef | undefined,
  rules: Rules,
  options: PastOptions
): Promise<{ history?: HistoryInput; prior: PriorLooks; warnings: string[] }> {
  const warnings: string[] = []
  // Without a token the comment cannot be read: this PR's count is unknown (null), never guessed as 0.
  if (!client || !pr) return { prior: { thisPr: null }, warnings }
  let history: HistoryInput | undefined
  if (rules.history) {
    const branch = ctx.defaultBranch || pr.baseRef || 'main'
    history = await fetchHistory(client, ctx, {
      runs: rules.history.runs,
      maxAgeDays: rules.history.maxAgeDays,
      branch,
      artifactName: rules.history.artifact ?? reportArtifactName(options.commentName),
      workflow: rules.history.workflow,
      tmpDir: options.tmpDir,
      now: options.now,
      download: options.download
    })
  }
  let thisPr = 0
  if (rules.dataset) {
    const read = await readPriorHoldoutLooks(client, ctx, pr, options.commentName, options.commentAuthor)
    thisPr = read.looks
    if (read.warning) warnings.push(`retrieval-gate: ${read.warning}`)
  }
  return { history, prior: { thisPr, ...(history ? { history: historyLooks(history) } : {}) }, warnings }
}

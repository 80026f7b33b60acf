import { createHash } from 'node:crypto'
import { createReadStream } from 'node:fs'
import type { Rules } from '../config/types.js'
import { sha256 } from '../util/hash.js'
import type { GateContext, PullRequestRef } from './context.js'
import { describeApiError, statusOf, type GitHubClient } from './octokit.js'
import { repositoryPath } from './rules-source.js'

/**
 * The "exam" files the rules name: judgments, the evaluation set and its corpus listing. The rules are read
 * at the PR's base commit so a PR cannot loosen its own gate; these files are read from the PR's workspace
 * (they are large and may legitimately grow), so a PR could also edit the labels that grade it. Gold labels
 * edited in the same PR as the system they grade are a classic way to fool an evaluation: the gate does not
 * refuse it, but says so plainly next to the verdict.
 */
export function examFiles(rules: Rules): string[] {
  const files = [rules.judgments?.qrels, rules.dataset?.file, rules.dataset?.corpus].filter((f): f is string => typeof f === 'string' && f !== '')
  return [...new Set(files)]
}

/** sha256 of a workspace file, streamed (judgments can be large); undefined when it cannot be read. */
export async function hashLocalFile(file: string): Promise<string | undefined> {
  try {
    const hash = createHash('sha256')
    for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer)
    return hash.digest('hex')
  } catch {
    return undefined
  }
}

/**
 * Compares each exam file of the workspace with its copy at the PR's base commit (contents API) and returns
 * plain-words warnings: the PR changes it (both sha256 sums), the base commit has no such file (the PR brings
 * its own exam), or the comparison could not be made. No warning when the files are equal.
 */
export async function compareExamFiles(
  client: GitHubClient,
  ctx: GateContext,
  pr: PullRequestRef,
  files: string[],
  localHash: (file: string) => Promise<string | undefined>
): Promise<string[]> {
  const warnings: string[] = []
  const base = `the PR's base commit ${pr.baseSha.slice(0, 12)}`
  for (const file of files) {
    let repoPath: string
    try {
      repoPath = repositoryPath(file)
    } catch {
      continue // outside the repository: nothing at the base commit to compare with
    }
    const local = await localHash(file)
    if (local === undefined) continue // unreadable here: reading it for the gate reports that
    let baseHash: string
    try {
      const response = await client.rest.repos.getContent({ owner: ctx.owner, repo: ctx.repo, path: repoPath, ref: pr.baseSha, mediaType: { format: 'raw' } })
      const data: unknown = response.data
      baseHash = typeof data === 'string' ? sha256(data) : sha256(Buffer.from(data as ArrayBuffer))
    } catch (error) {
      if (statusOf(error) === 404) warnings.push(`${file} does not exist at ${base}: this pull request brings its own exam (judgments or evaluation set); review it as carefully as the change it grades.`)
      else warnings.push(`${file} could not be compared with its copy at ${base} (${describeApiError(error, 'reading it')}).`)
      continue
    }
    if (baseHash !== local) {
      warnings.push(
        `This pull request changes ${file}, which grades it (base sha256 ${baseHash.slice(0, 16)}…, PR sha256 ${local.slice(0, 16)}…): the gate graded with the PR's copy. Review the label changes before trusting the verdict.`
      )
    }
  }
  return warnings
}

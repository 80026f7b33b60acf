import { InputError } from '../errors.js'
import { MAX_RULES_BYTES } from '../load.js'
import type { RulesProvenance } from '../model/provenance.js'
import { sha256 } from '../util/hash.js'
import type { GateContext, PullRequestRef } from './context.js'
import type { GitHubClient } from './octokit.js'
import { describeBase, readAtCommit, repositoryPath } from './read-at-commit.js'

export type RulesFrom = 'base' | 'workspace'

/** The rules text to enforce, the name to report it under, and where it came from. */
export interface RulesText {
  text: string
  file: string
  provenance: RulesProvenance
}

export interface RulesSourceOptions {
  /** The rules path as the user wrote it (input `rules`), relative to the repository root. */
  file: string
  from: RulesFrom
  chosenBy: 'input' | 'default'
  /** Reads the checked-out copy (throws InputError when it is missing or unusable). */
  readLocal: (file: string) => Promise<string>
}

/**
 * The rules a run enforces. `workspace`: the checked-out file. `base`: the file at the pull request's base
 * commit, read through the contents API, so a PR cannot loosen the gate that judges it; when the PR's own copy
 * differs, both sha256 sums go into the provenance (the report says the PR's change applies after merge).
 * No rules file at the base commit fails closed: there is nothing agreed-upon to enforce.
 */
export async function readRulesText(
  client: GitHubClient | undefined,
  ctx: GateContext,
  pr: PullRequestRef | undefined,
  options: RulesSourceOptions
): Promise<RulesText> {
  const { file, from, chosenBy } = options
  if (from === 'workspace') {
    const text = await options.readLocal(file)
    return { text, file, provenance: { from, chosenBy, file, sha256: sha256(text) } }
  }
  if (!pr) {
    throw new InputError(
      { file },
      `rules-from: base needs a pull request, but this ${ctx.eventName || 'run'} event has none`,
      'use rules-from: workspace for push, schedule and manual runs (or pass pr-number)'
    )
  }
  if (!client)
    throw new InputError(
      { file },
      'rules-from: base reads the rules through the GitHub API, but no github-token was given',
      'pass github-token (the default ${{ github.token }} is enough, with contents: read)'
    )
  const text = await readRulesAtBase(client, ctx, pr, file)
  let local: string | undefined
  try {
    local = await options.readLocal(file)
  } catch {
    local = undefined // not checked out (e.g. the workflow_run pattern): nothing to compare
  }
  const hash = sha256(text)
  const provenance: RulesProvenance = { from, chosenBy, file, sha256: hash, commit: pr.baseSha }
  if (local !== undefined && sha256(local) !== hash) provenance.workspaceSha256 = sha256(local)
  return { text, file, provenance }
}

/** The rules file at the base commit, as text (UTF-8, a leading byte order mark dropped). */
async function readRulesAtBase(
  client: GitHubClient,
  ctx: GateContext,
  pr: PullRequestRef,
  file: string
): Promise<string> {
  const chunks: Uint8Array[] = []
  await readAtCommit(client, ctx, pr, {
    file,
    repoPath: repositoryPath(file),
    what: 'the rules file',
    limit: MAX_RULES_BYTES,
    tooLargeHint: 'a rules file is a page of YAML',
    missing: {
      message: `no rules file at ${describeBase(pr)}: the gate fails closed, because rules a pull request brings with it are not rules written before the results were seen`,
      hint: `merge the rules file into ${pr.baseRef || 'the base branch'} first (in its own reviewed PR), then re-run; or, outside pull requests, use rules-from: workspace`
    },
    onChunk: (chunk) => {
      chunks.push(chunk)
    }
  })
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks)).replace(/^\ufeff/, '')
  } catch {
    throw new InputError({ file }, `is not valid UTF-8 at ${describeBase(pr)}`, 'save the file as UTF-8')
  }
}

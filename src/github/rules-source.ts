import path from 'node:path'
import { InputError } from '../errors.js'
import { MAX_RULES_BYTES } from '../load.js'
import type { RulesProvenance } from '../report/provenance.js'
import { sha256 } from '../util/hash.js'
import type { GateContext, PullRequestRef } from './context.js'
import { apiErrorHint, describeApiError, statusOf, type GitHubClient } from './octokit.js'

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
export async function readRulesText(client: GitHubClient | undefined, ctx: GateContext, pr: PullRequestRef | undefined, options: RulesSourceOptions): Promise<RulesText> {
  const { file, from, chosenBy } = options
  if (from === 'workspace') {
    const text = await options.readLocal(file)
    return { text, file, provenance: { from, chosenBy, file, sha256: sha256(text) } }
  }
  if (!pr) {
    throw new InputError({ file }, `rules-from: base needs a pull request, but this ${ctx.eventName || 'run'} event has none`, 'use rules-from: workspace for push, schedule and manual runs (or pass pr-number)')
  }
  if (!client) throw new InputError({ file }, 'rules-from: base reads the rules through the GitHub API, but no github-token was given', 'pass github-token (the default ${{ github.token }} is enough, with contents: read)')
  const repoPath = repositoryPath(file)
  const text = await readAtCommit(client, ctx, repoPath, pr, file)
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

/** `./rules/gate.yml` -> `rules/gate.yml`; refuses paths that leave the repository. */
export function repositoryPath(file: string): string {
  const p = path.posix.normalize(file.replace(/\\/g, '/'))
  if (p.startsWith('/') || /^[A-Za-z]:/.test(p) || p === '..' || p.startsWith('../') || p === '.' || p === '') {
    throw new InputError({ file }, 'with rules-from: base the rules path must be inside the repository, relative to its root', 'write it as in the repository, e.g. .github/retrieval-gate.yml')
  }
  return p.replace(/^\.\//, '')
}

async function readAtCommit(client: GitHubClient, ctx: GateContext, repoPath: string, pr: PullRequestRef, file: string): Promise<string> {
  const base = `the PR's base commit ${pr.baseSha.slice(0, 12)}${pr.baseRef ? ` (${pr.baseRef})` : ''}`
  let data: unknown
  try {
    const response = await client.rest.repos.getContent({ owner: ctx.owner, repo: ctx.repo, path: repoPath, ref: pr.baseSha, mediaType: { format: 'raw' } })
    data = response.data
  } catch (error) {
    if (statusOf(error) === 404) {
      throw new InputError(
        { file },
        `no rules file at ${base}: the gate fails closed, because rules a pull request brings with it are not rules written before the results were seen`,
        `merge the rules file into ${pr.baseRef || 'the base branch'} first (in its own reviewed PR), then re-run; or, outside pull requests, use rules-from: workspace`
      )
    }
    throw new InputError({ file }, `${describeApiError(error, `reading the rules at ${base}`)}`, `the rules could not be read, so the gate fails closed; ${apiErrorHint(error, 'the workflow needs permissions: contents: read')}`)
  }
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data instanceof ArrayBuffer ? new Uint8Array(data) : data instanceof Uint8Array ? data : undefined
  if (bytes === undefined) throw new InputError({ file }, `is not a file at ${base} (GitHub answered with a listing: a directory?)`, 'name the rules file itself')
  if (bytes.byteLength > MAX_RULES_BYTES) throw new InputError({ file }, `is ${bytes.byteLength} bytes at ${base}; the limit is ${MAX_RULES_BYTES}`, 'a rules file is a page of YAML')
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes).replace(/^\ufeff/, '')
  } catch {
    throw new InputError({ file }, `is not valid UTF-8 at ${base}`, 'save the file as UTF-8')
  }
}

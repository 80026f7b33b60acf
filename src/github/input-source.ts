import { historyRules } from '../capabilities/history/rules.js'
import type {
  ExamArtifactSpec,
  ExamFileSpec,
  GivenSpec,
  InputSource,
  TrustedRecords
} from '../capabilities/contract.js'
import type { Rules } from '../config/types.js'
import { InputError } from '../errors.js'
import type { HistoryInput } from '../model/history.js'
import type { ExamFileProvenance, ReferenceProvenance } from '../model/provenance.js'
import { localFile, type FetchedFile } from '../readers/fetched.js'
import { restArtifactDownloader } from './artifact-download.js'
import { runUrlOf, type GateContext, type PullRequestRef } from './context.js'
import { examAtBase } from './exam-files.js'
import { fetchHistory } from './history.js'
import { recordLook } from './look-ledger.js'
import type { GitHubClient } from './octokit.js'
import { quote } from '../util/show.js'
import { readAtRef, trustedArtifact } from './reference.js'
import { resolveRef, type ResolvedRef } from './refs.js'
import { reportArtifactName } from './report-artifact.js'

/** What the action's input source needs to know about the run. */
export interface ActionSourceOptions {
  client: GitHubClient | undefined
  ctx: GateContext
  pr: PullRequestRef | undefined
  /** Where the rules came from: the exam comes from the same place (`base`: the PR's base commit). */
  rulesFrom: 'base' | 'workspace'
  rulesFile: string
  /** The given files, by action input name (a multi-line input: one file per line). */
  given: (input: string) => string[]
  tmpRoot: string
  now: Date
  commentName: string
  /** Warnings for the step (ledger or history notes). */
  warn: (message: string) => void
}

/** What the report says about where the exam came from, as the source fetched it. */
export interface ActionSourceProvenance {
  exam: ExamFileProvenance[] | undefined
  /** Where each exam input read at a ref or from an artifact came from, by input name. */
  fetched: ReadonlyMap<string, ReferenceProvenance>
}

/**
 * The action's input source: the one place that decides where an exam input comes from.
 * - An exam file: with rules-from base in a pull request, the PR's base commit (contents API; the PR cannot edit
 *   its own exam); at `ref`, that tag, branch or commit (resolved by its full name, src/github/refs.ts); otherwise
 *   (push runs, rules-from workspace) the checked-out file.
 * - An exam artifact: the latest successful push run on the default branch (or the ref the rules name) of this
 *   repository whose commit is on that ref, never a run a pull request, another branch or a same-named ref could
 *   make.
 * - Records: the look ledger (commit statuses, src/github/look-ledger.ts) and the default branch's history.
 * - Given files: the action's inputs, from the workspace.
 */
export function actionInputSource(
  options: ActionSourceOptions
): InputSource & { provenance(): ActionSourceProvenance } {
  const { client, ctx, pr } = options
  const atBase =
    client !== undefined && pr !== undefined && options.rulesFrom === 'base'
      ? examAtBase(client, ctx, pr, { tmpRoot: options.tmpRoot, workspace: ctx.workspace })
      : undefined
  const fetched = new Map<string, ReferenceProvenance>()
  // the commits that do not move (a tag's, a full sha) of the inputs read at one, by the rules key that counts looks there
  const fixedCommits = new Map<string, string>()
  const state: SourceState = { options, fetched, fixedCommits }
  const records = trustedRecords(state)
  return {
    examPlace:
      atBase !== undefined && pr !== undefined ? `the PR's base commit ${pr.baseSha.slice(0, 12)}` : 'the workspace',
    async examFile(spec: ExamFileSpec): Promise<FetchedFile> {
      const path = spec.path as string
      if (spec.ref !== undefined || spec.dated === true) return examFileAtRef(state, spec)
      if (atBase !== undefined) return atBase.read(path)
      return localFile(path)
    },
    examArtifact: (spec: ExamArtifactSpec) => examArtifactOf(state, spec),
    // outside a pull request nothing is counted: this run is the one look (each record's spec says what that is)
    record: (spec, rules) => (pr === undefined ? Promise.resolve(spec.outside) : spec.read(records, rules)),
    given: (spec: GivenSpec) => options.given(spec.option),
    provenance: () => ({ exam: atBase?.provenance(), fetched })
  }
}

/** What the exam reads share: the options, the provenance of what was fetched, the fixed commits by rules key. */
interface SourceState {
  options: ActionSourceOptions
  fetched: Map<string, ReferenceProvenance>
  /** The commits that do not move (a tag's, a full sha) of the inputs read at one, by the rules key that counts looks there. */
  fixedCommits: Map<string, string>
}

function needClient(state: SourceState, key: string, what: string): GitHubClient {
  if (state.options.client === undefined)
    throw new InputError(
      { file: state.options.rulesFile, key },
      `needs github-token to read ${what}`,
      'pass github-token (contents: read; actions: read for an artifact)'
    )
  return state.options.client
}

/** Keeps the commit looks are counted on (`spec.fixed`); a branch, whose commit moves with every push, is refused. */
function keepFixed(
  state: SourceState,
  spec: ExamFileSpec | ExamArtifactSpec,
  at: { key: string; ref: ResolvedRef }
): void {
  const { key, ref } = at
  if (spec.fixed === undefined) return
  if (ref.kind === 'branch')
    throw new InputError(
      { file: state.options.rulesFile, key: spec.fixed },
      `counts looks on the reference's commit, but ${key} ${quote(spec.ref ?? ref.full)} is ${ref.full}, a branch, whose commit moves with every push: the count would restart`,
      `name the release by its tag (${key}: refs/tags/v1.4)${spec.kind === 'file' ? ' or a full commit sha' : ''}, or drop ${spec.fixed}`
    )
  state.fixedCommits.set(spec.fixed, ref.sha)
}

/** An exam file read at the rules' ref (a branch, tag or commit) or, dated, at the base commit. */
async function examFileAtRef(state: SourceState, spec: ExamFileSpec): Promise<FetchedFile> {
  const { options } = state
  const { ctx, pr } = options
  const path = spec.path as string
  const c = needClient(state, spec.key, spec.name)
  const key = `${spec.key.split('.')[0]}.ref`
  const where = { file: options.rulesFile, key }
  const base = pr?.baseSha ?? ctx.sha
  // without a ref: the base commit as it is (already a commit, not a name to resolve)
  const ref: ResolvedRef =
    spec.ref === undefined
      ? { kind: 'commit', name: base, full: base, sha: base }
      : await resolveRef(c, ctx, { ref: spec.ref, where, accept: ['branch', 'tag', 'commit'] })
  if (spec.ref !== undefined) keepFixed(state, spec, { key, ref })
  const got = await readAtRef(c, ctx, pr, {
    path,
    ref,
    written: spec.ref ?? base,
    ...(spec.ref === undefined ? { shown: 'the base commit' } : {}),
    key,
    rulesFile: options.rulesFile,
    label: labelOf(spec),
    tmpRoot: options.tmpRoot,
    now: options.now
  })
  state.fetched.set(spec.name, got.provenance)
  return got.file
}

/** An exam artifact from a trusted push run on the rules' ref (else the default branch). */
async function examArtifactOf(state: SourceState, spec: ExamArtifactSpec): Promise<FetchedFile> {
  const { options } = state
  const { ctx, pr } = options
  const c = needClient(state, spec.key, spec.name)
  const where = { file: options.rulesFile, key: `${spec.key}.ref` }
  // the rules' ref (a bare name: the branch or the tag of that name, refused when both exist), else the default branch
  const ref = await resolveRef(c, ctx, {
    ref: spec.ref ?? `refs/heads/${ctx.defaultBranch ?? pr?.baseRef ?? 'main'}`,
    where,
    accept: ['branch', 'tag']
  })
  keepFixed(state, spec, { key: where.key, ref })
  const got = await trustedArtifact(c, ctx, pr, {
    artifact: spec.artifact,
    workflow: spec.workflow,
    file: spec.file,
    key: spec.key,
    rulesFile: options.rulesFile,
    tmpRoot: options.tmpRoot,
    now: options.now,
    download: restArtifactDownloader(c, ctx),
    ref
  })
  state.fetched.set(spec.name, got.provenance)
  return got.file
}

/** The label a reference's messages use (the rules' reference name is not known to the spec: its path). */
function labelOf(spec: ExamFileSpec): string {
  return spec.path ?? spec.name
}

/**
 * What the trusted side keeps, for the capabilities' records in a pull request: the history (read once per run:
 * the holdout looks and the history section share it), the commits that do not move, the look ledgers.
 */
function trustedRecords(state: SourceState): TrustedRecords {
  const { options } = state
  const { client, ctx, pr } = options
  let pastRead: Promise<HistoryInput | undefined> | undefined
  return {
    history: (rules) => (pastRead ??= readHistory(options, rules)),
    async look(request) {
      if (client === undefined) return { unknown: 'no github-token was given' }
      if (pr === undefined) throw new Error('a look is counted in a pull request only')
      const { at } = request
      const commit =
        'fixedBy' in at
          ? state.fixedCommits.get(at.fixedBy)
          : // a tag's commit or a full sha: the one commit that does not move for what the ledger counts
            (
              await resolveRef(client, ctx, {
                ref: at.ref,
                where: { file: options.rulesFile, key: at.key },
                accept: ['tag', 'commit']
              })
            ).sha
      if (commit === undefined) return { unknown: 'the commit the looks are kept on is unknown' }
      return recordLook(
        { client, ctx, pr, commentName: options.commentName, runUrl: runUrlOf(ctx) },
        { ...request, commit }
      )
    },
    warn: options.warn
  }
}

async function readHistory(options: ActionSourceOptions, rules: Rules): Promise<HistoryInput | undefined> {
  const { client, ctx, pr } = options
  const history = historyRules(rules)
  if (history === undefined || client === undefined || pr === undefined) return undefined
  return fetchHistory(client, ctx, {
    runs: history.runs,
    maxAgeDays: history.maxAgeDays,
    branch: ctx.defaultBranch || pr.baseRef || 'main',
    artifactName: history.artifact ?? reportArtifactName(options.commentName),
    workflow: history.workflow,
    now: options.now,
    download: restArtifactDownloader(client, ctx)
  })
}

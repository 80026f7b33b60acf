import * as core from '@actions/core'
import { mkdir, mkdtemp } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { InputError, isInputError } from './errors.js'
import type { DecidedBy } from './decide/decided-by.js'
import type { GateResult } from './decide/result.js'
import { quote } from './util/show.js'
import { runGate } from './gate.js'
import { loadGateInputs, rulesFromText } from './load.js'
import { actionInputSource } from './github/input-source.js'
import { capAnnotations, checkAnnotations, type Annotation, type AnnotationCounts } from './github/annotations.js'
import { restArtifactDownloader } from './github/artifact-download.js'
import { fetchBaselineArtifact } from './github/baseline-artifact.js'
import { upsertStickyComment, type CommentOutcome } from './github/comment.js'
import { reportCommitStatus, type CommitStatusOutcome, type StatusRoute } from './github/commit-status.js'
import type { StatusSubject } from './github/status-description.js'
import { contextFromEnv, type GateContext, type PullRequestRef } from './github/context.js'
import { readInputs, readStatusInputs, type ActionInputs } from './github/inputs.js'
import { NO_VERDICT, noVerdictSummary } from './github/no-verdict.js'
import { createClient, describeApiError, type GitHubClient } from './github/octokit.js'
import { resolvePullRequest } from './github/pull-request.js'
import { resolveRef } from './github/refs.js'
import { readLocalRules } from './github/local-rules.js'
import { reportArtifactName } from './github/report-artifact.js'
import { readRulesText } from './github/rules-source.js'
import { writeOutput } from './output.js'
import { defaultThreads } from './stats/threads.js'
import { inline } from './report/escape.js'
import { fitMarkdown } from './report/fit.js'
import { jsonReportChunks } from './report/json.js'
import { REGRESSIONS_FILE, toMarkdown } from './report/markdown.js'
import { toRegressionsJsonl } from './report/regressions.js'
import { HTML_FILE, toHtmlReport } from './report/html/index.js'
import type { BaselineProvenance, Provenance } from './model/provenance.js'
import { TO_JUDGE_FILE, toJudgeFile } from './report/to-judge.js'
import { logText } from './util/show.js'

/**
 * The action's log calls through the output boundary (src/util/show.ts): `core.info` writes its text raw to
 * stdout, where a line starting `::` or holding `##[` is a workflow command, so every text that may hold
 * input is made safe line by line and cut before it reaches the runner.
 */
const log = {
  info: (m: string): void => core.info(logText(m)),
  warning: (m: string, p?: core.AnnotationProperties): void => core.warning(logText(m), p),
  error: (m: string, p?: core.AnnotationProperties): void => core.error(logText(m), p),
  notice: (m: string, p?: core.AnnotationProperties): void => core.notice(logText(m), p),
  setFailed: (m: string): void => core.setFailed(logText(m))
}

/** GitHub refuses a job summary over 1 MiB; keep a margin for the status lines added on top. */
const SUMMARY_LIMIT = 1024 * 1024 - 4096

/**
 * The action. Reads the inputs, finds the pull request, reads the rules (at the PR's base commit by default)
 * and the baseline (a file or an artifact of the base branch), runs the gate, writes the report files and
 * outputs, annotates failed checks on the rules file, writes the job summary, and creates or updates the
 * sticky PR comment. The verdict alone decides the step's status: a comment that cannot be written (fork PR,
 * read-only token, rate limit) is a warning, never a failure. Unusable input fails the step with the file and
 * line, and no stack trace, sets `verdict` to `error` and says in the job summary what to do.
 */
export async function run(
  env: Record<string, string | undefined> = process.env,
  now: () => Date = () => new Date()
): Promise<void> {
  // The step's own warnings (PR not found, comment or summary not written) are counted: they share GitHub's
  // 10 warnings per step with the checks' annotations, and must never push one out unannounced.
  const own: Required<AnnotationCounts> = { error: 0, warning: 0, notice: 0 }
  const warn = (message: string): void => {
    own.warning++
    log.warning(message)
  }
  // where the commit status goes, once the inputs and the PR are known; the error path falls back to raw inputs
  let statusRoute: StatusRoute | undefined
  try {
    const ctx = contextFromEnv(env)
    const read = readInputs((name) => core.getInput(name), ctx.eventName)
    const client = read.token ? createClient(read.token, { baseUrl: ctx.apiUrl, log: (m) => log.info(m) }) : undefined
    const pr = await findPullRequest(client, ctx, read, warn)
    // a run about a pull request reads its rules at the base, whatever the event: pull_request_review checks out
    // the PR's merge commit as pull_request does, and a dispatch given pr-number may check out the PR's head
    const inputs: ActionInputs = pr && read.rulesFromChosenBy === 'default' ? { ...read, rulesFrom: 'base' } : read
    // the commit status may come from another identity (status-token: a GitHub App that branch protection pins)
    const statusClient = inputs.statusToken
      ? createClient(inputs.statusToken, { baseUrl: ctx.apiUrl, log: (m) => log.info(m), throttleId: 'status' })
      : client
    statusRoute = { client: statusClient, ctx, pr, mode: inputs.commitStatus, commentName: inputs.commentName }

    const step: Step = { env, now, ctx, inputs, client, pr, warn }
    const { result, rulesFile, warnings } = await gateFromInputs(step)
    const written = await writeReports(step, result)
    await publish(step, { result, rulesFile, warnings, written, statusRoute, own })
  } catch (error) {
    await publishCommitStatus(statusRoute ?? fallbackStatusRoute(env), { verdict: 'error', error }, warn)
    await failWithoutVerdict(error, warn)
  }
}

/** What one run of the step reads: the environment, the clock, the context, the inputs, the API client, the PR. */
interface Step {
  env: Record<string, string | undefined>
  now: () => Date
  ctx: GateContext
  inputs: ActionInputs
  client: GitHubClient | undefined
  pr: PullRequestRef | undefined
  warn: (message: string) => void
}

/** The rules at the trusted source, the baseline, every input fetched where it must come from, and the gate run. */
async function gateFromInputs(step: Step): Promise<{ result: GateResult; rulesFile: string; warnings: string[] }> {
  const { env, now, ctx, inputs, client, pr, warn } = step
  const rulesText = await readRulesText(client, ctx, pr, {
    file: inputs.rules,
    from: inputs.rulesFrom,
    chosenBy: inputs.rulesFromChosenBy,
    readLocal: (file) => readLocalRules(ctx.workspace, file)
  })
  const rules = rulesFromText(rulesText.text, rulesText.file)
  const warnings: string[] = []
  const baseline = await resolveBaseline({ client, ctx, pr }, inputs, { env, now: now(), warnings })
  const tmpRoot = env.RUNNER_TEMP || os.tmpdir()
  // One input source decides where every input comes from: the exam at the trusted source, answers from the workspace.
  const source = actionInputSource({
    client,
    ctx,
    pr,
    rulesFrom: rulesText.provenance.from,
    rulesFile: rulesText.file,
    given: (input) => givenFiles(inputs, baseline.file, input),
    tmpRoot,
    now: now(),
    commentName: inputs.commentName,
    warn
  })
  const rowsInput = { format: inputs.inputFormat, idField: inputs.idField }
  const loaded = await loadGateInputs(rules, source, {
    rowsInput,
    given: (input) => givenFiles(inputs, baseline.file, input).length > 0
  })
  const fetched = source.provenance()
  const referenceFrom = fetched.fetched.get('reference rows')
  const provenance: Provenance = {
    rules: rulesText.provenance,
    baseline: baseline.provenance,
    exam: fetched.exam,
    warnings,
    ...(referenceFrom ? { reference: referenceFrom } : {})
  }
  const result = { ...runGate(loaded, { threads: defaultThreads(env.RG_THREADS) }), provenance }
  return { result, rulesFile: rulesText.file, warnings }
}

/** The files of report-dir and the step's outputs; the Markdown report and where it is. */
async function writeReports(step: Step, result: GateResult): Promise<{ markdown: string; whereFull: string }> {
  const { ctx, inputs } = step
  const verdict = result.decision.verdict
  // The regression set and the to-judge list are always written into report-dir: the report names them.
  const files = {
    regressions: path.join(inputs.reportDir, REGRESSIONS_FILE),
    toJudge: path.join(inputs.reportDir, TO_JUDGE_FILE),
    html: path.join(inputs.reportDir, HTML_FILE),
    reportDir: inputs.reportDir
  }
  const markdown = toMarkdown(result, { files })
  await mkdir(inputs.reportDir, { recursive: true }).catch((error: NodeJS.ErrnoException) => {
    throw new InputError(
      { key: 'input report-dir' },
      `cannot create the folder ${inputs.reportDir} (${error.code ?? error.message})`,
      'name a writable folder (a path inside the workspace or RUNNER_TEMP)'
    )
  })
  const jsonPath = path.join(inputs.reportDir, 'report.json')
  const markdownPath = path.join(inputs.reportDir, 'report.md')
  await writeOutput(jsonPath, jsonReportChunks(result))
  await writeOutput(markdownPath, markdown)
  await writeOutput(files.html, toHtmlReport(result, { files }))
  // The regression set: every query that got worse on a gated metric, to keep as a regression suite.
  await writeOutput(files.regressions, toRegressionsJsonl(result))
  // The pooled top-k documents of both systems without a graded judgment, to send for annotation.
  await writeOutput(files.toJudge, toJudgeFile(result))
  // Push runs keep their JSON report as an artifact, uploaded by the workflow's own actions/upload-artifact step
  // under this name: the history later pull requests draw (src/github/history.ts, docs/workflows/main-history.yml).
  const historyArtifact = reportArtifactName(inputs.commentName)
  if (ctx.eventName === 'push')
    log.info(
      `retrieval-gate: for history, upload ${quote(jsonPath)} as artifact ${quote(historyArtifact)} (outputs report-json and history-artifact)`
    )
  core.setOutput('verdict', verdict)
  core.setOutput('report-json', jsonPath)
  core.setOutput('history-artifact', historyArtifact)
  core.setOutput('report-markdown', markdownPath)
  core.setOutput('report-html', files.html)
  const whereFull = `the report-markdown file (${markdownPath})`

  return { markdown, whereFull }
}

/** The PR comment, the commit status, the job summary, the annotations and the step's result. */
async function publish(
  step: Step,
  at: {
    result: GateResult
    rulesFile: string
    warnings: string[]
    written: { markdown: string; whereFull: string }
    statusRoute: StatusRoute
    own: Required<AnnotationCounts>
  }
): Promise<void> {
  const { ctx, inputs, client, pr, warn } = step
  const { result, warnings, statusRoute, own } = at
  const { markdown, whereFull } = at.written
  const verdict = result.decision.verdict
  const comment = await postComment({ client, ctx, pr }, inputs, { verdict, markdown, whereFull })
  core.setOutput('comment-status', comment.status)
  core.setOutput('comment-url', 'url' in comment ? comment.url : '')
  const status = commentStatusLine(comment)
  if (comment.status === 'failed')
    warn(
      `retrieval-gate: the PR comment was not written: ${comment.reason}. The verdict is unaffected; the report is in the job summary and ${whereFull}.`
    )
  else log.info(`retrieval-gate: ${status}`)
  await publishCommitStatus(statusRoute, { verdict, decision: result.decision }, warn)

  await writeSummary(markdown, comment, whereFull, warn)
  const failure =
    verdict === 'fail' ? `retrieval-gate: fail, decided by ${failureName(result.decision.decidedBy)}` : undefined
  const annotations = [
    ...checkAnnotations(result, path.posix.normalize(at.rulesFile.replace(/\\/g, '/')).replace(/^\.\//, '')),
    ...warnings.map((w): Annotation => ({ kind: 'warning', title: 'retrieval-gate', message: w }))
  ]
  // setFailed writes an error annotation too: it is the step's own reason and keeps its place
  for (const a of capAnnotations(annotations, whereFull, { ...own, error: own.error + (failure ? 1 : 0) })) emit(a)
  if (failure) log.setFailed(failure)
  else log.info('retrieval-gate: pass')
}

/**
 * Creates the commit status on the PR's head (src/github/commit-status.ts) and says what happened: an info line
 * when created or skipped, a warning when it failed (a 403 names `statuses: write`). The step's result never
 * depends on it. Output `commit-status-outcome`: created, skipped or failed.
 */
async function publishCommitStatus(
  route: StatusRoute | undefined,
  subject: StatusSubject,
  warn: (message: string) => void
): Promise<void> {
  let outcome: CommitStatusOutcome
  try {
    outcome = route
      ? await reportCommitStatus(route, subject)
      : { status: 'skipped', reason: 'commit-status or comment-name is not a valid value' }
  } catch (error) {
    outcome = { status: 'failed', reason: (error as Error)?.message ?? String(error) }
  }
  core.setOutput('commit-status-outcome', outcome.status)
  if (outcome.status === 'created')
    log.info(`retrieval-gate: commit status ${outcome.state} created on ${outcome.sha} (${outcome.context})`)
  else if (outcome.status === 'skipped') log.info(`retrieval-gate: no commit status: ${outcome.reason}`)
  else warn(`retrieval-gate: the commit status was not created: ${outcome.reason}. The verdict is unaffected.`)
}

/** The route when the inputs could not be read: the raw commit-status, comment-name and token, no PR lookup. */
function fallbackStatusRoute(env: Record<string, string | undefined>): StatusRoute | undefined {
  try {
    const raw = readStatusInputs((name) => core.getInput(name))
    if (!raw) return undefined
    const ctx = contextFromEnv(env)
    const client = raw.token ? createClient(raw.token, { baseUrl: ctx.apiUrl, log: (m) => log.info(m) }) : undefined
    return { client, ctx, pr: ctx.pullRequest, mode: raw.commitStatus, commentName: raw.commentName }
  } catch {
    return undefined
  }
}

/**
 * No verdict was reached: unusable input (an InputError, printed without a stack trace) or a bug. The step fails
 * as it does for a failed rule, but the output `verdict` is `error` and the job summary says what was wrong and
 * what to do, so that a workflow (and a reader) can tell "a rule was not met" from "the gate could not judge".
 */
async function failWithoutVerdict(error: unknown, warn: (message: string) => void): Promise<void> {
  core.setOutput('verdict', NO_VERDICT)
  try {
    await core.summary.addRaw(noVerdictSummary(error)).write()
  } catch (summaryError) {
    warn(`retrieval-gate: could not write the job summary: ${(summaryError as Error).message}`)
  }
  if (isInputError(error)) log.setFailed(`retrieval-gate: ${error.message}`)
  else log.setFailed(`retrieval-gate: internal error: ${(error as Error)?.stack ?? String(error)}`)
}

async function findPullRequest(
  client: GitHubClient | undefined,
  ctx: GateContext,
  inputs: ActionInputs,
  warn: (message: string) => void
): Promise<PullRequestRef | undefined> {
  if (!client) return inputs.prNumber === undefined ? ctx.pullRequest : undefined
  try {
    return await resolvePullRequest(client, ctx, inputs.prNumber)
  } catch (error) {
    // An ambiguous or mismatched PR is a refusal (fail closed), not a lookup that may fall back.
    if (isInputError(error)) throw error
    // without the PR the gate can still judge (rules-from: base then fails closed with its own message)
    warn(`retrieval-gate: ${describeApiError(error, 'finding the pull request')}`)
    return ctx.pullRequest
  }
}

/** Where the action runs: the API client (undefined without github-token), the run's context and its pull request. */
interface ActionSite {
  client: GitHubClient | undefined
  ctx: GateContext
  pr: PullRequestRef | undefined
}

/** What fetching the baseline takes from the run besides the inputs. */
interface BaselineRun {
  /** The runner's environment (RUNNER_TEMP holds the artifact's copy). */
  env: Record<string, string | undefined>
  now: Date
  /** The provenance's warnings, which the artifact's join (older than baseline-max-age, not built from the PR's merge base). */
  warnings: string[]
}

async function resolveBaseline(
  site: ActionSite,
  inputs: ActionInputs,
  run: BaselineRun
): Promise<{ file: string; provenance: BaselineProvenance }> {
  const { client, ctx, pr } = site
  const { env, now, warnings } = run
  if (!inputs.baselineArtifact) return { file: inputs.baseline, provenance: { from: 'file', file: inputs.baseline } }
  if (!client)
    throw new InputError(
      { key: 'input baseline-artifact' },
      'needs github-token to find and download the artifact',
      'pass github-token with actions: read'
    )
  // a branch by its full name (a tag named like it is not it): the PR's base branch, else the input, else the default
  const branch = pr?.baseRef || inputs.baselineBranch || ctx.defaultBranch || 'main'
  const ref = await resolveRef(client, ctx, {
    ref: branch.startsWith('refs/') ? branch : `refs/heads/${branch}`,
    where: { key: pr?.baseRef ? 'input baseline-artifact' : 'input baseline-branch' },
    accept: ['branch']
  })
  const tmpRoot = await mkdtemp(path.join(env.RUNNER_TEMP || os.tmpdir(), 'retrieval-gate-'))
  const fetched = await fetchBaselineArtifact(client, ctx, pr, {
    name: inputs.baselineArtifact,
    fileInArtifact: inputs.baseline,
    ref,
    workflow: inputs.baselineWorkflow || undefined,
    maxAgeSeconds: inputs.baselineMaxAgeSeconds,
    tmpDir: tmpRoot,
    now,
    download: restArtifactDownloader(client, ctx)
  })
  warnings.push(...fetched.warnings)
  return { file: fetched.file, provenance: fetched.provenance }
}

/** The report a comment carries. */
interface CommentReport {
  verdict: 'pass' | 'fail'
  markdown: string
  /** Where the full report is, named when the comment is cut to fit. */
  whereFull: string
}

async function postComment(site: ActionSite, inputs: ActionInputs, report: CommentReport): Promise<CommentOutcome> {
  const { client, ctx, pr } = site
  const { verdict, markdown, whereFull } = report
  if (inputs.comment === 'never') return { status: 'skipped', reason: 'comment: never' }
  if (!pr) return { status: 'skipped', reason: 'not a pull request' }
  if (!client) return { status: 'failed', reason: 'no github-token was given' }
  return upsertStickyComment(client, ctx, pr, {
    name: inputs.commentName,
    mode: inputs.comment,
    verdict,
    markdown,
    runId: ctx.runId,
    author: inputs.commentAuthor || undefined,
    whereFull
  })
}

function commentStatusLine(c: CommentOutcome): string {
  switch (c.status) {
    case 'created':
    case 'updated':
      return `PR comment ${c.status}: ${c.url}${c.dropped.length > 0 ? ` (shortened: ${c.dropped.length} sections left out)` : ''}`
    case 'skipped':
      return `PR comment skipped: ${c.reason}`
    default:
      return `PR comment not written: ${c.reason}`
  }
}

/** An annotation through the log call of its kind (error, warning or notice: the kinds are the calls' names). */
function emit(a: Annotation): void {
  log[a.kind](a.message, { title: a.title, file: a.file, startLine: a.line })
}

async function writeSummary(
  markdown: string,
  comment: CommentOutcome,
  whereFull: string,
  warn: (message: string) => void
): Promise<void> {
  try {
    const head =
      comment.status === 'failed'
        ? `> ⚠️ The PR comment could not be written (${inline(comment.reason, 600)}); the verdict below is unaffected.\n\n`
        : ''
    await core.summary.addRaw(head + fitMarkdown(markdown, SUMMARY_LIMIT, whereFull).text).write()
  } catch (error) {
    warn(`retrieval-gate: could not write the job summary: ${(error as Error).message}`)
  }
}

/** The files an action input gives: the baseline (its artifact's file, or one per seed), the candidate, the optional files. */
function givenFiles(inputs: ActionInputs, baselineFile: string, input: string): string[] {
  switch (input) {
    case 'baseline':
      return inputs.baselineArtifact || inputs.baselineSeeds === undefined ? [baselineFile] : inputs.baselineSeeds
    case 'candidate':
      return inputs.candidateSeeds ?? [inputs.candidate]
    default: {
      const file = inputs.files.get(input)
      return file === undefined ? [] : [file]
    }
  }
}

/** What decided a failing verdict, for the action's failure message: `trust rule "pooling.max_unjudged"` or `"check name"`. */
function failureName(decidedBy: DecidedBy): string {
  if (decidedBy === null) return '""'
  return decidedBy.kind === 'trust' ? `trust rule "${decidedBy.rule}"` : `"${decidedBy.check.rule.name}"`
}

import { InputError } from '../errors.js'
import { quote } from '../util/show.js'
import { isForkHead, type GateContext, type PullRequestRef } from './context.js'
import { listAll, repoOf, type GitHubClient } from './octokit.js'

/** The fields of GET /repos/{owner}/{repo}/pulls/{n} the gate reads. */
interface ApiPull {
  number: number
  head: { sha: string; ref: string; repo: { full_name: string } | null }
  base: { sha: string; ref: string }
}

function fromApi(ctx: GateContext, pull: ApiPull, runHeadSha: string): PullRequestRef {
  const headRepo = pull.head.repo?.full_name
  return {
    number: pull.number,
    runHeadSha,
    baseSha: pull.base.sha,
    baseRef: pull.base.ref,
    headRepo,
    headRef: pull.head.ref,
    isFork: isForkHead(headRepo, `${ctx.owner}/${ctx.repo}`)
  }
}

/**
 * The pull request this run is about, or undefined when there is none (push, schedule, a workflow_run whose
 * PR cannot be found). `pull_request` events carry it in the payload. `workflow_run` events (the fork pattern)
 * list it only for same-repository branches, so for forks it is looked up by the head repository's owner and
 * branch and matched on the run's head commit. `prNumber` (input `pr-number`) overrides both.
 */
export async function resolvePullRequest(
  client: GitHubClient,
  ctx: GateContext,
  prNumber?: number
): Promise<PullRequestRef | undefined> {
  const { owner, repo } = ctx
  if (prNumber !== undefined) {
    const { data } = await client.rest.pulls.get({ owner, repo, pull_number: prNumber })
    const pull = data as unknown as ApiPull
    const run = ctx.workflowRun
    // In the fork pattern the number comes from the triggering run's (untrusted) side: it must name the PR that run built.
    if (ctx.eventName === 'workflow_run' && run !== undefined && run.headBranch !== '' && !sameHead(pull, run)) {
      throw new InputError(
        { key: 'input pr-number' },
        `pull request #${prNumber} has head ${quote(pull.head.repo?.full_name ?? '(deleted)')}:${quote(pull.head.ref)}, not the branch the triggering run built (${quote(run.headRepo ?? '(deleted)')}:${quote(run.headBranch)})`,
        'leave pr-number empty (the gate finds the PR from the triggering run), or pass the number of the PR that run built'
      )
    }
    const runHead = ctx.pullRequest?.runHeadSha ?? ctx.workflowRun?.headSha ?? pull.head.sha
    return fromApi(ctx, pull, runHead)
  }
  if (ctx.pullRequest) {
    if (ctx.eventName !== 'workflow_run') return ctx.pullRequest
    // workflow_run lists the PR without telling whether it still exists: read its base from the API
    const { data } = await client.rest.pulls.get({ owner, repo, pull_number: ctx.pullRequest.number })
    const listedFor = ctx.workflowRun
    // a PR listed for another head (a branch of the same name in another repository) is not the one this run
    // built: that one is looked up by the run's head below, as pr-number is checked
    if (listedFor === undefined || listedFor.headBranch === '' || builtBy(data, listedFor))
      return fromApi(ctx, data, ctx.pullRequest.runHeadSha)
  }
  const run = ctx.workflowRun
  // a run whose head repository is gone (a deleted fork) names no PR: a same-named branch here is not its branch
  if (!run || !run.headBranch || run.headRepo === undefined) return undefined
  const headOwner = run.headRepo.split('/')[0]
  const params = { state: 'open', head: `${headOwner}:${run.headBranch}` }
  const pulls = await listAll<ApiPull>(client, ctx, { endpoint: client.rest.pulls.list, params })
  const same = pulls.filter((p) => sameHead(p, run))
  const exact = same.filter((p) => p.head.sha === run.headSha)
  // Two open PRs from one head branch (into different bases) share its head commit: grading one and posting its
  // status on that commit would speak for the other, whose rules were never read. Fail closed instead of guessing.
  const candidates = exact.length > 0 ? exact : same
  if (candidates.length > 1) {
    const list = candidates
      .map((p) => `#${p.number} into ${quote(p.base.ref)}`)
      .sort()
      .join(', ')
    throw new InputError(
      { key: 'pull request' },
      `${candidates.length} open pull requests come from ${quote(run.headRepo)}:${quote(run.headBranch)} (${list}), so which one this run grades is ambiguous`,
      'pass pr-number from the triggering workflow (the number of its pull_request event), or open one pull request per head branch'
    )
  }
  return candidates[0] ? fromApi(ctx, candidates[0], run.headSha) : undefined
}

/** The PR comes from the branch the triggering run built (same head repository, same branch). */
function sameHead(p: ApiPull, run: { headRepo?: string; headBranch: string }): boolean {
  const head = p.head.repo?.full_name?.toLowerCase()
  return head !== undefined && head === run.headRepo?.toLowerCase() && p.head.ref === run.headBranch
}

/**
 * The PR comes from the head the triggering run built: its repository and branch ({@link sameHead}), or, when
 * neither names a repository (a deleted fork's), its branch and head commit.
 */
function builtBy(p: ApiPull, run: { headRepo?: string; headBranch: string; headSha: string }): boolean {
  if (p.head.repo === null && run.headRepo === undefined)
    return p.head.ref === run.headBranch && p.head.sha === run.headSha
  return sameHead(p, run)
}

/** The PR's head commit right now (to tell whether this run is stale). */
export async function currentHeadSha(client: GitHubClient, ctx: GateContext, number: number): Promise<string> {
  const { data } = await client.rest.pulls.get({ ...repoOf(ctx), pull_number: number })
  return (data as unknown as ApiPull).head.sha
}

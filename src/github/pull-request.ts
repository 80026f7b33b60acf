import type { GateContext, PullRequestRef } from './context.js'
import type { GitHubClient } from './octokit.js'

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
    // a deleted fork shows as a null head repository: treat it as a fork (the safe reading)
    isFork: headRepo === undefined || headRepo.toLowerCase() !== `${ctx.owner}/${ctx.repo}`.toLowerCase()
  }
}

/**
 * The pull request this run is about, or undefined when there is none (push, schedule, a workflow_run whose
 * PR cannot be found). `pull_request` events carry it in the payload. `workflow_run` events (the fork pattern)
 * list it only for same-repository branches, so for forks it is looked up by the head repository's owner and
 * branch and matched on the run's head commit. `prNumber` (input `pr-number`) overrides both.
 */
export async function resolvePullRequest(client: GitHubClient, ctx: GateContext, prNumber?: number): Promise<PullRequestRef | undefined> {
  const { owner, repo } = ctx
  if (prNumber !== undefined) {
    const { data } = await client.rest.pulls.get({ owner, repo, pull_number: prNumber })
    const pull = data as unknown as ApiPull
    const runHead = ctx.pullRequest?.runHeadSha ?? ctx.workflowRun?.headSha ?? pull.head.sha
    return fromApi(ctx, pull, runHead)
  }
  if (ctx.pullRequest) {
    if (ctx.eventName !== 'workflow_run') return ctx.pullRequest
    // workflow_run lists the PR without telling whether it still exists: read its base from the API
    const { data } = await client.rest.pulls.get({ owner, repo, pull_number: ctx.pullRequest.number })
    return fromApi(ctx, data, ctx.pullRequest.runHeadSha)
  }
  const run = ctx.workflowRun
  if (!run || !run.headBranch) return undefined
  const headOwner = run.headRepo.split('/')[0]
  const pulls = (await client.paginate(client.rest.pulls.list, { owner, repo, state: 'open', head: `${headOwner}:${run.headBranch}`, per_page: 100 })) as unknown as ApiPull[]
  const same = pulls.filter((p) => (p.head.repo?.full_name ?? '').toLowerCase() === run.headRepo.toLowerCase() && p.head.ref === run.headBranch)
  const exact = same.find((p) => p.head.sha === run.headSha) ?? same[0]
  return exact ? fromApi(ctx, exact, run.headSha) : undefined
}

/** The PR's head commit right now (to tell whether this run is stale). */
export async function currentHeadSha(client: GitHubClient, ctx: GateContext, number: number): Promise<string> {
  const { data } = await client.rest.pulls.get({ owner: ctx.owner, repo: ctx.repo, pull_number: number })
  return (data as unknown as ApiPull).head.sha
}

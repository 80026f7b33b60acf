import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { capAnnotations, MAX_ANNOTATIONS_PER_KIND, type Annotation } from '../../src/github/annotations.js'
import { contextFromPayload } from '../../src/github/context.js'
import { parseAge, readInputs } from '../../src/github/inputs.js'
import { createClient } from '../../src/github/octokit.js'
import { resolvePullRequest } from '../../src/github/pull-request.js'
import { fitMarkdown, sizeOf, splitSections } from '../../src/report/fit.js'
import { formatAge } from '../../src/report/provenance.js'
import { FakeGitHub } from './fake-github.js'

const REPORT = [
  '## ❌ retrieval-gate: fail, decided by “x”',
  '',
  'verdict paragraph',
  '',
  '### Checks',
  '',
  '| a |',
  '|---|',
  '| 1 |',
  '',
  '```mermaid',
  '### not a heading inside a fence',
  '<details>',
  '```',
  '',
  '<details><summary>Slices (exploratory)</summary>',
  '',
  '<details><summary>nested</summary>',
  'inner',
  '</details>',
  'S'.repeat(3000),
  '</details>',
  '',
  '<details><summary>Coverage and method</summary>',
  '',
  'C'.repeat(2000),
  '',
  '</details>',
  '',
  '_disclaimer_',
  ''
].join('\n')

describe('fitting a report under a size limit by whole sections', () => {
  it('splits at top-level ### headings and <details> blocks, ignoring fences and nesting', () => {
    const s = splitSections(REPORT)
    expect(s.map((x) => [x.kind, x.title])).toEqual([
      ['head', ''],
      ['heading', 'Checks'],
      ['details', 'Slices (exploratory)'],
      ['details', 'Coverage and method'],
      ['text', '_disclaimer_']
    ])
    expect(s.map((x) => x.text).join('')).toBe(REPORT)
  })

  it('returns the report unchanged when it fits', () => {
    expect(fitMarkdown(REPORT, 100000, 'the file')).toEqual({ text: REPORT, dropped: [], cut: false })
  })

  it('drops collapsed sections from the end first, and says what was left out', () => {
    const fit = fitMarkdown(REPORT, 4000, 'the report-markdown file')
    // document order is the renderer's priority: the last collapsed section goes first
    expect(fit.dropped).toEqual(['Coverage and method'])
    expect(sizeOf(fit.text)).toBeLessThanOrEqual(4000)
    expect(fit.text).toContain('Slices (exploratory)')
    expect(fit.text).toContain('_disclaimer_')
    expect(fit.text).toContain('left out “Coverage and method”. The full report is in the report-markdown file.')
    const tighter = fitMarkdown(REPORT, 1000, 'f')
    expect(tighter.dropped).toEqual(['Slices (exploratory)', 'Coverage and method'])
    expect(tighter.text.startsWith('## ❌ retrieval-gate: fail, decided by “x”')).toBe(true)
    expect(tighter.text).toContain('### Checks')
    const tiny = fitMarkdown(REPORT, 250, 'f')
    expect(tiny.dropped).toContain('Checks')
    expect(tiny.text).toContain('verdict paragraph')
    expect(sizeOf(tiny.text)).toBeLessThanOrEqual(250)
  })

  it('cuts the head only when nothing else is left, staying under the limit', () => {
    const fit = fitMarkdown('## verdict\n' + 'é'.repeat(5000), 1000, 'f')
    expect(fit.cut).toBe(true)
    expect(sizeOf(fit.text)).toBeLessThanOrEqual(1000)
    expect(fit.text.startsWith('## verdict')).toBe(true)
  })
})

describe('annotations', () => {
  it('keeps at most 10 of each kind and says how many were left out', () => {
    const many: Annotation[] = [
      ...Array.from({ length: 13 }, (_, i): Annotation => ({
        kind: 'error',
        title: `e${i}`,
        message: 'm',
        file: 'r.yml',
        line: i + 1
      })),
      ...Array.from({ length: 2 }, (_, i): Annotation => ({ kind: 'warning', title: `w${i}`, message: 'm' }))
    ]
    const kept = capAnnotations(many, 'the report')
    expect(kept.filter((a) => a.kind === 'error').map((a) => a.title)).toEqual(
      Array.from({ length: MAX_ANNOTATIONS_PER_KIND }, (_, i) => `e${i}`)
    )
    expect(kept.filter((a) => a.kind === 'warning')).toHaveLength(2)
    expect(kept.filter((a) => a.kind === 'notice').map((a) => a.message)).toEqual([
      '3 more errors not shown as annotations (GitHub shows at most 10 of each kind per step); all are in the report.'
    ])
    const notices = capAnnotations(
      Array.from({ length: 12 }, (_, i): Annotation => ({ kind: 'notice', title: `n${i}`, message: 'm' })),
      'r'
    )
    expect(notices).toHaveLength(10)
    expect(notices[9].title).toBe('retrieval-gate: annotations capped')
    // 12 notices, 8 kept: the two that did not fit and the one the note replaced
    expect(notices[9].message).toMatch(/^3 more notices not shown/)
  })

  it("leaves room for the step's own annotations (its failure message, a comment warning) and counts what it left out", () => {
    const errors = Array.from({ length: 10 }, (_, i): Annotation => ({ kind: 'error', title: `e${i}`, message: 'm' }))
    const warnings = Array.from({ length: 10 }, (_, i): Annotation => ({
      kind: 'warning',
      title: `w${i}`,
      message: 'm'
    }))
    const kept = capAnnotations([...errors, ...warnings], 'the report', { error: 1, warning: 2 })
    expect(kept.filter((a) => a.kind === 'error').map((a) => a.title)).toEqual(errors.slice(0, 9).map((a) => a.title))
    expect(kept.filter((a) => a.kind === 'warning').map((a) => a.title)).toEqual(
      warnings.slice(0, 8).map((a) => a.title)
    )
    expect(kept.filter((a) => a.kind === 'notice').map((a) => a.message)).toEqual([
      '1 more error, 2 more warnings not shown as annotations (GitHub shows at most 10 of each kind per step); all are in the report.'
    ])
    // nothing over: no note; the step's own failure alone never produces one
    expect(capAnnotations(errors.slice(0, 9), 'r', { error: 1 })).toHaveLength(9)
  })
})

describe('inputs and context', () => {
  const get =
    (map: Record<string, string>) =>
    (name: string): string =>
      map[name] ?? ''
  it('defaults rules-from to base in PR events and to workspace otherwise, naming who chose', () => {
    const pr = readInputs(get({ rules: 'r.yml', baseline: 'b', candidate: 'c' }), 'pull_request')
    expect([pr.rulesFrom, pr.rulesFromChosenBy, pr.comment, pr.commentName, pr.baselineMaxAgeSeconds]).toEqual([
      'base',
      'default',
      'always',
      'default',
      undefined
    ])
    expect(readInputs(get({ rules: 'r.yml', baseline: 'b', candidate: 'c' }), 'push').rulesFrom).toBe('workspace')
    expect(
      readInputs(get({ rules: 'r.yml', baseline: 'b', candidate: 'c', 'rules-from': 'workspace' }), 'pull_request')
        .rulesFromChosenBy
    ).toBe('input')
    expect(() =>
      readInputs(get({ rules: 'r.yml', baseline: 'b', candidate: 'c', 'comment-name': 'a b' }), 'push')
    ).toThrow(/input comment-name/)
    expect(() => readInputs(get({ rules: 'r.yml', candidate: 'c' }), 'push')).toThrow(/input baseline.*is required/)
    expect(readInputs(get({ rules: 'r.yml', candidate: 'c', 'baseline-artifact': 'rows' }), 'push').baseline).toBe('')
  })

  it('reads the rows format and id field of evaluator exports, refusing an unknown format by input name', () => {
    const i = readInputs(
      get({ rules: 'r.yml', baseline: 'b', candidate: 'c', 'input-format': 'ragas', 'id-field': 'user_input' }),
      'push'
    )
    expect([i.inputFormat, i.idField]).toEqual(['ragas', 'user_input'])
    expect(readInputs(get({ rules: 'r.yml', baseline: 'b', candidate: 'c' }), 'push').inputFormat).toBeUndefined()
    expect(() =>
      readInputs(get({ rules: 'r.yml', baseline: 'b', candidate: 'c', 'input-format': 'xlsx' }), 'push')
    ).toThrow(/input input-format.*unknown format "xlsx"/)
  })

  it('parses ages', () => {
    expect([parseAge('7d'), parseAge('36h'), parseAge('90m'), parseAge('2w'), parseAge('0'), parseAge('')]).toEqual([
      604800,
      129600,
      5400,
      1209600,
      undefined,
      undefined
    ])
    expect(() => parseAge('7 days')).toThrow(/baseline-max-age/)
    expect(formatAge(90061)).toBe('1 d 1 h')
    expect(formatAge(59)).toBe('59 s')
  })

  it('reads a fork pull_request event, and a workflow_run event', () => {
    const env = {
      GITHUB_REPOSITORY: 'acme/search',
      GITHUB_EVENT_NAME: 'pull_request',
      GITHUB_RUN_ID: '12',
      GITHUB_SHA: 'm'
    }
    const ctx = contextFromPayload(env, {
      pull_request: {
        number: 3,
        head: { sha: 'h', repo: { full_name: 'eve/search' } },
        base: { sha: 'b', ref: 'main' }
      }
    })
    expect(ctx.pullRequest).toEqual({
      number: 3,
      runHeadSha: 'h',
      baseSha: 'b',
      baseRef: 'main',
      headRepo: 'eve/search',
      isFork: true
    })
    expect(ctx.runId).toBe(12)
    const wr = contextFromPayload(
      { ...env, GITHUB_EVENT_NAME: 'workflow_run' },
      {
        workflow_run: {
          id: 5,
          workflow_id: 9,
          head_sha: 'h2',
          head_branch: 'patch-1',
          head_repository: { full_name: 'eve/search' },
          event: 'pull_request',
          conclusion: 'success',
          pull_requests: []
        }
      }
    )
    expect(wr.pullRequest).toBeUndefined()
    expect(wr.workflowRun).toEqual({
      id: 5,
      workflowId: 9,
      headSha: 'h2',
      headBranch: 'patch-1',
      headRepo: 'eve/search',
      event: 'pull_request',
      conclusion: 'success'
    })
  })
})

describe('a deleted fork (a null head repository) reads as a fork, from the payload and from the API', () => {
  const env = { GITHUB_REPOSITORY: 'acme/search', GITHUB_EVENT_NAME: 'pull_request', GITHUB_SHA: 'm' }

  it('a pull_request payload without a head repository is a fork', () => {
    const ctx = contextFromPayload(env, {
      pull_request: { number: 3, head: { sha: 'h', ref: 'main', repo: null }, base: { sha: 'b', ref: 'main' } }
    })
    expect(ctx.pullRequest?.isFork).toBe(true)
    expect(ctx.pullRequest?.headRepo).toBeUndefined()
  })

  it('a workflow_run without a head repository lists its PR as a fork and looks none up by branch', async () => {
    const run = {
      id: 5,
      workflow_id: 9,
      head_sha: 'h2',
      head_branch: 'main',
      head_repository: null,
      event: 'pull_request',
      pull_requests: [{ number: 7, base: { sha: 'b', ref: 'main' } }]
    }
    const listed = contextFromPayload({ ...env, GITHUB_EVENT_NAME: 'workflow_run' }, { workflow_run: run })
    expect(listed.workflowRun?.headRepo).toBeUndefined()
    expect(listed.pullRequest?.isFork).toBe(true)
    const fake = await new FakeGitHub().start()
    try {
      // this repository's own PR from a branch of the same name is not the deleted fork's
      fake.pulls.set(8, {
        number: 8,
        head: { sha: 'h2', ref: 'main', repo: { full_name: 'acme/search' } },
        base: { sha: 'b', ref: 'release' }
      })
      const unlisted = contextFromPayload(
        { ...env, GITHUB_EVENT_NAME: 'workflow_run', GITHUB_API_URL: fake.url },
        { workflow_run: { ...run, pull_requests: [] } }
      )
      expect(await resolvePullRequest(createClient('t', { baseUrl: fake.url }), unlisted)).toBeUndefined()
      expect(fake.log.filter((r) => r.path.includes('/pulls'))).toEqual([])
    } finally {
      await fake.stop()
    }
  })
})

describe('finding the PR of a workflow_run from a fork', () => {
  let fake: FakeGitHub
  beforeAll(async () => {
    fake = await new FakeGitHub().start()
    fake.users.set('t', 'github-actions[bot]')
  })
  afterAll(async () => fake.stop())

  it("looks the PR up by the fork owner and branch, keeping the run's head sha for the staleness check", async () => {
    fake.pulls.set(4, {
      number: 4,
      head: { sha: 'other', ref: 'patch-1', repo: { full_name: 'bob/search' } },
      base: { sha: 'b', ref: 'main' }
    })
    fake.pulls.set(5, {
      number: 5,
      head: { sha: 'h3', ref: 'patch-1', repo: { full_name: 'eve/search' } },
      base: { sha: 'b', ref: 'main' }
    })
    const ctx = contextFromPayload(
      { GITHUB_REPOSITORY: 'acme/search', GITHUB_EVENT_NAME: 'workflow_run', GITHUB_API_URL: fake.url },
      {
        workflow_run: {
          id: 5,
          workflow_id: 9,
          head_sha: 'h2',
          head_branch: 'patch-1',
          head_repository: { full_name: 'eve/search' },
          event: 'pull_request',
          pull_requests: []
        }
      }
    )
    const pr = await resolvePullRequest(createClient('t', { baseUrl: fake.url }), ctx)
    expect(pr).toEqual({
      number: 5,
      runHeadSha: 'h2',
      baseSha: 'b',
      baseRef: 'main',
      headRepo: 'eve/search',
      headRef: 'patch-1',
      isFork: true
    })
    expect(fake.log[0].path).toContain('head=eve%3Apatch-1')
  })
})

describe('a workflow_run that lists several pull requests', () => {
  it('is as ambiguous as the lookup by head branch: refused, not graded as the first one listed', async () => {
    const fake = await new FakeGitHub().start()
    try {
      fake.users.set('t', 'github-actions[bot]')
      // one head branch, two PRs (into main and into release): GitHub lists both on the triggering run
      for (const [number, ref] of [
        [7, 'main'],
        [8, 'release']
      ] as const)
        fake.pulls.set(number, {
          number,
          head: { sha: 'h2', ref: 'feature', repo: { full_name: 'acme/search' } },
          base: { sha: `b-${ref}`, ref }
        })
      const listed = (number: number, ref: string): Record<string, unknown> => ({
        number,
        head: { sha: 'h2', ref: 'feature' },
        base: { sha: `b-${ref}`, ref }
      })
      const ctx = contextFromPayload(
        { GITHUB_REPOSITORY: 'acme/search', GITHUB_EVENT_NAME: 'workflow_run', GITHUB_API_URL: fake.url },
        {
          workflow_run: {
            id: 5,
            workflow_id: 9,
            head_sha: 'h2',
            head_branch: 'feature',
            head_repository: { full_name: 'acme/search' },
            event: 'pull_request',
            pull_requests: [listed(7, 'main'), listed(8, 'release')]
          }
        }
      )
      await expect(resolvePullRequest(createClient('t', { baseUrl: fake.url }), ctx)).rejects.toThrow(
        '2 open pull requests come from "acme/search":"feature" (#7 into "main", #8 into "release"), so which one this run grades is ambiguous'
      )
    } finally {
      await fake.stop()
    }
  })
})

describe('a workflow_run that lists a pull request of another head', () => {
  it('is not graded as that PR: the PR is looked up from the head the run built, as pr-number is checked', async () => {
    const fake = await new FakeGitHub().start()
    try {
      fake.users.set('t', 'github-actions[bot]')
      // this repository's PR from its own `feature`, and a fork's PR from a branch of the same name
      fake.pulls.set(7, {
        number: 7,
        head: { sha: 'h-acme', ref: 'feature', repo: { full_name: 'acme/search' } },
        base: { sha: 'b', ref: 'main' }
      })
      fake.pulls.set(9, {
        number: 9,
        head: { sha: 'h-eve', ref: 'feature', repo: { full_name: 'eve/search' } },
        base: { sha: 'b', ref: 'main' }
      })
      const ctx = contextFromPayload(
        { GITHUB_REPOSITORY: 'acme/search', GITHUB_EVENT_NAME: 'workflow_run', GITHUB_API_URL: fake.url },
        {
          workflow_run: {
            id: 5,
            workflow_id: 9,
            head_sha: 'h-eve',
            head_branch: 'feature',
            head_repository: { full_name: 'eve/search' },
            event: 'pull_request',
            // matched by branch name alone: the other head's PR
            pull_requests: [{ number: 7, head: { sha: 'h-acme', ref: 'feature' }, base: { sha: 'b', ref: 'main' } }]
          }
        }
      )
      expect(await resolvePullRequest(createClient('t', { baseUrl: fake.url }), ctx)).toMatchObject({
        number: 9,
        runHeadSha: 'h-eve',
        headRepo: 'eve/search',
        isFork: true
      })
    } finally {
      await fake.stop()
    }
  })
})

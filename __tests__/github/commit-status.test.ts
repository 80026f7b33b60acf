import { describe, expect, it } from '@jest/globals'
import { statusContext, statusTarget } from '../../src/github/commit-status.js'
import { contextFromPayload } from '../../src/github/context.js'
import { MAX_STATUS_DESCRIPTION, statusDescription } from '../../src/github/status-description.js'
import { InputError } from '../../src/errors.js'

/** The pure parts of the commit status: which commit, which context, which words. main.slow.test.ts posts them. */
const HEAD = 'a'.repeat(40)
const MAIN = 'd'.repeat(40)
const env = { GITHUB_REPOSITORY: 'acme/search', GITHUB_SHA: MAIN, GITHUB_RUN_ID: '900' }
const repository = { name: 'search', owner: { login: 'acme' }, default_branch: 'main' }
const workflowRun = (over: Record<string, unknown> = {}): Record<string, unknown> => ({
  repository,
  workflow_run: {
    id: 880,
    workflow_id: 11,
    head_sha: HEAD,
    head_branch: 'patch-1',
    head_repository: { full_name: 'eve/search' },
    event: 'pull_request',
    conclusion: 'success',
    pull_requests: [],
    ...over
  }
})

describe('statusTarget: the PR head this run evaluated, never GITHUB_SHA', () => {
  it('workflow_run from a fork (pull_requests empty): the run head sha, without any PR lookup', () => {
    const ctx = contextFromPayload({ ...env, GITHUB_EVENT_NAME: 'workflow_run' }, workflowRun())
    expect(ctx.pullRequest).toBeUndefined()
    expect(statusTarget('auto', ctx, undefined)).toEqual({ sha: HEAD })
  })

  it('workflow_run from a same-repository branch (pull_requests listed): the same head sha', () => {
    const same = workflowRun({
      head_repository: { full_name: 'acme/search' },
      pull_requests: [{ number: 7, head: { sha: HEAD }, base: { sha: 'c'.repeat(40), ref: 'main' } }]
    })
    const ctx = contextFromPayload({ ...env, GITHUB_EVENT_NAME: 'workflow_run' }, same)
    expect(statusTarget('auto', ctx, ctx.pullRequest)).toEqual({ sha: HEAD })
  })

  it('pull_request: nothing under auto, the event head sha under true', () => {
    const ctx = contextFromPayload(
      { ...env, GITHUB_EVENT_NAME: 'pull_request' },
      {
        repository,
        pull_request: {
          number: 7,
          head: { sha: HEAD, repo: { full_name: 'acme/search' } },
          base: { sha: 'c'.repeat(40), ref: 'main' }
        }
      }
    )
    expect(statusTarget('auto', ctx, ctx.pullRequest)).toEqual({
      skipped: 'commit-status: auto posts only in workflow_run events about a pull request'
    })
    expect(statusTarget('true', ctx, ctx.pullRequest)).toEqual({ sha: HEAD })
    expect(statusTarget('false', ctx, ctx.pullRequest)).toEqual({ skipped: 'commit-status: false' })
  })

  it('push: no PR head commit is known, even under true', () => {
    const ctx = contextFromPayload({ ...env, GITHUB_EVENT_NAME: 'push' }, { repository })
    expect(statusTarget('true', ctx, undefined)).toEqual({
      skipped: 'no pull request head commit is known for this run'
    })
  })

  it('a head sha that is not a commit sha is never put into a URL', () => {
    const ctx = contextFromPayload(
      { ...env, GITHUB_EVENT_NAME: 'workflow_run' },
      workflowRun({ head_sha: '../../issues/1' })
    )
    expect(statusTarget('auto', ctx, undefined)).toEqual({
      skipped: 'the head commit in the event is not a commit sha'
    })
  })
})

describe('statusContext', () => {
  it('is retrieval-gate for the default comment name, retrieval-gate / NAME otherwise', () => {
    expect(statusContext('default')).toBe('retrieval-gate')
    expect(statusContext('nightly')).toBe('retrieval-gate / nightly')
  })
})

describe('statusDescription', () => {
  it('an internal error says so without its message', () => {
    expect(statusDescription({ verdict: 'error', error: new Error('secret\nstack') })).toBe(
      'error: no verdict, the gate stopped on an internal error; see the run'
    )
  })

  it('is cut to 140 characters with an ellipsis, never inside a surrogate pair, whatever the offset', () => {
    for (let pad = 0; pad < 4; pad++) {
      const error = new InputError({ file: '\u202e' + 'x'.repeat(pad) + '😀'.repeat(40), key: '😀'.repeat(40) }, 'bad')
      const d = statusDescription({ verdict: 'error', error })
      expect(d.startsWith('error: no verdict, unusable input in "')).toBe(true)
      expect(d.length).toBeLessThanOrEqual(MAX_STATUS_DESCRIPTION)
      expect(d.endsWith('…')).toBe(true)
      expect(d).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/) // no lone surrogate
      expect(d).not.toContain('\u202e')
    }
  })
})

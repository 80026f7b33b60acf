import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals'
import { createHash } from 'node:crypto'
import { loadRules } from '../../src/config/rules.js'
import type { GateContext, PullRequestRef } from '../../src/github/context.js'
import { compareExamFiles, examFiles } from '../../src/github/exam-files.js'
import { createClient } from '../../src/github/octokit.js'
import { FakeGitHub } from './fake-github.js'

const BASE = 'b'.repeat(40)
const QRELS = 'q1 0 d1 1\nq1 0 d2 0\n'
const hash = (t: string): string => createHash('sha256').update(t).digest('hex')

let fake: FakeGitHub
let ctx: GateContext
const pr: PullRequestRef = { number: 3, runHeadSha: 'a'.repeat(40), baseSha: BASE, baseRef: 'main', isFork: false }

beforeAll(async () => {
  fake = await new FakeGitHub().start()
  fake.users.set('t', 'github-actions[bot]')
  ctx = { eventName: 'pull_request', owner: fake.owner, repo: fake.repo, apiUrl: fake.url, serverUrl: 'https://github.com', sha: 'm'.repeat(40), workspace: '/tmp' }
})
afterAll(async () => fake.stop())
beforeEach(() => fake.files.clear())

describe('judgments edited in the PR that they grade', () => {
  const rules = loadRules(
    'version: 1\njudgments: { qrels: eval/qrels.txt }\nmetrics: { nDCG@10: { better: higher } }\nchecks:\n  - { name: n, metric: nDCG@10, non_inferior: { margin: 0.01 } }\n',
    'gate.yml'
  )

  it('names the judgments file as an exam file', () => {
    expect(examFiles(rules)).toEqual(['eval/qrels.txt'])
  })

  it('says nothing when the PR leaves the judgments as they are at the base commit', async () => {
    fake.files.set(`${BASE}:eval/qrels.txt`, QRELS)
    expect(await compareExamFiles(createClient('t', { baseUrl: fake.url }), ctx, pr, examFiles(rules), async () => hash(QRELS))).toEqual([])
  })

  it('warns, with both sums, when the PR edits them', async () => {
    fake.files.set(`${BASE}:eval/qrels.txt`, QRELS)
    const edited = QRELS.replace('d2 0', 'd2 1')
    const warnings = await compareExamFiles(createClient('t', { baseUrl: fake.url }), ctx, pr, examFiles(rules), async () => hash(edited))
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toContain(`This pull request changes eval/qrels.txt, which grades it (base sha256 ${hash(QRELS).slice(0, 16)}…, PR sha256 ${hash(edited).slice(0, 16)}…)`)
  })

  it('warns when the base commit has no such file (the PR brings its own exam)', async () => {
    const warnings = await compareExamFiles(createClient('t', { baseUrl: fake.url }), ctx, pr, examFiles(rules), async () => hash(QRELS))
    expect(warnings[0]).toMatch(/eval\/qrels\.txt does not exist at the PR's base commit bbbbbbbbbbbb: this pull request brings its own exam/)
  })
})

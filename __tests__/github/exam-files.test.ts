import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals'
import { createHash } from 'node:crypto'
import { mkdir, mkdtemp, readFile, stat, symlink, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { readFetched, type FetchedFile } from '../../src/readers/fetched.js'
import { examInputs } from '../helpers.js'
import { loadRules } from '../../src/config/rules.js'
import { InputError } from '../../src/errors.js'
import type { GateContext, PullRequestRef } from '../../src/github/context.js'
import { examAtBase, MAX_EXAM_FILE_BYTES } from '../../src/github/exam-files.js'
import { createClient } from '../../src/github/octokit.js'
import { readQrels } from '../../src/readers/read.js'
import { FakeGitHub } from './fake-github.js'

/**
 * The exam files the rules name (judgments, evaluation set, corpus listing, dataset manifest) are read at the PR's
 * base commit, like the rules: a PR cannot grade itself with its own labels. Against the local fake GitHub API.
 */
const BASE = 'b'.repeat(40)
const QRELS = 'q1 0 d1 1\nq1 0 d2 0\n'
const hash = (t: string | Buffer): string => createHash('sha256').update(t).digest('hex')

let fake: FakeGitHub
let ctx: GateContext
let tmp: string
let workspace: string
const pr: PullRequestRef = { number: 3, runHeadSha: 'a'.repeat(40), baseSha: BASE, baseRef: 'main', isFork: false }
const client = (): ReturnType<typeof createClient> => createClient('t', { baseUrl: fake.url })
const rulesWith = (exam: string): ReturnType<typeof loadRules> =>
  loadRules(
    `version: 1\n${exam}\nmetrics: { nDCG@10: { better: higher } }\nchecks:\n  - { name: n, metric: nDCG@10, non_inferior: { margin: 0.01 } }\n`,
    'gate.yml'
  )
const qrelsRules = rulesWith('judgments: { qrels: eval/qrels.txt }')

beforeAll(async () => {
  fake = await new FakeGitHub().start()
  fake.users.set('t', 'github-actions[bot]')
  tmp = await mkdtemp(path.join(os.tmpdir(), 'rg-exam-test-'))
  workspace = path.join(tmp, 'ws')
  await mkdir(path.join(workspace, 'eval'), { recursive: true })
  ctx = {
    eventName: 'pull_request',
    owner: fake.owner,
    repo: fake.repo,
    apiUrl: fake.url,
    serverUrl: 'https://github.com',
    sha: 'm'.repeat(40),
    workspace
  }
})
afterAll(async () => fake.stop())
beforeEach(async () => {
  fake.files.clear()
  fake.unsized.clear()
  fake.log = []
  await writeFile(path.join(workspace, 'eval/qrels.txt'), QRELS)
})

/** Reads each file at the base commit, as the action's input source does, and what it says of each. */
async function read(
  files: string[],
  limit?: number
): Promise<{ copies: Map<string, FetchedFile>; provenance: ReturnType<ReturnType<typeof examAtBase>['provenance']> }> {
  const exam = examAtBase(client(), ctx, pr, { tmpRoot: tmp, workspace, limit })
  const copies = new Map<string, FetchedFile>()
  for (const f of files) copies.set(f, await exam.read(f))
  return { copies, provenance: exam.provenance() }
}
const examFiles = (rules: ReturnType<typeof loadRules>): string[] =>
  examInputs(rules).flatMap((s) => (s.kind === 'file' && s.path !== undefined ? [s.path] : []))
const readExamFile = <T>(
  file: string,
  copies: Map<string, FetchedFile>,
  reader: (path: string, name: string) => Promise<T>
): Promise<T> => readFetched(copies.get(file) as FetchedFile, reader)

describe('exam files read at the base commit', () => {
  it('names every file the rules give that defines the exam: judgments, or dataset, corpus listing and manifest', () => {
    expect(examFiles(qrelsRules)).toEqual(['eval/qrels.txt'])
    expect(
      examFiles(rulesWith('dataset: { file: eval/q.jsonl, corpus: eval/corpus.txt, manifest: eval/manifest.json }'))
    ).toEqual(['eval/q.jsonl', 'eval/corpus.txt', 'eval/manifest.json'])
  })

  it('copies the base commit’s bytes into a private folder and names the copy path@commit', async () => {
    fake.files.set(`${BASE}:eval/qrels.txt`, QRELS)
    const exam = await read(['./eval/qrels.txt'])
    const copy = exam.copies.get('./eval/qrels.txt')
    expect(copy?.name).toBe('eval/qrels.txt@bbbbbbbbbbbb')
    expect(await readFile(copy?.path ?? '', 'utf8')).toBe(QRELS)
    expect(path.relative(tmp, copy?.path ?? '')).toMatch(/^retrieval-gate-exam-\w+[/\\]eval[/\\]qrels\.txt$/)
    expect((await stat(path.dirname(path.dirname(copy?.path ?? '')))).mode & 0o077).toBe(0) // mkdtemp: only the runner's user
    expect(exam.provenance).toEqual([
      { file: 'eval/qrels.txt', commit: BASE, sha256: hash(QRELS), bytes: QRELS.length }
    ])
    expect(fake.log[0].path).toBe(`/repos/acme/search/contents/eval%2Fqrels.txt?ref=${BASE}`)
  })

  it('the same file named twice (./a and a) is read once', async () => {
    fake.files.set(`${BASE}:eval/qrels.txt`, QRELS)
    const exam = await read(['./eval/qrels.txt', 'eval/qrels.txt'])
    expect(exam.copies.get('./eval/qrels.txt')).toEqual(exam.copies.get('eval/qrels.txt'))
    expect(exam.provenance).toHaveLength(1)
    expect(fake.requests('GET', /\/contents\//)).toHaveLength(1)
  })

  it('the PR edits the judgments: the copy is still the base one, and the provenance has both sha256 sums', async () => {
    fake.files.set(`${BASE}:eval/qrels.txt`, QRELS)
    const edited = QRELS.replace('d2 0', 'd2 1')
    await writeFile(path.join(workspace, 'eval/qrels.txt'), edited)
    const exam = await read(['eval/qrels.txt'])
    expect(await readFile(exam.copies.get('eval/qrels.txt')?.path ?? '', 'utf8')).toBe(QRELS)
    expect(exam.provenance).toEqual([
      { file: 'eval/qrels.txt', commit: BASE, sha256: hash(QRELS), bytes: QRELS.length, workspaceSha256: hash(edited) }
    ])
  })

  it('a file the base commit does not have fails closed: a PR cannot bring its own exam', async () => {
    const call = read(['eval/qrels.txt'])
    await expect(call).rejects.toThrow(InputError)
    await expect(read(['eval/qrels.txt'])).rejects.toThrow(
      /^eval\/qrels\.txt: is not at the PR's base commit bbbbbbbbbbbb \(main\): the gate fails closed.*merge the file into main first \(in its own reviewed PR\)/
    )
  })

  it('refuses a directory, a Git LFS pointer and a path outside the repository', async () => {
    fake.files.set(`${BASE}:eval/dir/a.txt`, QRELS)
    await expect(read(['eval/dir'])).rejects.toThrow(
      /^eval\/dir: is not a file at the PR's base commit bbbbbbbbbbbb \(main\) \(GitHub answered with a listing/
    )
    fake.files.set(
      `${BASE}:eval/big.txt`,
      'version https://git-lfs.github.com/spec/v1\noid sha256:' + 'f'.repeat(64) + '\nsize 123456789\n'
    )
    await expect(read(['eval/big.txt'])).rejects.toThrow(
      /eval\/big\.txt: is a Git LFS pointer at the PR's base commit .*keep an exam file in plain git/
    )
    await expect(read(['/data/qrels.txt'])).rejects.toThrow(
      /\/data\/qrels\.txt: with rules-from: base every exam file the rules name .* must be inside the repository/
    )
    await expect(read(['../qrels.txt'])).rejects.toThrow(InputError)
  })

  it(`refuses a file over the cap (${MAX_EXAM_FILE_BYTES} bytes) from its Content-Length, before reading it`, async () => {
    fake.files.set(`${BASE}:eval/qrels.txt`, Buffer.alloc(MAX_EXAM_FILE_BYTES + 1, 0x20))
    const started = Date.now()
    await expect(read(['eval/qrels.txt'])).rejects.toThrow(
      new RegExp(
        `^eval/qrels\\.txt: is ${MAX_EXAM_FILE_BYTES + 1} bytes at the PR's base commit bbbbbbbbbbbb \\(main\\); the limit for an exam file is ${MAX_EXAM_FILE_BYTES} bytes\\. the contents API serves files up to 100 MiB`
      )
    )
    expect(Date.now() - started).toBeLessThan(20_000)
    fake.files.clear()
  })

  it('refuses a file over the cap while streaming when no length is sent', async () => {
    fake.files.set(`${BASE}:eval/qrels.txt`, QRELS.repeat(1000))
    fake.unsized.add(`${BASE}:eval/qrels.txt`)
    await expect(read(['eval/qrels.txt'], 1000)).rejects.toThrow(
      /eval\/qrels\.txt: is over 1000 bytes at the PR's base commit bbbbbbbbbbbb \(main\); the limit for an exam file is 1000 bytes/
    )
    fake.files.set(`${BASE}:eval/qrels.txt`, QRELS)
    expect((await read(['eval/qrels.txt'], 1000)).provenance[0].sha256).toBe(hash(QRELS)) // under the cap, unsized: read whole
  })

  it('fails closed, plainly, when the API refuses (no contents: read)', async () => {
    fake.faults.push({
      method: 'GET',
      path: /\/contents\//,
      status: 403,
      body: { message: 'Resource not accessible by integration' },
      times: 1
    })
    await expect(read(['eval/qrels.txt'])).rejects.toThrow(
      /^eval\/qrels\.txt: reading an exam file at the PR's base commit bbbbbbbbbbbb \(main\) failed \(HTTP 403\).*fails closed/
    )
  })

  it('a workspace copy that is a link to /dev/zero is not hashed (it would never end): nothing is claimed about it', async () => {
    fake.files.set(`${BASE}:eval/zero.txt`, QRELS)
    await symlink('/dev/zero', path.join(workspace, 'eval/zero.txt')).catch(() => undefined)
    const exam = await read(['eval/zero.txt'])
    expect(exam.provenance[0].workspaceSha256).toBeUndefined()
  })

  it('a reader’s refusal names the copy by path@commit and line, never by its temporary path', async () => {
    const broken = 'q1 0 d1 1\nq1 0 d2\n'
    fake.files.set(`${BASE}:eval/qrels.txt`, broken)
    const exam = await read(['eval/qrels.txt'])
    const qrels = readExamFile('eval/qrels.txt', exam.copies, async (p, name) => ({
      ...(await readQrels(p)),
      source: name
    }))
    await expect(qrels).rejects.toThrow(/^eval\/qrels\.txt@bbbbbbbbbbbb:2: a qrels line needs 4 fields/)
    const error = (await readExamFile('eval/qrels.txt', exam.copies, (p) => readQrels(p)).catch(
      (e: unknown) => e
    )) as InputError
    expect(error.where.file).toBe('eval/qrels.txt@bbbbbbbbbbbb')
    expect(error.message).not.toContain(tmp)
  })
})

/**
 * Count, then record, is a race (issue 33, item 2). The look ledgers (holdout looks per release, budget looks per
 * reference) against the fake GitHub, through the action's input source: two gate runs interleaved at the ledger
 * (the fake holds both runs' listings of the ledger commit until both are waiting, then answers them together).
 * Listing before recording, both runs count the same low number and both pass a cap of 1; recording first, the
 * later record sees the earlier one, counts past it, and the cap fails closed for it.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals'
import { FakeGitHub } from './fake-github.js'
import { tempDir } from '../helpers.js'
import { loadRules } from '../../src/config/rules.js'
import { actionInputSource } from '../../src/github/input-source.js'
import { createClient } from '../../src/github/octokit.js'
import type { GateContext, PullRequestRef } from '../../src/github/context.js'
import { looksIn, placeOf, type ListedStatus } from '../../src/github/ledger.js'
import { referenceCapability } from '../../src/capabilities/reference/capability.js'
import { HOLDOUT_LOOKS } from '../../src/capabilities/holdout/looks.js'
import type { ExamFileSpec, ExamRecordSpec } from '../../src/capabilities/contract.js'
import type { ReferenceRules } from '../../src/config/reference-rules.js'

const BASE = 'c'.repeat(40)
const HEAD = 'a'.repeat(40)
const TAG = 'e'.repeat(40) // the commit of the release tag v1.4
const REF_PATH = 'eval/release/rows.jsonl'
let fake: FakeGitHub
const pr: PullRequestRef = {
  number: 7,
  runHeadSha: HEAD,
  baseSha: BASE,
  baseRef: 'main',
  headRepo: 'acme/search',
  headRef: 'feature',
  isFork: false
}

const HOLDOUT_RULES = `version: 1
dataset: { file: eval/dataset.jsonl, split: holdout, holdout_looks: { max_per_release: 1, release: v1.4 } }
metrics:
  nDCG@3: { better: higher, range: [0, 1] }
checks:
  - name: holds
    metric: nDCG@3
    non_inferior: { margin: 0.05 }
`
const BUDGET_RULES = `version: 1
metrics:
  recall@10: { better: higher, range: [0, 1] }
reference: { name: v1.4, path: ${REF_PATH}, ref: v1.4, looks: 1 }
checks:
  - name: recall does not drop
    metric: recall@10
    non_inferior: { margin: 0.005 }
    budget: 0.01
`

/** One gate run's input source: its own client (writes are not spaced across runs) and its own run id. */
/** The action's input source of one run; `null`: not a pull request (a push). */
function runSource(runId: number, thePr: PullRequestRef | null = pr, commentName = 'default') {
  const ctx: GateContext = {
    eventName: 'pull_request',
    owner: 'acme',
    repo: 'search',
    apiUrl: fake.url,
    serverUrl: 'https://github.com',
    runId,
    runAttempt: 1,
    sha: 'm'.repeat(40),
    defaultBranch: 'main',
    workspace: tempDir('rg-ledger-')
  }
  return actionInputSource({
    client: createClient('t', { baseUrl: fake.url, throttleId: `ledger-${runId}-${Math.random()}` }),
    ctx,
    pr: thePr ?? undefined,
    rulesFrom: 'base',
    rulesFile: 'gate.yml',
    given: () => [],
    tmpRoot: tempDir('rg-ledger-tmp-'),
    now: new Date('2025-06-10T12:00:00Z'),
    commentName,
    warn: () => undefined
  })
}

beforeAll(async () => {
  fake = await new FakeGitHub().start()
  fake.users.set('t', 'github-actions[bot]')
})
afterAll(async () => {
  await fake.stop()
})
beforeEach(() => {
  fake.statuses = []
  fake.log = []
  fake.tags.clear()
  fake.commits.clear()
  // the release tag v1.4, as the git refs API and the commits API name it
  fake.tag('v1.4', TAG, { date: '2025-05-01T12:00:00Z' })
  fake.commits.set('v1.4', { sha: TAG, date: '2025-05-01T12:00:00Z' })
  fake.pulls.set(7, {
    number: 7,
    head: { sha: HEAD, ref: 'feature', repo: { full_name: 'acme/search' } },
    base: { sha: BASE, ref: 'main' }
  })
  fake.files.set(`${TAG}:${REF_PATH}`, '{"query_id":"q1","recall@10":0.5}\n')
})

describe('two gate runs at the ledger at once', () => {
  it('holdout looks per release: the later record counts the earlier one (prior looks 0 and 1, not 0 and 0)', async () => {
    const rules = loadRules(HOLDOUT_RULES, 'gate.yml')
    const spec = HOLDOUT_LOOKS
    fake.holdStatusLists(TAG, 2)
    const [a, b] = await Promise.all([runSource(901).record(spec, rules), runSource(902).record(spec, rules)])
    expect([a.unknown, b.unknown]).toEqual([undefined, undefined])
    // looks before each run: with max_per_release 1, the run whose prior count is 1 is over the cap
    expect([a.release, b.release].sort()).toEqual([0, 1])
    expect(fake.statuses.filter((s) => s.sha === TAG)).toHaveLength(2)
  })

  it('budget looks: the two runs are look 1 and look 2 of reference.looks 1, not both look 1', async () => {
    const rules = loadRules(BUDGET_RULES, 'gate.yml')
    // the reference's inputs as the capability declares them: its rows at v1.4, then its looks
    const [rows, , spec] = referenceCapability.inputs(rules.reference as ReferenceRules, rules) as [
      ExamFileSpec,
      unknown,
      ExamRecordSpec<{ thisLook: number | null; unknown: string | null }>
    ]
    const a = runSource(901)
    const b = runSource(902)
    await Promise.all([a.examFile(rows), b.examFile(rows)])
    fake.holdStatusLists(TAG, 2)
    const looks = await Promise.all([a.record(spec, rules), b.record(spec, rules)])
    expect(looks.map((l) => l.unknown)).toEqual([null, null])
    expect(looks.map((l) => l.thisLook).sort()).toEqual([1, 2])
  })
})

describe("a capability's own record needs no GitHub code of its own", () => {
  // A throwaway record, declared where its capability would be: a look in a ledger of its own on the release tag.
  const demo: ExamRecordSpec<number | string> = {
    role: 'exam',
    kind: 'record',
    name: 'demo-looks',
    key: 'demo.looks',
    outside: 0,
    async read(records) {
      const count = await records.look({
        ledger: 'demo look',
        at: { ref: 'v1.4', key: 'demo.release' },
        perHead: false,
        record: true,
        what: 'the demo'
      })
      return count.unknown ?? count.all
    }
  }

  it('is recorded, then counted, in its own context on the commit the rules name; outside a PR it is its own value', async () => {
    const rules = loadRules(HOLDOUT_RULES, 'gate.yml')
    expect(await runSource(901).record(demo, rules)).toBe(0)
    expect(await runSource(902).record(demo, rules)).toBe(1)
    const looks = fake.statuses.filter((x) => x.sha === TAG && x.context === 'retrieval-gate demo look')
    expect(looks.map((x) => x.description)).toEqual([
      'run 901.1: a look at the demo in PR #7',
      'run 902.1: a look at the demo in PR #7'
    ])
    expect(await runSource(903, null).record(demo, rules)).toBe(0)
  })
})

describe('the ledgers keep their contexts (the statuses already written must still count)', () => {
  it('with a comment-name, the holdout look is per head under "(release)", the budget look is one context', async () => {
    const holdout = loadRules(HOLDOUT_RULES, 'gate.yml')
    await runSource(901, pr, 'nightly').record(HOLDOUT_LOOKS, holdout)
    const budget = loadRules(BUDGET_RULES, 'gate.yml')
    const [rows, , spec] = referenceCapability.inputs(budget.reference as ReferenceRules, budget) as [
      ExamFileSpec,
      unknown,
      ExamRecordSpec<unknown>
    ]
    const source = runSource(902, pr, 'nightly')
    await source.examFile(rows)
    await source.record(spec, budget)
    expect(fake.statuses.filter((x) => x.sha === TAG).map((x) => x.context)).toEqual([
      expect.stringMatching(/^retrieval-gate holdout look \/ nightly \(release\) \/ branch [0-9a-f]{12}$/),
      'retrieval-gate budget look / nightly'
    ])
  })
})

// Issue 33, item 3: a ledger on a commit that moves restarts its count. The PR's commits move with a force-push, its
// base commit with every merge; the release's tag stays where it is.
describe('a ledger is kept on a commit that does not move', () => {
  const HOLDOUT = HOLDOUT_RULES.replace(
    'holdout_looks: { max_per_release: 1, release: v1.4 }',
    'holdout_looks: { max_per_pr: 2, max_per_release: 20, release: v1.4 }'
  )
  const spec = HOLDOUT_LOOKS

  it("a force-push does not restart the PR's holdout looks, nor does its branch reopened as a new PR", async () => {
    const rules = loadRules(HOLDOUT, 'gate.yml')
    expect((await runSource(901).record(spec, rules)).thisPr).toBe(0)
    expect((await runSource(902).record(spec, rules)).thisPr).toBe(1)
    // the author force-pushes: the PR's commits are now only NEW, on which nothing was ever recorded
    const NEW = 'b'.repeat(40)
    fake.pulls.set(7, {
      number: 7,
      head: { sha: NEW, ref: 'feature', repo: { full_name: 'acme/search' } },
      base: { sha: BASE, ref: 'main' }
    })
    fake.pullCommits.set(7, [NEW])
    const forced = await runSource(903, { ...pr, runHeadSha: NEW }).record(spec, rules)
    expect(forced.thisPr).toBe(2) // two looks before: with max_per_pr 2, this third one is over the cap
    // the same branch reopened as PR 8
    fake.pulls.set(8, { ...(fake.pulls.get(7) as NonNullable<ReturnType<typeof fake.pulls.get>>), number: 8 })
    fake.pullCommits.set(8, [NEW])
    const reopened = await runSource(904, { ...pr, number: 8, runHeadSha: NEW }).record(spec, rules)
    expect([reopened.thisPr, reopened.release]).toEqual([3, 3])
    fake.pullCommits.clear()
  })

  it('another branch has its own per-PR count; the release counts every look', async () => {
    const rules = loadRules(HOLDOUT, 'gate.yml')
    await runSource(901).record(spec, rules)
    const other = await runSource(902, { ...pr, number: 9, headRef: 'other', runHeadSha: 'd'.repeat(40) }).record(
      spec,
      rules
    )
    expect([other.thisPr, other.release]).toEqual([0, 1])
  })

  it('a holdout cap without a release to keep the looks on is refused, and a release that is a branch', () => {
    for (const looks of ['{ max_per_pr: 5 }', '{ max_per_release: 20 }'])
      expect(() =>
        loadRules(HOLDOUT_RULES.replace('{ max_per_release: 1, release: v1.4 }', looks), 'gate.yml')
      ).toThrow('gate.yml:2 (dataset.holdout_looks): caps the looks at the holdout, but names no release')
    expect(() => loadRules(HOLDOUT_RULES.replace('release: v1.4', 'release: refs/heads/release'), 'gate.yml')).toThrow(
      '(dataset.holdout_looks.release): is a branch, whose commit moves with every push'
    )
  })

  it('reference.looks on a reference without a fixed commit is refused naming reference.looks or reference.ref', () => {
    const without = (reference: string): string =>
      BUDGET_RULES.replace(`{ name: v1.4, path: ${REF_PATH}, ref: v1.4, looks: 1 }`, reference)
    expect(() => loadRules(without(`{ path: ${REF_PATH}, looks: 4 }`), 'gate.yml')).toThrow(
      "gate.yml:4 (reference.looks): counts looks on the reference's commit, but reference.path has no ref: it is read at each PR's base commit, which moves with every merge"
    )
    expect(() => loadRules(without('{ artifact: { name: release-rows }, looks: 4 }'), 'gate.yml')).toThrow(
      "(reference.looks): counts looks on the reference's commit, but reference.artifact has no ref"
    )
    expect(() => loadRules(without(`{ path: ${REF_PATH}, ref: refs/heads/release, looks: 4 }`), 'gate.yml')).toThrow(
      '(reference.ref): is a branch, whose commit moves with every push'
    )
  })

  it('a bare reference.ref that is a branch is refused when resolved, naming reference.looks', async () => {
    fake.branch('release', [TAG])
    const rules = loadRules(BUDGET_RULES.replace('ref: v1.4', 'ref: release'), 'gate.yml')
    const [rows] = referenceCapability.inputs(rules.reference as ReferenceRules, rules) as [ExamFileSpec]
    await expect(runSource(901).examFile(rows)).rejects.toThrow(
      'gate.yml (reference.looks): counts looks on the reference\'s commit, but reference.ref "release" is refs/heads/release, a branch, whose commit moves with every push: the count would restart'
    )
    fake.branches.clear()
  })
})

describe('a run takes its place among the records', () => {
  const at = (id: number, description: string | null, context = 'L'): ListedStatus => ({ id, context, description })
  const isL = (c: string): boolean => c === 'L'

  it('after every distinct look recorded before its own, in id order', () => {
    const listed = [
      at(1, 'run 5.1: a look'),
      at(2, 'run 6.1: a look'),
      at(3, 'run 7.1: a look'),
      at(4, 'run 8.1: a look')
    ]
    expect(placeOf(listed, isL, { id: 3, mark: 'run 7.1' })).toBe(3)
    expect(placeOf(listed, isL, { id: 1, mark: 'run 5.1' })).toBe(1)
  })

  it('a retried write (one mark twice) is one look; other contexts do not count', () => {
    const listed = [
      at(1, 'run 5.1: a look'),
      at(2, 'run 5.1: a look'),
      at(3, 'run 6.1: x', 'CI'),
      at(4, 'run 7.1: a look')
    ]
    expect(placeOf(listed, isL, { id: 4, mark: 'run 7.1' })).toBe(2)
    expect(looksIn(listed, isL)).toBe(2)
  })

  it("records written by others only raise the count: unmarked ones count each, one with this run's mark never lowers it", () => {
    const listed = [
      at(1, 'whatever'),
      at(2, null),
      at(3, 'run 7.1: planted early'),
      at(4, 'run 6.1: a look'),
      at(5, 'run 7.1: a look')
    ]
    // two unmarked records and run 6.1 came before: this run is the fourth look (the planted copy of its mark is not another)
    expect(placeOf(listed, isL, { id: 5, mark: 'run 7.1' })).toBe(4)
  })

  it('its own record missing from the listing gives no place (the count is unknown, never a guess)', () => {
    expect(placeOf([at(1, 'run 5.1: a look')], isL, { id: 9, mark: 'run 7.1' })).toBeUndefined()
  })
})

/**
 * The trust boundary over the registry (issue 24): for every capability, an answer input that drops items,
 * relabels them, repeats or duplicates them never turns a fail into a pass. Each capability has a scenario in
 * which the gate fails because of it; fast-check then mutates the candidate's answer inputs (never the exam) and
 * the gate must still fail (exit 1) or refuse the input (exit 2). A capability without answer inputs of its own
 * must declare none: its inputs are the exam's. A new capability without an entry here fails the first test.
 */
import { describe, expect, it } from '@jest/globals'
import fc from 'fast-check'
import { CAPABILITIES } from '../../src/capabilities/registry.js'
import { loadRules } from '../../src/config/rules.js'
import { cli, jsonl, writeFiles } from '../helpers.js'

const RUNS = Number(process.env.RG_PROPERTY_RUNS ?? 25)

/** A scenario that fails because of the capability, and the files of it that are the candidate's answers. */
interface Scenario {
  files: Record<string, string>
  /** The guard or check that decides the unmutated scenario (so it fails for this capability's reason). */
  decidedBy: string
  /** The gate's arguments; `@name` is the path of file `name`. */
  args: string[]
  /** Answer files (JSON Lines records) the mutations may touch; `many` lists files given as one input of several. */
  answers: string[]
  many?: string[]
}

/** Why a capability has no scenario: its inputs are all exam-side, or it has no guard a mutation could pass. */
type Exempt = { examOnly: string } | { noGuards: string }

const ids = Array.from({ length: 40 }, (_, i) => `q${String(i).padStart(2, '0')}`)
const rowsOf = (value: (i: number) => Record<string, unknown>): string =>
  jsonl(ids.map((id, i) => ({ query_id: id, ...value(i) })))
const HEAD = 'version: 1\nstatistics: { resamples: 200, seed: 3 }\nqueries: { min_per_slice: 5 }\n'

/** A JSON Lines run: every query retrieves `docs(i)` in that order. */
const runOf = (docs: (i: number) => string[]): string =>
  jsonl(ids.map((id, i) => ({ query_id: id, results: docs(i).map((doc, r) => ({ doc_id: doc, score: 100 - r })) })))
/** Judgments: query i has d{i}-rel relevant, d{i}-no judged not relevant. */
const QRELS = ids.map((id, i) => `${id} 0 d${i}-rel 1\n${id} 0 d${i}-no 0\n`).join('')
const RUN_RULES = `${HEAD}judgments: { qrels: JUDGMENTS }\nmetrics:\n  P@2: { better: higher }\nchecks:\n  - { name: holds, metric: P@2, non_inferior: { margin: 0.9 } }\n`

const SCENARIOS: Record<string, Scenario | Exempt> = {
  comparability: {
    decidedBy: 'comparability',
    files: {
      'rules.yml': `${HEAD}comparability: { must_match: [corpus.hash] }\nmetrics:\n  m: { better: higher, range: [0, 1] }\nchecks:\n  - { name: holds, metric: m, non_inferior: { margin: 0.5 } }\n`,
      'b.jsonl': rowsOf(() => ({ m: 0.5 })),
      'c.jsonl': rowsOf(() => ({ m: 0.5 })),
      'bm.json': '{"corpus": {"hash": "a"}}',
      'cm.jsonl': '{"corpus": {"hash": "b"}}\n'
    },
    args: [
      '--rules',
      '@rules.yml',
      '--baseline',
      '@b.jsonl',
      '--candidate',
      '@c.jsonl',
      '--baseline-manifest',
      '@bm.json',
      '--candidate-manifest',
      '@cm.jsonl'
    ],
    answers: ['cm.jsonl', 'c.jsonl']
  },
  pooling: {
    decidedBy: 'pooling.max_unjudged',
    files: {
      'rules.yml': RUN_RULES + 'pooling: { depth: 2, max_unjudged: { share: 0.2 } }\n',
      'qrels.txt': QRELS,
      'b.jsonl': runOf((i) => [`d${i}-rel`, `d${i}-no`]),
      // The candidate's top 2 are mostly documents nobody judged.
      'c.jsonl': runOf((i) => [`d${i}-rel`, `new-${i}`])
    },
    args: ['--rules', '@rules.yml', '--baseline', '@b.jsonl', '--candidate', '@c.jsonl'],
    answers: ['c.jsonl']
  },
  'zero-hits': {
    decidedBy: 'max_zero_hit_share',
    files: {
      'rules.yml': RUN_RULES + 'max_zero_hit_share: { share: 0.2, depth: 2 }\n',
      'qrels.txt': QRELS,
      'b.jsonl': runOf((i) => [`d${i}-rel`, `d${i}-no`]),
      // Half the queries find nothing relevant in the top 2.
      'c.jsonl': runOf((i) => (i % 2 ? [`d${i}-no`, `x${i}`] : [`d${i}-rel`, `d${i}-no`]))
    },
    args: ['--rules', '@rules.yml', '--baseline', '@b.jsonl', '--candidate', '@c.jsonl'],
    answers: ['c.jsonl']
  },
  'two-stage': { noGuards: 'diagnostics only: the ranker against its first-stage ceiling, never a guard' },
  dataset: {
    noGuards:
      'the evaluation set is the exam: its summary is counted, never a guard (its attributes are refused from the candidate, property/exam.test.ts)'
  },
  reference: { examOnly: 'the reference rows and manifest are read at a tag or from a push run on the default branch' },
  judge: {
    decidedBy: 'judge.min_kappa',
    files: {
      'rules.yml': `${HEAD}metrics:\n  m: { better: higher, range: [0, 1] }\nchecks:\n  - { name: holds, metric: m, non_inferior: { margin: 0.5 } }\njudge: { anchors: ANCHORS, min_kappa: 0.6, length_bias: { score: m, length: len, max_correlation: 0.9 } }\n`,
      'b.jsonl': rowsOf((i) => ({ m: 0.5, len: 100 + i })),
      'c.jsonl': rowsOf((i) => ({ m: 0.5 + i / 100, len: 100 + i + ((i * 7) % 13) })),
      'anchors.jsonl': jsonl(Array.from({ length: 24 }, (_, i) => ({ id: `a${i}`, human: i % 2, judge: i % 2 }))),
      // The candidate's judge gives a third of the items a label no human gave (kappa about 0.4).
      'labels.jsonl': jsonl(Array.from({ length: 24 }, (_, i) => ({ id: `a${i}`, judge: i % 3 === 1 ? 2 : i % 2 })))
    },
    args: [
      '--rules',
      '@rules.yml',
      '--baseline',
      '@b.jsonl',
      '--candidate',
      '@c.jsonl',
      '--candidate-judge-labels',
      '@labels.jsonl'
    ],
    answers: ['labels.jsonl', 'c.jsonl']
  },
  holdout: { examOnly: 'the looks are counted in a ledger of commit statuses the pull request cannot write or delete' },
  history: { examOnly: 'the reports of push runs on the default branch' },
  queries: {
    examOnly:
      'the queries file is the exam’s; its attributes go on the baseline’s rows, and a row that says otherwise is refused'
  },
  seeds: {
    decidedBy: 'better',
    files: {
      'rules.yml': `${HEAD.replace('seed: 3', 'seed: 3, min_seeds: 3, seeds: 3')}metrics:\n  m: { better: higher, range: [0, 1] }\nchecks:\n  - { name: better, metric: m, superior: { margin: 0 } }\n`,
      // Each side's three seeds shift by -0.05, 0, +0.05 (training noise); the candidate gains 0.02, inside that noise.
      ...Object.fromEntries(
        [-0.05, 0, 0.05].flatMap((shift, k) => [
          [`b${k}.jsonl`, rowsOf((i) => ({ m: 0.4 + ((i * 0.618) % 0.2) + shift + ((i * 7 + k) % 5) / 1000 }))],
          [`c${k}.jsonl`, rowsOf((i) => ({ m: 0.42 + ((i * 0.618) % 0.2) + shift + ((i * 3 + k) % 5) / 1000 }))]
        ])
      )
    },
    args: [
      '--rules',
      '@rules.yml',
      '--baseline',
      '@b0.jsonl',
      '--baseline',
      '@b1.jsonl',
      '--baseline',
      '@b2.jsonl',
      '--candidate',
      '@c0.jsonl',
      '--candidate',
      '@c1.jsonl',
      '--candidate',
      '@c2.jsonl'
    ],
    answers: ['c0.jsonl', 'c1.jsonl', 'c2.jsonl'],
    many: ['c0.jsonl', 'c1.jsonl', 'c2.jsonl']
  }
}

/** One mutation of the candidate's answers. */
type Mutation =
  | { kind: 'drop'; file: number; at: number; count: number }
  | { kind: 'repeat'; file: number; at: number }
  | { kind: 'relabel'; file: number; at: number; to: number }
  | { kind: 'rekey'; file: number; at: number }
  | { kind: 'duplicate-file'; file: number; into: number }
  /** Every record whose first value field equals that of the record at `at`: an answer leaving out what it loses on. */
  | { kind: 'drop-where'; file: number; at: number }
  /** The same answers in another order: a valid answer, so some mutations reach a verdict. */
  | { kind: 'reorder'; file: number; at: number }

/** Mutations of a scenario's answers; with several files of one input, copying one over another is drawn often. */
const mutationArb = (scenario: Scenario): fc.Arbitrary<Mutation> =>
  fc.oneof(
    fc.record({
      kind: fc.constant('drop' as const),
      file: fc.nat(),
      at: fc.nat(),
      count: fc.integer({ min: 1, max: 10 })
    }),
    fc.record({ kind: fc.constant('repeat' as const), file: fc.nat(), at: fc.nat() }),
    fc.record({ kind: fc.constant('relabel' as const), file: fc.nat(), at: fc.nat(), to: fc.nat() }),
    fc.record({ kind: fc.constant('rekey' as const), file: fc.nat(), at: fc.nat() }),
    {
      arbitrary: fc.record({ kind: fc.constant('duplicate-file' as const), file: fc.nat(), into: fc.nat() }),
      weight: (scenario.many?.length ?? 0) > 1 ? 8 : 1
    },
    fc.record({ kind: fc.constant('reorder' as const), file: fc.nat(), at: fc.nat() }),
    fc.record({ kind: fc.constant('drop-where' as const), file: fc.nat(), at: fc.nat() })
  )

/** The record's item id field (query_id, id) or its first key. */
const idKey = (record: Record<string, unknown>): string =>
  'query_id' in record ? 'query_id' : 'id' in record ? 'id' : Object.keys(record)[0]

function mutate(files: Record<string, string>, scenario: Scenario, m: Mutation): Record<string, string> {
  const out = { ...files }
  const name = scenario.answers[m.file % scenario.answers.length]
  const records = out[name]
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>)
  const at = m.kind === 'duplicate-file' ? 0 : m.at % records.length
  switch (m.kind) {
    case 'drop':
      records.splice(at, Math.min(m.count, records.length - 1))
      break
    case 'repeat':
      records.splice(at, 0, records[at])
      break
    case 'relabel': {
      // The item's id becomes another item's (or an id the exam does not have).
      const key = idKey(records[at])
      const other = records[m.to % records.length]
      records[at] = { ...records[at], [key]: m.to % 3 === 0 ? 'not-in-the-exam' : other[key] }
      break
    }
    case 'rekey': {
      // A field renamed: an attribute or a value the answer moves somewhere the exam does not look.
      const keys = Object.keys(records[at]).filter((k) => k !== idKey(records[at]))
      if (keys.length > 0) {
        const k = keys[0]
        const { [k]: value, ...rest } = records[at]
        records[at] = { ...rest, [`${k}_x`]: value }
      }
      break
    }
    case 'drop-where': {
      const key = Object.keys(records[at]).find((k) => k !== idKey(records[at]))
      if (key !== undefined) {
        const value = JSON.stringify(records[at][key])
        const kept = records.filter((r) => JSON.stringify(r[key]) !== value)
        if (kept.length > 0) records.splice(0, records.length, ...kept)
      }
      break
    }
    case 'reorder':
      records.push(...records.splice(0, at))
      break
    case 'duplicate-file': {
      const many = scenario.many ?? []
      if (many.length > 1) {
        out[many[m.into % many.length]] = out[many[m.file % many.length]]
        return out
      }
      break
    }
  }
  out[name] = jsonl(records)
  return out
}

async function gate(
  files: Record<string, string>,
  args: string[]
): Promise<{ code: number; decidedBy: string | null }> {
  const f = writeFiles(files)
  const rules = Object.fromEntries(Object.entries(files).map(([k, v]) => [k, v]))
  if (rules['rules.yml'] !== undefined) {
    const text = rules['rules.yml']
      .split('JUDGMENTS')
      .join(f['qrels.txt'] ?? '')
      .split('ANCHORS')
      .join(f['anchors.jsonl'] ?? '')
    Object.assign(f, writeFiles({ 'rules.yml': text }))
  }
  const resolved = args.map((a) => (a.startsWith('@') ? f[a.slice(1)] : a))
  const r = await cli(['gate', ...resolved, '--format', 'json'])
  return {
    code: r.code,
    decidedBy: r.code === 2 ? null : ((JSON.parse(r.stdout) as { decided_by: string | null }).decided_by ?? null)
  }
}

describe('every capability on the registry holds the trust boundary', () => {
  it('has a scenario or a reason for none, and an exam-only capability declares no answer input', () => {
    for (const capability of CAPABILITIES) {
      const entry = SCENARIOS[capability.name]
      expect(entry).toBeDefined()
      if (entry !== undefined && 'examOnly' in entry) {
        const rules = loadRules(
          `${HEAD}metrics:\n  m: { better: higher }\nchecks:\n  - { name: c, metric: m, non_inferior: { margin: 0.1 } }\n`,
          'r.yml'
        )
        const config = capability.config(rules) ?? {}
        try {
          expect(capability.inputs(config, rules).filter((s) => s.role !== 'exam')).toEqual([])
        } catch (error) {
          // An inactive capability may not build inputs from empty rules: its config is what the rules say.
          if (!(error instanceof TypeError)) throw error
        }
      }
    }
    expect(Object.keys(SCENARIOS).sort()).toEqual(CAPABILITIES.map((c) => c.name).sort())
  })

  for (const [name, entry] of Object.entries(SCENARIOS)) {
    if (!('files' in entry)) continue
    it(`${name}: the scenario fails, and no mutation of the candidate's answers turns it into a pass`, async () => {
      expect(await gate(entry.files, entry.args)).toEqual({ code: 1, decidedBy: entry.decidedBy })
      // A valid answer in another order is judged like the original: the mutations reach the checks, not only refusals.
      expect(await gate(mutate(entry.files, entry, { kind: 'reorder', file: 0, at: 3 }), entry.args)).toEqual({
        code: 1,
        decidedBy: entry.decidedBy
      })
      await fc.assert(
        fc.asyncProperty(fc.array(mutationArb(entry), { minLength: 1, maxLength: 3 }), async (mutations) => {
          let files = entry.files
          for (const m of mutations) files = mutate(files, entry, m)
          const { code } = await gate(files, entry.args)
          expect([1, 2]).toContain(code)
        }),
        { numRuns: RUNS, seed: 24 }
      )
    })
  }
})

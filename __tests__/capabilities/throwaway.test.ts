/**
 * A capability is a folder (issue 35, item 1): a throwaway capability, "fail below N paired queries", added in a
 * temp registry and nowhere else, must be wired end to end: its rules key accepted by the schema, its guard
 * evaluated on the paired rows and counted toward the verdict, its reason codes in its own words in every report,
 * its optional file known to the invocation, and its need for rows refused under --aggregates. Each expectation
 * fails if the list it exercises is closed again in the core (the schema, the guard reasons' words, the given
 * files and who reads them, the rows-only keys), because this capability is in none of them: checked by putting
 * each closed list back (a fixed ROWS_ONLY, a fixed list of reason codes, the core's schema, a fixed READ_BY). docs/architecture.md ("Adding a capability") walks through the same capability.
 */
import { describe, expect, it } from '@jest/globals'
import { loadAggregateInputs } from '../../src/capabilities/aggregates.js'
import type { Capability } from '../../src/capabilities/contract.js'
import { CAPABILITIES } from '../../src/capabilities/registry.js'
import { COMMANDS } from '../../src/commands/usage.js'
import { cliInputSource } from '../../src/commands/cli-source.js'
import type { Rules } from '../../src/config/types.js'
import { runGate } from '../../src/gate.js'
import { loadGateInputs, optionalFiles, rulesFromText } from '../../src/load.js'
import { toMarkdown } from '../../src/report/markdown.js'
import { toText } from '../../src/report/text.js'
import { paragraph, words } from '../../src/model/document.js'
import { jsonl, refusal, writeFiles, toJsonReport } from '../helpers.js'

/** The throwaway's reason: how many queries were paired, against the floor. */
interface PairedReason {
  code: 'paired_enough' | 'paired_too_few'
  n: number
  min: number
}

const KEY = 'min_paired_queries'

/** The whole capability, as its folder would hold it. */
const minPaired: Capability<number, null, null> = {
  name: 'min-paired',
  about: 'a comparison on too few queries to mean anything: fail below a floor of paired queries',
  rules: { [KEY]: { type: 'integer', minimum: 1, description: 'Fail when fewer queries than this are paired.' } },
  words: {
    paired_enough: (r: PairedReason) => `${r.n} paired queries, at least ${r.min}`,
    paired_too_few: (r: PairedReason) => `only ${r.n} paired queries, fewer than the ${r.min} the rules ask for`
  },
  // An optional file it would read (a list of queries to leave out, say): the CLI's and the action's lists derive from it.
  files: [{ option: 'min-paired-excluded', readBy: KEY, help: 'queries to leave out of the count' }],
  config: (rules) => rules.extra.get(KEY) as number | undefined,
  needsRows: () => KEY,
  inputs: () => [
    {
      role: 'answer',
      kind: 'given',
      name: 'excluded',
      option: 'min-paired-excluded',
      many: false,
      required: false
    }
  ],
  read: () => Promise.resolve(null),
  assess: ({ config: min, table }) => {
    const n = table.ids.length
    const reason: PairedReason = { code: n >= min ? 'paired_enough' : 'paired_too_few', n, min }
    return { guards: [{ rule: KEY, status: n >= min ? 'pass' : 'fail', reason }], summary: null, parts: {} }
  }
}

const REGISTRY: readonly Capability[] = [...CAPABILITIES, minPaired]

const rulesText = (min: number | null): string =>
  `version: 1\nqueries: { min_per_slice: 5 }\nmetrics:\n  m: { better: higher, range: [0, 1] }\nchecks:\n  - { name: holds, metric: m, non_inferior: { margin: 0.5 } }\n${min === null ? '' : `${KEY}: ${min}\n`}`

const rows = jsonl(Array.from({ length: 12 }, (_, i) => ({ query_id: `q${i}`, m: 0.5 })))

async function gate(min: number | null, registry: readonly Capability[] = REGISTRY) {
  const files = writeFiles({ 'rules.yml': rulesText(min), 'b.jsonl': rows, 'c.jsonl': rows })
  const rules = rulesFromText(rulesText(min), files['rules.yml'], registry)
  const source = cliInputSource({
    given: { baseline: files['b.jsonl'], candidate: files['c.jsonl'] },
    rulesFile: files['rules.yml']
  })
  return { rules, result: runGate(await loadGateInputs(rules, source, { registry }), {}, registry) }
}

describe('a throwaway capability in a temp registry, and no edit elsewhere', () => {
  it('its rules key is accepted by the schema the registry assembles, and refused without it', async () => {
    const { rules } = await gate(20)
    expect(rules.extra.get(KEY)).toBe(20)
    const refused = await refusal(() => rulesFromText(rulesText(20), 'rules.yml', CAPABILITIES))
    expect(refused.message).toMatch(/min_paired_queries/)
    expect((await refusal(() => rulesFromText(rulesText(0), 'rules.yml', REGISTRY))).message).toMatch(/minimum|>= 1/)
  })

  it('its guard is evaluated on the paired rows and decides the verdict, in its own words in every report', async () => {
    const { result } = await gate(20)
    expect(result.decision.verdict).toBe('fail')
    expect(result.decision.decidedBy).toMatchObject({ kind: 'trust', rule: KEY })
    const words = 'only 12 paired queries, fewer than the 20 the rules ask for'
    expect(result.trust?.guards).toEqual([
      { rule: KEY, status: 'fail', reason: { code: 'paired_too_few', n: 12, min: 20 }, words }
    ])
    expect(toMarkdown(result)).toContain(words)
    expect(toText(result, { color: false })).toContain(words)
    const json = JSON.parse(toJsonReport(result)) as { decided_by: string; trust: { guards: unknown[] } }
    expect(json.decided_by).toBe(KEY)
    expect(json.trust.guards).toEqual([{ rule: KEY, status: 'fail', counts_as: 'fail', reason: words }])
  })

  it('passes above its floor, and is off (nothing of it runs) when the rules do not name its key', async () => {
    const { result } = await gate(10)
    expect(result.decision.verdict).toBe('pass')
    expect(toMarkdown(result)).toContain('12 paired queries, at least 10')
    const off = await gate(null)
    expect(off.result.trust?.guards).toEqual([])
    expect(off.result.capabilities.map((c) => c.name)).not.toContain(minPaired.name)
  })

  it('its optional file is one the invocation may give, refused with its rules key when nothing reads it', async () => {
    expect(optionalFiles(REGISTRY).map((f) => f.option)).toContain('min-paired-excluded')
    // the CLI's usage and parser take every optional file the registry declares, with its own help
    for (const f of optionalFiles()) expect(COMMANDS.gate.options).toHaveProperty([f.option, 'description'], f.help)
    expect(optionalFiles(CAPABILITIES).map((f) => f.option)).not.toContain('min-paired-excluded')
    const files = writeFiles({ 'b.jsonl': rows, 'x.txt': 'q1\n' })
    const rules = rulesFromText(rulesText(null), 'rules.yml', REGISTRY)
    const source = cliInputSource({
      given: { baseline: files['b.jsonl'], candidate: files['b.jsonl'], 'min-paired-excluded': files['x.txt'] },
      rulesFile: 'rules.yml'
    })
    const refused = await refusal(() =>
      loadGateInputs(rules, source, { registry: REGISTRY, given: (option) => option === 'min-paired-excluded' })
    )
    expect(refused.where.key).toBe('--min-paired-excluded')
    expect(refused.message).toMatch(/nothing in these rules reads it.*\(min_paired_queries\)/)
  })

  it('under --aggregates it needs the rows, so it is refused with its key rather than run on an empty table', async () => {
    const rules: Rules = rulesFromText(rulesText(20), 'rules.yml', REGISTRY)
    const source = cliInputSource({ given: { aggregates: 'never-read.json' }, rulesFile: 'rules.yml' })
    const refused = await refusal(() => loadAggregateInputs(rules, source, REGISTRY))
    expect(refused.where.key).toBe(KEY)
    expect(refused.message).toMatch(/warehouse aggregates do not carry/)
  })

  it('two guards that name one rule stop the gate: decided_by and the report name a guard by its rule', async () => {
    // a second capability reading the same key (no fragment of its own: the key is the first one's)
    const twin: Capability<number, null, null> = { ...minPaired, name: 'min-paired-twin', rules: undefined, files: [] }
    await expect(gate(20, [...REGISTRY, twin])).rejects.toThrow(/two guards name the rule min_paired_queries/)
  })

  it("a unit's own reason, words, mark and policy come from the capability that adjusts it", async () => {
    // A second throwaway: the release manager freezes the checks; every unit that would pass is inconclusive,
    // counted by on_inconclusive whatever the check's kind, and says why in the capability's words.
    const freeze: Capability<string, null, null> = {
      name: 'freeze',
      about: 'a release freeze: no check passes while it holds',
      rules: { freeze_checks: { type: 'string', description: 'Who froze the checks.' } },
      config: (rules) => rules.extra.get('freeze_checks') as string | undefined,
      needsRows: () => undefined,
      inputs: () => [],
      read: () => Promise.resolve(null),
      assess: () => ({
        guards: [],
        summary: null,
        parts: {
          unitWords: (unit, { head }) =>
            unit.reason === 'frozen' ? `${head}; the checks are frozen by ${String(unit.marks?.freeze)}` : undefined,
          unitNeeds: (unit) => (unit.reason === 'frozen' ? [{ kind: 'words', text: '; unfrozen' }] : []),
          unitJson: (unit) => (unit.marks?.freeze === undefined ? [] : [['frozen_by', unit.marks.freeze]])
        }
      }),
      adjust: (unit, { config }) =>
        unit.status === 'fail'
          ? unit
          : {
              ...unit,
              status: 'inconclusive',
              reason: 'frozen',
              ownPolicy: { reason: 'frozen', policy: 'on_inconclusive' },
              marks: { ...unit.marks, freeze: config }
            }
    }
    const registry = [...CAPABILITIES, freeze]
    const run = async (onInconclusive: string, shift = [0.8, 0.9]) => {
      const text = `version: 1\non_inconclusive: ${onInconclusive}\nqueries: { min_per_slice: 5 }\nmetrics:\n  m: { better: higher, range: [0, 1] }\nchecks:\n  - { name: better, metric: m, superior: { test: t, alpha: 0.05 } }\nfreeze_checks: ops\n`
      // the candidate is shown better on every query of enough of them (on 12 the interval was unreliable, and
      // on_too_few let the superior check pass unshown): the superior check passes until the freeze
      const many = (value: (i: number) => number): string =>
        jsonl(Array.from({ length: 200 }, (_, i) => ({ query_id: `q${i}`, m: value(i) })))
      const files = writeFiles({
        'rules.yml': text,
        'b.jsonl': many(() => 0.5),
        'c.jsonl': many((i) => shift[i % 2])
      })
      const rules = rulesFromText(text, files['rules.yml'], registry)
      const source = cliInputSource({
        given: { baseline: files['b.jsonl'], candidate: files['c.jsonl'] },
        rulesFile: 'rules.yml'
      })
      return runGate(await loadGateInputs(rules, source, { registry }), {}, registry)
    }
    // an inconclusive superior check counts as fail whatever on_inconclusive says; the freeze's own policy is on_inconclusive
    const lenient = await run('pass')
    expect(lenient.decision.checks[0].units[0]).toMatchObject({ status: 'inconclusive', reason: 'frozen' })
    expect(lenient.decision.verdict).toBe('pass')
    expect((await run('fail')).decision.verdict).toBe('fail')
    const md = toMarkdown(lenient)
    expect(md).toContain('the checks are frozen by ops')
    expect(md).toContain('; unfrozen')
    // a unit that already counts as fail (a gain not shown, on a superior check) keeps its reason and how it counts:
    // the freeze's on_inconclusive may not turn it into a pass
    const unshown = await run('pass', [0.4, 0.6])
    expect(unshown.decision.checks[0].units[0]).toMatchObject({ status: 'inconclusive', reason: 'not_shown_better' })
    expect(unshown.decision.checks[0].units[0].ownPolicy).toBeUndefined()
    expect(unshown.decision.verdict).toBe('fail')
    const json = JSON.parse(toJsonReport(lenient)) as { checks: Array<{ units: Array<Record<string, unknown>> }> }
    expect(json.checks[0].units[0]).toMatchObject({ reason: 'frozen', frozen_by: 'ops' })
  })

  it('a unit reason its capability gives no words for stops the gate (it would read as the core sentence of another)', async () => {
    const mute: Capability<true, null, null> = {
      name: 'mute-freeze',
      about: 'a freeze without words',
      config: () => true,
      needsRows: () => undefined,
      inputs: () => [],
      read: () => Promise.resolve(null),
      assess: () => ({ guards: [], summary: null, parts: {} }),
      adjust: (unit) => (unit.status === 'fail' ? unit : { ...unit, status: 'inconclusive', reason: 'muted' })
    }
    await expect(gate(null, [...REGISTRY, mute])).rejects.toThrow(/gave a unit the reason muted and no words for it/)
  })

  it('a guard whose reason code its capability gives no words for stops the gate (a bug, never a blank)', async () => {
    const mute: Capability<number, null, null> = { ...minPaired, words: {} }
    await expect(gate(20, [...CAPABILITIES, mute])).rejects.toThrow(/reason paired_too_few and no words/)
    // an inherited key is no words: a code named like Object's own methods must not find them
    const inherited: Capability<number, null, null> = {
      ...minPaired,
      assess: (input) => {
        const a = minPaired.assess(input)
        return { ...a, guards: a.guards.map((g) => ({ ...g, reason: { ...g.reason, code: 'toString' } })) }
      }
    }
    await expect(gate(20, [...CAPABILITIES, inherited])).rejects.toThrow(/reason toString and no words/)
  })

  it('draws its own part of the trust section, rows of the comparability table and `trust` JSON key (no closed list)', async () => {
    const drawing: Capability<number, null, null> = {
      ...minPaired,
      assess: (ctx) => ({
        ...minPaired.assess(ctx),
        parts: {
          blocks: { trustChecks: () => [paragraph(words('Paired floor: drawn by its capability.'))] },
          comparability: () => [{ aspect: 'Paired floor', status: 'same', detail: 'compared by its capability' }],
          trustJson: () => ['min_paired', { min: ctx.config }]
        }
      })
    }
    const registry = [...CAPABILITIES, drawing]
    const { result } = await gate(10, registry)
    const md = toMarkdown(result)
    const trust = md.slice(md.indexOf('<summary>Trust'))
    expect(trust).toContain('Paired floor: drawn by its capability.')
    expect(md).toMatch(/\| Paired floor \| ✅ same \| compared by its capability \|/)
    const json = JSON.parse(toJsonReport(result)) as { trust: Record<string, unknown> }
    // after the guards and the trust family's keys, in registry order
    expect(Object.keys(json.trust)).toEqual([
      'guards',
      'decided_by',
      'comparability',
      'pooling',
      'zero_hits',
      'two_stage',
      'dataset',
      'min_paired'
    ])
    expect(json.trust.min_paired).toEqual({ min: 10 })
  })
})

describe('the registry capabilities that need rows say so', () => {
  it('seeds declared in the rules alone (no min_seeds) need the rows', async () => {
    const { seedsCapability } = await import('../../src/capabilities/seeds/capability.js')
    const rules = rulesFromText(
      `${rulesText(null)}statistics: { seeds: { baseline: 3, candidate: 3 } }\n`,
      'rules.yml',
      CAPABILITIES
    )
    expect(seedsCapability.needsRows(rules.statistics, rules)).toBe('statistics.seeds')
  })
})

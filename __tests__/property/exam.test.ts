/**
 * The candidate fills in the exam and never changes it (fast-check, through the gate's own pipeline):
 * - adding candidate-only rows, even with perfect scores, never changes a fail into a pass: under
 *   `missing: zero` they are ignored (every check keeps its status and evidence), under `missing: error`
 *   they are refused;
 * - relabelling the candidate's attributes never changes a fail into a pass: a label that differs from the
 *   baseline's, or one the baseline lacks, is refused; otherwise the decision is the one without any
 *   candidate labels;
 * - runs mode: a JSON Lines candidate run that labels its own queries, against a TREC baseline without
 *   attributes, is refused whatever the labels.
 */
import { describe, expect, it } from '@jest/globals'
import fc from 'fast-check'
import { loadRules } from '../../src/config/rules.js'
import { InputError } from '../../src/errors.js'
import type { GateResult } from '../../src/decide/result.js'
import { rowsOf, sideFromRows, type QueryRow, type SideRows } from '../../src/model/rows.js'
import { cli, writeFiles, gateSides } from '../helpers.js'

const RUNS = Number(process.env.RG_PROPERTY_RUNS ?? 15)

const rules = (missing: 'zero' | 'error') =>
  loadRules(
    `version: 1
metrics:
  m: { better: higher, range: [0, 1] }
  hit: { better: higher, binary: true }
slices: [seg]
statistics: { resamples: 200, seed: 11 }
queries: { min_per_slice: 5, missing: ${missing} }
checks:
  - { name: m holds, metric: m, non_inferior: { margin: 0.02 } }
  - { name: segment a protected, metric: m, where: { seg: a }, non_inferior: { margin: 0.02 } }
  - { name: per segment, metric: m, per_slice: seg, non_inferior: { margin: 0.05 } }
  - { name: hit improves, metric: hit, superior: { test: mcnemar } }
  - { name: few regressions, metric: m, max_regressions: { share: 0.3 } }
`,
    'rules.yml'
  )

interface Query {
  id: string
  seg: string
  b: [number, number]
  c: [number, number]
}
const SEGMENTS = ['a', 'b', 'c'] as const
const valueArb = fc.tuple(
  fc.integer({ min: 0, max: 100 }).map((x) => x / 100),
  fc.integer({ min: 0, max: 1 })
)
// Every segment present, so `where: { seg: a }` always has queries (an absent value is refused, tested elsewhere).
const dataArb = fc
  .uniqueArray(
    fc.record({
      id: fc.string({ minLength: 1, maxLength: 6 }),
      seg: fc.constantFrom(...SEGMENTS),
      b: valueArb,
      c: valueArb
    }),
    { minLength: 20, maxLength: 60, selector: (q) => q.id }
  )
  .filter((qs) => SEGMENTS.every((s) => qs.some((q) => q.seg === s)))

function row(id: string, line: number, values: [number, number], seg: string | undefined): QueryRow {
  return {
    id,
    line,
    values: new Map([
      ['m', values[0]],
      ['hit', values[1]]
    ]),
    attrs: seg === undefined ? new Map() : new Map([['seg', seg]])
  }
}
function side(source: string, rows: QueryRow[]): SideRows {
  const attributeFields = new Set<string>(rows.some((r) => r.attrs.has('seg')) ? ['seg'] : [])
  return sideFromRows(source, rows, { numericFields: new Set(['m', 'hit']), attributeFields, notes: [] })
}
const baseline = (data: Query[], seg: (q: Query, i: number) => string | undefined = (q) => q.seg) =>
  side(
    'b.jsonl',
    data.map((q, i) => row(q.id, i + 1, q.b, seg(q, i)))
  )
const candidate = (data: Query[], seg: (q: Query, i: number) => string | undefined = (q) => q.seg) =>
  side(
    'c.jsonl',
    data.map((q, i) => row(q.id, i + 1, q.c, seg(q, i)))
  )

/** Each check's status, reason and evidence per unit: what the verdict is made of. */
const decisionOf = (r: GateResult) => ({
  verdict: r.decision.verdict,
  checks: r.decision.checks.map((c) => ({
    status: c.status,
    counts: c.counts,
    units: c.units.map((u) => [
      u.slice,
      u.status,
      u.reason,
      u.comparison.n,
      u.comparison.delta,
      u.comparison.ci,
      u.regressions
    ])
  }))
})

/** runGate, or 'refused' when it stops on unusable input. */
function gateOrRefused(r: ReturnType<typeof rules>, b: SideRows, c: SideRows): GateResult | 'refused' {
  try {
    return gateSides(r, b, c)
  } catch (error) {
    if (error instanceof InputError) return 'refused'
    throw error
  }
}

describe('the candidate cannot change the exam (fast-check)', () => {
  it('adding candidate-only rows (with perfect scores) never changes a fail into a pass', () => {
    const extraArb = fc.uniqueArray(
      fc.record({ id: fc.string({ minLength: 7, maxLength: 10 }), seg: fc.constantFrom(...SEGMENTS) }),
      { minLength: 1, maxLength: 80, selector: (x) => x.id }
    )
    fc.assert(
      fc.property(dataArb, extraArb, (data, extra) => {
        const zero = rules('zero')
        const before = gateSides(zero, baseline(data), candidate(data))
        // Ids of 7+ characters cannot collide with the exam's (at most 6): these are candidate-only.
        const invented = extra.map((x, i) => row(x.id, data.length + i + 1, [1, 1], x.seg))
        const padded = side('c.jsonl', [...rowsOf(candidate(data)), ...invented])
        const after = gateSides(zero, baseline(data), padded)
        expect(decisionOf(after)).toEqual(decisionOf(before))
        if (before.decision.verdict === 'fail') expect(after.decision.verdict).toBe('fail')
        expect(after.coverage.candidateOnlyIgnored).toBe(extra.length)
        expect(after.coverage.paired).toBe(data.length)
        // Under missing: error the same rows are refused.
        expect(gateOrRefused(rules('error'), baseline(data), padded)).toBe('refused')
      }),
      { numRuns: RUNS, seed: 20261201 }
    )
  })

  it('relabelling candidate attributes never changes a fail into a pass (refused, or the decision without candidate labels)', () => {
    // Per query: the candidate keeps the label, drops it, or writes another; the baseline may lack it.
    let accepted = 0
    const planArb = fc.array(
      fc.record({ cand: fc.constantFrom('same', 'none', 'a', 'b', 'c'), baseMissing: fc.boolean() }),
      { minLength: 60, maxLength: 60 }
    )
    fc.assert(
      fc.property(dataArb, planArb, fc.boolean(), fc.boolean(), (data, plan, baselineComplete, honest) => {
        const r = rules('error')
        const unlabelled = gateSides(
          r,
          baseline(data),
          candidate(data, () => undefined)
        )
        const baseSeg = (q: Query, i: number) => (!baselineComplete && plan[i].baseMissing ? undefined : q.seg)
        // An honest candidate only repeats or leaves out labels (so the accepted branch is reached often).
        const candSeg = (q: Query, i: number) =>
          plan[i].cand === 'none' ? undefined : plan[i].cand === 'same' || honest ? q.seg : plan[i].cand
        const result = gateOrRefused(r, baseline(data, baseSeg), candidate(data, candSeg))
        const relabelled = data.some((q, i) => candSeg(q, i) !== undefined && candSeg(q, i) !== q.seg)
        const baseLacks = data.some((q, i) => baseSeg(q, i) === undefined)
        if (relabelled || baseLacks) {
          expect(result).toBe('refused')
          return
        }
        expect(result).not.toBe('refused')
        accepted++
        expect(decisionOf(result as GateResult)).toEqual(decisionOf(unlabelled))
      }),
      { numRuns: RUNS * 2, seed: 20261202 }
    )
    expect(accepted).toBeGreaterThan(0)
  })

  it('runs: a JSON Lines candidate run that labels its own queries is refused against a TREC baseline without attributes', async () => {
    const qrels = 'q1 0 d1 1\nq2 0 d3 1\nq3 0 d5 1\n'
    const trec = 'q1 Q0 d1 1 2.0 t\nq2 Q0 d3 1 1.5 t\nq3 Q0 d5 1 1.0 t\n'
    const ruleText = `version: 1
metrics:
  P@1: { better: higher, range: [0, 1] }
slices: [segment]
queries: { min_per_slice: 1 }
statistics: { resamples: 200, seed: 3 }
checks:
  - { name: precision holds, metric: P@1, non_inferior: { margin: 0.5 } }
`
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom('new', 'established'), { minLength: 3, maxLength: 3 }),
        fc.array(fc.boolean(), { minLength: 3, maxLength: 3 }),
        async (labels, hits) => {
          const run =
            ['q1', 'q2', 'q3']
              .map((id, i) =>
                JSON.stringify({
                  query_id: id,
                  segment: labels[i],
                  results: [{ doc_id: hits[i] ? `d${2 * i + 1}` : 'x', score: 1 }]
                })
              )
              .join('\n') + '\n'
          const f = writeFiles({ 'rules.yml': ruleText, 'qrels.txt': qrels, 'b.txt': trec, 'c.jsonl': run })
          const r = await cli([
            'gate',
            '--rules',
            f['rules.yml'],
            '--baseline',
            f['b.txt'],
            '--candidate',
            f['c.jsonl'],
            '--qrels',
            f['qrels.txt']
          ])
          expect(r.code).toBe(2)
          expect(r.stderr).toMatch(/b\.txt.*the baseline has no attribute "segment"/)
        }
      ),
      { numRuns: Math.min(RUNS, 8), seed: 20261203 }
    )
  })
})

/**
 * Statistics invariants on random paired data (fast-check), through the same engine the gate uses:
 * - swapping baseline and candidate negates every delta exactly, the bootstrap distribution of -d is exactly
 *   the mirror of that of d (same seed, same resamples, same draws), and the interval mirrors to rounding
 *   (the percentile positions (n-1)·α/2 and (n-1)·(1-α/2) are not exact mirrors in floating point);
 * - shuffling the rows of either side changes no byte of the JSON or Markdown report;
 * - duplicating every query (under new ids) leaves the means unchanged, doubles n and narrows the interval.
 */
import { gateSides, toJsonReport } from '../helpers.js'
import { describe, expect, it } from '@jest/globals'
import fc from 'fast-check'
import { pairRows } from '../../src/align/pair.js'
import { loadRules } from '../../src/config/rules.js'
import { sideFromRows, type QueryRow, type SideRows } from '../../src/model/rows.js'
import { toMarkdown } from '../../src/report/markdown.js'
import { bootstrapDistribution } from '../stats/helpers.js'
import { createStats } from '../../src/stats/compare.js'
import { buildDesign } from '../../src/stats/design.js'

const RUNS = Number(process.env.RG_PROPERTY_RUNS ?? 15)

const rules = (resamples: number) =>
  loadRules(
    `version: 1
metrics:
  m: { better: higher, range: [0, 1] }
  hit: { better: higher, binary: true }
  lat: { better: lower, unit: ms }
slices: [seg]
statistics: { resamples: ${resamples}, seed: 11 }
queries: { min_per_slice: 5 }
checks:
  - { name: m holds, metric: m, non_inferior: { margin: 0.02 } }
  - { name: per segment, metric: m, per_slice: seg, non_inferior: { margin: 0.05 } }
  - { name: hit improves, metric: hit, superior: { test: mcnemar } }
  - { name: few regressions, metric: m, max_regressions: { share: 0.3 } }
  - { name: latency, metric: lat, non_inferior: { margin: "10%" } }
`,
    'rules.yml'
  )

interface Pair {
  id: string
  seg: string
  b: [number, number, number]
  c: [number, number, number]
}
const valueArb = fc.tuple(
  fc.integer({ min: 0, max: 100 }).map((x) => x / 100),
  fc.integer({ min: 0, max: 1 }),
  fc.integer({ min: 1, max: 5000 }).map((x) => x / 10)
)
const dataArb = fc.uniqueArray(
  fc.record({
    id: fc.string({ minLength: 1, maxLength: 6 }),
    seg: fc.constantFrom('a', 'b', 'c'),
    b: valueArb,
    c: valueArb
  }),
  { minLength: 20, maxLength: 60, selector: (p) => p.id }
)

function side(source: string, data: Pair[], which: 'b' | 'c'): SideRows {
  const rows: QueryRow[] = data.map((p, i) => ({
    id: p.id,
    line: i + 1,
    values: new Map([
      ['m', p[which][0]],
      ['hit', p[which][1]],
      ['lat', p[which][2]]
    ]),
    attrs: new Map([['seg', p.seg]])
  }))
  return sideFromRows(source, rows, {
    numericFields: new Set(['m', 'hit', 'lat']),
    attributeFields: new Set(['seg']),
    notes: []
  })
}
const swapSides = (data: Pair[]): Pair[] => data.map((p) => ({ ...p, b: p.c, c: p.b }))

describe('statistics invariants (fast-check)', () => {
  it("swapping baseline and candidate negates delta exactly and mirrors the law's interval", () => {
    const r = rules(1000)
    fc.assert(
      fc.property(dataArb, (data) => {
        const t1 = pairRows(r, side('b', data, 'b'), side('c', data, 'c'))
        const t2 = pairRows(r, side('b', swapSides(data), 'b'), side('c', swapSides(data), 'c'))
        const s1 = createStats(t1, r)
        const s2 = createStats(t2, r)
        for (const metric of ['m', 'hit', 'lat']) {
          for (const filters of [[], [['seg', 'a']]] as Array<Array<[string, string]>>) {
            if (s1.members(filters).length === 0) continue
            const x = s1.compare(metric, filters)
            const y = s2.compare(metric, filters)
            expect(y.delta === -x.delta).toBe(true)
            expect(y.baseline).toBe(x.candidate)
            expect(y.candidate).toBe(x.baseline)
            // The distribution mirrors exactly (next test); the percentile positions (n-1)·α/2 and (n-1)·(1-α/2)
            // are not exact mirrors in floating point (α = 1 - 0.95 = 0.05000000000000004), so the ends agree
            // to rounding, not to the bit.
            // The range's bound widens the worse end only (a metric's worse side stays its worse side when the sides
            // swap), so it is the law's own interval that mirrors; the widened one only ever reaches further.
            const scale = Math.max(1, Math.abs(x.ownCi[0]), Math.abs(x.ownCi[1]))
            expect(Math.abs(y.ownCi[0] + x.ownCi[1]) / scale).toBeLessThanOrEqual(1e-12)
            expect(Math.abs(y.ownCi[1] + x.ownCi[0]) / scale).toBeLessThanOrEqual(1e-12)
            for (const c of [x, y]) expect(c.ci[0] <= c.ownCi[0] && c.ci[1] >= c.ownCi[1]).toBe(true)
            expect([y.wins, y.losses, y.ties]).toEqual([x.losses, x.wins, x.ties])
          }
        }
      }),
      { numRuns: RUNS }
    )
  })

  it('the bootstrap distribution of -d is exactly the mirror of that of d', () => {
    const r = rules(1000)
    fc.assert(
      fc.property(dataArb, fc.integer({ min: 100, max: 3000 }), (data, resamples) => {
        const table = pairRows(r, side('b', data, 'b'), side('c', data, 'c'))
        const members = Int32Array.from(table.ids.keys())
        const { base, cand } = table.metrics.get('m') as { base: Float64Array; cand: Float64Array }
        const d = cand.map((v, i) => v - base[i])
        const neg = d.map((v) => -v)
        const [a] = bootstrapDistribution(buildDesign(table, members, [d], { statistics: r.statistics }), {
          resamples,
          seed: 'seed',
          stream: 'stream'
        })
        const [b] = bootstrapDistribution(buildDesign(table, members, [neg], { statistics: r.statistics }), {
          resamples,
          seed: 'seed',
          stream: 'stream'
        })
        for (let i = 0; i < resamples; i++)
          if (!(b[i] === -a[resamples - 1 - i])) throw new Error(`resample ${i}: ${b[i]} vs ${-a[resamples - 1 - i]}`)
      }),
      { numRuns: RUNS }
    )
  })

  it("swapping mirrors the law's interval to rounding at any resample count", () => {
    fc.assert(
      fc.property(dataArb, fc.integer({ min: 100, max: 2500 }), (data, resamples) => {
        const r = rules(resamples)
        const x = createStats(pairRows(r, side('b', data, 'b'), side('c', data, 'c')), r).compare('m', [])
        const y = createStats(pairRows(r, side('b', swapSides(data), 'b'), side('c', swapSides(data), 'c')), r).compare(
          'm',
          []
        )
        expect(Math.abs(y.ownCi[0] + x.ownCi[1])).toBeLessThanOrEqual(1e-12)
        expect(Math.abs(y.ownCi[1] + x.ownCi[0])).toBeLessThanOrEqual(1e-12)
      }),
      { numRuns: RUNS }
    )
  })

  it('shuffling the rows of either side changes no byte of the reports', () => {
    const r = rules(500)
    fc.assert(
      fc.property(dataArb, fc.infiniteStream(fc.nat()), (data, rand) => {
        const shuffle = <T>(xs: T[]): T[] => {
          const out = [...xs]
          for (let i = out.length - 1; i > 0; i--) {
            const j = rand.next().value % (i + 1)
            ;[out[i], out[j]] = [out[j], out[i]]
          }
          return out
        }
        const a = gateSides(r, side('b.jsonl', data, 'b'), side('c.jsonl', data, 'c'))
        const b = gateSides(r, side('b.jsonl', shuffle(data), 'b'), side('c.jsonl', shuffle(data), 'c'))
        expect(toJsonReport(b)).toBe(toJsonReport(a))
        expect(toMarkdown(b)).toBe(toMarkdown(a))
      }),
      { numRuns: Math.max(5, Math.floor(RUNS / 2)) }
    )
  })

  it('duplicating every query: means unchanged, n doubles, the interval narrows', () => {
    const r = rules(2000)
    fc.assert(
      fc.property(dataArb, (data) => {
        const doubled = [...data, ...data.map((p) => ({ ...p, id: `${p.id}\u0000copy` }))]
        const x = createStats(pairRows(r, side('b', data, 'b'), side('c', data, 'c')), r).compare('m', [])
        const y = createStats(pairRows(r, side('b', doubled, 'b'), side('c', doubled, 'c')), r).compare('m', [])
        expect(y.n).toBe(2 * x.n)
        expect(y.baseline).toBeCloseTo(x.baseline, 12)
        expect(y.candidate).toBeCloseTo(x.candidate, 12)
        expect(y.delta).toBeCloseTo(x.delta, 12)
        const wx = x.ci[1] - x.ci[0]
        const wy = y.ci[1] - y.ci[0]
        if (wx === 0) expect(wy).toBe(0)
        else {
          // The bootstrap SE shrinks by sqrt(2); allow the resampling noise of 2,000 resamples.
          expect(wy).toBeLessThan(wx)
          expect(wy / wx).toBeGreaterThan(0.5)
          expect(wy / wx).toBeLessThan(0.9)
        }
      }),
      { numRuns: RUNS }
    )
  })
})

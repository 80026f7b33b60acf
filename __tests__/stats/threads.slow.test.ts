/**
 * Worker threads change the time, never a byte: the same jobs on the calling thread alone, on workers alone,
 * and on both give the same bits, and a whole gate gives the same JSON report with RG_THREADS=1 and 2.
 * The worker-only runs also prove the worker path ran (the units computed on workers are counted), so these
 * tests cannot pass by silently falling back to one thread.
 */
import { gateSides, toJsonReport } from '../helpers.js'
import { describe, expect, it } from '@jest/globals'
import { bootstrapPlan } from '../../src/stats/bootstrap.js'
import { signFlipPlan } from '../../src/stats/randomization.js'
import { createRunner, MAX_THREADS, SYNC_RUNNER, threadsFrom } from '../../src/stats/threads.js'
import { loadRules } from '../../src/config/rules.js'
import { bootstrapDistribution, designOf, mulberry32, sideOf, signFlipTest } from './helpers.js'

const bits = (a: Float64Array): number[] =>
  Array.from(new Uint32Array(a.buffer.slice(a.byteOffset, a.byteOffset + a.byteLength)))

describe('threads setting', () => {
  it('RG_THREADS wins when it is a positive integer; else the cores; capped', () => {
    expect(threadsFrom('1', 16)).toBe(1)
    expect(threadsFrom(' 3 ', 2)).toBe(3)
    expect(threadsFrom(undefined, 2)).toBe(2)
    expect(threadsFrom('0', 4)).toBe(4)
    expect(threadsFrom('two', 4)).toBe(4)
    expect(threadsFrom('-2', 4)).toBe(4)
    expect(threadsFrom('64', 4)).toBe(MAX_THREADS)
    expect(threadsFrom(undefined, 0)).toBe(1)
  })
})

describe('kernel jobs on worker threads give the same bits', () => {
  const r = mulberry32(11)
  const n = 509
  const cols = Array.from({ length: 9 }, (_, c) =>
    Array.from({ length: n }, () => (c % 3 === 0 ? (r() < 0.5 ? 1 : 0) - (r() < 0.5 ? 1 : 0) : r() - 0.45))
  )
  const seg = Array.from({ length: n }, (_, i) => (i % 5 === 0 ? 'new' : 'old'))
  const user = Array.from({ length: n }, (_, i) => `u${(i * 37) % 97}`)
  const designs = {
    plain: designOf(cols),
    weighted: designOf(
      cols.slice(0, 5),
      { seg },
      {
        weights: {
          by: 'seg',
          target: [
            ['new', 0.5],
            ['old', 0.5]
          ]
        }
      }
    ),
    clustered: designOf(cols.slice(0, 3), { user }, { cluster: 'user' })
  }
  it('the designs exercise both ways of drawing (by index and by counts)', () => {
    // The clustered design (97 clusters of many distinct sums) is drawn by index only; counts with clusters: counts.test.ts.
    for (const design of [designs.plain, designs.weighted])
      expect(
        new Set(bootstrapPlan(design, { resamples: 2500, seed: '5', stream: 'x' }).jobs.map((j) => j.kind))
      ).toEqual(new Set(['bootstrap', 'multinomial']))
    // And both ways of flipping signs (unit by unit, and by counts of equal |y|).
    for (const design of [designs.plain, designs.weighted])
      expect(
        new Set(signFlipPlan(design, { permutations: 3300, seed: '5', stream: 'x' }).jobs.map((j) => j.kind))
      ).toEqual(new Set(['flip', 'signcount']))
  })
  for (const [name, design] of Object.entries(designs)) {
    it(`${name}: bootstrap (2,500 resamples) and sign flips (3,300 patterns), workers only and both`, () => {
      const sync = bootstrapDistribution(design, { resamples: 2500, seed: '5', stream: name })
      const flips = signFlipTest(design, { permutations: 3300, seed: '5', stream: name })
      for (const options of [{ callerWorks: false }, { callerWorks: true }]) {
        const runner = createRunner(2, { minWork: 0, stallMs: 60000, ...options })
        const threaded = bootstrapDistribution(design, { resamples: 2500, seed: '5', stream: name }, runner)
        threaded.forEach((col, c) => expect(bits(col)).toEqual(bits(sync[c])))
        const tf = signFlipTest(design, { permutations: 3300, seed: '5', stream: name }, runner)
        expect(Array.from(tf.pValues)).toEqual(Array.from(flips.pValues))
        // Every unit of the bootstrap (columns drawn by index and by counts alike) and of the sign flips (4 blocks per
        // column drawn by counts, 4 for all columns flipped unit by unit) ran on a worker.
        const bootUnits = bootstrapPlan(design, { resamples: 2500, seed: '5', stream: name }).jobs.reduce(
          (n, j) => n + j.units,
          0
        )
        const flipUnits = signFlipPlan(design, { permutations: 3300, seed: '5', stream: name }).jobs.reduce(
          (n, j) => n + j.units,
          0
        )
        if (!options.callerWorks) expect(runner.unitsOnWorkers).toBe(bootUnits + flipUnits)
      }
    })
  }
  it('one thread never starts a worker', () => {
    expect(createRunner(1)).toBe(SYNC_RUNNER)
  })
})

describe('a whole gate is byte-identical whatever the number of threads', () => {
  it('1 and 2 threads (RG_THREADS=1 and 2 at the entry points) give the same JSON report (3,000 queries x 3 metrics x 10,000 resamples, slices)', () => {
    const rows = (shift: number, rr: () => number) =>
      Array.from({ length: 3000 }, (_, i) => {
        const skill = rr()
        return {
          id: `q${String(i).padStart(5, '0')}`,
          values: {
            hit: rr() < skill + shift ? 1 : 0,
            ndcg: Math.min(1, Math.max(0, skill + shift + (rr() - 0.5) * 0.3)),
            latency: 40 + rr() * 30
          },
          attrs: { segment: skill < 0.3 ? 'new' : 'established' }
        }
      })
    const base = sideOf('baseline.jsonl', rows(0, mulberry32(7)))
    const cand = sideOf('candidate.jsonl', rows(0.01, mulberry32(7)))
    const rules = loadRules(
      [
        'version: 1',
        'metrics:',
        '  hit: { better: higher, binary: true }',
        '  ndcg: { better: higher, range: [0, 1] }',
        '  latency: { better: lower, unit: ms }',
        'slices: [segment]',
        'statistics: { confidence: 0.95, resamples: 10000, seed: 1 }',
        'checks:',
        '  - { name: ndcg holds, metric: ndcg, non_inferior: { margin: 0.01 } }',
        '  - { name: new users, metric: hit, where: { segment: new }, non_inferior: { margin: 0.02 } }'
      ].join('\n'),
      'rules.yml'
    )
    const one = toJsonReport(gateSides(rules, base, cand, {}, { threads: 1 }))
    const two = toJsonReport(gateSides(rules, base, cand, {}, { threads: 2 }))
    expect(two).toBe(one)
    expect(one).toContain('"randomization"')
  })
})

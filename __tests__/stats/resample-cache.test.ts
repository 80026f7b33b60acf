/**
 * The engine keeps per subset the intervals at the confidences asked, not the resamples (src/stats/compare.ts,
 * src/stats/resample-cache.ts): a confidence asked after a subset's resamples were dropped draws them again, and
 * gives the comparison an engine that never dropped anything gives, to the bit, in any order of asking.
 */
import { describe, expect, it } from '@jest/globals'
import { pairRows } from '../../src/align/pair.js'
import { loadRules } from '../../src/config/rules.js'
import { createResampleCache, resampleViews } from '../../src/stats/resample-cache.js'
import { percentileInterval } from '../../src/stats/bca.js'
import { createStats, type StatsEngine } from '../../src/stats/compare.js'
import { sortedResamples } from '../../src/util/order-statistics.js'
import type { Filters } from '../../src/stats/subsets.js'
import { sideOf } from './helpers.js'

const rules = (interval: string) =>
  loadRules(
    `version: 1
metrics:
  score: { better: higher, range: [0, 1] }
  hit: { better: higher, binary: true }
slices: [bucket]
statistics: { resamples: 3000, seed: 5, interval: ${interval} }
checks:
  - { name: score holds, metric: score, non_inferior: { margin: 0.02 } }
`,
    'rules.yml'
  )

/** 90 queries in 12 buckets of 3 to 12 queries (bucket b0 holds a single query). */
function table(interval: string) {
  const rows = (shift: number) =>
    Array.from({ length: 90 }, (_, i) => {
      const x = ((i * 37) % 101) / 101
      return {
        id: `q${i}`,
        values: {
          score: Math.min(1, Math.max(0, Math.round((x + shift * ((i % 7) - 2)) * 1000) / 1000)),
          hit: (i * 13 + shift * 100) % 5 < 3 ? 1 : 0
        },
        attrs: { bucket: i === 0 ? 'b0' : `b${1 + (i % 11)}` }
      }
    })
  const r = rules(interval)
  return { r, t: pairRows(r, sideOf('b', rows(0)), sideOf('c', rows(0.03))) }
}

const subsets: Filters[] = [[], ...Array.from({ length: 12 }, (_, v) => [['bucket', `b${v}`]] as Filters)]
const CONFIDENCES = [0.95, 0.99, 0.9, 0.8, 0.999, 0.995, 0.9]
const text = (e: StatsEngine, metric: string, f: Filters, confidence: number): string =>
  JSON.stringify(e.compare(metric, f, confidence), (_, v: unknown) => (Object.is(v, -0) ? '-0' : v))

describe('intervals after the resamples were dropped', () => {
  for (const interval of ['percentile', 'bca']) {
    it(`${interval}: every confidence, asked metric-major then subset-major with nothing cached, equals a fresh engine asked it first`, () => {
      const { r, t } = table(interval)
      const dropping = createStats(t, r, { threads: 1, cacheBytes: 0 })
      const asked: Array<[string, Filters, number, string]> = []
      // Metric-major (as decide asks per check), a new confidence each round: more than the engine remembers.
      for (const confidence of CONFIDENCES)
        for (const metric of ['score', 'hit'])
          for (const f of subsets) asked.push([metric, f, confidence, text(dropping, metric, f, confidence)])
      for (const [metric, f, confidence, got] of asked) {
        const fresh = createStats(t, r, { threads: 1 })
        expect(got).toBe(text(fresh, metric, f, confidence))
      }
    })
  }
  it('a second confidence after eviction equals the same confidence without eviction (per-slice family, then the report)', () => {
    const { r, t } = table('percentile')
    const dropping = createStats(t, r, { threads: 1, cacheBytes: 0 })
    const keeping = createStats(t, r, { threads: 1, cacheBytes: 2 ** 30 })
    for (const e of [dropping, keeping]) for (const f of subsets) e.compare('score', f, 0.99)
    for (const f of subsets)
      for (const metric of ['hit', 'score'])
        for (const c of [0.95, 0.97]) expect(text(dropping, metric, f, c)).toBe(text(keeping, metric, f, c))
  })
})

describe('the resample cache', () => {
  const entry = (size: number) => [sortedResamples(new Float64Array(size))]
  it('holds at most its budget of bytes, dropping the least recently used first, and always the newest', () => {
    const cache = createResampleCache(8 * 250)
    cache.set('a', entry(100))
    cache.set('b', entry(100))
    expect(cache.get('a')).toBeDefined()
    cache.set('c', entry(100))
    // 300 values exceed 250: b, used least recently, went.
    expect(cache.get('b')).toBeUndefined()
    expect(cache.get('a')).toBeDefined()
    expect(cache.get('c')).toBeDefined()
    cache.set('big', entry(1000))
    expect(cache.get('a')).toBeUndefined()
    expect(cache.get('c')).toBeUndefined()
    expect(cache.get('big')).toBeDefined()
  })
})

describe('resample views select, they do not sort', () => {
  it('every column of a subset answers a percentile interval by selection (the array is not left sorted)', () => {
    let s = 3
    const next = (): number => (s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 2 ** 32
    const columns = Array.from({ length: 5 }, () => Float64Array.from({ length: 10_000 }, next))
    const views = resampleViews(columns)
    for (const view of views) percentileInterval(view, 0.95)
    // A view given a zero step budget (a slip such as columns.map(selectableResamples), which passes the index) sorts.
    for (const column of columns) expect(column.every((v, i) => i === 0 || column[i - 1] <= v)).toBe(false)
  })
})

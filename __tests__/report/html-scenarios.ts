/**
 * Results for the HTML page's tests (html.test.ts, html-page.slow.test.ts): query ids and slice values a pull
 * request could plant in the page's markup, and a result of any size built around a small real one (the page
 * reads the paired table, the regressions and the differences; the statistics of a 10^6-query run would take
 * minutes and are not what is under test).
 */
import seedrandom from 'seedrandom'
import type { GateResult, RegressedQuery } from '../../src/decide/result.js'
import { failProtectedSliceScenario, gate, makeRows, type Row } from './scenarios.js'

/** Query ids that would run, load or rewrite something if any reached the page as markup. */
export const HOSTILE_IDS = [
  '<img src=x onerror=alert(1)>',
  '</script><script>alert(2)</script>',
  `"double" and 'single' quotes" onmouseover="alert(3)`,
  'line one\nline two\r\n<b>three</b>',
  'bidi \u202eevil\u202c and \u2066isolate\u2069 marks',
  '<!-- retrieval-gate:sticky --> & &amp; entity',
  '<svg onload=alert(4)><title>x</title></svg>'
]

/** The rules of {@link hostileIdsScenario}: recall per segment, so the losing segment's queries are regressions. */
export const HOSTILE_IDS_RULES = `version: 1
metrics:
  recall@10: { better: higher, range: [0, 1] }
  hit@10: { better: higher, binary: true }
  mrr@10: { better: higher, range: [0, 1] }
slices: [segment]
statistics: { confidence: 0.95, resamples: 500, seed: 3 }
queries: { min_per_slice: 10 }
checks:
  - name: recall holds in every segment
    metric: recall@10
    per_slice: segment
    non_inferior: { margin: 0.02 }
`

/** A hostile slice value (the segment that loses). */
export const HOSTILE_SEGMENT = '<i onclick=alert(5)>new</i>'

/** Rows whose first query ids are {@link HOSTILE_IDS}, all in the segment that loses (so each is a listed regression). */
export function hostileIdRows(): { base: Row[]; cand: Row[] } {
  const idOf = (q: number): string => (q < HOSTILE_IDS.length ? HOSTILE_IDS[q] : `q${String(q).padStart(3, '0')}`)
  return makeRows(
    80,
    'hostile-ids',
    (q) => (q < HOSTILE_IDS.length || q % 4 === 0 ? HOSTILE_SEGMENT : 'established'),
    () => 'faq',
    (s, r) => (s === 'established' ? 0.03 : -0.08) + 0.02 * (r() - 0.5),
    idOf
  )
}

/** A failing run over {@link hostileIdRows} (or the rows given). */
export function hostileIdsScenario(rows = hostileIdRows()): GateResult {
  return gate(HOSTILE_IDS_RULES, rows)
}

/** `rows` shuffled by a seeded permutation (for byte-determinism tests). */
export function shuffled<T>(rows: T[], seed: string): T[] {
  const rng = seedrandom(seed)
  const out = [...rows]
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1))
    ;[out[i], out[j]] = [out[j], out[i]]
  }
  return out
}

/**
 * The fail-protected-slice result with its paired table, regressions and differences replaced by `n` queries
 * (recall@10 continuous, hit@10 binary, mrr@10; segment and category attributes), as runGate would give them
 * for such rows: the regressions of the primary metric worst first, ties by id.
 */
export function scaledResult(n: number): GateResult {
  const small = failProtectedSliceScenario()
  const rng = seedrandom(`scaled ${n}`)
  const width = String(n).length
  const ids = Array.from({ length: n }, (_, i) => `q${String(i).padStart(width, '0')}`)
  const recall = { base: new Float64Array(n), cand: new Float64Array(n) }
  const hit = { base: new Float64Array(n), cand: new Float64Array(n) }
  const mrr = { base: new Float64Array(n), cand: new Float64Array(n) }
  const segment: string[] = []
  const category: string[] = []
  for (let i = 0; i < n; i++) {
    const isNew = i % 5 === 4
    segment.push(isNew ? 'new' : 'established')
    category.push(['billing', 'how-to', 'policy'][i % 3])
    recall.base[i] = Math.round((0.45 + 0.4 * rng()) * 1e4) / 1e4
    recall.cand[i] = Math.min(
      1,
      Math.max(0, Math.round((recall.base[i] + (isNew ? -0.1 : 0.05) + 0.08 * (rng() - 0.5)) * 1e4) / 1e4)
    )
    hit.base[i] = rng() < 0.7 ? 1 : 0
    hit.cand[i] = rng() < (isNew ? 0.4 : 0.8) ? 1 : 0
    mrr.base[i] = (hit.base[i] * Math.round(rng() * 1e4)) / 1e4
    mrr.cand[i] = (hit.cand[i] * Math.round(rng() * 1e4)) / 1e4
  }
  const primaryDifferences = recall.cand.map((c, i) => c - recall.base[i])
  const worse: number[] = []
  for (let i = 0; i < n; i++) if (primaryDifferences[i] < 0) worse.push(i)
  worse.sort((a, b) => primaryDifferences[a] - primaryDifferences[b] || a - b)
  const regressions: RegressedQuery[] = worse.map((i) => ({
    id: ids[i],
    baseline: recall.base[i],
    candidate: recall.cand[i],
    delta: primaryDifferences[i],
    attrs: [
      ['category', category[i]],
      ['segment', segment[i]]
    ]
  }))
  const coverage = { ...small.coverage, baselineRows: n, candidateRows: n, paired: n }
  const metrics = new Map([
    ['recall@10', recall],
    ['hit@10', hit],
    ['mrr@10', mrr]
  ])
  const attrs = new Map([
    ['segment', segment],
    ['category', category]
  ])
  return { ...small, coverage, regressions, primaryDifferences, table: { ids, metrics, attrs, coverage } }
}

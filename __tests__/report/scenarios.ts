/**
 * Example gate results for the report tests and golden files: pass, fail on a protected slice,
 * inconclusive with too few queries, and hostile ids / names. Built in-process (rules text -> loadRules,
 * rows -> runGate), deterministic (seeded), small (fast).
 */
import { gateSides } from '../helpers.js'
import seedrandom from 'seedrandom'
import { loadRules } from '../../src/config/rules.js'
import type { GateResult } from '../../src/decide/result.js'
import { sideFromRows, type QueryRow, type SideRows } from '../../src/model/rows.js'

export type Row = { id: string; values: Record<string, number>; attrs: Record<string, string> }

function side(source: string, rows: Row[], notes: string[] = []): SideRows {
  const numericFields = new Set<string>()
  const attributeFields = new Set<string>()
  const out: QueryRow[] = rows.map((r, i) => {
    for (const k of Object.keys(r.values)) numericFields.add(k)
    for (const k of Object.keys(r.attrs)) attributeFields.add(k)
    return { id: r.id, line: i + 1, values: new Map(Object.entries(r.values)), attrs: new Map(Object.entries(r.attrs)) }
  })
  return sideFromRows(source, out, { numericFields, attributeFields, notes })
}

const round = (x: number): number => Math.round(x * 10000) / 10000
const clamp = (x: number): number => Math.min(1, Math.max(0, x))

/** Rows for both sides: `shift(segment)` moves recall; hit and mrr follow it. */
export function makeRows(
  n: number,
  seed: string,
  segmentOf: (q: number) => string,
  categoryOf: (q: number) => string,
  shift: (segment: string, r: () => number) => number,
  idOf = (q: number) => `q${String(q + 1).padStart(3, '0')}`
) {
  const rng = seedrandom(seed)
  const base: Row[] = []
  const cand: Row[] = []
  for (let q = 0; q < n; q++) {
    const segment = segmentOf(q)
    const category = categoryOf(q)
    const b = clamp(0.45 + 0.4 * rng())
    const c = clamp(b + shift(segment, rng))
    const bh = rng() < 0.2 + 0.8 * b ? 1 : 0
    const ch = c >= b ? Math.max(bh, rng() < 0.2 + 0.8 * c ? 1 : 0) : Math.min(bh, rng() < 0.2 + 0.8 * c ? 1 : 0)
    const bm = bh ? round(0.3 + 0.6 * rng()) : 0
    const cm = ch ? round(clamp(bm > 0 ? bm + 0.1 * (rng() - 0.45) : 0.3 + 0.6 * rng())) : 0
    const attrs = { segment, category }
    base.push({ id: idOf(q), values: { 'recall@10': round(b), 'hit@10': bh, 'mrr@10': bm }, attrs })
    cand.push({ id: idOf(q), values: { 'recall@10': round(c), 'hit@10': ch, 'mrr@10': cm }, attrs })
  }
  return { base, cand }
}

const METRICS = `metrics:
  recall@10: { better: higher, range: [0, 1] }
  hit@10: { better: higher, binary: true }
  mrr@10: { better: higher, range: [0, 1] }
`

export function gate(
  rulesText: string,
  rows: { base: Row[]; cand: Row[] },
  files = ['baseline.jsonl', 'candidate.jsonl'],
  notes: string[] = []
): GateResult {
  const rules = loadRules(rulesText, 'rules.yml')
  return gateSides(rules, side(files[0], rows.base, notes), side(files[1], [...rows.cand].reverse()))
}

const CATS = ['billing', 'how-to', 'policy']

export function passScenario(): GateResult {
  const rows = makeRows(
    160,
    'pass',
    (q) => (q % 4 === 3 ? 'new' : 'established'),
    (q) => CATS[q % 3],
    (_s, r) => 0.03 + 0.04 * (r() - 0.5)
  )
  return gate(
    `version: 1
${METRICS}slices: [segment]
statistics: { confidence: 0.95, resamples: 2000, seed: 11 }
queries: { min_per_slice: 30 }
checks:
  - name: recall does not drop
    metric: recall@10
    non_inferior: { margin: 0.01 }
  - name: mrr holds in every segment
    metric: mrr@10
    per_slice: segment
    non_inferior: { margin: 0.05 }
`,
    rows
  )
}

export function failProtectedSliceScenario(): GateResult {
  const rows = makeRows(
    200,
    'protected',
    (q) => (q % 5 === 4 ? 'new' : 'established'),
    (q) => CATS[q % 3],
    (s, r) => (s === 'new' ? -0.1 + 0.08 * (r() - 0.5) : 0.05 + 0.08 * (r() - 0.5))
  )
  return gate(
    `version: 1
${METRICS}slices: [segment, category]
statistics: { confidence: 0.95, resamples: 2000, seed: 7 }
queries: { min_per_slice: 30 }
checks:
  - name: recall does not drop
    metric: recall@10
    non_inferior: { margin: 0.005 }
  - name: new users are protected
    metric: recall@10
    where: { segment: new }
    non_inferior: { margin: 0.02 }
  - name: hit rate does not drop
    metric: hit@10
    non_inferior: { margin: 0.05 }
`,
    rows
  )
}

export function inconclusiveScenario(): GateResult {
  // 'rare' has 12 queries, under min_per_slice 30.
  const rows = makeRows(
    132,
    'few',
    () => 'all',
    (q) => (q < 12 ? 'rare' : CATS[q % 3]),
    (_s, r) => 0.02 + 0.1 * (r() - 0.5)
  )
  return gate(
    `version: 1
${METRICS}slices: [category]
statistics: { confidence: 0.95, resamples: 2000, seed: 3 }
queries: { min_per_slice: 30 }
on_inconclusive: fail
checks:
  - name: recall holds in every category
    metric: recall@10
    per_slice: category
    non_inferior: { margin: 0.02 }
  - name: few regressions
    metric: recall@10
    max_regressions: { share: 0.5 }
`,
    rows
  )
}

/** Strings a pull request could plant in ids, slice values and names. */
export const HOSTILE = {
  mention: '@octocat please look',
  issue: 'fixes #123 and org/repo#45 GH-7',
  marker: '<!-- retrieval-gate:sticky -->',
  html: '<img src=x onerror=alert(1)><script>alert(1)</script>',
  pipe: 'a|b||c',
  newline: 'line1\nline2\r\n| x | y |',
  bidi: 'abc\u202edcba\u2066x\u2069',
  control: 'bell\u0007esc\u001b[31mred\u001b[0m',
  link: '[click](https://evil.example/x) www.evil.example http://evil.example',
  markdown: '**bold** _em_ `code` ~~s~~ $x$ \\ \\|',
  long: 'L'.repeat(300),
  details: '</details><details><summary>fake</summary>'
}

export function hostileScenario(): GateResult {
  const values = Object.values(HOSTILE)
  const segs = [HOSTILE.mention, HOSTILE.marker + ' seg']
  const rows = makeRows(
    120,
    'hostile',
    (q) => segs[q % 2],
    (q) => values[q % values.length],
    (s, r) => (s === segs[0] ? -0.06 : 0.04) + 0.06 * (r() - 0.5),
    (q) => `${values[q % values.length]} ${q}`
  )
  // Put the hostile names into the attribute and metric names too.
  const attr = 'seg|@team <b>'
  const metric = 'recall@10 <!-- retrieval-gate:m -->'
  const rename = (r: Row): Row => ({
    id: r.id,
    values: { [metric]: r.values['recall@10'], 'hit@10': r.values['hit@10'] },
    attrs: { [attr]: r.attrs.segment, category: r.attrs.category }
  })
  return gate(
    `version: 1
metrics:
  ${JSON.stringify(metric)}: { better: higher, range: [0, 1] }
  hit@10: { better: higher, binary: true }
slices: [${JSON.stringify(attr)}, category]
statistics: { confidence: 0.95, resamples: 1000, seed: 5 }
queries: { min_per_slice: 20 }
checks:
  - name: ${JSON.stringify('@octocat #9 <!-- retrieval-gate:sticky --> | x')}
    metric: ${JSON.stringify(metric)}
    per_slice: ${JSON.stringify(attr)}
    non_inferior: { margin: 0.01 }
  - name: hit holds
    metric: hit@10
    non_inferior: { margin: 0.1 }
`,
    { base: rows.base.map(rename), cand: rows.cand.map(rename) },
    ['base|@x <!--f-->.jsonl', 'cand\u202e.jsonl'],
    ['note from a reader: 3 queries had no relevant documents @team #5 <!-- x -->']
  )
}

/** Names as people type them: `%`, `_`, `*`, `@`, `#` and non-ASCII, which every picture must show as typed. */
export const TYPED = {
  metric: 'ndcg_10*@k #2 — größe%',
  check: 'latency within 20% *new* @edge #3 — naïve_ü',
  attribute: 'région_%',
  slices: ['nouveau*@#1 — ß', 'établi_%']
}

export function namesScenario(): GateResult {
  const rows = makeRows(
    120,
    'names',
    (q) => TYPED.slices[q % 3 === 2 ? 0 : 1],
    (q) => CATS[q % 3],
    (s, r) => (s === TYPED.slices[0] ? -0.05 : 0.03) + 0.06 * (r() - 0.5)
  )
  const rename = (r: Row): Row => ({
    id: r.id,
    values: { [TYPED.metric]: r.values['recall@10'], 'recall@10': r.values['recall@10'] },
    attrs: { [TYPED.attribute]: r.attrs.segment }
  })
  return gate(
    `version: 1
metrics:
  ${JSON.stringify(TYPED.metric)}: { better: higher, range: [0, 1] }
  recall@10: { better: higher, range: [0, 1] }
slices: [${JSON.stringify(TYPED.attribute)}]
statistics: { confidence: 0.95, resamples: 1000, seed: 13 }
queries: { min_per_slice: 20 }
checks:
  - name: ${JSON.stringify(TYPED.check)}
    metric: ${JSON.stringify(TYPED.metric)}
    per_slice: ${JSON.stringify(TYPED.attribute)}
    non_inferior: { margin: 0.01 }
  - name: ${JSON.stringify(TYPED.check + ' · count')}
    metric: ${JSON.stringify(TYPED.metric)}
    per_slice: ${JSON.stringify(TYPED.attribute)}
    max_regressions: { count: 30 }
`,
    { base: rows.base.map(rename), cand: rows.cand.map(rename) }
  )
}

export const SCENARIOS: Array<[string, () => GateResult]> = [
  ['pass', passScenario],
  ['fail-protected-slice', failProtectedSliceScenario],
  ['inconclusive-too-few', inconclusiveScenario],
  ['hostile', hostileScenario],
  ['names', namesScenario]
]

/**
 * Issue 13, "Wrong or misleading output" (items 2–7): each test failed on the code before the fix.
 *   2. every interval label names the interval's own confidence (98.33% under Bonferroni over 3 checks);
 *   3. the terminal report gives the same reasons as the Markdown (a trust rule's own reason);
 *   4. a "low or fell" next-step pattern never lists an improvement;
 *   5. an output file is named only when it was written;
 *   6. the regression set includes gated better: lower metrics; JSON numbers at 12 significant digits;
 *   7. (gfm.test.ts, units.test.ts) names are code spans, never carry a zero-width joiner.
 */
import { describe, expect, it } from '@jest/globals'
import { readFileSync } from 'node:fs'
import { confidenceLabel, intervalHeading } from '../../src/report/format.js'
import { toMarkdown } from '../../src/report/markdown.js'
import { nextSteps } from '../../src/report/next-steps.js'
import { regressionRecords, toRegressionsJsonl } from '../../src/report/regressions.js'
import { toText } from '../../src/report/text.js'
import { jsonNumber } from '../../src/util/json-number.js'
import type { GateResult } from '../../src/decide/result.js'
import { cli, writeFiles, toJsonReport } from '../helpers.js'
import { failProtectedSliceScenario, gate, makeRows, passScenario, type Row } from './scenarios.js'

const METRICS = `metrics:
  recall@10: { better: higher, range: [0, 1] }
  hit@10: { better: higher, binary: true }
  mrr@10: { better: higher, range: [0, 1] }
`

/** The protected-slice scenario under Bonferroni over its 3 checks: every check's interval is at 1 − 0.05/3. */
function bonferroniScenario(): GateResult {
  const rows = makeRows(
    200,
    'protected',
    (q) => (q % 5 === 4 ? 'new' : 'established'),
    () => 'c',
    (s, r) => (s === 'new' ? -0.1 + 0.08 * (r() - 0.5) : 0.05 + 0.08 * (r() - 0.5))
  )
  return gate(
    `version: 1
${METRICS}slices: [segment]
statistics: { confidence: 0.95, resamples: 1000, seed: 7, multiplicity: bonferroni }
queries: { min_per_slice: 30 }
checks:
  - { name: recall does not drop, metric: recall@10, non_inferior: { margin: 0.005 } }
  - { name: new users are protected, metric: recall@10, where: { segment: new }, non_inferior: { margin: 0.02 } }
  - { name: hit rate does not drop, metric: hit@10, non_inferior: { margin: 0.05 } }
`,
    rows
  )
}

describe('item 2: an interval is labelled with its own confidence', () => {
  it('formats a confidence one way: two decimals, trailing zeros dropped, never rounded up to 100%', () => {
    expect(confidenceLabel(0.95)).toBe('95%')
    expect(confidenceLabel(0.975)).toBe('97.5%')
    expect(confidenceLabel(1 - 0.05 / 3)).toBe('98.33%') // 0.983333…
    expect(confidenceLabel(0.99999)).toBe('99.999%')
    expect(intervalHeading([0.95, 0.95])).toBe('95% CI')
    expect(intervalHeading([0.95, 1 - 0.05 / 3])).toBe('CI')
  })

  it('under bonferroni the checks table, the sentence, the charts and the terminal report say 98.33%, not 95%', () => {
    const result = bonferroniScenario()
    expect(result.decision.family.confidence).toBeCloseTo(1 - 0.05 / 3, 15)
    const md = toMarkdown(result)
    const checksHeader = md.split('\n').find((l) => l.startsWith('| Status |')) as string
    expect(checksHeader).toContain('| 98.33% CI |')
    expect(md).toMatch(/^\*\*`recall@10` for segment = new fell by [\d.]+ points \(98\.33% interval /m)
    expect(md).toContain('its change (●) and 98.33% interval')
    expect(md).toContain('recall@10: change, candidate − baseline in points, 98.33% intervals')
    expect(md).not.toMatch(/95% (?:CI|interval)[^\n]*\n[^\n]*\| ✅ pass \| 1 \|/)
    const text = toText(result, { color: false })
    expect(text).toMatch(/^ {2}\s*#\s+Check[^\n]*98\.33% CI/m)
    expect(text).toContain('(98.33% interval ')
    expect(text).toContain('gated statistical checks at 98.33% (bonferroni over 3)')
    // The exploratory per-slice table is at the rules' confidence, and says so.
    const sliceHeader = md.split('\n').find((l) => l.startsWith('| Metric | Queries |')) as string
    expect(sliceHeader).toContain('| 95% CI |')
  })
})

describe("item 3: the terminal report gives the Markdown report's reasons", () => {
  const P = '__tests__/fixtures/trust/pooling'
  const pooling = (format: string, ...more: string[]) =>
    cli([
      'gate',
      '--rules',
      `${P}/rules.yml`,
      '--baseline',
      `${P}/baseline.jsonl`,
      '--candidate',
      `${P}/candidate.jsonl`,
      '--format',
      format,
      ...more
    ])
  const REASON = "the candidate's top 10 is 80.0% unjudged on average, the baseline's 0.0%, above the limit of 50.0%"

  it("a failing trust rule is followed by its own reason (not check 1's sentence), in both formats", async () => {
    const text = (await pooling('text')).stdout.split('\n')
    expect(text[0]).toBe('FAIL  retrieval-gate, decided by trust rule "pooling.max_unjudged"')
    expect(text[1]).toContain(REASON)
    expect(text[1]).not.toContain('nDCG@10 fell')
    const md = (await pooling('markdown')).stdout.split('\n')
    expect(md[0]).toBe('## ❌ retrieval-gate: fail, decided by trust rule “pooling.max\\_unjudged”')
    expect(md[2]).toContain(REASON)
    // The failing check is still reported, as another finding, in both.
    expect(text.some((l) => l.startsWith('  FAIL nDCG@10 does not drop: nDCG@10 fell'))).toBe(true)
    expect(md.some((l) => l.startsWith('- ❌ fail **`nDCG@10` does not drop**: `nDCG@10` fell'))).toBe(true)
    expect(text.some((l) => l.startsWith('  Publishable: no: '))).toBe(true)
  })

  it('a comparability failure names the field and both values in the terminal report', async () => {
    const M = '__tests__/fixtures/trust/manifests'
    const rules = writeFiles({
      'rules.yml': `version: 1\njudgments: { qrels: ${P}/qrels-complete.txt }\nmetrics:\n  nDCG@10: { better: higher }\nqueries: { min_per_slice: 1 }\nstatistics: { resamples: 200 }\nchecks:\n  - { name: n, metric: nDCG@10, non_inferior: { margin: 0.05 } }\ncomparability: { must_match: [corpus.content_hash, chunker, judge.model] }\n`
    })['rules.yml']
    const r = await cli([
      'gate',
      '--rules',
      rules,
      '--baseline',
      `${P}/baseline.jsonl`,
      '--candidate',
      `${P}/candidate.jsonl`,
      '--baseline-manifest',
      `${M}/baseline.json`,
      '--candidate-manifest',
      `${M}/candidate-rechunked.json`,
      '--format',
      'text'
    ])
    const lines = r.stdout.split('\n')
    expect(lines[0]).toBe('FAIL  retrieval-gate, decided by trust rule "comparability"')
    expect(lines[1]).toBe('  not comparable: chunker.params.size: baseline 512, candidate 256')
  })
})

/** `result` with the comparison of `metric` over `slice` replaced by the given values. */
function withComparison(
  result: GateResult,
  metric: string,
  slice: Array<[string, string]>,
  v: { baseline: number; candidate: number; ci: [number, number] }
): GateResult {
  const key = JSON.stringify(slice)
  const comparisons = result.comparisons.map((c) =>
    c.metric === metric && JSON.stringify(c.slice) === key ? { ...c, ...v, delta: v.candidate - v.baseline } : c
  )
  expect(comparisons).not.toEqual(result.comparisons)
  return { ...result, comparisons }
}

describe('item 4: a next-step pattern lists only what matches it', () => {
  const slice: Array<[string, string]> = [['segment', 'new']]

  it('an improved, still low Hit@k is not listed under "Hit@k is low or fell"', () => {
    // category = billing: hit@10 0.59 → 0.69 in the report that prompted the issue.
    const result = withComparison(passScenario(), 'hit@10', slice, {
      baseline: 0.59,
      candidate: 0.69,
      ci: [0.02, 0.18]
    })
    const first = nextSteps(result).find((s) => s.code === 'first_stage')
    expect(first?.evidence ?? []).not.toContain('segment = new: hit@10 0.59 → 0.69')
  })

  it('an improved MRR is not listed under "MRR is low or fell"; a fallen one still is', () => {
    let result = withComparison(passScenario(), 'hit@10', slice, { baseline: 0.85, candidate: 0.86, ci: [-0.02, 0.04] })
    result = withComparison(result, 'mrr@10', slice, { baseline: 0.3, candidate: 0.4, ci: [0.05, 0.15] })
    expect(nextSteps(result).map((s) => s.code)).not.toContain('ranking')
    result = withComparison(result, 'mrr@10', slice, { baseline: 0.45, candidate: 0.4, ci: [-0.08, -0.02] })
    expect(nextSteps(result).find((s) => s.code === 'ranking')?.evidence).toEqual([
      'segment = new: hit@10 0.85 → 0.86, mrr@10 0.45 → 0.40'
    ])
  })
})

describe('item 5: a file is named only when it was written', () => {
  it('the regression set: named when written, otherwise the report says how to write it', () => {
    const result = failProtectedSliceScenario()
    const without = toMarkdown(result)
    expect(without).not.toContain('regressions.jsonl')
    expect(without).toContain('add --regressions FILE to the gate command')
    const written = toMarkdown(result, { files: { regressions: 'out/regressed.jsonl' } })
    expect(written).toContain('The regression set out/regressed.jsonl lists all')
    expect(toText(result, { color: false })).not.toContain('regressions.jsonl')
    expect(toText(result, { color: false, files: { regressions: 'out/regressed.jsonl' } })).toContain(
      '(out/regressed.jsonl)'
    )
  })

  it('the to-judge list: named when --to-judge wrote it, otherwise the report says how to list it', async () => {
    const P = '__tests__/fixtures/trust/pooling'
    const args = [
      'gate',
      '--rules',
      `${P}/rules.yml`,
      '--baseline',
      `${P}/baseline.jsonl`,
      '--candidate',
      `${P}/candidate.jsonl`
    ]
    for (const format of ['markdown', 'text']) {
      const without = (await cli([...args, '--format', format])).stdout
      expect(without).not.toMatch(/to-judge (?:file|list)(?! \(not)/)
      expect(without).toContain('to list them for judging, add --to-judge FILE to the gate command')
      const f = writeFiles({ 'tj.jsonl': '' })['tj.jsonl']
      const written = (await cli([...args, '--format', format, '--to-judge', f])).stdout
      expect(written).toContain(
        `The 24 pooled top-10 documents without a grade (3 queries) are listed for judging in ${f}.`
      )
    }
  })
})

/** Every number of a parsed JSON value that has more than 12 significant digits (none should). */
function numbersBeyond12Digits(value: unknown): number[] {
  if (typeof value === 'number') return Number(value.toPrecision(12)) === value ? [] : [value]
  if (Array.isArray(value)) return value.flatMap(numbersBeyond12Digits)
  if (value !== null && typeof value === 'object') return Object.values(value).flatMap(numbersBeyond12Digits)
  return []
}

describe('item 6: the regression set covers every gated metric; JSON numbers have a fixed precision', () => {
  function latencyScenario(): GateResult {
    const base: Row[] = []
    const cand: Row[] = []
    for (let q = 0; q < 40; q++) {
      const id = `q${String(q + 1).padStart(2, '0')}`
      const attrs = { segment: 's' }
      // q01: recall 0.4 -> 0.35 (0.35 - 0.4 = -0.050000000000000044 in binary floating point); q02: 10 ms slower.
      base.push({ id, values: { 'recall@10': q === 0 ? 0.4 : 0.5, latency_ms: 50 }, attrs })
      cand.push({ id, values: { 'recall@10': q === 0 ? 0.35 : 0.5, latency_ms: q === 1 ? 60 : 50 }, attrs })
    }
    return gate(
      `version: 1
metrics:
  recall@10: { better: higher, range: [0, 1] }
  latency_ms: { better: lower, unit: ms }
statistics: { resamples: 200, seed: 1 }
queries: { min_per_slice: 1 }
checks:
  - { name: recall holds, metric: recall@10, non_inferior: { margin: 0.05 } }
  - { name: latency holds, metric: latency_ms, non_inferior: { margin: 20% } }
`,
      { base, cand }
    )
  }

  it('a query that only got slower (better: lower) is in the regression set', () => {
    const records = regressionRecords(latencyScenario())
    expect(records.map((r) => [r.query_id, r.worse_on])).toEqual([
      ['q01', ['recall@10']],
      ['q02', ['latency_ms']]
    ])
    expect(records[1].metrics.latency_ms).toEqual({ baseline: 50, candidate: 60, delta: 10 })
  })

  it('writes -0.05, not -0.050000000000000044, in the regression set and the JSON report', () => {
    const result = latencyScenario()
    expect(0.35 - 0.4).toBe(-0.050000000000000044)
    const jsonl = toRegressionsJsonl(result)
    expect(jsonl.split('\n')[0]).toBe(
      '{"query_id":"q01","worse_on":["recall@10"],"metrics":{"recall@10":{"baseline":0.4,"candidate":0.35,"delta":-0.05},"latency_ms":{"baseline":50,"candidate":50,"delta":0}},"attributes":{}}'
    )
    const json = toJsonReport(result)
    expect(numbersBeyond12Digits(JSON.parse(json))).toEqual([])
    expect(JSON.parse(json).regressions.queries[0]).toEqual({
      query_id: 'q01',
      baseline: 0.4,
      candidate: 0.35,
      delta: -0.05,
      attributes: {}
    })
  })

  it('jsonNumber keeps integers, rounds the rest to 12 significant digits, writes -0 as 0 and NaN as null', () => {
    expect(jsonNumber(1234567890123)).toBe(1234567890123)
    expect(jsonNumber(0.1 + 0.2)).toBe(0.3)
    expect(jsonNumber(1 / 3)).toBe(0.333333333333)
    expect(jsonNumber(-1e-20)).toBe(-1e-20)
    expect(Object.is(jsonNumber(-0), 0)).toBe(true)
    expect(jsonNumber(Number.NaN)).toBeNull()
  })

  it('the CLI writes the same bytes as the library (one formatter)', async () => {
    const f = writeFiles({ 'reg.jsonl': '', 'rules.yml': readFileSync('examples/rules.yml', 'utf8') })
    const r = await cli([
      'gate',
      '--rules',
      f['rules.yml'],
      '--baseline',
      'examples/baseline.jsonl',
      '--candidate',
      'examples/candidate.jsonl',
      '--regressions',
      f['reg.jsonl'],
      '--format',
      'json'
    ])
    expect(numbersBeyond12Digits(JSON.parse(r.stdout))).toEqual([])
    const lines = readFileSync(f['reg.jsonl'], 'utf8').trimEnd().split('\n')
    // latency_ms is gated (better: lower) and rises for every query: every query is in the set.
    expect(lines.length).toBe(400)
    expect(lines.flatMap((l) => numbersBeyond12Digits(JSON.parse(l)))).toEqual([])
  })
})

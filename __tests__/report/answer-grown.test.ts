/**
 * Answer-sized outputs (issue 33, item 6): a list an answer input can grow is written as its first ids and its
 * count, in the JSON report and in the Markdown and text ones. The candidate invents 60,000 ids (ignored under
 * queries.missing: zero, never part of the exam) and adds 5,000 fields to its manifest; the reports stay the size of
 * the same run without them, give or take the counts.
 */
import { describe, expect, it } from '@jest/globals'
import { readFileSync } from 'node:fs'
import { cli, jsonl, writeFiles } from '../helpers.js'

const RULES = `version: 1
metrics:
  recall: { better: higher, range: [0, 1] }
queries: { missing: zero }
comparability: { must_match: [corpus.content_hash] }
statistics: { resamples: 200, seed: 3 }
checks:
  - name: recall holds
    metric: recall
    non_inferior: { margin: 0.1 }
`
// 40 exam queries (a margin of 0.1: 40 queries support at least 0.088 of the range), the candidate within the margin on every one: q00..q39, values 0.5 + i/100 and 0.01 less.
const exam = Array.from({ length: 40 }, (_, i) => `q${String(i).padStart(2, '0')}`)
const baseline = exam.map((id, i) => ({ query_id: id, recall: 0.5 + i / 100 }))
const candidate = exam.map((id, i) => ({ query_id: id, recall: 0.49 + i / 100 + (i % 2 === 0 ? 0.001 : -0.001) }))
const invented = Array.from({ length: 60_000 }, (_, i) => ({ query_id: `x${String(i).padStart(5, '0')}`, recall: 1 }))
const manifest = (extra: number): string =>
  JSON.stringify({
    corpus: { content_hash: 'sha256:aa' },
    ...(extra === 0 ? {} : { extra: Object.fromEntries(Array.from({ length: extra }, (_, i) => [`f${i}`, i])) })
  })

async function gate(extraIds: boolean, extraFields: number) {
  const f = writeFiles({
    'rules.yml': RULES,
    'b.jsonl': jsonl(baseline),
    'c.jsonl': jsonl(extraIds ? [...candidate, ...invented] : candidate),
    'bm.json': manifest(0),
    'cm.json': manifest(extraFields)
  })
  const out = `${f['rules.yml']}.report`
  const r = await cli([
    'gate',
    ...['--rules', f['rules.yml'], '--baseline', f['b.jsonl'], '--candidate', f['c.jsonl']],
    ...['--baseline-manifest', f['bm.json'], '--candidate-manifest', f['cm.json']],
    ...['--json', `${out}.json`, '--markdown', `${out}.md`]
  ])
  return {
    code: r.code,
    text: r.stdout,
    json: readFileSync(`${out}.json`, 'utf8'),
    md: readFileSync(`${out}.md`, 'utf8')
  }
}

describe('lists an answer can grow are bounded, with their count', () => {
  it('60,000 invented ids: the JSON lists the first 20 and counts them all; every report stays the size of the exam', async () => {
    const plain = await gate(false, 0)
    const grown = await gate(true, 0)
    expect([plain.code, grown.code]).toEqual([0, 0])
    const coverage = (JSON.parse(grown.json) as { coverage: Record<string, unknown> }).coverage
    expect(coverage.only_in_candidate).toEqual(invented.slice(0, 20).map((r) => r.query_id))
    expect(coverage.only_in_candidate_count).toBe(60_000)
    expect(coverage.candidate_only_ignored).toBe(60_000)
    // the same run without the invented rows, plus at most a few kilobytes of ids and counts
    expect(grown.json.length).toBeLessThan(plain.json.length + 2000)
    expect(grown.md.length).toBeLessThan(plain.md.length + 2000)
    expect(grown.text.length).toBeLessThan(plain.text.length + 2000)
  })

  it('5,000 fields added to the candidate manifest: 20 listed with the count, in JSON and Markdown', async () => {
    const plain = await gate(false, 0)
    const grown = await gate(false, 5000)
    const c = (JSON.parse(grown.json) as { trust: { comparability: Record<string, unknown[] | number> } }).trust
      .comparability
    expect((c.warnings as unknown[]).length).toBe(20)
    expect(c.warnings_count).toBe(5000)
    expect(grown.md).toContain('| 4980 more fields | ⚠️ differs | comparability warning: not listed |')
    expect(grown.md).toContain('; and 4995 more fields')
    expect(grown.json.length).toBeLessThan(plain.json.length + 6000)
    expect(grown.md.length).toBeLessThan(plain.md.length + 6000)
  })
})

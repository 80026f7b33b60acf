/**
 * `init` reads what `gate` reads: a plain CSV with a query_id column (docs/recipes.md, "Gate a ragas run")
 * gets a starter rules file that gates those very files, and no check is ever proposed on a row position or
 * an id (deepeval's `index`, pandas' `Unnamed: 0`, a 0..n-1 counter).
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from '@jest/globals'
import { loadRules } from '../../src/config/rules.js'
import { cli, jsonl, tempDir, writeFiles } from '../helpers.js'

const fx = join(process.cwd(), '__tests__', 'fixtures', 'importers')

/** The recipe's CSV: `df.insert(0, "query_id", ids); df.to_csv(path, index=False)` of a ragas result, 40 questions. */
function ragasCsv(shift: number): string {
  const lines = [
    'query_id,user_input,retrieved_contexts,response,reference,context_precision,context_recall,faithfulness,answer_relevancy'
  ]
  for (let i = 0; i < 40; i++) {
    const v = (k: number) => (((i * 37 + k * 11) % 50) / 100 + 0.4 + shift).toFixed(2)
    lines.push(
      `q${String(i).padStart(3, '0')},"What is ${i}?","['Help article ${i}']",Answer ${i},Reference ${i},${v(1)},${v(2)},${v(3)},${v(4)}`
    )
  }
  return lines.join('\n') + '\n'
}

async function init(files: Record<string, string>, b: string, c: string, extra: string[] = []) {
  const f = writeFiles(files)
  const out = join(tempDir(), 'retrieval-gate.yml')
  const r = await cli(['init', '--baseline', f[b], '--candidate', f[c], '--out', out, ...extra])
  return { ...r, f, out, rules: r.code === 0 ? readFileSync(out, 'utf8') : '' }
}

describe('init on a plain CSV with query_id (the ragas recipe)', () => {
  it('proposes the numeric columns as metrics, and the starter rules gate the same files', async () => {
    const r = await init(
      { 'baseline.csv': ragasCsv(0), 'candidate.csv': ragasCsv(0.01) },
      'baseline.csv',
      'candidate.csv'
    )
    expect(r.stderr).toBe('')
    expect(r.code).toBe(0)
    const rules = loadRules(r.rules, r.out)
    expect([...rules.metrics.keys()].sort()).toEqual([
      'answer_relevancy',
      'context_precision',
      'context_recall',
      'faithfulness'
    ])
    expect(rules.metrics.get('faithfulness')).toMatchObject({ better: 'higher', range: [0, 1] })
    const g = await cli([
      'gate',
      '--rules',
      r.out,
      '--baseline',
      r.f['baseline.csv'],
      '--candidate',
      r.f['candidate.csv']
    ])
    expect(g.stderr).toBe('')
    expect([0, 1]).toContain(g.code)
  })

  it('a CSV named .txt: with --input-format csv it works, without it the refusal says so', async () => {
    const files = { 'b.txt': ragasCsv(0), 'c.txt': ragasCsv(0.01) }
    const ok = await init(files, 'b.txt', 'c.txt', ['--input-format', 'csv'])
    expect(ok.stderr).toBe('')
    expect(ok.rules).toMatch(/faithfulness: +\{ better: higher/)
    const bad = await init(files, 'b.txt', 'c.txt')
    expect(bad.code).toBe(2)
    expect(bad.stderr).toMatch(/--input-format csv/)
  })
})

describe('init never proposes a check on a position or an id', () => {
  it("deepeval's positional index field", async () => {
    const withIndex = (file: string) => {
      const doc = JSON.parse(readFileSync(join(fx, 'deepeval', file), 'utf8')) as {
        testCases: Array<Record<string, unknown>>
      }
      doc.testCases.forEach((c, i) => (c.index = i))
      return JSON.stringify(doc)
    }
    const r = await init(
      { 'b.json': withIndex('baseline.json'), 'c.json': withIndex('candidate.json') },
      'b.json',
      'c.json'
    )
    expect(r.stderr).toBe('')
    expect(r.code).toBe(0)
    const rules = loadRules(r.rules, r.out)
    expect(rules.metrics.has('index')).toBe(false)
    expect(rules.metrics.has('Faithfulness')).toBe(true)
    expect(r.stdout).toMatch(/Ignored: index \(a row position, not a metric\)/)
  })

  it('any column counting the rows 0..n-1 or 1..n, whatever its name, and pandas index columns', async () => {
    const rows = (shift: number) =>
      Array.from({ length: 12 }, (_, i) => ({
        query_id: `q${i}`,
        n: i,
        'Unnamed: 0': i,
        position_1: i + 1,
        'recall@10': 0.5 + shift,
        user_id: 1000 + i
      }))
    const r = await init({ 'b.jsonl': jsonl(rows(0)), 'c.jsonl': jsonl(rows(0.1)) }, 'b.jsonl', 'c.jsonl')
    expect(r.stderr).toBe('')
    const rules = loadRules(r.rules, r.out)
    expect([...rules.metrics.keys()]).toEqual(['recall@10'])
    expect(r.stdout).toMatch(/Ignored: n \(values 0, 1, 2/)
    expect(r.stdout).toMatch(/Ignored: user_id \(a numeric id/)
  })

  it('a metric with repeated or non-consecutive integers stays a metric', async () => {
    const rows = Array.from({ length: 12 }, (_, i) => ({ query_id: `q${i}`, num_ret: 100 - (i % 3), 'recall@10': 0.5 }))
    const r = await init({ 'b.jsonl': jsonl(rows), 'c.jsonl': jsonl(rows) }, 'b.jsonl', 'c.jsonl')
    expect(loadRules(r.rules, r.out).metrics.has('num_ret')).toBe(true)
  })
})

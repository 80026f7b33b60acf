import { describe, expect, it } from '@jest/globals'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { cli, hasStackTrace, writeFiles } from '../helpers.js'

const root = path.resolve(import.meta.dirname, '../..')
const ex = (f: string) => path.join(root, 'examples/runs', f)

describe('gate on runs + judgments', () => {
  it('computes the measures itself and pairs them like per-query rows', async () => {
    const f = writeFiles({ x: '' })
    const json = f.x + '.json'
    const r = await cli([
      'gate',
      '--rules',
      ex('rules.yml'),
      '--baseline',
      ex('baseline.jsonl'),
      '--candidate',
      ex('candidate.jsonl'),
      '--qrels',
      ex('qrels.txt'),
      '--json',
      json
    ])
    expect(r.stderr).toBe('')
    const report = JSON.parse(readFileSync(json, 'utf8'))
    expect(report.checks.map((c: { rule: string }) => c.rule)).toEqual([
      'nDCG@10 does not drop',
      'recall holds for every segment',
      'latency within 15%'
    ])
    const overall = report.comparisons.find(
      (c: { metric: string; slice: object }) => c.metric === 'nDCG@10' && Object.keys(c.slice).length === 0
    )
    expect(overall.n).toBe(200)
    // The per-query values are the metrics command's (itself checked against trec_eval): the means agree.
    const m = await cli(['metrics', '--qrels', ex('qrels.txt'), '--run', ex('baseline.jsonl'), '-m', 'nDCG@10'])
    const all = Number(m.stdout.trim().split('\n').pop()?.split('\t')[2])
    expect(overall.baseline).toBeCloseTo(all, 4)
    // latency_ms travels from the JSONL run records into the rows.
    expect(report.comparisons.some((c: { metric: string }) => c.metric === 'latency_ms')).toBe(true)
  })

  it('refuses a metric that is neither a measure nor a run field, with a suggestion', async () => {
    const rules = readFileSync(ex('rules.yml'), 'utf8').replace('RR: {', 'nDGC@10: {')
    const f = writeFiles({ 'rules.yml': rules })
    const r = await cli([
      'gate',
      '--rules',
      f['rules.yml'],
      '--baseline',
      ex('baseline.jsonl'),
      '--candidate',
      ex('candidate.jsonl'),
      '--qrels',
      ex('qrels.txt')
    ])
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/metrics\.nDGC@10.*neither a ranking measure nor a numeric field/)
    expect(hasStackTrace(r.stderr)).toBe(false)
  })
})

describe('metrics command line', () => {
  it('refuses a bad depth and a bad format as usage errors', async () => {
    expect(
      (await cli(['metrics', '--qrels', ex('qrels.txt'), '--run', ex('baseline.jsonl'), '-m', 'AP', '-M', 'x'])).code
    ).toBe(2)
    expect(
      (await cli(['metrics', '--qrels', ex('qrels.txt'), '--run', ex('baseline.jsonl'), '-m', 'AP', '--format', 'csv']))
        .code
    ).toBe(2)
  })
})

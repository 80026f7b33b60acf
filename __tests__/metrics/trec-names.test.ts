/**
 * trec_eval's measure names are aliases of the ir_measures spellings: computed from the committed trec_eval
 * fixtures (__tests__/fixtures/trec, see its README for the trec_eval commands), each gives exactly the same
 * per-query values as its counterpart, and those equal trec_eval's own printed output (expected.txt) where
 * the name is trec_eval's. "Did you mean" never proposes another cutoff or a different measure.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from '@jest/globals'
import { computeRunRows, parseMeasure } from '../../src/metrics/index.js'
import { didYouMean } from '../../src/util/did-you-mean.js'
import { cli, jsonl, writeFiles } from '../helpers.js'
import { rowsOf } from '../../src/model/rows.js'

const dir = join(process.cwd(), '__tests__', 'fixtures', 'trec')

/** trec_eval name → ir_measures name. */
const ALIASES: Array<[string, string]> = [
  ['ndcg_cut_10', 'nDCG@10'],
  ['P_5', 'P@5'],
  ['P_10', 'P@10'],
  ['recip_rank', 'RR'],
  ['recall_10', 'R@10'],
  ['recall_100', 'R@100'],
  ['success_1', 'Success@1'],
  ['success_10', 'Success@10'],
  ['map', 'AP'],
  ['map_cut_5', 'AP@5'],
  ['Rprec', 'Rprec'],
  ['bpref', 'Bpref'],
  ['ndcg', 'nDCG']
]

describe('trec_eval measure names', () => {
  it('give exactly the values of their ir_measures counterparts, per query', async () => {
    const names = ALIASES.flatMap(([a, b]) => [a, b])
    const { side } = await computeRunRows({
      runFile: join(dir, 'run.txt'),
      qrelsFile: join(dir, 'qrels.txt'),
      measures: names,
      noRelevant: 'zero'
    })
    expect(rowsOf(side).length).toBeGreaterThan(10)
    const differ: string[] = []
    for (const row of rowsOf(side)) {
      for (const [trec, ours] of ALIASES) {
        const a = row.values.get(trec)
        const b = row.values.get(ours)
        if (a === undefined || a === null || !Object.is(a, b)) differ.push(`${row.id} ${trec}=${a} ${ours}=${b}`)
      }
    }
    expect(differ).toEqual([])
  })

  it('print what trec_eval printed for them (expected.txt, 4 decimals)', async () => {
    const expected = new Map<string, string>()
    for (const line of readFileSync(join(dir, 'expected.txt'), 'utf8').split('\n')) {
      if (!line) continue
      const [name, qid, value] = line.split('\t')
      expected.set(`${name.trim()}\t${qid}`, value)
    }
    const measures = ['ndcg_cut_10', 'P_5', 'recip_rank', 'recall_100', 'success_10', 'map', 'Rprec', 'bpref']
    const r = await cli([
      'metrics',
      '--qrels',
      join(dir, 'qrels.txt'),
      '--run',
      join(dir, 'run.txt'),
      '--per-query',
      '-c',
      ...measures.flatMap((m) => ['-m', m])
    ])
    expect(r.code).toBe(0)
    const lines = r.stdout.trim().split('\n')
    expect(lines.length).toBe((expected.size / 15) * measures.length)
    const differ = lines.filter((line) => {
      const [name, qid, value] = line.split('\t')
      return expected.get(`${name}\t${qid}`) !== value
    })
    expect(differ).toEqual([])
  })

  it('keep the name as written as the row key, with the canonical kind', () => {
    expect(parseMeasure('ndcg_cut_10')).toMatchObject({
      name: 'ndcg_cut_10',
      kind: 'nDCG',
      cutoff: 10,
      canonical: 'nDCG@10'
    })
    expect(parseMeasure('recall_100')).toMatchObject({ name: 'recall_100', kind: 'R', cutoff: 100, canonical: 'R@100' })
    expect(parseMeasure('recip_rank')).toMatchObject({ kind: 'RR', cutoff: null })
    expect(parseMeasure('map')).toMatchObject({ kind: 'AP', cutoff: null })
  })

  it('are accepted as metric names of rules with judgments', async () => {
    const rules = `version: 1
judgments: { qrels: ${JSON.stringify(join(dir, 'qrels.txt'))}, no_relevant: zero }
metrics:
  ndcg_cut_10: { better: higher, range: [0, 1] }
  success_10: { better: higher, binary: true }
queries: { min_per_slice: 2 }
# A run against itself on a few queries cannot support a statistical pass; the names, not the interval, are tested.
on_inconclusive: pass
on_too_few: pass
checks:
  - name: ndcg holds
    metric: ndcg_cut_10
    non_inferior: { margin: 0.01 }
  - name: success holds
    metric: success_10
    non_inferior: { margin: 0.01 }
`
    const f = writeFiles({ 'rules.yml': rules })
    const r = await cli([
      'gate',
      '--rules',
      f['rules.yml'],
      '--baseline',
      join(dir, 'run.txt'),
      '--candidate',
      join(dir, 'run.txt'),
      '--format',
      'json'
    ])
    expect(r.stderr).toBe('')
    const report = JSON.parse(r.stdout) as {
      verdict: string
      comparisons: Array<{ metric: string; slice: Record<string, string> }>
    }
    expect(report.verdict).toBe('pass')
    const overall = report.comparisons.filter((c) => Object.keys(c.slice).length === 0)
    expect(overall.map((c) => c.metric).sort()).toEqual(['ndcg_cut_10', 'success_10'])
  })
})

describe('did you mean never changes what is measured', () => {
  it('keeps the cutoff the user wrote', () => {
    expect(didYouMean('success_10', ['Success@1', 'success_1', 'success_5'])).toBeUndefined()
    expect(didYouMean('recall@10', ['recall@5', 'recall@100'])).toBeUndefined()
    expect(didYouMean('recal@10', ['recall@5', 'recall@10'])).toBe('recall@10')
  })

  it('never maps ranx hits@k (a count) to hit@k (0/1), nor dcg to ndcg', () => {
    expect(didYouMean('hits@10', ['hit@10'])).toBeUndefined()
    expect(didYouMean('dcg@10', ['ndcg@10'])).toBeUndefined()
  })

  it('an unknown measure is answered with the same cutoff', () => {
    expect(() => parseMeasure('sucess@10')).toThrow(/did you mean "Success@10"\?/)
    expect(() => parseMeasure('sucess_10')).toThrow(/did you mean "success_10"\?/)
    expect(() => parseMeasure('ndcg_cutt_10')).toThrow(/did you mean "ndcg_cut_10"\?/)
  })

  it('ranx hits@10 is refused with what to write instead, not "hit@10"', () => {
    let message = ''
    try {
      parseMeasure('hits@10')
    } catch (error) {
      message = String((error as Error).message) + String((error as { hint?: string }).hint ?? '')
    }
    expect(message).not.toMatch(/did you mean/)
    expect(message).toMatch(/counts the relevant documents/)
    expect(message).toMatch(/P@k/)
  })

  it('a rows metric named with another cutoff gets no suggestion of it', async () => {
    const rows = Array.from({ length: 5 }, (_, i) => ({ query_id: `q${i}`, success_1: 1, success_5: 1 }))
    const f = writeFiles({
      'rules.yml':
        'version: 1\nmetrics:\n  success_10: { better: higher }\nchecks:\n  - name: s\n    metric: success_10\n    non_inferior: { margin: 0.01 }\n',
      'b.jsonl': jsonl(rows),
      'c.jsonl': jsonl(rows)
    })
    const r = await cli(['gate', '--rules', f['rules.yml'], '--baseline', f['b.jsonl'], '--candidate', f['c.jsonl']])
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/no row has the metric "success_10"/)
    expect(r.stderr).not.toMatch(/did you mean/)
  })

  it('rules naming nDCG@10 on pytrec_eval rows (ndcg_cut_10) are told the rows have the same measure', async () => {
    const results = join(process.cwd(), '__tests__', 'fixtures', 'importers', 'pytrec_eval', 'results.json')
    const f = writeFiles({
      'rules.yml':
        'version: 1\nmetrics:\n  nDCG@10: { better: higher }\nchecks:\n  - name: n\n    metric: nDCG@10\n    non_inferior: { margin: 0.01 }\n'
    })
    const r = await cli(['gate', '--rules', f['rules.yml'], '--baseline', results, '--candidate', results])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain(
      'The rows have "ndcg_cut_10", the same measure (nDCG@10) under another name: name the metric "ndcg_cut_10" in the rules'
    )
  })
})

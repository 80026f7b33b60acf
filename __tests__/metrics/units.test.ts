/** Hand-computed values and refusals. Each expectation states its arithmetic. */
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, test } from '@jest/globals'
import { InputError } from '../../src/errors.js'
import { computeRunRows, formatFixed4, parseMeasure, readQrels } from '../../src/metrics/index.js'
import { compareCodePoints } from '../../src/util/order.js'
import { parseScoreBytes } from '../../src/readers/score.js'
import { rowsOf } from '../../src/model/rows.js'
import { metricsCommand } from '../../src/commands/metrics.js'

const dir = mkdtempSync(join(tmpdir(), 'rg-metrics-'))
let n = 0
function file(text: string, ext = 'txt'): string {
  const path = join(dir, `f${n++}.${ext}`)
  writeFileSync(path, text)
  return path
}
const qrelsLines = (rows: Array<[string, string, number]>): string =>
  rows.map(([q, d, g]) => `${q} 0 ${d} ${g}\n`).join('')
const runLines = (rows: Array<[string, string, number | string]>): string =>
  rows.map(([q, d, s], i) => `${q} Q0 ${d} ${i + 1} ${s} t\n`).join('')

async function values(
  qrels: string,
  run: string,
  measures: string[],
  extra: object = {}
): Promise<Map<string, Map<string, number | null>>> {
  const { side } = await computeRunRows({ qrelsFile: qrels, runFile: run, measures, ...extra })
  return new Map(rowsOf(side).map((r) => [r.id, r.values]))
}

async function refusal(promise: Promise<unknown>): Promise<InputError> {
  try {
    await promise
  } catch (error) {
    expect(error).toBeInstanceOf(InputError)
    return error as InputError
  }
  throw new Error('expected an InputError')
}

describe('hand-computed measures', () => {
  // q: 8 relevant documents r1..r8; the run retrieves r1, x, r2 (x unjudged), then nothing else.
  const qrels = file(qrelsLines([1, 2, 3, 4, 5, 6, 7, 8].map((i) => ['q', `r${i}`, 1] as [string, string, number])))
  const run = file(
    runLines([
      ['q', 'r1', 3],
      ['q', 'x', 2],
      ['q', 'r2', 1]
    ])
  )

  test('R@3 = 2/8 but R_cap@3 = 2/min(8,3) = 2/3; P@3 = 2/3, P@10 = 2/10', async () => {
    const v = (await values(qrels, run, ['R@3', 'R_cap@3', 'P@3', 'P@10'])).get('q')!
    expect(v.get('R@3')).toBeCloseTo(2 / 8, 12)
    expect(v.get('R_cap@3')).toBeCloseTo(2 / 3, 12)
    expect(v.get('P@3')).toBeCloseTo(2 / 3, 12)
    expect(v.get('P@10')).toBeCloseTo(0.2, 12)
  })

  test('R@3 = 3/8 vs R_cap@3 = 1 when the top 3 are all relevant', async () => {
    const full = file(
      runLines([
        ['q', 'r1', 3],
        ['q', 'r2', 2],
        ['q', 'r3', 1]
      ])
    )
    const v = (await values(qrels, full, ['R@3', 'recall@3', 'R_cap@3'])).get('q')!
    expect(v.get('R@3')).toBe(3 / 8)
    expect(v.get('recall@3')).toBe(3 / 8)
    expect(v.get('R_cap@3')).toBe(1)
  })

  test('AP divides by all 8 relevant: (1/1 + 2/3) / 8; RR = 1; AP@2 = (1/1)/8', async () => {
    const v = (await values(qrels, run, ['AP', 'map', 'RR', 'mrr@10', 'AP@2'])).get('q')!
    expect(v.get('AP')).toBeCloseTo((1 + 2 / 3) / 8, 12)
    expect(v.get('map')).toBe(v.get('AP'))
    expect(v.get('RR')).toBe(1)
    expect(v.get('mrr@10')).toBe(1)
    expect(v.get('AP@2')).toBeCloseTo(1 / 8, 12)
  })

  test('ideal DCG comes from all judgments, not from what was retrieved', async () => {
    // judgments: a=3, b=2, c=1 (c never retrieved). Run: b, a.
    // DCG = 2/log2(2) + 3/log2(3) = 2 + 1.892789 = 3.892789
    // IDCG (all judgments) = 3/1 + 2/log2(3) + 1/log2(4) = 3 + 1.261860 + 0.5 = 4.761860  → 0.817493
    // (an ideal from retrieved docs only would be 3 + 2/log2(3) = 4.261860 → 0.913402)
    const q = file(
      qrelsLines([
        ['g', 'a', 3],
        ['g', 'b', 2],
        ['g', 'c', 1]
      ])
    )
    const r = file(
      runLines([
        ['g', 'b', 2],
        ['g', 'a', 1]
      ])
    )
    const v = (await values(q, r, ['nDCG', 'ndcg@2', 'nDCG(gain=exp)@2'])).get('g')!
    expect(v.get('nDCG')).toBeCloseTo((2 + 3 / Math.log2(3)) / (3 + 2 / Math.log2(3) + 0.5), 12)
    expect(v.get('nDCG')).toBeCloseTo(0.817493, 5)
    // @2: ideal cut at 2 too: (2 + 3/log2 3) / (3 + 2/log2 3) = 3.892789 / 4.261860 = 0.913402
    expect(v.get('ndcg@2')).toBeCloseTo(0.913402, 5)
    // exp gains 2^g-1: a=7, b=3: (3 + 7/log2 3) / (7 + 3/log2 3) = 7.416508 / 8.892789 = 0.833990
    expect(v.get('nDCG(gain=exp)@2')).toBeCloseTo((3 + 7 / Math.log2(3)) / (7 + 3 / Math.log2(3)), 12)
  })

  test('Success, Judged, rel threshold, NumRet, NumRel', async () => {
    // judgments: a=1, b=2, c=0, d=-1. Run: c, a, d, b, e (e unjudged).
    const q = file(
      qrelsLines([
        ['s', 'a', 1],
        ['s', 'b', 2],
        ['s', 'c', 0],
        ['s', 'd', -1]
      ])
    )
    const r = file(
      runLines([
        ['s', 'c', 5],
        ['s', 'a', 4],
        ['s', 'd', 3],
        ['s', 'b', 2],
        ['s', 'e', 1]
      ])
    )
    const v = (
      await values(q, r, [
        'Success@1',
        'hit@2',
        'Judged@5',
        'Judged@10',
        'P(rel=2)@4',
        'P@4',
        'NumRet',
        'NumRel',
        'NumRel(rel=2)',
        'RR(rel=2)'
      ])
    ).get('s')!
    expect(v.get('Success@1')).toBe(0) // c has grade 0
    expect(v.get('hit@2')).toBe(1) // a at rank 2
    expect(v.get('Judged@5')).toBe(4 / 5) // c, a, d (negative grade is a judgment line), b judged; e not
    expect(v.get('Judged@10')).toBe(4 / 10) // missing ranks count as unjudged
    expect(v.get('P(rel=2)@4')).toBe(1 / 4) // only b
    expect(v.get('P@4')).toBe(2 / 4) // a and b
    expect(v.get('NumRet')).toBe(5)
    expect(v.get('NumRel')).toBe(2)
    expect(v.get('NumRel(rel=2)')).toBe(1)
    expect(v.get('RR(rel=2)')).toBe(1 / 4)
  })

  test('Bpref skips unjudged and negative grades: relevant after 1 judged non-relevant of min(1,2)', async () => {
    // judgments: a=1, b=1, c=0, d=-1. Run: d, x, c, a, b. num_rel 2, num_nonrel 1.
    // a: nonrel_so_far 1 → 1 - min(1,2)/min(1,2) = 0; b: also 0 → bpref 0.
    // Run a, c, b: a → 1, b → 0 → (1 + 0)/2 = 0.5
    const q = file(
      qrelsLines([
        ['b', 'a', 1],
        ['b', 'b', 1],
        ['b', 'c', 0],
        ['b', 'd', -1]
      ])
    )
    const r1 = file(
      runLines([
        ['b', 'd', 5],
        ['b', 'x', 4],
        ['b', 'c', 3],
        ['b', 'a', 2],
        ['b', 'b', 1]
      ])
    )
    const r2 = file(
      runLines([
        ['b', 'a', 3],
        ['b', 'c', 2],
        ['b', 'b', 1]
      ])
    )
    expect((await values(q, r1, ['Bpref'])).get('b')!.get('Bpref')).toBe(0)
    expect((await values(q, r2, ['Bpref'])).get('b')!.get('Bpref')).toBe(0.5)
  })

  test('ties: score descending, then doc id descending in byte order (astral above U+FF21)', async () => {
    // Same score; byte order descending: "\u{1d538}" (F0 9D..) before "\uff21" (EF BC..) before "b".
    // Only the astral id is relevant: RR = 1 in byte order (it would be 1/2 in UTF-16 order).
    const q = file(
      qrelsLines([
        ['t', '\u{1d538}', 1],
        ['t', '\uff21', 0],
        ['t', 'b', 0]
      ])
    )
    const r = file(
      runLines([
        ['t', 'b', 1],
        ['t', '\uff21', 1],
        ['t', '\u{1d538}', 1]
      ])
    )
    expect((await values(q, r, ['RR'])).get('t')!.get('RR')).toBe(1)
    expect(compareCodePoints('\u{1d538}', '\uff21')).toBeGreaterThan(0)
    expect('\u{1d538}' < '\uff21').toBe(true) // what plain JS comparison would (wrongly) say
  })

  test('depth cut: only the top M count', async () => {
    const v = (await values(qrels, run, ['P@3', 'NumRet'], { depth: 1 })).get('q')!
    expect(v.get('P@3')).toBe(1 / 3)
    expect(v.get('NumRet')).toBe(1)
  })
})

describe('query set and coverage', () => {
  const q = file(
    qrelsLines([
      ['a', 'd1', 1],
      ['b', 'd1', 0],
      ['c', 'd1', 1],
      ['01', 'd1', 1]
    ])
  )
  const r = file(
    runLines([
      ['a', 'd1', 1],
      ['b', 'd1', 1],
      ['x', 'd1', 1],
      ['1', 'd1', 1]
    ])
  )

  test('exclude (default): no-relevant query out of rows but counted; absent scored 0; run-only counted', async () => {
    const { side, coverage } = await computeRunRows({ qrelsFile: q, runFile: r, measures: ['P@1'] })
    expect(rowsOf(side).map((row) => row.id)).toEqual(['01', 'a', 'c'])
    expect(rowsOf(side).map((row) => row.values.get('P@1'))).toEqual([0, 1, 0])
    expect(coverage.absentFromRun).toEqual(['01', 'c']) // "1" in the run is not "01"
    expect(coverage.noRelevant).toEqual({ policy: 'exclude', ids: ['b'] })
    expect(coverage.runOnly).toBe(2)
    expect(coverage.runOnlyIds).toEqual(['x', '1'])
    expect(coverage.judgedQueries).toBe(4)
    expect(side.notes.join(' ')).toMatch(/2 judged queries absent/)
  })

  test('zero keeps it, report returns it separately', async () => {
    const zero = await computeRunRows({ qrelsFile: q, runFile: r, measures: ['P@1'], noRelevant: 'zero' })
    expect(rowsOf(zero.side).map((row) => row.id)).toEqual(['01', 'a', 'b', 'c'])
    expect(rowsOf(zero.side)[2].values.get('P@1')).toBe(0)
    const report = await computeRunRows({ qrelsFile: q, runFile: r, measures: ['P@1'], noRelevant: 'report' })
    expect(rowsOf(report.side).map((row) => row.id)).toEqual(['01', 'a', 'c'])
    expect(report.noRelevantRows.map((row) => row.id)).toEqual(['b'])
  })

  test('qrels read once can be reused for two runs', async () => {
    const qrels = await readQrels(q)
    const one = await computeRunRows({ qrels, runFile: r, measures: ['P@1'] })
    const two = await computeRunRows({ qrels, runFile: r, measures: ['P@1'] })
    expect(rowsOf(two.side).map((x) => x.values.get('P@1'))).toEqual(rowsOf(one.side).map((x) => x.values.get('P@1')))
  })

  test('JSONL passthrough fields travel into the rows', async () => {
    const j = file(
      '{"query_id":"a","results":[{"doc_id":"d1","score":1}],"latency_ms":12.5,"segment":"head","meta":{"x":1}}\n{"query_id":"c","doc_id":"d1","score":2}\n',
      'jsonl'
    )
    const { side, coverage } = await computeRunRows({ qrelsFile: q, runFile: j, measures: ['P@1'] })
    const a = rowsOf(side).find((row) => row.id === 'a')!
    expect(a.values.get('latency_ms')).toBe(12.5)
    expect(a.attrs.get('segment')).toBe('head')
    expect(side.numericFields.has('latency_ms')).toBe(true)
    expect(coverage.skippedFields).toEqual(['meta'])
    expect(coverage.runFormat).toBe('jsonl')
  })
})

describe('refusals name file and line', () => {
  const q = file(qrelsLines([['a', 'd1', 1]]))
  test.each([
    ['duplicate docno', 'a Q0 d1 1 2 t\na Q0 d2 2 1 t\na Q0 d1 3 0 t\n', /:3: document "d1" appears twice.*line 1/],
    ['NaN score', 'a Q0 d1 1 NaN t\n', /:1: score "NaN"/],
    ['inf score', 'a Q0 d1 1 inf t\n', /:1: score "inf"/],
    ['hex score', 'a Q0 d1 1 0x10 t\n', /:1: score "0x10"/],
    ['overflow score', 'a Q0 d1 1 2 t\na Q0 d2 1 1e400 t\n', /:2: score "1e400"/],
    ['malformed line', 'a Q0 d1 1 2 t\na Q0 d2\n', /:2: a TREC run line needs/]
  ])('TREC run: %s', async (_name, text, pattern) => {
    const error = await refusal(computeRunRows({ qrelsFile: q, runFile: file(text), measures: ['AP'] }))
    expect(error.message).toMatch(pattern)
  })

  test.each([
    ['numeric query id', '{"query_id":1,"doc_id":"d","score":1}\n', /:1: query_id 1 is a JSON number.*quote it/],
    ['non-finite score', '{"query_id":"a","doc_id":"d","score":"x"}\n', /:1 \(score\): score is not a finite number/],
    [
      'duplicate docno',
      '{"query_id":"a","results":[{"doc_id":"d","score":1},{"doc_id":"d","score":0}]}\n',
      /:1: document "d" appears twice/
    ],
    ['bad JSON', '{"query_id":"a",\n', /:1: is not valid JSON/]
  ])('JSONL run: %s', async (_name, text, pattern) => {
    const error = await refusal(computeRunRows({ qrelsFile: q, runFile: file(text, 'jsonl'), measures: ['AP'] }))
    expect(error.message).toMatch(pattern)
  })

  test.each([
    ['duplicate judgment', 'a 0 d1 1\nb 0 d1 1\na 0 d1 0\n', /:3: document "d1" is judged twice.*line 1/],
    ['non-integer grade', 'a 0 d1 1.5\n', /:1: grade "1.5"/],
    ['malformed line', 'a 0 d1\n', /:1: a qrels line needs 4 fields/]
  ])('qrels: %s', async (_name, text, pattern) => {
    const error = await refusal(readQrels(file(text)))
    expect(error.message).toMatch(pattern)
  })

  test('unknown measure suggests the closest name', () => {
    expect(() => parseMeasure('nDGC@10')).toThrow(/unknown measure "nDGC@10" \(did you mean "nDCG@10"\?\)/)
    expect(() => parseMeasure('P')).toThrow(/needs a cutoff/)
    expect(() => parseMeasure('Rprec@5')).toThrow(/takes no @k cutoff/)
    expect(() => parseMeasure('nDCG(rel=2)@10')).toThrow(/rel= has no effect/)
    expect(() => parseMeasure('P(gain=exp)@10')).toThrow(/unknown parameter/)
  })
})

describe('parsing', () => {
  test('measure names: aliases, case, canonical form', () => {
    expect(parseMeasure('MAP').canonical).toBe('AP')
    expect(parseMeasure('mrr@10').canonical).toBe('RR@10')
    expect(parseMeasure('hit@5').canonical).toBe('Success@5')
    expect(parseMeasure('ndcg(GAIN=exp)@10').canonical).toBe('nDCG(gain=exp)@10')
    expect(parseMeasure('p(rel=2)@10')).toMatchObject({ kind: 'P', cutoff: 10, rel: 2, name: 'p(rel=2)@10' })
    expect(parseMeasure('R_cap@3').kind).toBe('R_cap')
  })

  test('score fast path equals Number() bit for bit', () => {
    const samples = [
      '0.1',
      '-3.75',
      '12345678901234.5',
      '1.5e-3',
      '7E+2',
      '0',
      '-0.0',
      '.5',
      '5.',
      '0.30000000000000004',
      '123456789012345678',
      '1e-30',
      '9007199254740993',
      '4.35'
    ]
    for (const s of samples) {
      const b = Buffer.from(s)
      expect(Object.is(parseScoreBytes(b, 0, b.length), Number(s))).toBe(true)
    }
    for (const s of ['inf', 'NaN', '0x10', '1e400', '1e', '--1', '', '1_0', 'Infinity']) {
      const b = Buffer.from(s)
      expect(parseScoreBytes(b, 0, b.length)).toBeNaN()
    }
  })

  test('printf rounding: exact ties to even, everything else as toFixed', () => {
    expect(formatFixed4(0.03125)).toBe('0.0312') // 1/32, exact tie → even
    expect(formatFixed4(0.09375)).toBe('0.0938') // 3/32, exact tie → even (8)
    expect(formatFixed4(0.1 + 0.2)).toBe('0.3000')
    expect(formatFixed4(2 / 3)).toBe('0.6667')
    expect(formatFixed4(1)).toBe('1.0000')
  })
})

describe('ranking paths', () => {
  test('a long run of tied scores out of docno order is fully sorted (docno descending)', async () => {
    // 100 documents, all score 1, listed ascending "d000".."d099"; only d042 is relevant.
    // Descending byte order puts d099 first, so d042 is at rank 99 - 42 + 1 = 58: RR = 1/58.
    const ids = Array.from({ length: 100 }, (_, i) => `d${String(i).padStart(3, '0')}`)
    const q = file(qrelsLines([['L', 'd042', 1]]))
    const r = file(runLines(ids.map((d) => ['L', d, 1] as [string, string, number])))
    expect((await values(q, r, ['RR'])).get('L')!.get('RR')).toBe(1 / 58)
    // short tie runs inside a score-ordered ranking take the insertion-sort path: same answer
    const r2 = file(
      runLines([
        ['L', 'd000', 2],
        ['L', 'd042', 1],
        ['L', 'd050', 1],
        ['L', 'd001', 0]
      ])
    )
    expect((await values(q, r2, ['RR'])).get('L')!.get('RR')).toBe(1 / 3)
  })
})

describe('the metrics command prints every record as scored', () => {
  test('passthrough fields in each record’s own order; a field the record lacks is absent, a null stays null', async () => {
    const q = file(
      qrelsLines([
        ['a', 'd1', 1],
        ['b', 'd1', 1],
        ['c', 'd1', 1]
      ])
    )
    const run = file(
      [
        { query_id: 'a', latency_ms: 12.5, cost: null, results: [{ doc_id: 'd1', score: 1 }] },
        { query_id: 'b', cost: 1, latency_ms: null, results: [{ doc_id: 'd1', score: 1 }] },
        { query_id: 'c', results: [{ doc_id: 'd1', score: 1 }] }
      ]
        .map((r) => JSON.stringify(r))
        .join('\n') + '\n',
      'jsonl'
    )
    let printed = ''
    await metricsCommand(
      { qrels: q, run, measures: ['P@1'], perQuery: true, format: 'jsonl' },
      (text) => (printed += text)
    )
    // The columns the gate reads cannot tell these apart (NaN is missing either way), so the command prints the rows it kept.
    expect(printed.split('\n').slice(0, 3)).toEqual([
      '{"query_id":"a","P@1":1,"latency_ms":12.5,"cost":null}',
      '{"query_id":"b","P@1":1,"cost":1,"latency_ms":null}',
      '{"query_id":"c","P@1":1}'
    ])
  })
})

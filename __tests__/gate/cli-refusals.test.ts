import { describe, expect, it } from '@jest/globals'
import { cli, hasStackTrace, jsonl, writeFiles } from '../helpers.js'

const RULES = `version: 1
metrics:
  recall@10: { better: higher, range: [0, 1] }
checks:
  - name: recall does not drop
    metric: recall@10
    non_inferior: { margin: 0.01 }
`

const rows = (n: number, value = 0.5) =>
  Array.from({ length: n }, (_, i) => ({ query_id: `q${i}`, 'recall@10': value }))

async function gate(baseline: string, candidate: string, rules = RULES, names = { b: 'base.jsonl', c: 'cand.jsonl' }) {
  const f = writeFiles({ 'rules.yml': rules, [names.b]: baseline, [names.c]: candidate })
  const r = await cli(['gate', '--rules', f['rules.yml'], '--baseline', f[names.b], '--candidate', f[names.c]])
  return { ...r, files: f }
}

/** Every refusal: exit 2, the message names the file (and line), nothing on stdout, no stack trace. */
function expectRefusal(r: { code: number; stdout: string; stderr: string }, file: string, pattern: RegExp) {
  expect(r.code).toBe(2)
  expect(r.stdout).toBe('')
  expect(r.stderr).toContain(file)
  expect(r.stderr).toMatch(pattern)
  expect(hasStackTrace(r.stderr)).toBe(false)
}

describe('gate refuses unusable pairings (exit 2, file and line, no stack trace)', () => {
  it('a query on one side only, listing the ids and lines', async () => {
    const r = await gate(jsonl(rows(40)), jsonl(rows(39)))
    expectRefusal(r, 'base.jsonl', /1 in the baseline only: "q39" \(.*base\.jsonl:40\)/)
    expect(r.stderr).toMatch(/queries\.missing: zero/)
  })

  it('a query only in the candidate', async () => {
    const r = await gate(jsonl(rows(40)), jsonl([...rows(40), { query_id: 'extra', 'recall@10': 1 }]))
    expectRefusal(r, 'cand.jsonl', /in the candidate only: "extra" \(.*cand\.jsonl:41\)/)
  })

  it('a duplicate id, naming both lines', async () => {
    const r = await gate(jsonl([...rows(40), { query_id: 'q3', 'recall@10': 0.1 }]), jsonl(rows(40)))
    expectRefusal(r, 'base.jsonl', /duplicate query ids: "q3" \(lines 4 and 41\)/)
  })

  it('a missing value (null), naming the query and the line', async () => {
    const bad = rows(40) as Array<Record<string, unknown>>
    bad[6] = { query_id: 'q6', 'recall@10': null }
    const r = await gate(jsonl(rows(40)), jsonl(bad))
    expectRefusal(r, 'cand.jsonl', /missing metric values: "q6" \(.*cand\.jsonl:7, recall@10\)/)
  })

  it('a missing field', async () => {
    const bad = rows(40) as Array<Record<string, unknown>>
    bad[2] = { query_id: 'q2' }
    const r = await gate(jsonl(bad), jsonl(rows(40)))
    expectRefusal(r, 'base.jsonl', /"q2" \(.*base\.jsonl:3, recall@10\)/)
  })

  it('a non-finite value in CSV (1e400 overflows)', async () => {
    const csv =
      'query_id,recall@10\n' +
      rows(40)
        .map((r, i) => `${r.query_id},${i === 9 ? '1e400' : '0.5'}`)
        .join('\n') +
      '\n'
    const r = await gate(csv, csv, RULES, { b: 'base.csv', c: 'cand.csv' })
    expectRefusal(r, 'base.csv:11', /"1e400" overflows to infinity/)
  })

  it('NaN in CSV, and hex', async () => {
    const csv = (v: string) => 'query_id,recall@10\nq0,0.5\nq1,' + v + '\n'
    expectRefusal(
      await gate(csv('NaN'), csv('0.5'), RULES, { b: 'b.csv', c: 'c.csv' }),
      'b.csv:3',
      /"NaN" is not a decimal number/
    )
    expectRefusal(
      await gate(csv('0x10'), csv('0.5'), RULES, { b: 'b.csv', c: 'c.csv' }),
      'b.csv:3',
      /"0x10" is not a decimal number/
    )
  })

  it('a value outside the declared range', async () => {
    const bad = rows(40)
    bad[4] = { query_id: 'q4', 'recall@10': 1.5 }
    const r = await gate(jsonl(rows(40)), jsonl(bad))
    expectRefusal(r, 'cand.jsonl:5', /recall@10 = 1\.5 is outside its range \[0, 1\]/)
  })

  it('a number written as a string', async () => {
    const bad = rows(40) as Array<Record<string, unknown>>
    bad[0] = { query_id: 'q0', 'recall@10': '0.5' }
    const r = await gate(jsonl(bad), jsonl(rows(40)))
    expectRefusal(r, 'base.jsonl:1', /"recall@10" is a string \("0\.5"\), not a number/)
  })

  it('a numeric query id', async () => {
    const r = await gate('{"query_id": 9007199254740993, "recall@10": 0.5}\n', jsonl(rows(1)))
    expectRefusal(r, 'base.jsonl:1', /is a number .* not a string/)
  })

  it('a metric the rows do not have, with a suggestion', async () => {
    const r = await gate(jsonl(rows(40).map((x) => ({ query_id: x.query_id, 'recall@1O': 0.5 }))), jsonl(rows(40)))
    expectRefusal(r, 'base.jsonl', /no row has the metric "recall@10".*did you mean "recall@1O"/)
  })

  it('a missing input file', async () => {
    const f = writeFiles({ 'rules.yml': RULES })
    const r = await cli(['gate', '--rules', f['rules.yml'], '--baseline', 'nope.jsonl', '--candidate', 'nope2.jsonl'])
    expectRefusal(r, 'nope.jsonl', /file not found/)
  })

  it('a rules path that is missing, or runs through a regular file, is named with what went wrong', async () => {
    const f = writeFiles({ 'rules.yml': RULES, 'base.jsonl': jsonl(rows(40)) })
    const missing = await cli([
      'gate',
      '--rules',
      'nope.yml',
      '--baseline',
      f['base.jsonl'],
      '--candidate',
      f['base.jsonl']
    ])
    expectRefusal(missing, 'nope.yml', /file not found/)
    // ENOTDIR is not "file not found" (the load.ts reader used to say so for every failure of stat)
    const through = await cli([
      'gate',
      '--rules',
      `${f['rules.yml']}/x.yml`,
      '--baseline',
      f['base.jsonl'],
      '--candidate',
      f['base.jsonl']
    ])
    expectRefusal(through, 'rules.yml/x.yml', /cannot be read: ENOTDIR/)
  })

  it('usage errors exit 2 with the usage', async () => {
    const r = await cli(['gate', '--rules', 'x'])
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/missing --baseline, --candidate/)
  })
})

describe('missing: zero fills and counts instead of refusing', () => {
  it('scores the absent side 0 and says how many', async () => {
    const rules = RULES.replace('checks:', 'queries: { missing: zero }\nchecks:')
    const f = writeFiles({ 'rules.yml': rules, 'b.jsonl': jsonl(rows(40)), 'c.jsonl': jsonl(rows(38)) })
    const r = await cli([
      'gate',
      '--rules',
      f['rules.yml'],
      '--baseline',
      f['b.jsonl'],
      '--candidate',
      f['c.jsonl'],
      '--json',
      f['rules.yml'] + '.json'
    ])
    expect(r.code).toBe(1)
    expect(r.stdout).toMatch(/2 only in the baseline \(filled: missing zero\), 0 only in the candidate/)
    expect(r.stdout).toMatch(/\| `recall@10`: values filled \(missing: zero\) \| 0 baseline, 2 candidate \|/)
    expect(r.stdout).toMatch(/Only in the baseline: q38, q39\./)
  })
})

describe('ids in two Unicode spellings', () => {
  it('are not paired, and the refusal says they differ only in normalisation', async () => {
    const nfc = 'caf\u00e9'
    const nfd = 'cafe\u0301'
    const base = [...rows(39), { query_id: nfc, 'recall@10': 0.5 }]
    const cand = [...rows(39), { query_id: nfd, 'recall@10': 0.5 }]
    const r = await gate(jsonl(base), jsonl(cand))
    expect(r.code).toBe(2)
    expect(r.stderr).toContain(
      '1 of them differ only in Unicode normalisation (e.g. baseline "caf\\u00e9" vs candidate "cafe\\u0301")'
    )
  })
})

describe('TREC qrels with mixed tabs and spaces', () => {
  it('are read as TREC qrels, not as a BEIR file with a header', async () => {
    const f = writeFiles({ 'q.txt': 'q1\t0\td1 1\nq1\t0\td2 0\n', 'r.txt': 'q1 Q0 d1 1 2.0 x\nq1 Q0 d2 2 1.0 x\n' })
    const r = await cli(['metrics', '--qrels', f['q.txt'], '--run', f['r.txt'], '-m', 'P@1'])
    expect(r.stderr).toBe('')
    // Hand calculation: d1 (grade 1) is ranked first, so P@1 = 1.
    expect(r.stdout).toBe('P@1\tall\t1.0000\n')
  })
})

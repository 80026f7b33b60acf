/**
 * Hostile answers and exam files of the capabilities (issue 24): the candidate judge's labels and the queries file
 * are bounded like every input (a 16 MiB id, a giant label, a flood of distinct labels, repeated ids), and an
 * answer given for an input nothing reads is refused rather than silently ignored. Every refusal is exit 2 with
 * the file, no stack trace, and no raw control character in the message.
 */
import { describe, expect, it } from '@jest/globals'
import { cli, hasStackTrace, jsonl, writeFiles } from '../helpers.js'

const rows = (side: 'b' | 'c'): string =>
  jsonl(
    Array.from({ length: 20 }, (_, i) => ({
      query_id: `q${i}`,
      m: side === 'b' ? 0.5 : 0.55,
      family: i % 2 ? 'a' : 'b'
    }))
  )
const RULES =
  'version: 1\nmetrics:\n  m: { better: higher, range: [0, 1] }\nqueries: { min_per_slice: 5 }\nstatistics: { resamples: 200 }\nchecks:\n  - { name: holds, metric: m, non_inferior: { margin: 0.2 } }\n'
const ANCHORS = jsonl(Array.from({ length: 12 }, (_, i) => ({ id: `a${i}`, human: i % 2, judge: i % 2 })))

async function gate(
  rulesTail: string,
  files: Record<string, string | Buffer>,
  extra: (f: Record<string, string>) => string[] = () => []
) {
  const f = writeFiles({ 'b.jsonl': rows('b'), 'c.jsonl': rows('c'), 'anchors.jsonl': ANCHORS, ...files })
  const base = rulesTail.includes('queries:') ? RULES.replace('queries: { min_per_slice: 5 }\n', '') : RULES
  const rules = writeFiles({
    'rules.yml':
      base +
      rulesTail
        .split('ANCHORS')
        .join(f['anchors.jsonl'])
        .split('QUERIES')
        .join(f['queries.jsonl'] ?? '')
  })['rules.yml']
  const r = await cli([
    'gate',
    '--rules',
    rules,
    '--baseline',
    f['b.jsonl'],
    '--candidate',
    f['c.jsonl'],
    '--format',
    'json',
    ...extra(f)
  ])
  return r
}

const refused = (r: { code: number; stderr: string }, what: RegExp): void => {
  expect(r.code).toBe(2)
  expect(r.stderr).toMatch(what)
  expect(hasStackTrace(r.stderr)).toBe(false)
  // One message line (plus its hint), never a raw control character from the input.

  expect(r.stderr.replace(/\n$/, '')).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f\u2028\u2029]/)
}

describe("the candidate judge's labels are bounded and may only fill in the anchors", () => {
  const labels = (records: Array<Record<string, unknown>>): Record<string, string> => ({
    'labels.jsonl': jsonl(records)
  })
  const withLabels = (f: Record<string, string>): string[] => ['--candidate-judge-labels', f['labels.jsonl']]
  const judge = 'judge: { anchors: ANCHORS, min_kappa: 0.5 }\n'

  it('an id past the id cap is refused by it, and a 16 MiB line by the line cap', async () => {
    refused(
      await gate(judge, labels([{ id: 'x'.repeat(2000), judge: 1 }]), withLabels),
      /is 2000 characters long; the limit is 1024/
    )
    refused(
      await gate(judge, labels([{ id: 'x'.repeat(16 * 1024 * 1024), judge: 1 }]), withLabels),
      /line is longer than 16777216 bytes/
    )
  })

  it('a label that is a document, and more distinct labels than a scale has, are refused', async () => {
    refused(
      await gate(judge, labels([{ id: 'a0', judge: 'y'.repeat(5000) }]), withLabels),
      /a label is a short word or a grade/
    )
    // Labels with newlines and workflow commands are data: the run is judged and no output line starts a command.
    const hostile = await gate(
      judge,
      labels(Array.from({ length: 12 }, (_, i) => ({ id: `a${i}`, judge: `l${i % 2}\n::error::x` }))),
      withLabels
    )
    expect([0, 1]).toContain(hostile.code)
    expect(hostile.stdout.split('\n').some((l) => l.startsWith('::'))).toBe(false)
    const flood = Array.from({ length: 12 }, (_, i) => ({ id: `a${i}`, judge: i }))
    const many = jsonl([...flood, ...Array.from({ length: 200 }, (_, i) => ({ id: `a${i % 12}`, judge: 100 + i }))])
    refused(
      await gate(judge, { 'labels.jsonl': many }, withLabels),
      /labelled \d+ times, but|more than 100 distinct labels/
    )
  })

  it('labels given without judge anchors in the rules are refused: nothing would read them', async () => {
    refused(
      await gate('', labels([{ id: 'a0', judge: 1 }]), withLabels),
      /--candidate-judge-labels.*was given, but nothing in these rules reads it/
    )
  })
})

describe('the queries file is bounded like every exam file', () => {
  const tail = 'queries: { min_per_slice: 5, file: QUERIES }\nslices: [family]\n'
  const queries = (records: Array<Record<string, unknown>>): Record<string, string> => ({
    'queries.jsonl': jsonl(records)
  })

  it('a 16 MiB id and an attribute past the cap are refused; a long text is kept cut', async () => {
    refused(await gate(tail, queries([{ query_id: 'z'.repeat(2000), family: 'a' }])), /the limit is 1024/)
    refused(
      await gate(tail, queries([{ query_id: 'q0', family: 'f'.repeat(300) }])),
      /the limit for an attribute the rules use is 256/
    )
    const long = Array.from({ length: 20 }, (_, i) => ({
      query_id: `q${i}`,
      text: 't'.repeat(100_000),
      family: i % 2 ? 'a' : 'b'
    }))
    const r = await gate(tail, queries(long))
    expect(r.code).not.toBe(2)
  })

  it('an attribute that is not a label (an object) is refused with its line', async () => {
    refused(
      await gate(tail, queries([{ query_id: 'q0', family: { nested: true } }])),
      /attribute "family" is not a string/
    )
  })
})

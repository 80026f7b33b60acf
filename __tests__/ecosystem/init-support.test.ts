/**
 * Issue 34 item 9: `init` from runs takes the queries file (its attributes become slices), never proposes a slice
 * the runs cannot have, and writes per check the rule that actually decides (the fewest queries on which it can pass,
 * docs/statistics.md "The reliability rule"), as `explain` states it. Fixtures: examples/trec (200 TREC queries,
 * a queries file with segment and topic).
 */
import { beforeAll, describe, expect, it } from '@jest/globals'
import { readFileSync, writeFileSync } from 'node:fs'
import { cli, tempDir } from '../helpers.js'
import path from 'node:path'

const dir = tempDir('rg-init-support-')
const RUNS = ['--baseline', 'examples/trec/baseline.run', '--candidate', 'examples/trec/candidate.run']

describe('init from runs and judgments', () => {
  it('takes the queries file: its attributes are the slices, and the rules name it as queries.file', async () => {
    const out = path.join(dir, 'with-queries.yml')
    const r = await cli([
      'init',
      ...RUNS,
      '--qrels',
      'examples/runs/qrels.txt',
      '--queries',
      'examples/trec/queries.jsonl',
      '--out',
      out
    ])
    expect(r.stderr).toBe('')
    const text = readFileSync(out, 'utf8')
    expect(text).toContain('slices: [segment, topic]')
    expect(text).toContain('queries: { file: "examples/trec/queries.jsonl", missing: error, min_per_slice: 30 }')
    const gate = await cli(['gate', '--rules', out, ...RUNS, '--format', 'json'])
    expect(gate.stderr).toBe('')
  })
  it('without a queries file it says to give one, never "add slices: [segment]", which runs cannot have', async () => {
    const out = path.join(dir, 'no-queries.yml')
    await cli(['init', ...RUNS, '--qrels', 'examples/runs/qrels.txt', '--out', out])
    const text = readFileSync(out, 'utf8')
    expect(text).not.toContain('slices: [segment]')
    expect(text).toContain('run init again with --queries FILE')
  })
  it('writes the margin 200 queries can support and the fewest queries each check can pass on; explain says the same', async () => {
    const out = path.join(dir, 'support.yml')
    await cli(['init', ...RUNS, '--qrels', 'examples/runs/qrels.txt', '--out', out])
    const text = readFileSync(out, 'utf8')
    // python: 1 - 0.025 ** (1/200) = 0.01827: 200 queries support 2 points, not 1 (which needs 368).
    expect(text).toContain('non_inferior: { margin: 0.02 }')
    expect(text).toContain('Unchanged, it can pass from 183 queries on (you have 200; better, on fewer)')
    expect(text).toContain('a margin of 0.01 would need 368')
    const explain = await cli(['explain', '--rules', out])
    expect(explain.stdout).toContain(
      'An unchanged candidate can pass only from 183 queries (a better one may pass on fewer, a worse one needs more)'
    )
  })
})

describe("init guesses a metric's direction from its name", () => {
  it('is lower for RAG, speech and tail-latency names, and says to check a higher guess', async () => {
    // Guessed "higher" before: hallucination_rate, wer, ttft, p99 and perplexity all rose to "better".
    const names = [
      'hallucination_rate',
      'wer',
      'ttft',
      'p99',
      'perplexity',
      'toxicity',
      'faithfulness',
      'reciprocal_rank'
    ]
    const side = (shift: number): string =>
      Array.from({ length: 40 }, (_, i) =>
        JSON.stringify({
          query_id: `q${i}`,
          ...Object.fromEntries(names.map((n, j) => [n, ((i * 7 + j) % 10) / 10 + shift]))
        })
      ).join('\n') + '\n'
    writeFileSync(path.join(dir, 'b.jsonl'), side(0))
    writeFileSync(path.join(dir, 'c.jsonl'), side(0.01))
    const out = path.join(dir, 'directions.yml')
    const r = await cli([
      'init',
      '--baseline',
      path.join(dir, 'b.jsonl'),
      '--candidate',
      path.join(dir, 'c.jsonl'),
      '--out',
      out
    ])
    expect(r.stderr).toBe('')
    const text = readFileSync(out, 'utf8')
    const better = (name: string): string | undefined => new RegExp(`\\n  ${name}: +\\{ better: (\\w+)`).exec(text)?.[1]
    for (const n of names.slice(0, 6)) expect([n, better(n)]).toEqual([n, 'lower'])
    expect(better('faithfulness')).toBe('higher')
    expect(better('reciprocal_rank')).toBe('higher')
  })
})

describe("init's notes", () => {
  it("say whose they are: a judged query absent from the candidate run is the candidate's", async () => {
    const run = readFileSync('examples/trec/candidate.run', 'utf8')
    const first = run.split('\n')[0].split(/\s+/)[0]
    const dropped = path.join(dir, 'dropped.run')
    writeFileSync(
      dropped,
      run
        .split('\n')
        .filter((l) => l.split(/\s+/)[0] !== first)
        .join('\n')
    )
    const out = path.join(dir, 'notes.yml')
    const r = await cli([
      'init',
      '--baseline',
      'examples/trec/baseline.run',
      '--candidate',
      dropped,
      '--qrels',
      'examples/runs/qrels.txt',
      '--out',
      out
    ])
    expect(r.stdout).toMatch(/^Note: candidate .*dropped\.run: 1 judged query absent from the run scored 0/m)
    expect(r.stdout).not.toMatch(/^Note: 1 judged query/m)
  })
})

describe('init on the ragas fixture (8 questions, one answer without faithfulness)', () => {
  const f = '__tests__/fixtures/importers/ragas'
  const out = path.join(dir, 'ragas.yml')
  const args = ['--baseline', `${f}/baseline.csv`, '--candidate', `${f}/candidate.csv`, '--id-field', 'user_input']
  let stdout = ''
  beforeAll(async () => {
    stdout = (await cli(['init', ...args, '--out', out])).stdout
  })

  it('warns that the gate will stop on the missing value, and how to score it instead', () => {
    expect(stdout).toContain(
      "Warning: faithfulness has no value in 1 candidate row; the gate stops on a missing value (queries.missing: error): give every row its value, or set queries.missing: zero to score it as the metric's worst (its fill)."
    )
  })

  it('sizes the margins for min_per_slice queries and says that is where they can pass, not "from 8 on"', () => {
    const text = readFileSync(out, 'utf8')
    expect(text).toContain('# Only 8 paired queries: with min_per_slice 30 every statistical check is inconclusive')
    // python: 1 - 0.025 ** (1/30) = 0.1157: 30 queries support 12 points
    expect(text).toContain('non_inferior: { margin: 0.12 }')
    expect(text).toContain('# It can pass from 30 queries on (queries.min_per_slice; you have 8)')
    expect(text).not.toContain('can pass from 8 queries on')
  })
})

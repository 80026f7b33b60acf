/**
 * Bounded in time and memory, whatever the pull request writes (issue 12): each case is a hostile input the
 * gate must refuse in seconds with exit 2 and the place (file:line or the rules key), through the in-process
 * CLI. The unit tests with small caps are in bounded.test.ts; scripts/bench-hostile.js measures the same
 * inputs at full size (docs/limits.md, "Measured on hostile input").
 */
import { describe, expect, it } from '@jest/globals'
import { spawn, spawnSync } from 'node:child_process'
import path from 'node:path'
import { tempDir } from '../helpers.js'
import { RULES, rowsCsv, rowsJsonl, runCase, type HostileCase } from './harness.js'
import { cli } from '../helpers.js'

const csvArgs = [
  'gate',
  '--rules',
  '{rules.yml}',
  '--baseline',
  '{b.csv}',
  '--candidate',
  '{c.csv}',
  '--json',
  '{report.json}'
]
const SLICED = RULES.replace('queries:', 'slices: [seg]\nqueries:')
const PER_SLICE = `version: 1
metrics:
  m: { better: higher, range: [0, 1] }
queries: { min_per_slice: 1 }
statistics: { resamples: 200, seed: 3 }
checks:
  - name: each user
    metric: m
    where: { segment: new }
    per_slice: user
    max_regressions: { count: 1, threshold: 0.5 }
`
const CLUSTERED = RULES.replace(
  'statistics: { resamples: 200, seed: 3 }',
  'statistics: { resamples: 200, seed: 3, cluster: user }'
)

/** `n` rows whose `seg` takes `values` distinct values. */
function sliced(n: number, values: number, attr = 'seg'): string {
  return (
    Array.from({ length: n }, (_, i) => JSON.stringify({ query_id: `q${i}`, m: 0.5, [attr]: `v${i % values}` })).join(
      '\n'
    ) + '\n'
  )
}

/** 40,002 rows: 20,001 users of segment "new", plus 100 rows of segment "old" that share one user. */
function perSliceRows(): string {
  const rows = Array.from({ length: 40002 }, (_, i) => ({
    query_id: `q${i}`,
    m: 0.5,
    segment: 'new',
    user: `u${i % 20001}`
  }))
  for (let i = 0; i < 100; i++) rows.push({ query_id: `old${i}`, m: 0.5, segment: 'old', user: 'u-shared' })
  return rows.map((r) => JSON.stringify(r)).join('\n') + '\n'
}

const BOUNDED_CASES: HostileCase[] = [
  // --- numbers: one linear scan, capped at MAX_NUMBER_CHARS (the regex backtracked: 100,000 digits took 17 s)
  {
    name: 'a CSV metric cell of 30,000 digits then "x" is refused by its length, at once',
    files: { 'rules.yml': RULES, 'b.csv': rowsCsv(), 'c.csv': 'query_id,m\nq1,' + '1'.repeat(30000) + 'x\n' },
    args: csvArgs,
    code: 2,
    where: 'c.csv:2',
    message: /is 30001 characters long; a number is at most 1000/
  },
  {
    name: 'a 1,000-character decimal is still a number',
    files: { 'rules.yml': RULES, 'b.csv': rowsCsv(1), 'c.csv': 'query_id,m\nq1,0.' + '5'.repeat(998) + '\n' },
    args: csvArgs,
    code: 0
  },
  // --- CSV records spanning lines are capped like a line (an open quote over 600 MB aborted V8 at 4.3 GB)
  {
    name: 'a quote left open at line 2 of a 17 MiB CSV is refused at the record cap, at its starting line',
    files: {
      'rules.yml': RULES,
      'b.csv': rowsCsv(),
      'c.csv': 'query_id,m\n"q1,0.5\n' + ('y'.repeat(1023) + '\n').repeat(17 * 1024)
    },
    args: csvArgs,
    code: 2,
    where: 'c.csv:2',
    message: /a CSV record \(a quoted field spanning lines\) is longer than 16777216 bytes \(the record cap\)/
  },
  // --- special files (stat size 0: `--rules /dev/zero` grew to 14.8 GB)
  {
    name: '--candidate /dev/zero is refused as a device',
    files: { 'rules.yml': RULES, 'b.jsonl': rowsJsonl() },
    args: ['gate', '--rules', '{rules.yml}', '--baseline', '{b.jsonl}', '--candidate', '/dev/zero'],
    code: 2,
    where: '/dev/zero',
    message: /is a device, not a regular file/
  },
  {
    name: '--rules /dev/zero is refused as a device',
    files: { 'b.jsonl': rowsJsonl() },
    args: ['gate', '--rules', '/dev/zero', '--baseline', '{b.jsonl}', '--candidate', '{b.jsonl}'],
    code: 2,
    where: '/dev/zero',
    message: /is a device, not a regular file/
  },
  // --- kept values are capped; values the rules do not use are not kept
  {
    name: 'a 2,000-character query id is refused with its line',
    files: {
      'rules.yml': RULES,
      'b.jsonl': rowsJsonl(),
      'c.jsonl': JSON.stringify({ query_id: 'q'.repeat(2000), m: 0.5 }) + '\n'
    },
    code: 2,
    where: 'c.jsonl:1',
    message: /the query id "q{40}"… is 2000 characters long; the limit is 1024/
  },
  {
    name: 'a 300-character value of a slice attribute is refused with its line and query',
    files: {
      'rules.yml': SLICED,
      'b.jsonl': rowsJsonl(3, 0.5, { seg: 'a' }),
      'c.jsonl':
        rowsJsonl(2, 0.5, { seg: 'a' }) + JSON.stringify({ query_id: 'q3', m: 0.5, seg: 's'.repeat(300) }) + '\n'
    },
    code: 2,
    where: 'c.jsonl:3',
    message: /attribute "seg" is 300 characters long .*the limit for an attribute the rules use is 256/
  },
  {
    name: 'a long string the rules do not use is read and not kept (no cap beyond the line)',
    files: { 'rules.yml': RULES, 'b.jsonl': rowsJsonl(3, 0.5, { answer: 'x'.repeat(100000) }), 'c.jsonl': rowsJsonl() },
    code: 0,
    check: (r) => expect(JSON.stringify(r.report)).not.toContain('xxxxxxxxxx')
  },
  // --- distinct values per slice attribute (cap 20,000: its cost is measured by npm run bench:scale)
  {
    name: 'slices over an attribute with 20,001 values are refused with the count and the rules key',
    files: { 'rules.yml': SLICED, 'b.jsonl': sliced(20002, 20001), 'c.jsonl': sliced(20002, 20001) },
    code: 2,
    where: 'slices[0]',
    message: /attribute "seg" has 20001 distinct values; a slice attribute may have at most 20000/
  },
  {
    name: 'per_slice over 20,001 users (among the queries its where selects) is refused with the check key and line',
    files: { 'rules.yml': PER_SLICE, 'b.jsonl': perSliceRows(), 'c.jsonl': perSliceRows() },
    code: 2,
    where: 'rules.yml:7 (checks[0].per_slice)',
    message: /attribute "user" has 20001 distinct values/
  },
  {
    name: 'the cluster attribute is not capped: 3,000 users are one cluster each',
    files: { 'rules.yml': CLUSTERED, 'b.jsonl': sliced(3000, 3000, 'user'), 'c.jsonl': sliced(3000, 3000, 'user') },
    code: 0
  }
]

describe('bounded in time and memory: hostile inputs end in seconds with exit 2 and the place', () => {
  for (const c of BOUNDED_CASES) {
    it(
      c.name,
      async () => {
        const start = Date.now()
        await runCase(c)
        expect(Date.now() - start).toBeLessThan(15000)
      },
      30000
    )
  }
})

describe('pipes (FIFO, process substitution) are read under the same cap', () => {
  const fifoRules = async (content: string): Promise<{ code: number; stderr: string }> => {
    const dir = tempDir()
    const fifo = path.join(dir, 'rules.fifo')
    if (spawnSync('mkfifo', [fifo]).status !== 0) throw new Error('mkfifo failed')
    const rows = path.join(dir, 'b.jsonl')
    spawnSync('sh', ['-c', `printf '%s' '${rowsJsonl()}' > ${rows}`])
    const writer = spawn('sh', ['-c', `cat > ${fifo}`], { stdio: ['pipe', 'ignore', 'ignore'] })
    writer.stdin.on('error', () => undefined)
    writer.stdin.end(content)
    const r = await cli(['gate', '--rules', fifo, '--baseline', rows, '--candidate', rows])
    writer.kill()
    return r
  }

  it('rules through a pipe are read', async () => {
    const r = await fifoRules(RULES)
    expect(r.code).toBe(0)
  })

  it('rules through a pipe that delivers more than the 1 MiB cap are refused at the cap', async () => {
    const r = await fifoRules('#'.repeat(2 * 1024 * 1024))
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(
      /rules\.fifo: is larger than 1048576 bytes; a rules file is read whole and the limit is 1048576/
    )
  })
})

describe('runs: query and document ids are capped like rows', () => {
  const run = (): string[] => ['metrics', '--qrels', '{qrels.txt}', '--run', '{run.txt}', '-m', 'P@5']
  const cases: HostileCase[] = [
    {
      name: 'a 2,000-character query id in a TREC run',
      files: { 'qrels.txt': 'q1 0 d1 1\n', 'run.txt': 'q1 Q0 d1 1 2.0 t\n' + 'x'.repeat(2000) + ' Q0 d1 1 1.0 t\n' },
      args: run(),
      code: 2,
      where: 'run.txt:2',
      message: /the query id "x{40}"… is 2000 characters long/
    },
    {
      name: 'a 2,000-byte document id in a TREC run',
      files: { 'qrels.txt': 'q1 0 d1 1\n', 'run.txt': 'q1 Q0 d1 1 2.0 t\nq1 Q0 ' + 'd'.repeat(2000) + ' 2 1.0 t\n' },
      args: run(),
      code: 2,
      where: 'run.txt:2',
      message: /a document id is 2000 bytes long; the limit is 1024/
    }
  ]
  for (const c of cases) it(c.name, async () => void (await runCase(c)))
})

/**
 * Aggregates checked against their own counts (issue 33, item 6): `gate --aggregates` reads sums a warehouse job
 * wrote, and sums that no set of rows could give (a count of 2^53 - 1 queries, more wins than queries, a negative
 * sum of squares) are refused with the file and the key. The aggregates here are written by hand for four queries,
 * and their sums are worked out below; each case breaks one of them.
 */
import { describe, expect, it } from '@jest/globals'
import { writeFileSync } from 'node:fs'
import path from 'node:path'
import { aggregatesMeta, coverageStats } from '../../src/config/aggregates-plan.js'
import { loadRules } from '../../src/config/rules.js'
import { readAggregates } from '../../src/readers/aggregates.js'
import { localFile } from '../../src/readers/fetched.js'
import { cli, tempDir } from '../helpers.js'

const RULES_TEXT = `version: 1
metrics:
  recall: { better: higher, range: [0, 1] }
statistics: { resamples: 200, seed: 3 }
checks:
  - name: recall holds
    metric: recall
    non_inferior: { margin: 0.05 }
`
const rules = loadRules(RULES_TEXT, 'rules.yml')

/**
 * Four paired queries: baseline 0.5, 0.6, 0.7, 0.8 and candidate 0.6, 0.6, 0.6, 0.9, so d = 0.1, 0, -0.1, 0.1.
 * sum 0.1, sum_abs 0.3, sum_baseline 2.6, sum_candidate 2.7; mean 0.025, m2 = 0.075^2 + 0.025^2 + 0.125^2 + 0.075^2
 * = 0.0275, m3 = 0.075^3 - 0.025^3 - 0.125^3 + 0.075^3 = -0.001125; 2 wins (d > 0), 1 loss, nothing gained or lost
 * (not a binary metric); the histogram of d: -0.1 once, 0 once, 0.1 twice. The candidate's own centred moments
 * (levels): mean 0.675, m2 = 3 x 0.075^2 + 0.225^2 = 0.0675, m3 = -3 x 0.075^3 + 0.225^3 = 0.010125.
 */
const SUMS: Record<string, number> = {
  n: 4,
  sum: 0.1,
  sum_abs: 0.3,
  sum_baseline: 2.6,
  sum_candidate: 2.7,
  m2: 0.0275,
  m3: -0.001125,
  wins: 2,
  losses: 1,
  gained: 0,
  lost: 0,
  m2_candidate: 0.0675,
  m3_candidate: 0.010125
}
const HISTOGRAM: Array<[number, number]> = [
  [-0.1, 1],
  [0, 1],
  [0.1, 2]
]

function row(section: string, stat: string, x: number, over: Record<string, unknown> = {}): string {
  const metric = section === 'sums' && stat !== 'n' ? 'recall' : section === 'histogram' ? 'recall' : ''
  return JSON.stringify({
    section,
    shard: 's0',
    family: 0,
    value: '',
    stratum: '',
    metric,
    stat,
    slot: 0,
    x,
    y: 0,
    ...over
  })
}

/** The aggregates file, with `change` applied to the sums (and `histogram` replacing the histogram). */
function aggregates(change: Record<string, number> = {}, histogram = HISTOGRAM): string {
  const meta = [...aggregatesMeta(rules), ['sums', 'histograms']].map(([k, v]) =>
    JSON.stringify({
      section: 'meta',
      shard: 's0',
      family: 0,
      value: v,
      stratum: '',
      metric: '',
      stat: k,
      slot: 0,
      x: 0,
      y: 0
    })
  )
  const coverage = coverageStats(rules).map((stat) => row('coverage', stat, stat.endsWith('_rows') ? 4 : 0))
  const sums = Object.entries({ ...SUMS, ...change }).map(([stat, x]) => row('sums', stat, x))
  const hist = histogram.map(([v, c]) => row('histogram', 'count', v, { y: c }))
  return [...meta, ...coverage, ...sums, ...hist].join('\n') + '\n'
}

const read = (text: string) => {
  const file = path.join(tempDir('rg-aggregates-'), 'sums.jsonl')
  writeFileSync(file, text)
  return readAggregates([localFile(file)], rules)
}

describe('aggregates agree with their own counts', () => {
  it('the hand-made aggregates of four queries are read', async () => {
    const a = await read(aggregates())
    expect(a.subsets[0].strata[0]).toMatchObject({ n: 4 })
    expect(a.subsets[0].strata[0].metrics[0]).toMatchObject({ wins: 2, losses: 1, sumAbs: 0.3 })
  })

  const cases: Array<[string, Record<string, number>, string]> = [
    [
      'n of 2^53 - 1',
      { n: Number.MAX_SAFE_INTEGER },
      '(sums n): shard "s0", family 0: counts 9007199254740991 queries, more than 100000000000'
    ],
    [
      'n above the baseline rows',
      { n: 5 },
      '(sums n): shard "s0", family 0: counts 5 queries, more than the shard\'s 4 baseline rows'
    ],
    [
      'more wins and losses than queries',
      { wins: 4 },
      '(sums wins, losses): shard "s0", family 0: wins 4 and losses 1 of "recall" add up to more than its 4 queries'
    ],
    ['more gained and lost than queries', { gained: 3, lost: 2 }, '(sums gained, lost):'],
    [
      '|sum| above sum_abs',
      { sum: 0.5, sum_candidate: 3.1 },
      '(sums sum, sum_abs): shard "s0", family 0: |sum| 0.5 of "recall" is larger than sum_abs 0.3'
    ],
    [
      'sum_abs above n times the range',
      { sum_abs: 4.5 },
      '(sums sum_abs): shard "s0", family 0: sum_abs 4.5 of "recall" is more than its 4 queries times the width 1 of its range'
    ],
    ['a negative m2', { m2: -0.01 }, '(sums m2): shard "s0", family 0: m2 -0.01 of "recall" is negative'],
    ['sum_candidate beyond the range', { sum_candidate: 4.7, sum: 2.1, sum_abs: 2.1 }, '(sums sum_candidate):'],
    [
      'sum not sum_candidate - sum_baseline',
      { sum: 0.2 },
      '(sums sum): shard "s0", family 0: sum 0.2 of "recall" is not sum_candidate - sum_baseline'
    ],
    [
      'm2 beyond the range',
      { m2: 0.5 },
      '(sums m2): shard "s0", family 0: m2 0.5 of "recall" is more than the width 1 of its range times sum_abs 0.3'
    ]
  ]
  it.each(cases)('refuses %s with the file and the key', async (_name, change, message) => {
    await expect(read(aggregates(change))).rejects.toThrow(message)
    await expect(read(aggregates(change))).rejects.toThrow(/sums\.jsonl \(/)
  })

  it('refuses a histogram whose counts are not n, or whose values do not add up to the sums', async () => {
    await expect(
      read(
        aggregates({}, [
          [-0.1, 1],
          [0, 1],
          [0.1, 3]
        ])
      )
    ).rejects.toThrow(
      '(histogram): shard "s0", family 0: the histogram counts of "recall" add up to 5, not its 4 queries'
    )
    await expect(
      read(
        aggregates({}, [
          [-0.1, 2],
          [0, 0],
          [0.1, 2]
        ])
      )
    ).rejects.toThrow('the histogram of "recall" adds up to')
    await expect(
      read(
        aggregates({}, [
          [-2, 1],
          [0, 1],
          [0.1, 2]
        ])
      )
    ).rejects.toThrow('the histogram value -2 of "recall" is a larger change than the width 1 of its range')
  })

  /** The gate on these aggregates (statistics.interval auto, the default), through the CLI. */
  const gate = async (text: string) => {
    const dir = tempDir('rg-aggregates-')
    writeFileSync(path.join(dir, 'rules.yml'), RULES_TEXT)
    writeFileSync(path.join(dir, 'sums.jsonl'), text)
    return cli(['gate', '--rules', path.join(dir, 'rules.yml'), '--aggregates', path.join(dir, 'sums.jsonl')])
  }

  it('are decided under interval auto without drawing a bootstrap the rules did not ask for', async () => {
    const r = await gate(aggregates())
    expect(r.stderr).toBe('')
    expect([0, 1]).toContain(r.code)
  })

  it('without the histogram a subset of so few queries needs for its exact sign test, refused with the metric', async () => {
    const r = await gate(aggregates({}, []))
    expect(r.code).toBe(2)
    expect(r.stderr).toContain('(histogram recall): all queries has 4 queries, so its randomization test takes every')
    expect(r.stderr).not.toMatch(/\n\s+at /)
  })
})

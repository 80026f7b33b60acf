/**
 * Seed replicates: several --baseline / --candidate files, one per independently trained seed. The statistic is
 * the difference of seed-averaged means; its interval is a t interval over the seeds' spread and the queries
 * (statistics.interval auto; the two-level bootstrap with percentile or bca), docs/statistics.md.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { describe, expect, it } from '@jest/globals'
import { cli, jsonl, writeFiles } from '../helpers.js'
import { readInputs } from '../../src/github/inputs.js'

const N = 100
const id = (q: number): string => `q${String(q).padStart(2, '0')}`
/** A fixed query effect in [0.3, 0.7) and a small per-(seed, query) wobble, both deterministic. */
const queryEffect = (q: number): number => 0.3 + 0.4 * ((q * 0.6180339887) % 1)
const wobble = (s: number, q: number): number => (((s * 7 + q * 13) % 5) - 2) / 1000

/** One seed's rows: query effect + the seed's shift + `gain` + wobble. */
function seedRows(shift: number, gain: number, s: number, skip?: number): string {
  const rows: Array<Record<string, unknown>> = []
  for (let q = 0; q < N; q++)
    if (q !== skip)
      rows.push({
        query_id: id(q),
        score: queryEffect(q) + shift + gain + wobble(s, q),
        segment: q % 2 === 0 ? 'a' : 'b'
      })
  return jsonl(rows)
}

/** The three seeds' shifts: the seed means spread by SD 0.05 on each side. */
const SHIFTS = [-0.05, 0, 0.05]
const GAIN = 0.01

const METRICS = 'version: 1\nmetrics:\n  score: { better: higher }\nstatistics: { resamples: 2000 }\n'
const SUPERIOR = 'checks:\n  - name: better\n    metric: score\n    superior: { margin: 0 }\n'

interface Report {
  verdict: string
  checks: Array<{
    status: string
    units: Array<{ reason: string; comparison: { delta: number; ci: [number, number]; n: number } }>
  }>
  seeds?: {
    baseline_files: string[]
    candidate_files: string[]
    min_seeds: number | null
    interval: string
    metrics: Array<{
      metric: string
      delta: number
      baseline: { means: number[]; sd: number | null }
      candidate: { means: number[]; sd: number | null }
      within_spread: boolean
    }>
  }
}

function files(extra: Record<string, string> = {}): Record<string, string> {
  const out: Record<string, string> = {}
  SHIFTS.forEach((shift, s) => {
    out[`b${s}.jsonl`] = seedRows(shift, 0, s)
    out[`c${s}.jsonl`] = seedRows(shift, GAIN, s + 11)
  })
  return writeFiles({ ...out, ...extra })
}

/**
 * The gate on these seed files, the rules declaring as many seeds per side as are given (statistics.seeds: the
 * design is the rules'; the refusal of an undeclared count has its own test below).
 */
async function gate(f: Record<string, string>, baselines: string[], candidates: string[], format = 'json') {
  const text = readFileSync(f['rules.yml'], 'utf8').replace(/seeds: \{ baseline: \d+, candidate: \d+ \}, /, '')
  const declared = `seeds: { baseline: ${baselines.length}, candidate: ${candidates.length} }, `
  writeFileSync(
    f['rules.yml'],
    text.includes('statistics: { ')
      ? text.replace('statistics: { ', `statistics: { ${declared}`)
      : text.replace('\nchecks:', `\nstatistics: { ${declared.slice(0, -2)} }\nchecks:`)
  )
  const args = [
    'gate',
    '--rules',
    f['rules.yml'],
    ...baselines.flatMap((b) => ['--baseline', f[b]]),
    ...candidates.flatMap((c) => ['--candidate', f[c]]),
    '--format',
    format
  ]
  return cli(args)
}

const ALL_B = ['b0.jsonl', 'b1.jsonl', 'b2.jsonl']
const ALL_C = ['c0.jsonl', 'c1.jsonl', 'c2.jsonl']

describe('several seed files per side', () => {
  it('compares seed-averaged means, with an interval over seeds and queries that is wider than over queries alone', async () => {
    const f = files({ 'rules.yml': METRICS + SUPERIOR })
    const seeded = await gate(f, ALL_B, ALL_C)
    expect(seeded.stderr).toBe('')
    const report = JSON.parse(seeded.stdout) as Report
    const unit = report.checks[0].units[0]
    // Per query: mean over the candidate's seeds minus mean over the baseline's. The shifts cancel (-0.05, 0, 0.05)
    // and the wobbles average out to the query's mean wobble difference: over all queries delta = GAIN + mean wobble gap.
    let expected = 0
    for (let q = 0; q < N; q++)
      expected += SHIFTS.reduce((a, _, s) => a + wobble(s + 11, q) - wobble(s, q), 0) / 3 + GAIN
    expect(unit.comparison.delta).toBeCloseTo(expected / N, 10)
    expect(unit.comparison.n).toBe(N)
    // The seeds spread by SD 0.05 (seed means -0.05 / 0 / +0.05 around the same queries), five times the gain:
    // the interval over seeds and queries straddles 0 and the superior check is not shown.
    expect(unit.comparison.ci[0]).toBeLessThan(0)
    expect(unit.comparison.ci[1]).toBeGreaterThan(0)
    expect(unit.reason).toBe('not_shown_better')
    expect(report.seeds?.baseline_files).toEqual(ALL_B.map((b) => f[b]))
    expect(report.seeds?.candidate_files).toEqual(ALL_C.map((c) => f[c]))
    const m = report.seeds?.metrics[0]
    expect(m?.baseline.means).toHaveLength(3)
    expect(m?.baseline.sd).toBeCloseTo(0.05, 3)
    expect(m?.candidate.sd).toBeCloseTo(0.05, 3)
    expect(m?.within_spread).toBe(true)

    // The same seed-averaged rows as one file per side: the same delta, but a query-only interval that excludes 0
    // (the old behaviour, which took the gain for shown).
    const average = (prefix: string, gain: number, offset: number): string =>
      jsonl(
        Array.from({ length: N }, (_, q) => ({
          query_id: id(q),
          score: SHIFTS.reduce((a, shift, s) => a + queryEffect(q) + shift + gain + wobble(s + offset, q), 0) / 3,
          segment: q % 2 === 0 ? 'a' : 'b',
          prefix
        }))
      )
    const g = writeFiles({
      'rules.yml': METRICS + SUPERIOR,
      'b.jsonl': average('b', 0, 0),
      'c.jsonl': average('c', GAIN, 11)
    })
    const single = JSON.parse((await gate(g, ['b.jsonl'], ['c.jsonl'])).stdout) as Report
    expect(single.checks[0].units[0].comparison.delta).toBeCloseTo(unit.comparison.delta, 10)
    expect(single.checks[0].units[0].comparison.ci[0]).toBeGreaterThan(0)
    expect(single.checks[0].units[0].reason).toBe('holds')
    expect(single.seeds).toBeUndefined()
  })

  it('says in plain words when the gain is smaller than the spread between seeds, and shows the seed means', async () => {
    const f = files({ 'rules.yml': METRICS + SUPERIOR })
    const r = await gate(f, ALL_B, ALL_C, 'markdown')
    expect(r.stdout).toContain('Seed replicates: 3 baseline and 3 candidate seeds')
    expect(r.stdout).toContain('is smaller than the spread between seeds')
    expect(r.stdout).toContain('<details><summary>Seeds: the spread between independently trained seeds</summary>')
    expect(r.stdout).toMatch(/\| score \| baseline \| 3 \| [0-9.]+, [0-9.]+, [0-9.]+ \| 0\.05/)
  })

  it('the terminal report says it too', async () => {
    const f = files({ 'rules.yml': METRICS + SUPERIOR })
    const r = await gate(f, ALL_B, ALL_C, 'text')
    expect(r.stdout).toContain('  Seed replicates: 3 baseline and 3 candidate seeds')
    expect(r.stdout).toContain(
      'is smaller than the spread between seeds (standard deviation of the seed means up to 0.0500)'
    )
  })

  it('is deterministic: the same files give the same bytes', async () => {
    const f = files({ 'rules.yml': METRICS + SUPERIOR })
    const a = await gate(f, ALL_B, ALL_C)
    const b = await gate(f, ALL_B, ALL_C)
    expect(a.stdout).toBe(b.stdout)
  })

  it('equal seed means are no spread: the gain is never called smaller than it (rounding is not a spread)', async () => {
    // Two baseline seeds whose per-query values are the same numbers on other queries: equal means, different seeds.
    const rows = (perm: (q: number) => number, gain: number): string =>
      jsonl(
        Array.from({ length: N }, (_, q) => ({
          query_id: id(q),
          score: queryEffect(perm(q)) + gain,
          segment: q % 2 === 0 ? 'a' : 'b'
        }))
      )
    const seeds = {
      'p0.jsonl': rows((q) => q, 0),
      'p1.jsonl': rows((q) => N - 1 - q, 0),
      'g0.jsonl': rows((q) => q, GAIN),
      'g1.jsonl': rows((q) => N - 1 - q, GAIN)
    }
    const f = files({ 'rules.yml': METRICS + SUPERIOR, ...seeds })
    const r = await gate(f, ['p0.jsonl', 'p1.jsonl'], ['g0.jsonl', 'g1.jsonl'])
    const report = JSON.parse(r.stdout) as Report
    expect(report.seeds?.metrics[0].baseline.sd ?? 1).toBeLessThan(1e-12)
    expect(report.seeds?.metrics[0].within_spread).toBe(false)
    expect((await gate(f, ['p0.jsonl', 'p1.jsonl'], ['g0.jsonl', 'g1.jsonl'], 'markdown')).stdout).not.toContain(
      'smaller than the spread'
    )
  })

  // Issue 24, item 3: the same file passed five times, or identical copies, met min_seeds with zero spread.
  it('the same seed file given several times is one seed, and is refused', async () => {
    const f = files({ 'rules.yml': METRICS.replace('resamples: 2000', 'resamples: 2000, min_seeds: 3') + SUPERIOR })
    const r = await gate(f, ['b1.jsonl', 'b1.jsonl', 'b1.jsonl'], ALL_C)
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/b1\.jsonl.* is given twice as baseline/)
  })

  it('byte-identical copies under other names are one seed, and are refused', async () => {
    const same = seedRows(0, GAIN, 10)
    const f = files({
      'rules.yml': METRICS + SUPERIOR,
      'copy-a.jsonl': same,
      'copy-b.jsonl': same,
      'copy-c.jsonl': same
    })
    const r = await gate(f, ALL_B, ['copy-a.jsonl', 'copy-b.jsonl', 'copy-c.jsonl'])
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/copy-b\.jsonl.*has the same content as .*copy-a\.jsonl/)
  })

  it('the same values re-serialised (rows reordered, keys reordered) are one seed, and are refused', async () => {
    const lines = seedRows(0, GAIN, 10).trim().split('\n')
    const reordered =
      [...lines]
        .reverse()
        .map((l) =>
          JSON.stringify(Object.fromEntries(Object.entries(JSON.parse(l) as Record<string, unknown>).reverse()))
        )
        .join('\n') + '\n'
    const f = files({
      'rules.yml': METRICS + SUPERIOR,
      'seed.jsonl': lines.join('\n') + '\n',
      'again.jsonl': reordered
    })
    const r = await gate(f, ALL_B, ['seed.jsonl', 'again.jsonl', 'c2.jsonl'])
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/again\.jsonl.*agrees with .*seed\.jsonl for every query and metric/)
  })

  it('different numbers of seeds per side are allowed', async () => {
    const f = files({ 'rules.yml': METRICS + SUPERIOR })
    const r = await gate(f, ['b0.jsonl', 'b1.jsonl'], ALL_C)
    const report = JSON.parse(r.stdout) as Report
    expect(report.seeds?.metrics[0].baseline.means).toHaveLength(2)
    expect(report.seeds?.metrics[0].candidate.means).toHaveLength(3)
  })
})

describe('refusals', () => {
  it('a seed file that misses a query is refused, naming the file and the query id', async () => {
    const f = files({ 'rules.yml': METRICS + SUPERIOR, 'short.jsonl': seedRows(0, GAIN, 99, 7) })
    const r = await gate(f, ALL_B, ['c0.jsonl', 'short.jsonl'])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain(f['short.jsonl'])
    expect(r.stderr).toContain('q07')
    expect(r.stderr).toContain('every candidate seed file must cover the same queries')
  })

  it('a metric one seed file has in no row is refused, naming that file (its average would be missing for every query)', async () => {
    const rules =
      'version: 1\nmetrics:\n  score: { better: higher }\n  other: { better: higher }\nstatistics: { resamples: 2000 }\n' +
      SUPERIOR
    const withOther = jsonl(
      Array.from({ length: N }, (_, q) => ({ query_id: id(q), score: queryEffect(q), other: 0.5, segment: 'a' }))
    )
    const f = files({ 'rules.yml': rules, 'b-other.jsonl': withOther, 'c-other.jsonl': withOther })
    const r = await gate(f, ['b-other.jsonl', 'b1.jsonl'], ['c-other.jsonl', 'c1.jsonl'])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain(
      `${f['b1.jsonl']} (metrics.other): this baseline seed has no row with the metric "other", which ${f['b-other.jsonl']} has`
    )
  })

  it('a seed file with an extra query is refused at its line', async () => {
    const extra = seedRows(0, 0, 5) + jsonl([{ query_id: 'zz', score: 0.5, segment: 'a' }])
    const f = files({ 'rules.yml': METRICS + SUPERIOR, 'extra.jsonl': extra })
    const r = await gate(f, ['b0.jsonl', 'extra.jsonl'], ALL_C)
    expect(r.code).toBe(2)
    expect(r.stderr).toContain(`${f['extra.jsonl']}:${N + 1}`)
    expect(r.stderr).toContain('"zz"')
    expect(r.stderr).toContain('is not in the first baseline seed file')
  })

  it('McNemar with several seeds is refused (a seed-averaged hit is a share, not 0 or 1)', async () => {
    const rules =
      'version: 1\nmetrics:\n  score: { better: higher, binary: true }\nchecks:\n  - name: hits\n    metric: score\n    superior: { test: mcnemar }\n'
    const hit = (s: number) =>
      jsonl(Array.from({ length: 40 }, (_, q) => ({ query_id: id(q), score: (q + s) % 3 === 0 ? 0 : 1 })))
    const f = writeFiles({ 'rules.yml': rules, 'b0.jsonl': hit(0), 'b1.jsonl': hit(1), 'c0.jsonl': hit(2) })
    const r = await gate(f, ['b0.jsonl', 'b1.jsonl'], ['c0.jsonl'])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain('checks[0].superior.test')
    expect(r.stderr).toContain('use superior: { test: bootstrap }')
  })

  it('a binary metric is gated on seed shares with the bootstrap; each seed must still be 0 or 1', async () => {
    const rules =
      'version: 1\nmetrics:\n  hit: { better: higher, binary: true }\nstatistics: { resamples: 1000 }\nchecks:\n  - name: hits\n    metric: hit\n    non_inferior: { margin: 0.5 }\n'
    const hit = (s: number) =>
      jsonl(Array.from({ length: 40 }, (_, q) => ({ query_id: id(q), hit: (q + s) % 3 === 0 ? 0 : 1 })))
    const f = writeFiles({
      'rules.yml': rules,
      'b0.jsonl': hit(0),
      'b1.jsonl': hit(1),
      'c0.jsonl': hit(2),
      'bad.jsonl': hit(1).replace('"hit":0', '"hit":0.5')
    })
    const ok = await gate(f, ['b0.jsonl', 'b1.jsonl'], ['c0.jsonl'])
    expect(ok.stderr).toBe('')
    const report = JSON.parse(ok.stdout) as Report
    expect(report.checks[0].status).toBe('pass')
    // Baseline seed shares: seed 0 misses q % 3 = 0, seed 1 misses q % 3 = 2; 40 queries -> means 26/40 and 27/40.
    expect(report.seeds?.metrics[0].baseline.means).toEqual([26 / 40, 27 / 40])
    const bad = await gate(f, ['b0.jsonl', 'bad.jsonl'], ['c0.jsonl'])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain(`${f['bad.jsonl']}:3`) // q02, the first 0 of seed 1
    expect(bad.stderr).toContain('declare it binary')
  })

  it('clusters with several seeds are refused', async () => {
    const f = files({
      'rules.yml': METRICS.replace('{ resamples: 2000 }', '{ resamples: 2000, cluster: segment }') + SUPERIOR
    })
    const r = await gate(f, ALL_B, ALL_C)
    expect(r.code).toBe(2)
    expect(r.stderr).toContain('statistics.cluster')
  })
})

describe('statistics.min_seeds', () => {
  const rules =
    METRICS.replace('{ resamples: 2000 }', '{ resamples: 2000, min_seeds: 3 }') +
    'checks:\n  - name: holds\n    metric: score\n    non_inferior: { margin: 0.5 }\n'

  it('fewer seeds than the rules ask for: every check is inconclusive with the reason named', async () => {
    const f = files({ 'rules.yml': rules })
    const r = await gate(f, ['b0.jsonl'], ['c0.jsonl'])
    const report = JSON.parse(r.stdout) as Report
    expect(report.checks[0].status).toBe('inconclusive')
    expect(report.checks[0].units[0].reason).toBe('too_few_seeds')
    expect(report.seeds?.min_seeds).toBe(3)
    expect(report.seeds?.interval).toBe('queries only (one seed per side)')
    const md = await gate(f, ['b0.jsonl', 'b1.jsonl'], ALL_C, 'markdown')
    expect(md.stdout).toContain(
      'The rules ask for at least 3 seeds per side (statistics.min\\_seeds) and 2 baseline and 3 candidate seeds were given: every check is inconclusive.'
    )
    expect(md.stdout).toContain('fewer independently trained seeds than statistics.min\\_seeds asks for')
    const explain = await cli(['explain', '--rules', f['rules.yml']])
    expect(explain.stdout).toContain('Seeds: each side must give at least 3 independently trained seeds')
  })

  it('enough seeds: the check is judged (here it holds: the margin is wide)', async () => {
    const f = files({ 'rules.yml': rules })
    const report = JSON.parse((await gate(f, ALL_B, ALL_C)).stdout) as Report
    expect(report.checks[0].status).toBe('pass')
    expect(report.seeds?.interval).toBe(
      't over seeds and queries: seed-mean variance per side plus query variance, Satterthwaite degrees of freedom'
    )
  })
})

describe('the action takes newline-separated files', () => {
  const get = (values: Record<string, string>) => (name: string) => values[name] ?? ''

  it("one line per seed; one line is today's single file", () => {
    const many = readInputs(
      get({ rules: 'r.yml', baseline: 'b1.jsonl\nb2.jsonl\n', candidate: ' c1.jsonl \n\nc2.jsonl\nc3.jsonl' }),
      'push'
    )
    expect(many.baselineSeeds).toEqual(['b1.jsonl', 'b2.jsonl'])
    expect(many.candidateSeeds).toEqual(['c1.jsonl', 'c2.jsonl', 'c3.jsonl'])
    expect([many.baseline, many.candidate]).toEqual(['b1.jsonl', 'c1.jsonl'])
    const one = readInputs(get({ rules: 'r.yml', baseline: 'b.jsonl', candidate: 'c.jsonl' }), 'push')
    expect(one).not.toHaveProperty('baselineSeeds')
    expect([one.baseline, one.candidate]).toEqual(['b.jsonl', 'c.jsonl'])
  })

  it('several baseline files with baseline-artifact are refused', () => {
    expect(() =>
      readInputs(get({ rules: 'r.yml', baseline: 'b1\nb2', candidate: 'c', 'baseline-artifact': 'a' }), 'push')
    ).toThrow(/baseline-artifact reads one file/)
  })
})

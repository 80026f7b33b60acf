import { describe, expect, test } from '@jest/globals'
import { loadRules } from '../../src/config/rules.js'
import { cli, jsonl, refusal, writeFiles } from '../helpers.js'

/**
 * The regression budget (rules `reference` + a check's `budget`): salami slicing is caught. Every PR below
 * loses 0.4 points of recall@10 against its own base (each query -0.004, up to +/-0.002 of deterministic jitter),
 * well inside the 0.5-point margin, so each passes alone; three of them lose 1.2 points since the release, more
 * than the 1.0-point budget. The figures are exact by construction: PR k's candidate is reference - 0.004 k
 * (+/- 0.001 jitter that cancels over the queries and within each segment, and differs from PR k - 1's, so no
 * comparison has equal differences everywhere: that would be no evidence), so the drop since the reference is
 * 0.004 k and every bootstrap mean lies within 0.001 of it (a mean of values within 0.001 of 0.004 k). The rules
 * ask for the percentile bootstrap: this file is about the budget's bookkeeping, on 20-query segments (the default
 * interval needs 40 queries for a metric that is not binary). 8,000 queries (4,000 per segment): on a metric in
 * [0, 1] fewer could not rule out that unseen queries lose more than half a point (the range's bound: 0.0009 at
 * 4,000 queries, docs/statistics.md, "The reliability rule"), and no PR would pass alone.
 */
const N = 8000
const ids = Array.from({ length: N }, (_, i) => `q${String(i).padStart(4, '0')}`)
const segment = (i: number): string => (i % 2 === 0 ? 'new' : 'old')
/** The release's recall@10 per query: spread over 0.3..0.9. */
const release = ids.map((_, i) => 0.3 + ((i * 7) % 40) * 0.015)
/** After k PRs: each PR takes 0.004 from every query, with jitter +0.001, +0.001, -0.001, -0.001 by (i + k) mod 4 (sums to 0 per segment). */
const afterPrs = (k: number): number[] =>
  release.map((v, i) => v - 0.004 * k + (k === 0 ? 0 : (i + k) % 4 < 2 ? 0.001 : -0.001))
const rows = (values: number[], attrs = true): string =>
  jsonl(ids.map((id, i) => ({ query_id: id, 'recall@10': values[i], ...(attrs ? { segment: segment(i) } : {}) })))

const RULES = (extra = ''): string => `version: 1
metrics:
  recall@10: { better: higher, range: [0, 1] }
statistics: { resamples: 1000, seed: 7, interval: percentile }
queries: { min_per_slice: 10 }
reference:
  name: v1.4
  path: eval/release/rows.jsonl
  ref: v1.4
checks:
  - name: recall does not drop
    metric: recall@10
    non_inferior: { margin: 0.005 }
    budget: 0.01
${extra}`

async function gate(k: number, rules = RULES(), reference = rows(release), more: string[] = []) {
  const f = writeFiles({
    'rules.yml': rules,
    'base.jsonl': rows(afterPrs(k - 1)),
    'cand.jsonl': rows(afterPrs(k)),
    'ref.jsonl': reference
  })
  return cli([
    'gate',
    '--rules',
    f['rules.yml'],
    '--baseline',
    f['base.jsonl'],
    '--candidate',
    f['cand.jsonl'],
    '--reference',
    f['ref.jsonl'],
    '--format',
    'json',
    ...more
  ])
}

describe('a series of PRs that each pass alone', () => {
  test('each is within its margin against its base; the budget fails the third (1.2 of 1.0 points used since v1.4)', async () => {
    const verdicts: string[] = []
    for (const k of [1, 2, 3]) {
      const r = await gate(k)
      const report = JSON.parse(r.stdout) as {
        verdict: string
        decided_by: string | null
        checks: Array<{ units: Array<{ status: string; reason: string; comparison: { ci: number[] } }> }>
        budgets: {
          reference: { label: string }
          units: Array<{ status: string; reason: string; used: number; used_ci: number[]; budget: number }>
        }
      }
      // This PR alone: about -0.4 points, the worse end of its interval inside the 0.5-point margin.
      expect(report.checks[0].units[0].comparison.ci[0]).toBeGreaterThan(-0.005)
      const u = report.budgets.units[0]
      expect(report.budgets.reference.label).toBe('v1.4')
      expect(u.budget).toBe(0.01)
      // Drop since the reference: 0.004 k to within the jitter's mean (exactly 0 over the queries), ~1e-15.
      expect(u.used).toBeCloseTo(0.004 * k, 12)
      expect(u.used_ci[0]).toBeGreaterThanOrEqual(0.004 * k - 0.001 - 1e-12)
      expect(u.used_ci[1]).toBeLessThanOrEqual(0.004 * k + 0.001 + 1e-12)
      verdicts.push(`${report.verdict}:${report.checks[0].units[0].reason}:${u.status}:${r.code}`)
      if (k === 3) expect(report.decided_by).toBe('recall does not drop')
    }
    expect(verdicts).toEqual(['pass:holds:pass:0', 'pass:holds:pass:0', 'fail:budget_exceeded:fail:1'])
  })

  test('without the budget the same third PR passes: the budget is what catches the drift', async () => {
    const f = writeFiles({
      'rules.yml': RULES()
        .replace('    budget: 0.01\n', '')
        .replace(/reference:\n( {2}.*\n){3}/, ''),
      'base.jsonl': rows(afterPrs(2)),
      'cand.jsonl': rows(afterPrs(3))
    })
    const plain = await cli([
      'gate',
      '--rules',
      f['rules.yml'],
      '--baseline',
      f['base.jsonl'],
      '--candidate',
      f['cand.jsonl'],
      '--format',
      'json'
    ])
    expect(plain.code).toBe(0)
  })

  test('the Markdown report shows the budget used per check and slice, and the head names the budget', async () => {
    const rules = RULES(`  - name: recall per segment
    metric: recall@10
    per_slice: segment
    non_inferior: { margin: 0.005 }
    budget: "5%"
`)
    const r = await gate(3, rules, rows(release), ['--format', 'markdown'])
    expect(r.code).toBe(1)
    expect(r.stdout).toContain('## ❌ retrieval-gate: fail, decided by check 1 “recall does not drop”')
    expect(r.stdout).toContain('### Regression budget since v1.4')
    // 1.2 of 1.0 points: the drop 0.012 and the budget 0.01, x100 (points of a 0..1 metric), one decimal.
    expect(r.stdout).toMatch(
      /- ❌ budget exceeded \*\*recall does not drop\*\* \(all queries\): 1\.2 of 1\.0 points used since v1\.4 \(95% interval of the drop \+1\.\d to \+1\.\d points, 8000 queries\)\./
    )
    // Relative budget per slice: 5% of each segment's reference mean (both means are ~0.59: ~2.9 points), not exceeded.
    expect(r.stdout).toMatch(
      /- ✅ within budget \*\*recall per segment\*\* \(segment = new\): 1\.\d of 2\.\d points used since v1\.4 .*\(budget 5% of the reference mean\)\./
    )
    expect(r.stdout).toMatch(/- ✅ within budget \*\*recall per segment\*\* \(segment = old\): /)
    expect(r.stdout).toContain(
      'the drop since the reference exceeds the budget, whatever this PR alone did (-0.4 points against its baseline)'
    )
  })

  test('the terminal report draws the budget section (the same blocks as the Markdown one)', async () => {
    const r = await gate(3, RULES(), rows(release), ['--format', 'text'])
    expect(r.stdout).toMatch(
      /Regression budget since v1\.4\n {2}Reference v1\.4: file .*ref\.jsonl;[^\n]*\n\n {2}- ❌ budget exceeded recall does not drop \(all queries\): 1\.2 of 1\.0 points used since v1\.4/
    )
  })
})

describe('the same statistics, read like non_inferior', () => {
  test('with the reference equal to the baseline, the budget interval is the check interval exactly (same plan, same seed)', async () => {
    const f = writeFiles({
      'rules.yml': RULES(),
      'base.jsonl': rows(afterPrs(0)),
      'cand.jsonl': rows(afterPrs(1)),
      'ref.jsonl': rows(afterPrs(0))
    })
    const r = await cli([
      'gate',
      '--rules',
      f['rules.yml'],
      '--baseline',
      f['base.jsonl'],
      '--candidate',
      f['cand.jsonl'],
      '--reference',
      f['ref.jsonl'],
      '--format',
      'json'
    ])
    const report = JSON.parse(r.stdout) as {
      checks: Array<{ units: Array<{ comparison: { ci: number[]; delta: number } }> }>
      budgets: { units: Array<{ used: number; used_ci: number[] }> }
    }
    const c = report.checks[0].units[0].comparison
    const b = report.budgets.units[0]
    expect(b.used).toBe(-c.delta)
    expect(b.used_ci).toEqual([-c.ci[1], -c.ci[0]])
  })

  test('a drop whose interval straddles the budget is inconclusive and counts by on_inconclusive', async () => {
    // Noisy drop of ~1 point since the reference: per query -0.01 +/- 0.05 (alternating), so the interval spans -1.0 points.
    const noisy = release.map((v, i) => Math.min(1, Math.max(0, v - 0.01 + (i % 2 === 0 ? 0.05 : -0.05))))
    const rules = RULES().replace('margin: 0.005', 'margin: 0.2')
    // The candidate is the base give or take 0.0001 (equal differences everywhere would be no evidence for the check itself).
    const near = noisy.map((v, i) => v + ((i % 3) - 1) * 0.0001)
    const f = writeFiles({
      'rules.yml': rules,
      'base.jsonl': rows(noisy),
      'cand.jsonl': rows(near),
      'ref.jsonl': rows(release)
    })
    const args = [
      'gate',
      '--rules',
      f['rules.yml'],
      '--baseline',
      f['base.jsonl'],
      '--candidate',
      f['cand.jsonl'],
      '--reference',
      f['ref.jsonl'],
      '--format',
      'json'
    ]
    const r = await cli(args)
    const report = JSON.parse(r.stdout) as {
      verdict: string
      checks: Array<{ status: string; units: Array<{ reason: string }> }>
      budgets: { units: Array<{ status: string; used_ci: number[] }> }
    }
    expect(report.budgets.units[0].used_ci[0]).toBeLessThan(0.01)
    expect(report.budgets.units[0].used_ci[1]).toBeGreaterThan(0.01)
    expect(report.checks[0].status).toBe('inconclusive')
    expect(report.checks[0].units[0].reason).toBe('budget_crosses')
    expect(report.verdict).toBe('fail')
    const lenient = writeFiles({ 'rules.yml': rules.replace('checks:', 'on_inconclusive: pass\nchecks:') })
    const again = await cli(args.map((a) => (a === f['rules.yml'] ? lenient['rules.yml'] : a)))
    expect((JSON.parse(again.stdout) as { verdict: string }).verdict).toBe('pass')
  })
})

describe('the reference must be the exam', () => {
  test('a reference with a different query set is refused as not comparable (exit 2), never re-paired', async () => {
    const other = jsonl([
      ...ids.slice(1).map((id, i) => ({ query_id: id, 'recall@10': release[i + 1] })),
      { query_id: 'q99', 'recall@10': 0.5 }
    ])
    const r = await gate(1, RULES(), other)
    expect(r.code).toBe(2)
    expect(r.stderr).toContain(
      'the reference "v1.4" is not comparable with the exam: a different query set: 1 exam query is not in it ("q0000"); 1 of its queries is not in the exam ("q99")'
    )
    expect(r.stderr).toContain('regenerate the reference rows on the current exam')
  })

  test('a reference that labels a query with another slice value is refused', async () => {
    const relabelled = rows(release).replace(
      '"query_id":"q0000","recall@10":0.3,"segment":"new"',
      '"query_id":"q0000","recall@10":0.3,"segment":"old"'
    )
    expect(relabelled).not.toBe(rows(release))
    const r = await gate(1, RULES('    where: { segment: new }\n'.replace(/^/, '')), relabelled)
    expect(r.code).toBe(2)
    expect(r.stderr).toContain('query "q0000" has segment = "old" in the reference and "new" in the exam')
  })

  test("a reference without attributes takes the exam's (the slices are the same)", async () => {
    const r = await gate(1, RULES(), rows(release, false))
    expect(r.code).toBe(0)
  })

  test('a reference manifest of another snapshot is refused; the same snapshot is stated', async () => {
    const rules = RULES().replace('checks:', 'comparability: { must_match: [corpus.content_hash] }\nchecks:')
    const f = writeFiles({
      'base.json': '{"corpus":{"content_hash":"sha256:aa"}}',
      'cand.json': '{"corpus":{"content_hash":"sha256:aa"}}',
      'ref.json': '{"corpus":{"content_hash":"sha256:bb"}}',
      'same.json': '{"corpus":{"content_hash":"sha256:aa"}}'
    })
    const manifests = ['--baseline-manifest', f['base.json'], '--candidate-manifest', f['cand.json']]
    const bad = await gate(1, rules, rows(release), [...manifests, '--reference-manifest', f['ref.json']])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain(
      'the reference "v1.4" was made on another snapshot than the exam: corpus.content_hash is "\\"sha256:bb\\"" in it'
    )
    const good = await gate(1, rules, rows(release), [
      ...manifests,
      '--reference-manifest',
      f['same.json'],
      '--format',
      'markdown'
    ])
    expect(good.code).toBe(0)
    expect(good.stdout).toContain("Snapshot: the reference's snapshot matches")
  })
})

describe('the CLI and the rules', () => {
  test('a reference at a ref is not read from the working directory: --reference is required', async () => {
    const f = writeFiles({ 'rules.yml': RULES(), 'base.jsonl': rows(release), 'cand.jsonl': rows(afterPrs(1)) })
    const r = await cli([
      'gate',
      '--rules',
      f['rules.yml'],
      '--baseline',
      f['base.jsonl'],
      '--candidate',
      f['cand.jsonl']
    ])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain(
      'the reference is eval/release/rows.jsonl at v1.4, which the command line does not fetch'
    )
    expect(r.stderr).toContain('git show v1.4:eval/release/rows.jsonl')
  })

  test('--reference for rules that name no reference is refused (nothing would read it), as is --reference with --aggregates', async () => {
    const noReference = RULES()
      .replace(/reference:\n( {2}.*\n){3}/, '')
      .replace('    budget: 0.01\n', '')
    const r = await gate(1, noReference)
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(
      /\(--reference\): gives the rows of the rules' reference \(the last release\), for the budgets, but nothing in these rules reads it\. add what reads it to the rules/
    )
    const f = writeFiles({ 'rules.yml': RULES(), 'ref.jsonl': rows(release) })
    const a = await cli([
      'gate',
      '--rules',
      f['rules.yml'],
      '--aggregates',
      f['ref.jsonl'],
      '--reference',
      f['ref.jsonl']
    ])
    expect(a.code).toBe(2)
    expect(a.stderr).toContain('--aggregates replaces the rows: --reference cannot be given with it')
  })

  test.each([
    [
      'a budget without a reference',
      RULES().replace(/reference:\n( {2}.*\n){3}/, ''),
      'checks[0].budget',
      "a budget is spent against the rules' reference, and the rules name none"
    ],
    [
      'a budget as wide as the range',
      RULES().replace('budget: 0.01', 'budget: 1'),
      'checks[0].budget',
      'budget 1 is larger than the whole range of recall@10 [0, 1] or equal to it, so it could never be exceeded'
    ],
    [
      'a relative budget of 100%',
      RULES().replace('budget: 0.01', 'budget: "100%"'),
      'checks[0].budget',
      'budget 100% allows recall@10 to fall to 0'
    ],
    [
      'a budget on max_regressions',
      RULES().replace('non_inferior: { margin: 0.005 }', 'max_regressions: { count: 3 }'),
      'checks[0].budget',
      'a budget is a drop of the mean since the reference'
    ],
    ['a reference no check spends', RULES().replace('    budget: 0.01\n', ''), 'reference', 'no check has a budget'],
    [
      'a reference with path and artifact',
      RULES().replace('  ref: v1.4\n', '  artifact: { name: release-rows }\n'),
      'reference',
      'reference names both a path and an artifact'
    ],
    ['a negative budget', RULES().replace('budget: 0.01', 'budget: -0.01'), 'checks[0].budget', 'must be']
  ])('%s is refused with its key', async (_, text, key, message) => {
    const e = await refusal(() => loadRules(text, 'rules.yml'))
    expect(e.where.key).toBe(key)
    expect(e.message).toContain(message)
  })

  test('a budget on a superior check and per slice is accepted', () => {
    const rules = loadRules(
      RULES(
        '  - name: better on new\n    metric: recall@10\n    where: { segment: new }\n    superior: {}\n    budget: "2%"\n'
      ),
      'rules.yml'
    )
    expect(rules.checks[1].budget).toEqual({ value: 0.02, relative: true, text: '2%' })
    expect(rules.reference).toEqual({
      label: 'v1.4',
      path: 'eval/release/rows.jsonl',
      ref: 'v1.4',
      artifact: undefined
    })
  })
})

describe('explain', () => {
  test('says what the budget demands, for non_inferior and superior checks', async () => {
    const f = writeFiles({
      'rules.yml': RULES(
        '  - name: better on new\n    metric: recall@10\n    where: { segment: new }\n    superior: {}\n    budget: "2%"\n'
      )
    })
    const r = await cli(['explain', '--rules', f['rules.yml']])
    expect(r.code).toBe(0)
    expect(r.stdout).toContain(
      '   Budget: also fails when the drop of recall@10 since the reference v1.4 (candidate - reference, same statistics) is shown beyond 0.01; when its interval straddles the budget it counts as a fail (on_inconclusive: fail).'
    )
    expect(r.stdout).toContain('is shown beyond 2% of the reference mean;')
  })
})

describe('determinism', () => {
  test('the same inputs and reference give the same bytes', async () => {
    const a = await gate(3)
    const b = await gate(3)
    expect(
      a.stdout.replace(/"[^"]*ref\.jsonl"/g, '"ref"').replace(/"[^"]*(base|cand|rules)\.(jsonl|yml)"/g, '"f"')
    ).toBe(b.stdout.replace(/"[^"]*ref\.jsonl"/g, '"ref"').replace(/"[^"]*(base|cand|rules)\.(jsonl|yml)"/g, '"f"'))
  })
})

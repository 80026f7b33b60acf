/**
 * "Too few queries" and "the data do not show it" have their own outcomes: `on_too_few` decides the first
 * (defaulting to `on_inconclusive`, so older rules keep their verdicts), and a `superior` check that was not
 * shown better always counts as a fail, whatever `on_inconclusive` says. `explain` says which applies.
 */
import { describe, expect, it } from '@jest/globals'
import { cli, jsonl, writeFiles } from '../helpers.js'

/**
 * 60 queries: 55 in segment "big" whose candidate is +0.1 / -0.1 from the baseline in turn (mean change 0,
 * so every interval straddles 0 and any small margin), 5 in segment "small" (fewer than min_per_slice 30).
 */
function sides() {
  const base: Array<Record<string, unknown>> = []
  const cand: Array<Record<string, unknown>> = []
  for (let i = 0; i < 60; i++) {
    const segment = i < 55 ? 'big' : 'small'
    base.push({ query_id: `q${String(i).padStart(2, '0')}`, 'recall@10': 0.5, segment })
    cand.push({
      query_id: `q${String(i).padStart(2, '0')}`,
      'recall@10': i < 55 ? (i % 2 === 0 ? 0.6 : 0.4) : 0.5,
      segment
    })
  }
  return { base: jsonl(base), cand: jsonl(cand) }
}

const METRICS = 'version: 1\nmetrics:\n  recall@10: { better: higher, range: [0, 1] }\n'

async function gate(rules: string) {
  const { base, cand } = sides()
  const f = writeFiles({ 'rules.yml': rules, 'b.jsonl': base, 'c.jsonl': cand })
  const r = await cli([
    'gate',
    '--rules',
    f['rules.yml'],
    '--baseline',
    f['b.jsonl'],
    '--candidate',
    f['c.jsonl'],
    '--format',
    'json'
  ])
  expect(r.stderr).toBe('')
  const report = JSON.parse(r.stdout) as {
    verdict: string
    checks: Array<{ rule: string; status: string; counts_as: string; units: Array<{ reason: string }> }>
  }
  return { code: r.code, report, explain: (await cli(['explain', '--rules', f['rules.yml']])).stdout }
}

const superior =
  'checks:\n  - name: better\n    metric: recall@10\n    where: { segment: big }\n    superior: { margin: 0 }\n'
const nonInferior =
  'checks:\n  - name: holds\n    metric: recall@10\n    where: { segment: big }\n    non_inferior: { margin: 0.01 }\n'
const perSlice =
  'checks:\n  - name: holds per segment\n    metric: recall@10\n    per_slice: segment\n    max_regressions: { count: 50 }\n  - name: no drop per segment\n    metric: recall@10\n    where: { segment: small }\n    non_inferior: { margin: 0.01 }\n'

describe('a superior check must be shown', () => {
  it('not shown better fails even under on_inconclusive: pass', async () => {
    const { code, report, explain } = await gate(`${METRICS}on_inconclusive: pass\n${superior}`)
    expect(report.checks[0]).toMatchObject({ status: 'inconclusive', counts_as: 'fail' })
    expect(report.checks[0].units[0].reason).toBe('not_shown_better')
    expect(report.verdict).toBe('fail')
    expect(code).toBe(1)
    expect(explain).toContain(
      'otherwise inconclusive (not shown better), which always counts as a fail: a superior check must be shown (on_inconclusive: pass does not apply to it).'
    )
  })

  it('fails under the default too (unchanged)', async () => {
    const { report } = await gate(`${METRICS}${superior}`)
    expect(report.checks[0]).toMatchObject({ status: 'inconclusive', counts_as: 'fail' })
  })
})

describe('on_inconclusive still decides a non_inferior interval that straddles the margin', () => {
  it('pass', async () => {
    const { report, explain } = await gate(`${METRICS}on_inconclusive: pass\n${nonInferior}`)
    expect(report.checks[0]).toMatchObject({ status: 'inconclusive', counts_as: 'pass' })
    expect(report.checks[0].units[0].reason).toBe('interval_crosses_margin')
    expect(report.verdict).toBe('pass')
    expect(explain).toContain('inconclusive, which counts as a pass (on_inconclusive: pass)')
  })

  it('fail (the default), whatever on_too_few says', async () => {
    const { report } = await gate(`${METRICS}on_too_few: pass\n${nonInferior}`)
    expect(report.checks[0]).toMatchObject({ status: 'inconclusive', counts_as: 'fail' })
  })
})

describe('a superior check with too few queries was not shown better either', () => {
  it('fails under on_too_few: pass (it passed unshown before 2026-12-04)', async () => {
    const small =
      'checks:\n  - name: better on small\n    metric: recall@10\n    where: { segment: small }\n    superior: { margin: 0 }\n'
    const { report, explain } = await gate(`${METRICS}on_too_few: pass\non_inconclusive: pass\n${small}`)
    expect(report.checks[0]).toMatchObject({ status: 'inconclusive', counts_as: 'fail' })
    expect(report.checks[0].units[0].reason).toBe('too_few_queries')
    expect(report.verdict).toBe('fail')
    expect(explain).toContain(
      'Inconclusive with fewer than 30 queries, which counts as a fail: a superior check must be shown (on_too_few does not apply to it)'
    )
    expect(explain).toContain('a superior check not shown better (too few queries included) always counts as a fail')
  })
})

describe('on_too_few decides a check with fewer than min_per_slice queries', () => {
  it('defaults to on_inconclusive, so older rules keep their verdicts', async () => {
    const passing = await gate(`${METRICS}on_inconclusive: pass\n${perSlice}`)
    expect(passing.report.checks[1]).toMatchObject({ status: 'inconclusive', counts_as: 'pass' })
    expect(passing.report.checks[1].units[0].reason).toBe('too_few_queries')
    expect(passing.explain).toContain(
      'Inconclusive with fewer than 30 queries, which counts as a pass (on_too_few: pass)'
    )
    const failing = await gate(`${METRICS}${perSlice}`)
    expect(failing.report.checks[1]).toMatchObject({ status: 'inconclusive', counts_as: 'fail' })
    expect(failing.explain).toContain(
      'Inconclusive with fewer than 30 queries, which counts as a fail (on_too_few: fail)'
    )
  })

  it('on_too_few: fail fails a small slice under on_inconclusive: pass', async () => {
    const { report, explain } = await gate(`${METRICS}on_inconclusive: pass\non_too_few: fail\n${perSlice}`)
    expect(report.checks[1]).toMatchObject({ status: 'inconclusive', counts_as: 'fail' })
    expect(report.verdict).toBe('fail')
    expect(explain).toContain('a check with fewer than 30 queries counts as a fail (on_too_few: fail).')
  })

  it('on_too_few: pass passes a small slice under the default on_inconclusive: fail', async () => {
    const { report, explain } = await gate(`${METRICS}on_too_few: pass\n${perSlice}`)
    expect(report.checks[1]).toMatchObject({ status: 'inconclusive', counts_as: 'pass' })
    expect(report.verdict).toBe('pass')
    expect(explain).toContain(
      'A check the data neither prove nor refute counts as a fail (on_inconclusive: fail); a check with fewer than 30 queries counts as a pass (on_too_few: pass).'
    )
  })
})

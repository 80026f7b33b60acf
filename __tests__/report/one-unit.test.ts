/**
 * One unit per metric in every part of a report, and the reading order a reviewer follows. The unit rule
 * (src/report/words.ts inPoints): a share (a declared range of width <= 1, or a ranking measure computed from runs)
 * shows its changes in points ("-9.8 points" in words, "-9.84 pts" in a table cell); anything else in its own units.
 * Before this, the checks table said -0.0984 where the headline said -9.8 points, and in runs mode without `range`
 * the headline said "fell by 0.0244".
 */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from '@jest/globals'
import { loadRules } from '../../src/config/rules.js'
import { runGate } from '../../src/gate.js'
import { loadFiles } from '../helpers.js'
import { toMarkdown } from '../../src/report/markdown.js'
import { toText } from '../../src/report/text.js'
import { failProtectedSliceScenario } from './scenarios.js'

/** The rows of the first Markdown table after `### Gated checks`, as cells. */
function checksRows(md: string): string[][] {
  const lines = md.slice(md.indexOf('### Gated checks')).split('\n')
  const start = lines.findIndex((l) => l.startsWith('| Status'))
  const rows: string[][] = []
  for (let i = start + 2; i < lines.length && lines[i].startsWith('|'); i++)
    rows.push(lines[i].split(' | ').map((c) => c.replace(/^\| |\s\|$/g, '').trim()))
  return rows
}

describe('one unit per metric', () => {
  it('a declared [0, 1] metric: the table, the headline and the pictures all speak points', () => {
    const result = failProtectedSliceScenario()
    const md = toMarkdown(result)
    const deciding = result.decision.decidedBy
    if (deciding?.kind !== 'check') throw new Error('the scenario is decided by a check')
    const delta = deciding.unit.comparison.delta
    const row = checksRows(md).find(
      (r) => r[1].startsWith(`${deciding.check.rule.index + 1}. `) && r[3] === 'segment = new'
    ) as string[]
    // Δ and the interval in points with 2 decimals, the limit too: -0.0984 is -9.84 pts.
    expect(row[5].replace(/\u00a0/g, ' ')).toBe(`${(delta * 100).toFixed(2)} pts`)
    expect(row[6]).toMatch(/^\[-\d+\.\d\d,\u00a0[-+]\d+\.\d\d\]$/)
    expect(row[7].replace(/\u00a0/g, ' ')).toBe('low ≥ -2.00')
    // The headline and the forest plot say the same number, to one decimal, in points.
    expect(md).toContain(`fell by ${Math.abs(delta * 100).toFixed(1)} points`)
    expect(md).toMatch(new RegExp(`segment = new .* ${(delta * 100).toFixed(1)} \\[`))
    // No change of the metric is printed in raw units in the head table or the terminal table.
    expect(checksRows(md).map((r) => r[5])).not.toContainEqual(expect.stringMatching(/^[-+]0\.\d{4}$/))
    const text = toText(result, { color: false })
    expect(text).toContain(`${(delta * 100).toFixed(2)} pts`)
    expect(text).not.toMatch(/ [-+]0\.\d{4} /)
  })

  it('runs mode without range: a ranking measure is a share, so the headline and the table say points', async () => {
    // examples/runs with its rules' ranges removed: nDCG@10 and R@100 are computed from the runs, in [0, 1].
    const text = readFileSync('examples/runs/rules.yml', 'utf8')
      .replace(/, range: \[0, 1\]/g, '')
      .replace('resamples: 10000', 'resamples: 1000')
    expect(text).not.toContain('range')
    const rules = loadRules(text, 'examples/runs/rules.yml')
    const loaded = await loadFiles(rules, {
      baseline: 'examples/runs/baseline.jsonl',
      candidate: 'examples/runs/candidate.jsonl'
    })
    const result = runGate(loaded)
    const md = toMarkdown(result)
    const head = md.split('\n')[2]
    expect(head).toMatch(
      /^\*\*`R@100` for segment = new fell by \d+\.\d points \(95% interval -\d+\.\d to [-+]?\d+\.\d points, 40 queries\)/
    )
    expect(head).not.toMatch(/fell by 0\.\d{4}/)
    const rows = checksRows(md)
    expect(rows.find((r) => r[2] === '`nDCG@10`')?.[5]).toMatch(/^[-+]\d+\.\d\d\u00a0pts$/)
    expect(rows.find((r) => r[2] === 'latency\\_ms')?.[5]).toMatch(/^[-+]\d+\.\d\u00a0ms$/)
  })
})

describe('reading order', () => {
  it('verdict, then the checks table, then "Publishable" and the to-judge paragraph', async () => {
    const rules = loadRules(
      readFileSync('examples/runs/rules.yml', 'utf8').replace('resamples: 10000', 'resamples: 1000'),
      'examples/runs/rules.yml'
    )
    const loaded = await loadFiles(rules, {
      baseline: 'examples/runs/baseline.jsonl',
      candidate: 'examples/runs/candidate.jsonl'
    })
    const md = toMarkdown(runGate(loaded))
    const at = (s: string): number => {
      const i = md.indexOf(s)
      expect({ s, found: i >= 0 }).toEqual({ s, found: true })
      return i
    }
    expect(at('## ❌ retrieval-gate')).toBeLessThan(at('### Gated checks'))
    expect(at('| Status | Check |')).toBeLessThan(at('**Publishable: no**'))
    expect(at('**Publishable: no**')).toBeLessThan(at('pooled top-10 documents without a grade'))
    expect(at('pooled top-10 documents without a grade')).toBeLessThan(at('### Pictures'))
    const text = toText(runGate(loaded), { color: false })
    expect(text.indexOf('Gated checks')).toBeLessThan(text.indexOf('Publishable: no'))
  })

  it('a max_regressions check over slices is one row of the table, its slices collapsed under it', async () => {
    const rules = loadRules(
      readFileSync('examples/rules.yml', 'utf8').replace('resamples: 10000', 'resamples: 1000'),
      'examples/rules.yml'
    )
    const loaded = await loadFiles(rules, {
      baseline: 'examples/baseline.jsonl',
      candidate: 'examples/candidate.jsonl'
    })
    const md = toMarkdown(runGate(loaded))
    const rows = checksRows(md)
    expect(rows.map((r) => r[1])).toEqual([
      '1. recall does not drop',
      '2. new users are protected',
      '3. hit rate improves',
      '4. few regressions per category',
      '5. latency within 20%'
    ])
    const folded = rows[3]
    expect(folded.slice(3)).toEqual(['4 slices of category', '400', '—', '—', '≤\u00a040 worse (max 23)'])
    const summary =
      '<details><summary>Check 4 “few regressions per category”: 4 slices of category, all pass; nearest its limit: category = how-to, 23 worse (limit 40)</summary>'
    expect(md).toContain(summary)
    const list = md.slice(md.indexOf(summary), md.indexOf('</details>', md.indexOf(summary)))
    for (const c of ['billing', 'how-to', 'policy', 'troubleshooting'])
      expect(list).toContain(`| ✅ pass | category = ${c} |`)
  })
})

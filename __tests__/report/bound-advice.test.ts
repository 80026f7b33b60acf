/**
 * The advice under a range-bound inconclusive unit never asks for fewer queries than it has (red-team finding,
 * 2026-12-02: with 60 queries it said "a margin this small needs at least 17 queries": what an unchanged candidate
 * needs, where this one's drop of 15 points, not the margin, kept it from passing).
 */
import { describe, expect, it } from '@jest/globals'
import { loadRules } from '../../src/config/rules.js'
import { toMarkdown } from '../../src/report/markdown.js'
import { gateSides, metricSide } from '../helpers.js'

const side = (file: string, values: number[]) => metricSide(file, 'recall', values)

describe('the range bound: what would settle it', () => {
  it('does not name a query count the check already has', () => {
    const rules = loadRules(
      'version: 1\nmetrics:\n  recall: { better: higher, range: [0, 1] }\nchecks:\n  - { name: c, metric: recall, non_inferior: { margin: 0.2 } }\n',
      'rules.yml'
    )
    const base = Array.from({ length: 60 }, (_, i) => 0.6 + (i % 7) / 100)
    const cand = base.map((b, i) => b - 0.15 + ((i % 3) - 1) / 100)
    const result = gateSides(rules, side('b.jsonl', base), side('c.jsonl', cand))
    const unit = result.decision.checks[0].units[0]
    expect([unit.status, unit.reason]).toEqual(['inconclusive', 'interval_unreliable'])
    const md = toMarkdown(result)
    expect(md).toContain('with 60 queries a share of up to')
    expect(md).not.toMatch(/needs at least \d+ queries/)
    expect(md).toContain('more queries would narrow it')
  })
})

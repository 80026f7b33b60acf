/**
 * A per_slice max_regressions count cannot pass a slice that has no more queries than the count allows to regress
 * (red-team finding, 2026-12-02: topic "tiny" had 5 queries, all 5 fell from 0.8 to 0, and `count: 10` passed it).
 * Such a unit is inconclusive (too_few_queries, counted by on_too_few), in its own words.
 */
import { describe, expect, it } from '@jest/globals'
import { loadRules } from '../../src/config/rules.js'
import { sideFromRows, type QueryRow } from '../../src/model/rows.js'
import { toMarkdown } from '../../src/report/markdown.js'
import { gateSides } from '../helpers.js'

function side(file: string, values: number[]) {
  const rows: QueryRow[] = values.map((v, i) => ({
    id: `q${i}`,
    line: i + 1,
    values: new Map([['recall', v]]),
    attrs: new Map([['topic', i < 5 ? 'tiny' : 'big']])
  }))
  return sideFromRows(file, rows)
}

const rules = (policy: string) =>
  loadRules(
    `version: 1\nmetrics:\n  recall: { better: higher, range: [0, 1] }\n${policy}checks:\n  - name: few regressions per topic\n    metric: recall\n    per_slice: topic\n    max_regressions: { count: 10 }\n`,
    'rules.yml'
  )

describe('max_regressions per slice on a slice smaller than the count', () => {
  const base = Array.from({ length: 100 }, () => 0.8)
  const cand = base.map((b, i) => (i < 5 ? 0 : b))

  it('is inconclusive there, never a pass, and says why', () => {
    const result = gateSides(rules(''), side('b.jsonl', base), side('c.jsonl', cand))
    const [big, tiny] = result.decision.checks[0].units
    expect([tiny.comparison.slice, tiny.status, tiny.reason, tiny.regressions]).toEqual([
      [['topic', 'tiny']],
      'inconclusive',
      'too_few_queries',
      5
    ])
    expect([big.status, big.reason]).toEqual(['pass', 'holds'])
    expect(result.decision.verdict).toBe('fail')
    expect(toMarkdown(result)).toContain(
      'has only 5 queries, no more than the 10 that may regress, so the check cannot fail there and is inconclusive.'
    )
  })

  it('on_too_few decides how it counts, as for every unit with too few queries', () => {
    const result = gateSides(rules('on_too_few: pass\n'), side('b.jsonl', base), side('c.jsonl', cand))
    expect(result.decision.checks[0].units[1].status).toBe('inconclusive')
    expect(result.decision.verdict).toBe('pass')
  })
})

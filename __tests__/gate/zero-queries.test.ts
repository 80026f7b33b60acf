/**
 * A check evaluated over zero queries is never a pass, whatever on_inconclusive says: it fails with reason
 * `no_queries`. The pairing refuses a `where` no query satisfies, so these tests reach decide() directly,
 * with a table paired under rules that do not name the empty slice.
 */
import { describe, expect, it } from '@jest/globals'
import { pairRows } from '../../src/align/pair.js'
import { loadRules } from '../../src/config/rules.js'
import { decide } from '../../src/decide/evaluate.js'
import { sideFromRows, type SideRows } from '../../src/model/rows.js'
import { explainUnit } from '../../src/report/words.js'
import { createStats } from '../../src/stats/compare.js'

const side = (source: string, value: number): SideRows =>
  sideFromRows(
    source,
    Array.from({ length: 40 }, (_, i) => ({
      id: `q${i}`,
      line: i + 1,
      values: new Map([['m', value]]),
      attrs: new Map([['segment', 'established']])
    }))
  )

const rules = (onInconclusive: 'pass' | 'fail', check: string) =>
  loadRules(
    `version: 1
metrics:
  m: { better: higher, range: [0, 1] }
slices: [segment]
queries: { min_per_slice: 5 }
on_inconclusive: ${onInconclusive}
statistics: { resamples: 200, seed: 3 }
checks:
  - ${check}
`,
    'rules.yml'
  )

describe('a check over zero queries', () => {
  const kinds = [
    ['non_inferior', '{ name: new users, metric: m, where: { segment: new }, non_inferior: { margin: 0.02 } }'],
    ['superior', '{ name: new users, metric: m, where: { segment: new }, superior: { margin: 0 } }'],
    ['max_regressions', '{ name: new users, metric: m, where: { segment: new }, max_regressions: { count: 0 } }']
  ] as const
  it.each(kinds)('%s fails with reason no_queries, also under on_inconclusive: pass', (_kind, check) => {
    for (const policy of ['pass', 'fail'] as const) {
      const r = rules(policy, check)
      // Paired under rules with no where (so the empty slice is not refused at pairing); the values are equal.
      const table = pairRows(
        rules(policy, '{ name: all, metric: m, non_inferior: { margin: 0.02 } }'),
        side('b.jsonl', 0.5),
        side('c.jsonl', 0.5)
      )
      const d = decide(r, table, createStats(table, r))
      expect(d.checks[0].units[0].comparison.n).toBe(0)
      expect(d.checks[0].units[0].reason).toBe('no_queries')
      expect(d.checks[0].status).toBe('fail')
      expect(d.checks[0].counts).toBe('fail')
      expect(d.verdict).toBe('fail')
      expect(
        explainUnit(d.checks[0], d.checks[0].units[0], r.metrics.get('m')!, { minPerSlice: 5, capabilities: [] })
      ).toBe('m for segment = new has no queries to compare; a check over zero queries never passes.')
    }
  })
})

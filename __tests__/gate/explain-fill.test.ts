/**
 * `explain` under queries.missing: zero names each metric's fill, the value a dropped query scores: the worst end
 * of its range unless set (it said "0 unless set", which was never so for a range's upper end, and since 2026-12-04
 * a metric without a range must name its fill).
 */
import { describe, expect, it } from '@jest/globals'
import { cli, writeFiles } from '../helpers.js'

describe('explain under missing: zero', () => {
  it("names each metric's fill", async () => {
    const files = writeFiles({
      'r.yml': [
        'version: 1',
        'queries: { missing: zero }',
        'metrics:',
        '  recall@10: { better: higher, range: [0, 1] }',
        '  latency_ms: { better: lower, unit: ms, fill: 5000 }',
        '  error_rate: { better: lower, range: [0, 1] }',
        'checks:',
        '  - { name: c, metric: recall@10, non_inferior: { margin: 0.01 } }',
        ''
      ].join('\n')
    })
    const r = await cli(['explain', '--rules', files['r.yml']])
    expect(r.code).toBe(0)
    expect(r.stdout).toContain("scores the metric's fill value (error_rate 1, latency_ms 5000, recall@10 0)")
  })
})

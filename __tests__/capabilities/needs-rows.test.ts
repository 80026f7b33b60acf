/**
 * Under `gate --aggregates` (a warehouse's sums, no rows) every capability whose evidence is per query or in files
 * beside the rows is refused with its own rules key (src/capabilities/aggregates.ts, refuseRowsOnly), never run
 * on an empty table. Each real capability is pinned here: the rules that switch it on, and the key the refusal
 * names. A capability added to the registry without a row here fails the first test, so its author has to say.
 */
import { describe, expect, it } from '@jest/globals'
import { refuseRowsOnly } from '../../src/capabilities/aggregates.js'
import { CAPABILITIES } from '../../src/capabilities/registry.js'
import { rulesFromText } from '../../src/load.js'
import { refusal } from '../helpers.js'

const BASE = `version: 1
metrics:
  recall@10: { better: higher, range: [0, 1] }
checks:
  - name: recall holds
    metric: recall@10
    non_inferior: { margin: 0.02 }
`

/** Per capability: the rules lines that switch it on (null: it runs on sums alone), and the key it is refused with. */
const PINNED: Record<string, { rules: string; key: string | null }> = {
  comparability: { rules: 'comparability: { must_match: [chunker] }', key: 'comparability' },
  pooling: { rules: 'pooling: { depth: 10, max_unjudged: { share: 0.5 } }', key: 'pooling' },
  'zero-hits': { rules: 'max_zero_hit_share: { share: 0.25, depth: 3 }', key: 'max_zero_hit_share' },
  'two-stage': { rules: 'two_stage: { k: 10, gain: linear }', key: 'two_stage' },
  dataset: { rules: 'dataset: { file: eval/questions.jsonl }', key: 'dataset' },
  reference: { rules: 'reference: { name: v1.4, path: eval/release/rows.csv, ref: v1.4 }', key: 'reference' },
  judge: { rules: 'judge: { anchors: eval/anchors.jsonl }', key: 'judge' },
  holdout: {
    rules: 'dataset: { file: eval/questions.jsonl, split: holdout, holdout_looks: { max_per_pr: 3, release: v1.4 } }',
    key: 'dataset'
  },
  history: { rules: 'history: { runs: 20 }', key: 'history' },
  seeds: { rules: 'statistics: { seeds: { baseline: 1, candidate: 3 } }', key: 'statistics.seeds' },
  queries: { rules: 'queries: { file: eval/queries.jsonl }', key: 'queries.file' }
}

describe('a capability that needs the rows is refused under --aggregates with its own key', () => {
  it('every capability of the registry is pinned here', () => {
    expect(CAPABILITIES.map((c) => c.name).sort()).toEqual(Object.keys(PINNED).sort())
  })

  for (const [name, { rules, key }] of Object.entries(PINNED))
    it(`${name}: ${key === null ? 'runs on sums' : `refused at ${key}`}`, async () => {
      // a reference is read only for a check with a budget
      const base = name === 'reference' ? BASE.replace('margin: 0.02 }', 'margin: 0.02 }\n    budget: 0.01') : BASE
      const parsed = rulesFromText(`${base}${rules}\n`, 'rules.yml')
      const on = CAPABILITIES.find((c) => c.name === name)
      expect(on?.config(parsed)).not.toBeUndefined()
      if (key === null) return expect(() => refuseRowsOnly(parsed)).not.toThrow()
      const refused = await refusal(() => Promise.resolve().then(() => refuseRowsOnly(parsed)))
      expect([refused.where.file, refused.where.key]).toEqual(['rules.yml', key])
      expect(refused.message).toMatch(/warehouse aggregates do not carry/)
    })

  it('rules that switch on no such capability are not refused', () => {
    expect(() => refuseRowsOnly(rulesFromText(BASE, 'rules.yml'))).not.toThrow()
  })
})

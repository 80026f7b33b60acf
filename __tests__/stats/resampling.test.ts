/**
 * statistics.method (src/stats/resampling.ts): the law is fixed from the rules and the whole comparison's units,
 * never from a slice; `auto` keeps the multinomial bootstrap below 50,000 units and from there draws many-valued
 * columns with Poisson weights and few-valued ones by counts; the report states it; and a Poisson gate gives the
 * same bytes whatever the row order and the number of threads.
 */
import { describe, expect, it } from '@jest/globals'
import { loadRules } from '../../src/config/rules.js'
import { toMarkdown } from '../../src/report/markdown.js'
import { toText } from '../../src/report/text.js'
import { POISSON_FROM_UNITS, resamplingLaw } from '../../src/stats/resampling.js'
import { gateSides, toJsonReport } from '../helpers.js'
import { mulberry32, sideOf } from './helpers.js'

describe('the law of a run', () => {
  it('auto: multinomial below 50,000 units, Poisson from there; the explicit methods as named', () => {
    expect(POISSON_FROM_UNITS).toBe(50000)
    expect(resamplingLaw(undefined, 49999)).toBe('multinomial')
    expect(resamplingLaw('auto', 50000)).toBe('poisson')
    expect(resamplingLaw('multinomial', 10 ** 7)).toBe('multinomial')
    expect(resamplingLaw('poisson', 10)).toBe('poisson')
  })
})

/** n queries: a binary metric, a continuous one, a slice attribute; the candidate a little better. */
function sidesOf(n: number, order: 'id' | 'shuffled' = 'id'): ReturnType<typeof sideOf>[] {
  const r = mulberry32(21)
  const rows = Array.from({ length: n }, (_, i) => {
    const skill = r()
    const b = {
      id: `q${String(i).padStart(6, '0')}`,
      values: { hit: r() < skill ? 1 : 0, score: skill + r() * 0.2 },
      attrs: { seg: i % 3 === 0 ? 'a' : 'b' }
    }
    const c = {
      id: b.id,
      values: { hit: r() < skill + 0.01 ? 1 : 0, score: skill + 0.002 + r() * 0.2 },
      attrs: b.attrs
    }
    return [b, c] as const
  })
  const pick = (side: 0 | 1): Array<(typeof rows)[number][0]> => {
    const list = rows.map((p) => p[side])
    if (order === 'shuffled')
      list.sort(
        (x, y) =>
          ((Number(x.id.slice(1)) * 2654435761) % 4294967296) - ((Number(y.id.slice(1)) * 2654435761) % 4294967296)
      )
    return list
  }
  return [sideOf('baseline.jsonl', pick(0)), sideOf('candidate.jsonl', pick(1))]
}

const rulesWith = (method?: string, interval = 'percentile'): ReturnType<typeof loadRules> =>
  loadRules(
    `version: 1
metrics:
  hit: { better: higher, binary: true }
  score: { better: higher }
slices: [seg]
statistics: { resamples: 400, permutations: 400, seed: 3, interval: ${interval}${method === undefined ? '' : `, method: ${method}`} }
checks:
  - { name: score holds, metric: score, non_inferior: { margin: 0.01 } }
`,
    'rules.yml'
  )

describe('which columns each method draws how', () => {
  const [baseline, candidate] = sidesOf(POISSON_FROM_UNITS)
  const laws = (method?: string): string[] =>
    gateSides(rulesWith(method), baseline, candidate).comparisons.map(
      (c) => `${c.metric} ${c.slice.map(([k, v]) => `${k}=${v}`).join('')}: ${c.resampling}`
    )
  it('auto at 50,000 queries: the continuous column by Poisson weights (in every slice), the binary one by counts', () => {
    expect(laws()).toEqual([
      'hit : multinomial',
      'score : poisson',
      'hit seg=a: multinomial',
      'score seg=a: poisson',
      'hit seg=b: multinomial',
      'score seg=b: poisson'
    ])
  })
  it('multinomial and poisson everywhere when named', () => {
    expect(laws('multinomial').every((l) => l.endsWith('multinomial'))).toBe(true)
    expect(laws('poisson').every((l) => l.endsWith('poisson'))).toBe(true)
  })
  it('below 50,000 queries auto changes nothing: every column multinomial', () => {
    const [b, c] = sidesOf(2000)
    expect(gateSides(rulesWith(), b, c).comparisons.every((x) => x.resampling === 'multinomial')).toBe(true)
  })
})

describe('under statistics.interval auto (the default) no bootstrap is drawn', () => {
  it('every comparison says so (resampling null), and the Method table names the law of the randomization test’s signs', () => {
    const [b, c] = sidesOf(POISSON_FROM_UNITS)
    const result = gateSides(rulesWith(undefined, 'auto'), b, c)
    expect(result.comparisons.every((x) => x.resampling === null)).toBe(true)
    expect(toMarkdown(result)).toMatch(
      /\| Resampling \| no bootstrap drawn: every interval is in closed form \(statistics.interval auto\); the randomization test's signs from md5 of each query \(or cluster\) id and the seed/
    )
    const json = JSON.parse(toJsonReport(result)) as { rules: { statistics: Record<string, unknown> } }
    expect(json.rules.statistics.resampling).toBe('poisson')
    const [b2, c2] = sidesOf(2000)
    expect(toMarkdown(gateSides(rulesWith(undefined, 'auto'), b2, c2))).toMatch(
      /the randomization test's signs from the seeded stream/
    )
  })
})

describe('a Poisson gate', () => {
  it('states its law in the method table, the method line and the JSON', () => {
    const [b, c] = sidesOf(3000)
    const result = gateSides(rulesWith('poisson'), b, c)
    expect(toMarkdown(result)).toMatch(
      /\| Resampling \| Poisson\(1\) weights per query \(or cluster\) and resample, from md5 of its id and the seed, for hit, score \(statistics.method poisson; docs\/scale.md\) \|/
    )
    expect(toText(result, { color: false })).toMatch(/percentile paired bootstrap \(Poisson-weighted\)/)
    const json = JSON.parse(toJsonReport(result)) as {
      rules: { statistics: Record<string, unknown> }
      comparisons: Array<{ resampling: string }>
    }
    expect([json.rules.statistics.method, json.rules.statistics.resampling]).toEqual(['poisson', 'poisson'])
    expect(json.comparisons.every((x) => x.resampling === 'poisson')).toBe(true)
  })
  it('gives the same bytes whatever the row order and the number of threads', () => {
    const [b, c] = sidesOf(4000)
    const [bs, cs] = sidesOf(4000, 'shuffled')
    const one = toJsonReport(gateSides(rulesWith('poisson'), b, c, {}, { threads: 1 }))
    expect(toJsonReport(gateSides(rulesWith('poisson'), bs, cs, {}, { threads: 2 }))).toBe(one)
  })
})

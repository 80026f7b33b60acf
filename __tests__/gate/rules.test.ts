import { describe, expect, it } from '@jest/globals'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { Ajv } from 'ajv'
import { loadRules } from '../../src/config/rules.js'
import { RULES_SCHEMA } from '../../src/config/schema.js'
import { rulesSchema } from '../../src/capabilities/rules-schema.js'
import { rulesFromText } from '../../src/load.js'
import { InputError } from '../../src/errors.js'
import { VERSION } from '../../src/version.js'

const root = path.resolve(import.meta.dirname, '../..')

const BASE = `version: 1
metrics:
  recall@10: { better: higher, range: [0, 1] }
  hit@10: { better: higher, binary: true }
  latency_ms: { better: lower, unit: ms }
checks:
  - name: recall does not drop
    metric: recall@10
    non_inferior: { margin: 0.005 }
`

function refusal(text: string): InputError {
  try {
    loadRules(text, 'rules.yml')
  } catch (error) {
    if (error instanceof InputError) return error
    throw error
  }
  throw new Error('expected the rules to be refused')
}

describe('rules loading', () => {
  it('reads the documented shape with defaults', () => {
    const rules = loadRules(BASE, 'rules.yml')
    expect(rules.statistics).toEqual({
      confidence: 0.95,
      resamples: 10000,
      seed: '1',
      interval: 'auto',
      permutations: 10000,
      cluster: undefined,
      clusterWeighting: 'query',
      weights: undefined,
      multiplicity: 'none'
    })
    expect(rules.queries).toEqual({ missing: 'error', minPerSlice: 30 })
    expect(rules.onInconclusive).toBe('fail')
    expect(rules.checks[0]).toMatchObject({
      name: 'recall does not drop',
      line: 7,
      kind: { type: 'non_inferior', margin: { value: 0.005, relative: false } }
    })
    expect(rules.metrics.get('hit@10')?.range).toEqual([0, 1])
  })

  it('reads relative margins', () => {
    const rules = loadRules(
      BASE + `  - name: latency\n    metric: latency_ms\n    non_inferior: { margin: 20% }\n`,
      'rules.yml'
    )
    expect(rules.checks[1].kind).toEqual({ type: 'non_inferior', margin: { value: 0.2, relative: true, text: '20%' } })
  })

  it('suggests the right key for a typo, with its line', () => {
    const e = refusal(BASE.replace('non_inferior:', 'non_inferiour:'))
    expect(e.message).toMatch(
      /^rules\.yml:9 \(checks\[0\]\.non_inferiour\): unknown key "non_inferiour" \(did you mean "non_inferior"\?\)/
    )
  })

  it('suggests the right metric name', () => {
    const e = refusal(BASE.replace('metric: recall@10', 'metric: recal@10'))
    expect(e.message).toMatch(/rules\.yml:8 \(checks\[0\]\.metric\): .*"recal@10".*did you mean "recall@10"/)
  })

  it('refuses a number written as a string', () => {
    const e = refusal(BASE + 'statistics: { confidence: "0.95" }\n')
    expect(e.message).toMatch(/statistics\.confidence.*must be a number, not string.*without quotes/)
  })

  it('refuses an out-of-range confidence', () => {
    expect(refusal(BASE + 'statistics: { confidence: 1.5 }\n').message).toMatch(/statistics\.confidence/)
    expect(refusal(BASE + 'statistics: { confidence: 0.3 }\n').message).toMatch(/statistics\.confidence/)
  })

  it('refuses a margin larger than the metric range, and a negative margin', () => {
    expect(refusal(BASE.replace('margin: 0.005', 'margin: 2')).message).toMatch(
      /checks\[0\]\.non_inferior\.margin.*could never fail/
    )
    expect(refusal(BASE.replace('margin: 0.005', 'margin: -0.1')).message).toMatch(/checks\[0\]\.non_inferior\.margin/)
    expect(refusal(BASE.replace('margin: 0.005', 'margin: 250%')).message).toMatch(/not a valid margin/)
  })

  it('names the key and what it takes when a value does not match its pattern (not "margin" for every key)', () => {
    const refused = (text: string): string => {
      try {
        rulesFromText(text, 'rules.yml')
      } catch (error) {
        if (error instanceof InputError) return error.message
        throw error
      }
      throw new Error('expected the rules to be refused')
    }
    expect(refused(BASE + 'history: { runs: 5, workflow: deploy }\n')).toMatch(
      /\(history\.workflow\): "deploy" is not a valid workflow\. write a workflow file name in \.github\/workflows/
    )
    expect(refused(BASE + 'comparability: { must_match: [corpus..hash] }\n')).toMatch(
      /\(comparability\.must_match\[0\]\): "corpus\.\.hash" is not a valid must_match\. write a dotted manifest field/
    )
    expect(refused(BASE.replace('margin: 0.005', 'margin: 150%'))).toMatch(
      /"150%" is not a valid margin\. write a number in the metric's units \(0\.02\) or a percentage of the mean, at most 100%/
    )
  })

  it('refuses a check that demands nothing or two things', () => {
    expect(refusal(BASE.replace('    non_inferior: { margin: 0.005 }\n', '')).message).toMatch(
      /says what to compare but not what to demand/
    )
    expect(refusal(BASE + '    superior: {}\n').message).toMatch(/a check demands exactly one thing/)
  })

  it('refuses McNemar on a metric that is not binary', () => {
    expect(refusal(BASE + '  - { name: x, metric: recall@10, superior: { test: mcnemar } }\n').message).toMatch(
      /not declared binary/
    )
  })

  it('refuses cluster_weighting: cluster without a cluster attribute (it would weigh queries, silently)', () => {
    const e = refusal(BASE + 'statistics: { cluster_weighting: cluster }\n')
    expect(e.where).toMatchObject({ file: 'rules.yml', line: 10, key: 'statistics.cluster_weighting' })
    expect(e.message).toMatch(/statistics names no cluster attribute.*add statistics\.cluster/)
    expect(
      loadRules(BASE + 'statistics: { cluster: user, cluster_weighting: cluster }\n', 'rules.yml').statistics
    ).toMatchObject({ cluster: 'user', clusterWeighting: 'cluster' })
    expect(
      loadRules(BASE + 'statistics: { cluster_weighting: query }\n', 'rules.yml').statistics.clusterWeighting
    ).toBe('query')
  })

  it('refuses a fill better than the worst end of the range (leaving out the worst queries would pay)', () => {
    const rules = (metric: string): string =>
      `version: 1\nqueries: { missing: zero }\nmetrics:\n  m: ${metric}\nchecks:\n  - { name: c, metric: m, non_inferior: { margin: 0.01 } }\n`
    // Accepted before: fill 1 scored every query the candidate left out as a perfect one.
    for (const [metric, worst] of [
      ['{ better: higher, range: [0, 1], fill: 1 }', 0],
      ['{ better: higher, range: [0, 1], fill: 0.5 }', 0],
      ['{ better: lower, range: [0, 60000], fill: 0 }', 60000]
    ] as const) {
      const e = refusal(rules(metric))
      expect(e.where).toMatchObject({ key: 'metrics.m.fill' })
      expect(e.message).toMatch(/is better than the worst value of m/)
      expect(e.hint).toBe(`fill a missing query with ${worst}`)
    }
    expect(
      loadRules(rules('{ better: lower, range: [0, 60000], fill: 60000 }'), 'rules.yml').metrics.get('m')?.fill
    ).toBe(60000)
    expect(loadRules(rules('{ better: higher, range: [0, 1] }'), 'rules.yml').metrics.get('m')?.fill).toBe(0)
    expect(loadRules(rules('{ better: lower, fill: 5000 }'), 'rules.yml').metrics.get('m')?.fill).toBe(5000)
  })

  it('a schema refusal says what the key takes (its description), not only what is wrong', () => {
    const rules = (metrics: string, check: string): string =>
      `version: 1\nmetrics: ${metrics}\nchecks:\n  - { name: c, metric: m, ${check} }\n`
    const ok = '{ m: { better: higher } }'
    const cases: Array<[string, string, RegExp]> = [
      [rules('{}', 'non_inferior: { margin: 0.01 }'), 'metrics', /^it takes: /],
      [rules(ok, 'where: {}, non_inferior: { margin: 0.01 }'), 'checks[0].where', /^it takes: /],
      [
        rules(ok, 'non_inferior: { margin: -0.01 }'),
        'checks[0].non_inferior.margin',
        /^see checks\[\].non_inferior.margin in the rules reference/
      ]
    ]
    for (const [text, key, hint] of cases) {
      const e = refusal(text)
      expect(e.where.key).toBe(key)
      expect(e.hint).toMatch(hint)
    }
  })

  it('refuses duplicate keys, aliases, empty files', () => {
    expect(refusal(BASE + 'version: 1\n').message).toMatch(/rules\.yml:10: .*repeated/)
    expect(refusal('a: &x [1]\nb: *x\n').message).toMatch(/rules\.yml:2: uses a YAML alias/)
    expect(refusal('  \n').message).toMatch(/empty/)
  })

  it('refuses a YAML alias bomb quickly', () => {
    const bomb = ['a: &a ["x","x","x","x","x","x","x","x","x"]']
    for (let i = 1; i < 9; i++)
      bomb.push(
        `${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(9)
          .fill('*' + String.fromCharCode(96 + i))
          .join(',')}]`
      )
    const start = Date.now()
    expect(refusal(bomb.join('\n')).message).toMatch(/alias/)
    expect(Date.now() - start).toBeLessThan(5000)
  })

  it('requires a fill value for lower-is-better metrics under missing: zero', () => {
    expect(refusal(BASE + 'queries: { missing: zero }\n').message).toMatch(
      /metrics\.latency_ms.*give latency_ms a "fill" value/
    )
  })

  it('requires a range or a fill for an unbounded higher-is-better metric under missing: zero', () => {
    const rules = (metric: string): string =>
      `version: 1\nqueries: { missing: zero }\nmetrics:\n  m: ${metric}\nchecks:\n  - { name: c, metric: m, non_inferior: { margin: 0.01 } }\n`
    // Accepted before with fill 0: a log-likelihood or a similarity below 0 made leaving a query out pay.
    const e = refusal(rules('{ better: higher }'))
    expect(e.where).toMatchObject({ key: 'metrics.m' })
    expect(e.message).toMatch(/m has no range, so nothing says a 0 is its worst value/)
    expect(e.hint).toMatch(/give m a range .* or a "fill" value: its worst/)
    expect(loadRules(rules('{ better: higher, fill: -50 }'), 'rules.yml').metrics.get('m')?.fill).toBe(-50)
    expect(loadRules(rules('{ better: higher, binary: true }'), 'rules.yml').metrics.get('m')?.fill).toBe(0)
    // under missing: error nothing is filled, so nothing is asked
    expect(loadRules(rules('{ better: higher }').replace('zero', 'error'), 'rules.yml').metrics.get('m')?.fill).toBe(
      undefined
    )
  })

  it('keeps rules/schema.json equal to the schema the loader uses (npm run schema)', () => {
    const published = JSON.parse(readFileSync(path.join(root, 'rules/schema.json'), 'utf8'))
    expect(published).toEqual(JSON.parse(JSON.stringify(rulesSchema())))
  })

  it('publishes a schema that is itself valid draft-07 (the loader skips this check at start-up)', () => {
    const ajv = new Ajv({ strict: false })
    expect(ajv.validateSchema(RULES_SCHEMA)).toBe(true)
    expect(ajv.errors ?? null).toBeNull()
  })

  it('loads the shipped presets and the example rules', () => {
    for (const f of ['rules/presets/default.yml', 'examples/rules.yml']) {
      expect(() => loadRules(readFileSync(path.join(root, f), 'utf8'), f)).not.toThrow()
    }
  })

  it('keeps the version equal to package.json', () => {
    expect(VERSION).toBe(JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).version)
  })
})

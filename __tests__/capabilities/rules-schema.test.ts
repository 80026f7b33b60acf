/**
 * A capability's rules fragment is closed like the core's keys (src/capabilities/rules-schema.ts): a key misspelt
 * inside the capability's block is refused with a "did you mean", even when the fragment does not say
 * `additionalProperties: false` itself. Before, the misspelt key passed and the capability read its default.
 */
import { describe, expect, it } from '@jest/globals'
import type { Capability } from '../../src/capabilities/contract.js'
import { CAPABILITIES } from '../../src/capabilities/registry.js'
import { rulesSchema } from '../../src/capabilities/rules-schema.js'
import { rulesFromText } from '../../src/load.js'
import { refusal } from '../helpers.js'

const open: Capability<null, null, null> = {
  name: 'open-block',
  about: 'a capability whose fragment leaves its objects open',
  rules: {
    floor: {
      type: 'object',
      properties: {
        min_queries: { type: 'integer', minimum: 1, description: 'Fewest paired queries.' },
        by: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' } } } }
      },
      description: 'A floor.'
    }
  },
  config: () => undefined,
  needsRows: () => undefined,
  inputs: () => [],
  read: () => Promise.resolve(null),
  assess: () => ({ guards: [], summary: null, parts: {} })
}

const REGISTRY: readonly Capability[] = [...CAPABILITIES, open]
const RULES = `version: 1\nmetrics:\n  m: { better: higher }\nchecks:\n  - { name: holds, metric: m, non_inferior: { margin: 5% } }\n`

describe("a capability's rules fragment", () => {
  it('accepts its own keys', () => {
    const rules = rulesFromText(`${RULES}floor: { min_queries: 3, by: [{ name: a }] }\n`, 'rules.yml', REGISTRY)
    expect(rules.extra.get('floor')).toEqual({ min_queries: 3, by: [{ name: 'a' }] })
  })

  it('refuses a misspelt key in its block, and in an object nested in it', async () => {
    const typo = await refusal(() => rulesFromText(`${RULES}floor: { min_querys: 3 }\n`, 'rules.yml', REGISTRY))
    expect(typo.message).toMatch(/\(floor\.min_querys\): unknown key "min_querys" \(did you mean "min_queries"\?\)/)
    const nested = await refusal(() => rulesFromText(`${RULES}floor: { by: [{ nme: a }] }\n`, 'rules.yml', REGISTRY))
    expect(nested.message).toMatch(/unknown key "nme" \(did you mean "name"\?\)/)
  })

  it('leaves a fragment that closes its objects itself as written (the published schema is unchanged)', () => {
    const history = (rulesSchema() as { properties: Record<string, unknown> }).properties.history
    expect(history).toEqual(CAPABILITIES.find((c) => c.name === 'history')?.rules?.history)
  })

  // Found in review: closing every object that lists keys refused valid rules whose keys a combinator spreads, and
  // spread a tuple's items into an object ajv ignored.
  const spread = (fragment: Record<string, unknown>): readonly Capability[] => [
    ...CAPABILITIES,
    { ...open, name: 'spread', rules: { spread: fragment } }
  ]
  const read = (registry: readonly Capability[], value: string) =>
    rulesFromText(`${RULES}spread: ${value}\n`, 'rules.yml', registry)

  it('accepts keys a base and its oneOf discriminator share, and an allOf of parts', () => {
    const discriminated = spread({
      type: 'object',
      properties: { kind: { type: 'string' }, n: { type: 'integer' } },
      oneOf: [{ properties: { kind: { const: 'p' } } }, { properties: { kind: { const: 'q' } } }]
    })
    expect(read(discriminated, '{ kind: p, n: 3 }').extra.get('spread')).toEqual({ kind: 'p', n: 3 })
    const parts = spread({
      type: 'object',
      allOf: [{ properties: { x: { type: 'integer' } } }, { properties: { y: { type: 'integer' } } }]
    })
    expect(read(parts, '{ x: 1, y: 2 }').extra.get('spread')).toEqual({ x: 1, y: 2 })
  })

  it("checks a tuple's items one by one, and refuses a fragment that is not self-contained", async () => {
    const tuple = spread({ type: 'array', items: [{ type: 'string' }, { type: 'string' }] })
    expect((await refusal(() => read(tuple, '[x, 5]'))).message).toMatch(/spread/)
    expect(() => rulesSchema(spread({ $ref: '#/definitions/x' }))).toThrow(/may not use \$ref/)
  })
})

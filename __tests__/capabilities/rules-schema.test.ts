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
})

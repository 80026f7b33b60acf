import { RULES_SCHEMA } from '../config/schema.js'
import type { Capability } from './contract.js'
import { CAPABILITIES } from './registry.js'

/**
 * The rules file's JSON Schema assembled from the registry: the core's keys (src/config/schema.ts), then each
 * capability's rules fragment (`Capability.rules`) in registry order. The loader validates against it and
 * `npm run schema` publishes it (rules/schema.json), so a capability's keys are declared once, in its folder.
 */
export function rulesSchema(registry: readonly Capability[] = CAPABILITIES): object {
  let schema = schemas.get(registry)
  if (schema !== undefined) return schema
  const properties: Record<string, unknown> = { ...RULES_SCHEMA.properties }
  for (const capability of registry) {
    for (const [key, fragment] of Object.entries(capability.rules ?? {})) {
      if (Object.hasOwn(properties, key))
        throw new Error(`capability ${capability.name} declares the rules key ${key}, which is already declared`)
      properties[key] = closed(fragment)
    }
  }
  schema = { ...RULES_SCHEMA, properties }
  schemas.set(registry, schema)
  return schema
}

/**
 * A fragment with every object that lists its keys closed (`additionalProperties: false` unless it says otherwise),
 * as the core's are: a typo inside a capability's block is refused with a "did you mean", never read as nothing.
 */
function closed(schema: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...schema }
  const sub = (s: unknown): unknown => (s !== null && typeof s === 'object' ? closed(s as Record<string, unknown>) : s)
  if (schema.properties !== undefined) {
    const properties = Object.entries(schema.properties as Record<string, unknown>)
    out.properties = Object.fromEntries(properties.map(([k, s]) => [k, sub(s)]))
    out.additionalProperties = sub(schema.additionalProperties ?? false)
  } else if (schema.additionalProperties !== undefined) out.additionalProperties = sub(schema.additionalProperties)
  if (schema.items !== undefined) out.items = sub(schema.items)
  for (const k of ['oneOf', 'anyOf', 'allOf']) if (Array.isArray(schema[k])) out[k] = (schema[k] as unknown[]).map(sub)
  return out
}

/** One schema object per registry, so the loader compiles it once (src/config/rules.ts keys its validators by it). */
const schemas = new WeakMap<readonly Capability[], object>()

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
      properties[key] = fragment
    }
  }
  schema = { ...RULES_SCHEMA, properties }
  schemas.set(registry, schema)
  return schema
}

/** One schema object per registry, so the loader compiles it once (src/config/rules.ts keys its validators by it). */
const schemas = new WeakMap<readonly Capability[], object>()

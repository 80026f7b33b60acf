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

/** Keywords that let an object's keys come from elsewhere than its own `properties`: such an object stays open. */
const SPREADS = ['allOf', 'anyOf', 'oneOf', 'if', 'then', 'else', 'dependencies', 'dependentSchemas']

/**
 * A fragment with every object that lists all its keys closed (`additionalProperties: false` unless it says
 * otherwise), as the core's are: a typo inside a capability's block is refused with a "did you mean", never read as
 * nothing. An object whose keys a combinator spreads over branches (a base plus a `oneOf` discriminator, an
 * `allOf` of parts, `if`/`then`) is left open at that level, and so are the branches themselves, since each lists
 * only some keys; what they nest is closed. A fragment is self-contained: `$ref` and `definitions` are refused.
 */
function closed(schema: Readonly<Record<string, unknown>>, close = true): Record<string, unknown> {
  for (const k of ['$ref', 'definitions', '$defs'])
    if (Object.hasOwn(schema, k)) throw new Error(`a capability's rules fragment may not use ${k}: write it out`)
  const out: Record<string, unknown> = { ...schema }
  const sub = (s: unknown, own = true): unknown =>
    s !== null && typeof s === 'object' && !Array.isArray(s) ? closed(s as Record<string, unknown>, own) : s
  const spread = SPREADS.some((k) => schema[k] !== undefined)
  if (schema.properties !== undefined) {
    const properties = Object.entries(schema.properties as Record<string, unknown>)
    out.properties = Object.fromEntries(properties.map(([k, s]) => [k, sub(s)]))
    if (schema.additionalProperties !== undefined) out.additionalProperties = sub(schema.additionalProperties)
    else if (close && !spread) out.additionalProperties = false
  } else if (schema.additionalProperties !== undefined) out.additionalProperties = sub(schema.additionalProperties)
  // a tuple's items, one schema each; or the one schema of every item
  if (Array.isArray(schema.items)) out.items = (schema.items as unknown[]).map((s) => sub(s))
  else if (schema.items !== undefined) out.items = sub(schema.items)
  for (const k of SPREADS) {
    const v = schema[k]
    if (Array.isArray(v)) out[k] = v.map((s) => sub(s, false))
    else if (v !== undefined && typeof v === 'object' && k !== 'dependencies' && k !== 'dependentSchemas')
      out[k] = sub(v, false)
  }
  return out
}

/** One schema object per registry, so the loader compiles it once (src/config/rules.ts keys its validators by it). */
const schemas = new WeakMap<readonly Capability[], object>()

import type { Rules } from '../config/types.js'
import type { Aggregates } from '../model/aggregates.js'
import type { Capability, CoreSides } from './contract.js'
import { historyCapability } from './history/capability.js'
import { holdoutCapability } from './holdout/capability.js'
import { judgeCapability } from './judge/capability.js'
import { referenceCapability } from './reference/capability.js'
import { seedsCapability } from './seeds/capability.js'
import { queriesCapability } from './queries/capability.js'
import {
  comparabilityCapability,
  datasetCapability,
  poolingCapability,
  twoStageCapability,
  zeroHitsCapability
} from './trust/family.js'

/**
 * Every capability, in the order load, gate, the action, the CLI and the renderers iterate them: guards count in
 * this order (trust first), report parts fill each slot in this order, the JSON report's keys follow it.
 * Adding a capability: its folder, one line here and its test (docs/architecture.md, "Adding a capability").
 */
export const CAPABILITIES: readonly Capability[] = [
  comparabilityCapability,
  poolingCapability,
  zeroHitsCapability,
  twoStageCapability,
  datasetCapability,
  referenceCapability,
  judgeCapability,
  holdoutCapability,
  historyCapability,
  seedsCapability,
  queriesCapability
]

/** Everything the gate reads before it decides (src/load.ts): the rules, both sides, each capability's evidence. */
export interface GateInputs {
  rules: Rules
  core: CoreSides
  /** The evidence of every capability the rules switch on, by capability name (read by loadGateInputs). */
  evidence: ReadonlyMap<string, unknown>
  /** A warehouse's sums in place of both sides' rows (gate --aggregates; src/capabilities/aggregates.ts). */
  aggregates?: Aggregates
}

/** A capability the rules switch on, with its typed rules. */
export interface Active {
  capability: Capability
  config: unknown
}

/** The capabilities the rules switch on, in registry order. */
export function activeCapabilities(rules: Rules, registry: readonly Capability[] = CAPABILITIES): Active[] {
  const out: Active[] = []
  for (const capability of registry) {
    const config = capability.config(rules)
    if (config !== undefined) out.push({ capability, config })
  }
  return out
}

import type { Capability } from './contract.js'
import { historyCapability } from './history.js'
import { holdoutCapability } from './holdout.js'
import { judgeCapability } from './judge.js'
import { referenceCapability } from './reference.js'
import { seedsCapability } from './seeds.js'
import { queriesCapability } from './queries.js'
import { comparabilityCapability, datasetCapability, poolingCapability, twoStageCapability, zeroHitsCapability } from './trust-family.js'

/**
 * Every capability, in the order load, gate, the action, the CLI and the renderers iterate them: guards count in
 * this order (trust first), report parts fill each slot in this order, the JSON report's keys follow it.
 * Adding a capability: its module, and one line here (docs/architecture.md, "Capabilities").
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

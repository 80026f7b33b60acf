import type { CheckResult, UnitResult } from '../decide/types.js'
import type { Block } from '../model/document.js'
import type {
  ComparabilityEntry,
  GateResult,
  RenderParts,
  ReportSlot,
  RenderContext,
  WrittenFiles
} from '../decide/result.js'
import { jsonNumber } from '../util/json-number.js'

/**
 * The capabilities' report parts (src/capabilities/), gathered for one slot in registry order. The renderers call
 * these and know no capability by name.
 */

/** A capability's JSON numbers are written as every JSON number is (util/json-number.ts). */
const contextOf = (result: GateResult, files?: WrittenFiles): RenderContext => ({ result, files, num: jsonNumber })

/** Every capability's blocks for `slot`, in registry order (the renderers draw them). */
export function slotBlocks(result: GateResult, slot: ReportSlot, files?: WrittenFiles): Block[] {
  const out: Block[] = []
  for (const c of result.capabilities) {
    const part = c.parts.blocks?.[slot]
    if (part !== undefined) for (const b of part(contextOf(result, files))) out.push(b)
  }
  return out
}

/** Every capability's collapsed sections, in registry order. */
export function capabilitySections(
  result: GateResult,
  files?: WrittenFiles
): Array<{ id: string; title: string; body: Block[] }> {
  const out: Array<{ id: string; title: string; body: Block[] }> = []
  for (const c of result.capabilities)
    if (c.parts.sections !== undefined) out.push(...c.parts.sections(contextOf(result, files)))
  return out
}

/** The Method table's rows the capabilities state, by setting (a later capability's row wins). */
export function methodRowsOf(result: GateResult): Map<string, string> {
  const out = new Map<string, string>()
  for (const c of result.capabilities)
    for (const [setting, value] of c.parts.methodRows?.(contextOf(result)) ?? []) out.set(setting, value)
  return out
}

/** The capabilities' top-level keys of the JSON report, in registry order. */
export function capabilityJson(result: GateResult): Array<[string, unknown]> {
  const out: Array<[string, unknown]> = []
  for (const c of result.capabilities) {
    const entry = c.parts.json?.(contextOf(result))
    if (entry !== undefined && entry !== null) out.push(entry)
  }
  return out
}

/** The capabilities' keys of the JSON report's `trust` object (the trust family's), in registry order. */
export function capabilityTrustJson(result: GateResult): Array<[string, unknown]> {
  const out: Array<[string, unknown]> = []
  for (const c of result.capabilities)
    if (c.parts.trustJson !== undefined) out.push(c.parts.trustJson(contextOf(result)))
  return out
}

/** The capabilities' rows of the comparability table, in registry order (manifest fields, then judged shares). */
export function comparabilityEntries(result: GateResult): ComparabilityEntry[] {
  return result.capabilities.flatMap((c) => c.parts.comparability?.() ?? [])
}

/** The to-judge list of the capability that gives one (pooling), or undefined. */
export function toJudgeOf(
  result: Pick<GateResult, 'capabilities'>
): ReturnType<NonNullable<RenderParts['toJudge']>> | undefined {
  for (const c of result.capabilities) if (c.parts.toJudge !== undefined) return c.parts.toJudge()
  return undefined
}

/** The capabilities' extra keys of one unit in the JSON report. */
export function unitJsonExtras(result: GateResult, unit: UnitResult, check: CheckResult): Array<[string, unknown]> {
  const out: Array<[string, unknown]> = []
  for (const c of result.capabilities) {
    const part = c.parts.unitJson
    if (part !== undefined) out.push(...part(unit, check, contextOf(result)))
  }
  return out
}

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

/** What each capability gives (`part` of its parts and the render context: a list, or nothing), in registry order. */
function gathered<T>(
  result: GateResult,
  part: (parts: RenderParts, ctx: RenderContext) => readonly T[] | undefined,
  files?: WrittenFiles
): T[] {
  return result.capabilities.flatMap((c) => part(c.parts, contextOf(result, files)) ?? [])
}

/** Every capability's blocks for `slot`, in registry order (the renderers draw them). */
export function slotBlocks(result: GateResult, slot: ReportSlot, files?: WrittenFiles): Block[] {
  return gathered(result, (p, ctx) => p.blocks?.[slot]?.(ctx), files)
}

/** Every capability's collapsed sections, in registry order. */
export function capabilitySections(
  result: GateResult,
  files?: WrittenFiles
): Array<{ id: string; title: string; body: Block[] }> {
  return gathered(result, (p, ctx) => p.sections?.(ctx), files)
}

/** The Method table's rows the capabilities state, by setting (a later capability's row wins). */
export function methodRowsOf(result: GateResult): Map<string, string> {
  return new Map(gathered(result, (p, ctx) => p.methodRows?.(ctx)))
}

/** The capabilities' top-level keys of the JSON report, in registry order. */
export function capabilityJson(result: GateResult): Array<[string, unknown]> {
  return gathered(result, (p, ctx) => {
    const entry = p.json?.(ctx)
    return entry === undefined || entry === null ? undefined : [entry]
  })
}

/** The capabilities' keys of the JSON report's `trust` object (the trust family's), in registry order. */
export function capabilityTrustJson(result: GateResult): Array<[string, unknown]> {
  return gathered(result, (p, ctx) => (p.trustJson === undefined ? undefined : [p.trustJson(ctx)]))
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
  return gathered(result, (p, ctx) => p.unitJson?.(unit, check, ctx))
}

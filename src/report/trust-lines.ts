import { cells, list, row, strong, table, text, words, type Block, type Inline } from '../model/document.js'
import type { GateResult, WrittenFiles } from '../decide/result.js'
import type { TrustResult } from '../trust/trust.js'
import { STATUS } from './words.js'
import { capabilityTrustJson, slotBlocks } from './slots.js'

/**
 * The trust section's own blocks (doc/blocks.ts: the renderers escape): the trust rules' table and whether the
 * result is publishable, with each trust capability's part between them (its slots, registry order; its rows of
 * the comparability table and its key of the JSON report are its own too, src/capabilities/trust/report.ts).
 */

/**
 * Whether the result is publishable: `**Publishable: yes** (judgments complete, snapshots comparable, nothing
 * disputed left out)`, `**Publishable: no**: the reasons; not checked: ...`, or `**Publishable: not established**
 * (not checked: what could not be checked)`.
 */
export function publishableLine(trust: TrustResult): Inline {
  const p = trust.publishable
  const aside = (label: string, detail: string): Inline => [
    strong(words(`Publishable: ${label}`)),
    words(' ('),
    text(detail, 400),
    words(')')
  ]
  if (p.value)
    return aside('yes', 'judgments complete for the pooled top k, snapshots comparable, no disputed questions left out')
  const unchecked = p.unchecked.length > 0 ? `not checked: ${p.unchecked.join('; ')}` : ''
  if (p.reasons.length === 0) return aside('not established', unchecked)
  const detail = `${p.reasons.join('; ')}${unchecked ? `; ${unchecked}` : ''}`
  return [strong(words('Publishable: no')), words(': '), text(detail, 1300)]
}

/** The trust rules' table: each rule, its status and its reason. */
function guardsTable(trust: TrustResult): Block[] {
  if (trust.guards.length === 0) return []
  const rows = trust.guards.map((g) => row(text(g.rule), STATUS[g.status], text(g.words, 600)))
  return [table(cells('Trust rule', 'Status', 'Reason'), rows)]
}

/** Whether the result is publishable, and every reason it is not. */
function publishableBlocks(trust: TrustResult): Block[] {
  if (trust.publishable.reasons.length === 0) return [{ kind: 'paragraph', lines: [publishableLine(trust)] }]
  return [
    { kind: 'paragraph', lines: [[strong(words('Publishable: no')), words(', because:')]], tight: true },
    list(
      ...trust.publishable.reasons.map((r) => [text(r, 600)]),
      ...trust.publishable.unchecked.map((u) => [words('not checked: '), text(u, 600)])
    )
  ]
}

/** The body of the collapsible Trust section: the rules' table, each trust capability's part, publishable. */
export function trustBody(trust: TrustResult, result: GateResult, files?: WrittenFiles): Block[] {
  return [
    ...guardsTable(trust),
    ...slotBlocks(result, 'trustExam', files),
    ...slotBlocks(result, 'trustChecks', files),
    ...publishableBlocks(trust)
  ]
}

/** The trust part of the JSON report (snake_case keys, fixed order); how each guard counts comes from the decision. */
export function trustJson(result: GateResult): Record<string, unknown> {
  const { decision } = result
  const out: Record<string, unknown> = {
    guards: decision.guards.map((g) => ({
      rule: g.rule,
      status: g.status,
      counts_as: g.counts,
      reason: g.words
    })),
    decided_by: decision.decidedBy?.kind === 'trust' ? decision.decidedBy.rule : null
  }
  for (const [key, value] of capabilityTrustJson(result)) out[key] = value
  return out
}

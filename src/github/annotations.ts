import type { MetricRule } from '../config/types.js'
import type { GateResult } from '../decide/result.js'
import { explainUnit } from '../report/words.js'

/** GitHub shows at most 10 annotations of each kind per step; more are silently lost, so we cap and say so. */
export const MAX_ANNOTATIONS_PER_KIND = 10

export type AnnotationKind = 'error' | 'warning' | 'notice'

/** One workflow annotation, before it is handed to @actions/core. */
export interface Annotation {
  kind: AnnotationKind
  title: string
  message: string
  file?: string
  line?: number
}

/**
 * An annotation on the rules file at the line of every check that did not pass: an error when it counts as a
 * failure (fail, or inconclusive under on_inconclusive: fail), a warning otherwise. The message is the
 * plain-words sentence of its first unit that did not pass. `file` is the rules path as the repository names it.
 */
export function checkAnnotations(result: GateResult, file: string): Annotation[] {
  const out: Annotation[] = []
  for (const check of result.decision.checks) {
    if (check.status === 'pass') continue
    const unit = check.units.find((u) => u.status !== 'pass')
    const metric = result.rules.metrics.get(check.rule.metric) as MetricRule
    const sentence = unit
      ? explainUnit(check, unit, metric, { capabilities: result.capabilities })
      : `check ${check.status}`
    const others = check.units.filter((u) => u.status !== 'pass').length - 1
    out.push({
      kind: check.counts === 'fail' ? 'error' : 'warning',
      title: `retrieval-gate: check “${check.rule.name}” ${check.status}`,
      message: sentence + (others > 0 ? ` (and ${others} more slices; see the report)` : ''),
      file,
      line: check.rule.line
    })
  }
  return out
}

/** How many annotations of each kind the step writes itself, outside the capped list. */
export type AnnotationCounts = Partial<Record<AnnotationKind, number>>

/**
 * Fits the step's annotations into GitHub's {@link MAX_ANNOTATIONS_PER_KIND} per kind. `own` counts what the step
 * writes itself and must never lose: its failure message (`setFailed` is an error annotation), a comment or job
 * summary that could not be written (each a warning). Those take their places first; `list` (checks in rule order,
 * then provenance warnings) fills what is left of each kind, in order. Per kind that overflowed, one notice says
 * exactly how many of `list` were left out and where they all are; the notice itself takes a notice's place.
 */
export function capAnnotations(list: Annotation[], whereFull: string, own: AnnotationCounts = {}): Annotation[] {
  const room = (k: AnnotationKind): number => Math.max(0, MAX_ANNOTATIONS_PER_KIND - (own[k] ?? 0))
  const seen: Record<AnnotationKind, number> = { error: 0, warning: 0, notice: 0 }
  const kept: Annotation[] = []
  for (const a of list) {
    seen[a.kind]++
    if (seen[a.kind] <= room(a.kind)) kept.push(a)
  }
  const kinds: AnnotationKind[] = ['error', 'warning', 'notice']
  const left = kinds.map((k): [AnnotationKind, number] => [k, seen[k] - room(k)]).filter(([, n]) => n > 0)
  if (left.length === 0 || room('notice') === 0) return kept
  // no place left for the note: it replaces the last kept notice, which then counts as left out too
  if (kept.filter((a) => a.kind === 'notice').length >= room('notice')) {
    kept.splice(kept.map((a) => a.kind).lastIndexOf('notice'), 1)
    const n = left.find(([k]) => k === 'notice')
    if (n) n[1]++
    else left.push(['notice', 1])
  }
  const message = left.map(([k, n]) => `${n} more ${k}${n === 1 ? '' : 's'}`).join(', ')
  kept.push({
    kind: 'notice',
    title: 'retrieval-gate: annotations capped',
    message: `${message} not shown as annotations (GitHub shows at most ${MAX_ANNOTATIONS_PER_KIND} of each kind per step); all are in ${whereFull}.`
  })
  return kept
}

import type { MetricRule } from '../config/types.js'
import type { GateResult } from '../gate.js'
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
    const sentence = unit ? explainUnit(check, unit, metric) : `check ${check.status}`
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

/**
 * Keeps the first {@link MAX_ANNOTATIONS_PER_KIND} of each kind (in the given order, which is rule order) and
 * adds, per kind that overflowed, a notice saying how many were left out and where they are.
 */
export function capAnnotations(list: Annotation[], whereFull: string): Annotation[] {
  const seen: Record<AnnotationKind, number> = { error: 0, warning: 0, notice: 0 }
  const kept: Annotation[] = []
  for (const a of list) {
    seen[a.kind]++
    if (seen[a.kind] <= MAX_ANNOTATIONS_PER_KIND) kept.push(a)
  }
  const overflow = (Object.keys(seen) as AnnotationKind[]).filter((k) => seen[k] > MAX_ANNOTATIONS_PER_KIND)
  if (overflow.length === 0) return kept
  const message = overflow.map((k) => `${seen[k] - MAX_ANNOTATIONS_PER_KIND} more ${k}s`).join(', ')
  // the note itself is a notice: if notices overflowed, it replaces the last one so the cap still holds
  const note: Annotation = { kind: 'notice', title: 'retrieval-gate: annotations capped', message: `${message} not shown as annotations (GitHub shows at most ${MAX_ANNOTATIONS_PER_KIND} of each kind); all are in ${whereFull}.` }
  const notices = kept.filter((a) => a.kind === 'notice').length
  if (notices >= MAX_ANNOTATIONS_PER_KIND) {
    const last = kept.map((a) => a.kind).lastIndexOf('notice')
    kept.splice(last, 1)
  }
  kept.push(note)
  return kept
}

import type { MetricRule } from '../../config/types.js'
import type { GateResult } from '../../decide/result.js'
import type { CheckResult, UnitResult } from '../../decide/evaluate.js'
import type { ReferenceProvenance } from '../../model/provenance.js'
import { budgetOf, lookConfidence, type BudgetLooks, type BudgetResult } from './budget.js'
import { confidenceLabel } from '../../report/format.js'
import { code, paragraph, strong, text, words, type Block, type Inline } from '../../model/document.js'
import { artifactSpans, formatAge } from '../../report/provenance.js'
import { amount, displayNumber, sliceLabel, unitWord } from '../../report/words.js'
import { clean } from '../../report/escape.js'
import type { UnitSaid } from '../../decide/result.js'

/** What the reports say about the reference (rules `reference`): its label, the rows as read, their count, the snapshot check. */
export interface ReferenceSummary {
  label: string
  file: string
  rows: number
  snapshot: string | null
  /** This run's look against the release's allowance (reference.looks), or undefined without one. */
  looks: BudgetLooks | undefined
  /** The rules' confidence, which the allowance shares over the release. */
  confidence: number
}

/**
 * The sentence about the release's looks at the budget (RAW): this run's look against the allowance, or why to set
 * one. Outside a pull request (looks not counted) it claims the per-look level only, as the holdout's sentence does.
 */
export function budgetLooksSentence(ref: ReferenceSummary): string {
  const l = ref.looks
  if (l === undefined) {
    return `Every run tests the budget at ${confidenceLabel(ref.confidence)} on its own: a release whose pull requests look at it many times passes a budget already spent more often (about 1 in 10 over 6 looks, 1 in 4 over 15; docs/statistics.md). reference.looks shares the error rate over a fixed number of looks.`
  }
  const each = confidenceLabel(lookConfidence(ref.confidence, l.allowed))
  const release = confidenceLabel(ref.confidence)
  if (l.thisLook === null)
    return `The looks at this budget could not be counted (${l.unknown ?? 'unknown'}): a budget that is not shown spent is inconclusive.`
  const over =
    l.thisLook > l.allowed
      ? ` That is more than reference.looks allows: a budget that is not shown spent is inconclusive.`
      : ''
  if (!l.counted)
    return `The budget at ${ref.label} is looked at once by this run (outside a pull request, where no look ledger counts the looks; in one, every look is counted in it): each budget interval is at ${each}, the level of each of the at most ${l.allowed} looks reference.looks allows, but the budgets hold at ${release} over the release only if every look is counted.`
  return `This run is look ${l.thisLook} of at most ${l.allowed} at ${ref.label} (reference.looks): each budget interval is at ${each}, so over the release the budgets hold at ${release}.${over}`
}

/** A budgeted unit: its check, the unit, and the budget figures it carries (its mark `reference`). */
interface BudgetedUnit {
  check: CheckResult
  unit: UnitResult
  budget: BudgetResult
}

const WORD: Record<string, string> = {
  pass: '✅ within budget',
  fail: '❌ budget exceeded',
  inconclusive: '⚠️ cannot tell'
}

function budgeted(result: GateResult): BudgetedUnit[] {
  const out: BudgetedUnit[] = []
  for (const check of result.decision.checks)
    for (const unit of check.units) {
      const budget = budgetOf(unit)
      if (budget !== undefined) out.push({ check, unit, budget })
    }
  return out
}

/**
 * The "Regression budget" section of the Markdown report: where the reference came from (tag, commit, age,
 * like the baseline's provenance), then one line per budgeted check and slice, e.g. "✅ within budget
 * **recall does not drop** (all queries): 0.8 of 1.0 points used since v1.4 (95% interval of the drop 0.3 to
 * 1.3 points, 400 queries)". Empty when the rules name no reference. A `### ` section (fit.ts keeps it whole).
 */
export function budgetSection(result: GateResult, ref: ReferenceSummary): Block[] {
  const lead: Inline[] = [
    [
      words('Reference '),
      text(ref.label, 100),
      words(': '),
      ...referenceSource(result.provenance?.reference, ref.file),
      words(
        `; ${ref.rows} rows, paired with the candidate on the exam's queries and slices with the same statistics (same resampling plan) as the gated checks.`
      )
    ]
  ]
  if (ref.snapshot !== null) lead.push([words('Snapshot: '), text(ref.snapshot, 400), words('.')])
  const items: Inline[] = []
  for (const { check, unit, budget: b } of budgeted(result)) {
    const metric = result.rules.metrics.get(check.rule.metric) as MetricRule
    const budget = check.rule.budget
    const rel: Inline = budget?.relative
      ? [words(' (budget '), text(budget.text, 12), words(' of the reference mean)')]
      : []
    items.push([
      words(`${WORD[b.status]} `),
      strong(text(check.rule.name)),
      words(' ('),
      text(sliceLabel(unit.slice)),
      words('): '),
      text(budgetWords(b, metric), 600),
      ...rel,
      words('.')
    ])
  }
  return [
    { kind: 'headline', level: 3, spans: [words('Regression budget since '), text(ref.label, 100)] },
    { kind: 'paragraph', lines: lead },
    // Always a list, even an empty one: the Markdown keeps its blank line, the page draws nothing.
    { kind: 'list', items: items.map((spans) => ({ spans })) },
    paragraph(text(budgetLooksSentence(ref), 600))
  ]
}

/** "eval/release/rows.csv at tag v1.4 (commit `0123456789ab`, 2026-10-01, 61 d 2 h before this run)". */
function referenceSource(p: ReferenceProvenance | undefined, file: string): Inline {
  if (p === undefined) return [words('file '), text(file, 200)]
  const age = p.ageSeconds === undefined ? '' : `, ${formatAge(p.ageSeconds)} before this run`
  const date: Inline = p.date === undefined ? [] : [words(', '), text(p.date, 40)]
  const commit: Inline = p.commit === undefined ? [] : [words('commit '), code(p.commit.slice(0, 12), 12)]
  const when: Inline = [...commit, ...date, ...(age === '' ? [] : [words(age)])]
  if (p.from === 'artifact' && p.artifact) return [...artifactSpans(p.artifact, p.file), words(', '), ...when]
  if (p.from === 'ref')
    return [text(p.file, 200), words(' at '), text(p.ref ?? '', 100), words(' ('), ...when, words(')')]
  return [words('file '), text(p.file, 200)]
}

/** A budgeted unit's `budget` key in the JSON report (the same figures as `budgets`). */
export function unitBudgetJson(unit: UnitResult, num: (x: number) => number | null): Array<[string, unknown]> {
  const b = budgetOf(unit)
  if (b === undefined) return []
  return [
    [
      'budget',
      {
        reference: b.reference,
        status: b.status,
        reason: b.reason,
        budget: num(b.budget),
        used: num(b.used),
        used_ci: [num(b.usedCi[0]), num(b.usedCi[1])]
      }
    ]
  ]
}

/** The JSON report's additive `budgets` field: one entry per budgeted check and slice (docs/report.md). */
export function budgetsJson(
  result: GateResult,
  ref: ReferenceSummary,
  num: (x: number) => number | null
): Record<string, unknown> {
  const p = result.provenance?.reference
  return {
    reference: {
      label: ref.label,
      file: ref.file,
      rows: ref.rows,
      snapshot: ref.snapshot,
      from: p?.from ?? 'file',
      ref: p?.ref ?? null,
      commit: p?.commit ?? null,
      date: p?.date ?? null,
      age_seconds: p?.ageSeconds ?? null,
      artifact: p?.artifact
        ? { name: p.artifact.name, id: p.artifact.id, run_id: p.artifact.runId, run_url: p.artifact.runUrl }
        : null,
      ...(ref.looks === undefined
        ? {}
        : {
            looks: {
              this_look: ref.looks.thisLook,
              allowed: ref.looks.allowed,
              confidence_each: lookConfidence(ref.confidence, ref.looks.allowed),
              counted: ref.looks.counted,
              unknown: ref.looks.unknown
            }
          })
    },
    units: budgeted(result).map(({ check, unit, budget: b }) => {
      return {
        rule: check.rule.name,
        metric: check.rule.metric,
        slice: Object.fromEntries(unit.slice),
        status: b.status,
        reason: b.reason,
        budget: num(b.budget),
        budget_text: check.rule.budget?.text ?? null,
        used: num(b.used),
        used_ci: [num(b.usedCi[0]), num(b.usedCi[1])],
        confidence: b.comparison.confidence,
        n: b.comparison.n,
        reference_mean: num(b.comparison.baseline),
        candidate_mean: num(b.comparison.candidate)
      }
    })
  }
}

/**
 * How much of a unit's regression budget is spent, e.g. "0.8 of 1.0 points used since v1.4 (95% interval 0.3
 * to 1.3 points)", or "0.0 of 1.0 points used since v1.4 (the candidate is 0.4 points better; ...)". RAW text.
 */
function budgetWords(b: BudgetResult, metric: MetricRule): string {
  const u = unitWord(metric)
  const typical = Math.max(Math.abs(b.usedCi[0]), Math.abs(b.usedCi[1]), b.budget)
  const used = displayNumber(Math.max(0, b.used), metric, false, typical)
  const better = b.used < 0 ? `the candidate is ${amount(-b.used, metric, false)} better; ` : ''
  const ci = `${displayNumber(b.usedCi[0], metric, true, typical)} to ${displayNumber(b.usedCi[1], metric, true, typical)}${u ? ` ${u}` : ''}`
  return `${used} of ${displayNumber(b.budget, metric, false, typical)}${u ? ` ${u}` : ''} used since ${clean(b.reference, 60)} (${better}${confidenceLabel(b.comparison.confidence)} interval of the drop ${ci}, ${b.comparison.n} ${b.comparison.n === 1 ? 'query' : 'queries'})`
}

/** The sentence of a unit the budget decided (its reasons `budget_*`), else undefined. RAW text. */
export function budgetUnitWords(unit: UnitResult, said: UnitSaid): string | undefined {
  const b = budgetOf(unit)
  if (b === undefined || !unit.reason.startsWith('budget_')) return undefined
  const { name, metric } = said
  if (unit.reason === 'budget_looks_exceeded' || unit.reason === 'budget_looks_unknown')
    return `${name}: ${budgetWords(b, metric)}; ${unit.reason === 'budget_looks_exceeded' ? 'the budget has been looked at more often over this release than reference.looks allows' : 'the looks at the budget could not be counted'}, so a budget not shown spent is inconclusive.`
  const spent =
    unit.reason === 'budget_exceeded'
      ? 'the drop since the reference exceeds the budget'
      : 'the data cannot rule out a drop since the reference beyond the budget'
  return `${name}: ${budgetWords(b, metric)}; ${spent}, whatever this PR alone did (${amount(unit.comparison.delta, metric)} against its baseline).`
}

/** What a budgeted unit adds to its "Needs" cell: "; ≤ 1.0 points since v1.4 (1.2 used)". */
export function budgetNeeds(unit: UnitResult, metric: MetricRule): Inline {
  const b = budgetOf(unit)
  if (b === undefined) return []
  return [
    words(`; ≤ ${amount(b.budget, metric, false)} since `),
    text(b.reference, 60),
    words(` (${displayNumber(Math.max(0, b.used), metric, false, b.budget)} used)`)
  ]
}

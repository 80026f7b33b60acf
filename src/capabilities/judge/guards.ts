import type { Rules } from '../../config/types.js'
import type { JudgeRules, KappaWeights } from '../../config/judge-rules.js'
import type { PairedTable } from '../../align/pair.js'
import type { SideRows } from '../../model/rows.js'
import type { JudgeAnchors } from './anchors.js'
import { InputError } from '../../errors.js'
import type { GuardResult } from '../../trust/trust.js'
import type { JudgeGuardUnit, JudgeReason, JudgeRuleName } from './reasons.js'
import { judgeAgreement, labelScale, type SliceAgreement } from './agreement.js'
import { unitsForSkew } from '../../stats/reliability.js'
import { standing } from '../../decide/core.js'
import {
  judgePosition,
  judgeRepeatability,
  lengthBias,
  type LengthBias,
  type PositionConsistency,
  type Repeatability
} from './diagnostics.js'

/**
 * The judge's guards, decided here (each rule with a limit -> pass / fail / inconclusive per unit) over the
 * agreement and diagnostics src/stats/ computes: is the ruler still the same? The judge against human anchors
 * (agreement per slice, drift between the sides' judges) and its diagnostics (repeatability, position consistency,
 * length bias). Pure: the anchors arrive read (src/capabilities/judge/anchors.ts).
 */

export interface JudgeResult {
  /** The anchor file as shown, or null when only the length bias was asked for. */
  anchors: string | null
  sameJudge: boolean
  weights: KappaWeights
  /** The label scale, in order. */
  labels: string[]
  confidence: number
  /** All anchors first, then each value of judge.per_slice. */
  agreement: SliceAgreement[]
  repeatability: Repeatability[]
  position: PositionConsistency[]
  lengthBias: LengthBias | null
  /** The judge guards, in a fixed order (min_kappa, max_drop, repeatability, position, length_bias). */
  guards: GuardResult<JudgeReason>[]
}

/** What the judge assessment reads: the paired table and both sides' rows (answer lengths), and the anchors. */
export interface JudgeInputs {
  table: PairedTable
  baseline: SideRows
  candidate: SideRows
  anchors: JudgeAnchors | null
}

/** The judge assessment, or null when the rules have no `judge` key. */
export function assessJudge(rules: Rules, inputs: JudgeInputs): JudgeResult | null {
  const j = rules.judge
  if (j === undefined) return null
  const { anchors } = inputs
  if (j.anchors !== undefined && anchors === null) {
    throw new InputError(
      { file: rules.source.file, key: 'judge.anchors' },
      'the rules name an anchor file but it was not read',
      'read the inputs with loadGateInputs (the judge capability reads judge.anchors), or pass its evidence to sidesInputs'
    )
  }
  const { confidence } = rules.statistics
  const guards: GuardResult<JudgeReason>[] = []
  let agreement: SliceAgreement[] = []
  let repeatability: Repeatability[] = []
  let position: PositionConsistency[] = []
  let labels: string[] = []
  if (anchors !== null) {
    labels = labelScale(anchors, j.labels, j.weights)
    agreement = judgeAgreement(anchors, labels, j.perSlice, { weights: j.weights, confidence })
    repeatability = judgeRepeatability(anchors, labels, j.weights !== 'none')
    position = judgePosition(anchors)
    const gated = j.perSlice === undefined ? agreement : agreement.slice(1)
    if (j.minKappa !== undefined) guards.push(guard('judge.min_kappa', j.minKappa, floorUnits(gated, j, j.minKappa)))
    if (j.maxDrop !== undefined) {
      if (anchors.sameJudge) {
        throw new InputError(
          { file: rules.source.file, key: 'judge.max_drop' },
          `judge.max_drop compares the baseline's judge with the candidate's, but only the baseline judge's labels (${anchors.source}) were given`,
          "give the candidate judge's labels of every anchor item (--candidate-judge-labels F, action input candidate-judge-labels), or drop max_drop (one judge cannot drift from itself)"
        )
      }
      guards.push(guard('judge.max_drop', j.maxDrop, driftUnits(gated, j, j.maxDrop)))
    }
    if (j.maxFlipShare !== undefined) {
      const max = j.maxFlipShare
      guards.push(
        guard(
          'judge.repeatability',
          max,
          repeatability.map((r) => shareUnit(r.side, r.repeatedItems, r.flipShare, (v) => v <= max))
        )
      )
    }
    if (j.minConsistent !== undefined) {
      const min = j.minConsistent
      guards.push(
        guard(
          'judge.position',
          min,
          position.map((p) => shareUnit(p.side, p.scorings, p.consistent, (v) => v >= min))
        )
      )
    }
  }
  let bias: LengthBias | null = null
  if (j.lengthBias !== undefined) {
    bias = lengthBias(inputs.table, inputs.baseline, inputs.candidate, j.lengthBias)
    const max = j.lengthBias.maxCorrelation
    if (max !== undefined) {
      const units = bias.slices.map((s): JudgeGuardUnit => {
        const base = { slice: s.slice, side: null, n: s.n, value: s.spearman, interval: null }
        if (s.n < j.minLengthBiasQueries)
          return { ...base, status: 'inconclusive', undecided: s.n === 0 ? 'no_data' : 'too_few' }
        if (s.spearman === null) return { ...base, status: 'inconclusive', undecided: 'undefined' }
        return { ...base, status: s.spearman > max ? 'fail' : 'pass', undecided: null }
      })
      guards.push(guard('judge.length_bias', max, units))
    }
  }
  return {
    anchors: anchors?.source ?? null,
    sameJudge: anchors?.sameJudge ?? true,
    weights: j.weights,
    labels,
    confidence,
    agreement,
    repeatability,
    position,
    lengthBias: bias,
    guards
  }
}

/** A guard from its units: fail when any unit fails, else inconclusive when any is undecided, else pass. */
function guard(rule: JudgeRuleName, limit: number, units: JudgeGuardUnit[]): GuardResult<JudgeReason> {
  const status = units.some((u) => u.status === 'fail')
    ? 'fail'
    : units.length === 0 || units.some((u) => u.status === 'inconclusive')
      ? 'inconclusive'
      : 'pass'
  return { rule, status, reason: { code: 'judge', rule, limit, units } }
}

/**
 * The kappa floor for every judge in use and every gated slice, on the point estimate (like the other trust caps;
 * the interval is shown beside it). Too few items, or a kappa that is undefined (one label everywhere: agreement
 * cannot be told from chance), is inconclusive, never a pass.
 */
function floorUnits(slices: readonly SliceAgreement[], j: JudgeRules, floor: number): JudgeGuardUnit[] {
  const units: JudgeGuardUnit[] = []
  for (const s of slices) {
    const sides: Array<['baseline' | 'candidate' | 'both', NonNullable<SliceAgreement['candidate']>]> =
      s.candidate === null
        ? [['both', s.baseline]]
        : [
            ['baseline', s.baseline],
            ['candidate', s.candidate]
          ]
    for (const [side, a] of sides) {
      const base = { slice: s.slice, side, n: s.items, value: a.kappa, interval: a.interval }
      if (s.items < j.minItems) units.push({ ...base, status: 'inconclusive', undecided: 'too_few' })
      else if (a.kappa === null) units.push({ ...base, status: 'inconclusive', undecided: 'undefined' })
      else units.push({ ...base, status: a.kappa >= floor ? 'pass' : 'fail', undecided: null })
    }
  }
  return units
}

/**
 * Judge drift as non-inferiority of the candidate's judge, on the paired jackknife-t interval of kappa(candidate)
 * - kappa(baseline), decided as every route is (src/decide/core.ts): pass when its low end is at or above
 * -max_drop, fail when its high end is below it, inconclusive when it straddles -max_drop (then on_inconclusive
 * decides). Kappa is no mean of bounded per-item values, so the reliability rule's size rule applies (Sugden's:
 * 28 + 25·γ² items for the skew γ of an item's pseudo-value) beside the rules' judge.min_items.
 */
function driftUnits(slices: readonly SliceAgreement[], j: JudgeRules, maxDrop: number): JudgeGuardUnit[] {
  return slices.map((s): JudgeGuardUnit => {
    const d = s.drift
    const base = { slice: s.slice, side: null, n: s.items, value: d?.delta ?? null, interval: d?.interval ?? null }
    if (s.items < j.minItems) return { ...base, status: 'inconclusive', undecided: 'too_few' }
    if (d === null || d.delta === null || d.interval === null)
      return { ...base, status: 'inconclusive', undecided: 'undefined' }
    const at = standing({
      ci: d.interval,
      threshold: -maxDrop,
      better: 'higher',
      strict: false,
      unreliable: s.items < unitsForSkew(d.unitSkew) ? 'few_units' : null
    })
    if (at === 'clears') return { ...base, status: 'pass', undecided: null }
    if (at === 'short') return { ...base, status: 'fail', undecided: null }
    return { ...base, status: 'inconclusive', undecided: at === 'unsupported' ? 'too_few' : 'straddles' }
  })
}

/** A share held against a limit; no data (no repeats, no swapped scorings) is inconclusive, never a pass. */
function shareUnit(
  side: 'baseline' | 'candidate' | 'both',
  n: number,
  value: number | null,
  ok: (v: number) => boolean
): JudgeGuardUnit {
  const base = { slice: [] as Array<[string, string]>, side, n, value, interval: null }
  if (value === null) return { ...base, status: 'inconclusive', undecided: 'no_data' }
  return { ...base, status: ok(value) ? 'pass' : 'fail', undecided: null }
}

import type { JudgeResult } from './guards.js'
import type { SideAgreement } from './agreement.js'
import type { JudgeGuardUnit, JudgeReason } from './reasons.js'
import {
  cells,
  em,
  list,
  paragraph,
  row,
  strong,
  table,
  text,
  words,
  type Block,
  type Inline
} from '../../model/document.js'
import { confidenceLabel, fixed, percent, signed } from '../../report/format.js'

/**
 * The judge in the report: its guards' sentences ("the ruler changed"), the Markdown lines of the Trust section
 * (agreement per slice, drift, repeatability, position consistency, length bias) and the `judge` field of the
 * JSON report. Sentences are RAW (each renderer escapes them); Markdown lines are escaped here.
 */

const num = (x: number | null, digits = 3): string => (x === null ? 'undefined' : fixed(x, digits))
const label = (slice: ReadonlyArray<readonly [string, string]>): string =>
  slice.length === 0 ? 'all anchors' : slice.map(([k, v]) => `${k}=${v}`).join(', ')
const sideWords = (side: JudgeGuardUnit['side']): string =>
  side === 'both' ? 'the judge' : side === null ? '' : `the ${side}'s judge`

const UNDECIDED: Record<string, string> = {
  too_few: 'too few items',
  undefined:
    'undefined (every item has one same label, or no interval could be formed: a leave-one-out kappa is undefined, or none differs from the others)',
  straddles: 'the interval straddles the limit',
  no_data: 'nothing to measure'
}

/** What one unit says: "task=qa, the candidate's judge: kappa 0.412 (25 items)". */
function unitWords(r: JudgeReason, u: JudgeGuardUnit): string {
  const who = sideWords(u.side)
  const where = `${label(u.slice)}${who ? `, ${who}` : ''}`
  const interval = u.interval === null ? '' : ` [${fixed(u.interval[0], 3)}, ${fixed(u.interval[1], 3)}]`
  switch (r.rule) {
    case 'judge.min_kappa':
      return `${where}: kappa ${num(u.value)}${interval} over ${u.n} items`
    case 'judge.max_drop':
      return `${where}: kappa change ${u.value === null ? 'undefined' : signed(u.value, 3)}${interval} over ${u.n} items`
    case 'judge.repeatability':
      return `${who || 'the judge'}: ${u.value === null ? 'no item' : percent(u.value)} of ${u.n} repeated items flip`
    case 'judge.position':
      return `${who || 'the judge'}: ${u.value === null ? 'no item' : percent(u.value)} of ${u.n} scorings consistent in both orders`
    case 'judge.length_bias':
      return `${label(u.slice) === 'all anchors' ? 'all queries' : label(u.slice)}: Spearman rho ${num(u.value)} over ${u.n} queries`
  }
}

const LIMIT_WORDS: Record<JudgeReason['rule'], (limit: number) => string> = {
  'judge.min_kappa': (l) => `kappa at least ${fixed(l, 3)}`,
  'judge.max_drop': (l) => `the candidate's judge's kappa at most ${fixed(l, 3)} below the baseline's`,
  'judge.repeatability': (l) => `at most ${percent(l)} of repeated items flipping`,
  'judge.position': (l) => `at least ${percent(l)} consistent in both orders`,
  'judge.length_bias': (l) => `Spearman rho of score change vs length change at most ${fixed(l, 3)}`
}

/** A judge guard's reason in plain words (RAW), naming every failing (else undecided) unit. */
export function judgeGuardSentence(r: JudgeReason): string {
  const failing = r.units.filter((u) => u.status === 'fail')
  const undecided = r.units.filter((u) => u.status === 'inconclusive')
  const limit = LIMIT_WORDS[r.rule](r.limit)
  if (failing.length > 0) {
    const lead = r.rule === 'judge.length_bias' ? 'the score follows answer length' : 'the ruler changed'
    return `${lead}: ${limit} is not met in ${failing.map((u) => unitWords(r, u)).join('; ')}`
  }
  if (undecided.length > 0 || r.units.length === 0) {
    if (r.units.length === 0) return `${limit} could not be checked: no unit to decide`
    return `${limit} could not be decided in ${undecided.map((u) => `${unitWords(r, u)} (${UNDECIDED[u.undecided ?? 'no_data']})`).join('; ')}`
  }
  return `${limit} holds in every unit (${r.units.length})`
}

function agreementCells(a: SideAgreement | null): string[] {
  if (a === null) return ['', '', '']
  const interval = a.interval === null ? 'n/a' : `[${fixed(a.interval[0], 3)}, ${fixed(a.interval[1], 3)}]`
  return [num(a.kappa), interval, percent(a.raw)]
}

/** The judge against its human anchors: agreement per slice, undefined kappas, repeatability, position. */
function anchorBlocks(judge: JudgeResult): Block[] {
  if (judge.anchors === null) return []
  const weights = judge.weights === 'none' ? 'unweighted' : `${judge.weights} weights`
  const out: Block[] = [
    paragraph(
      strong(words('Judge anchors')),
      words(' ('),
      text(judge.anchors, 200),
      words(`; Cohen's kappa, ${weights}, scale `),
      text(judge.labels.join(' < '), 200),
      words(
        `; ${confidenceLabel(judge.confidence)} jackknife-t intervals over anchor items, kappa on Fisher's z scale):`
      )
    )
  ]
  const head = judge.sameJudge
    ? cells('Slice', 'Items', 'Scorings', 'Kappa', 'Interval', 'Raw agreement')
    : cells(
        'Slice',
        'Items',
        'Baseline kappa',
        'Interval',
        'Raw',
        'Candidate kappa',
        'Interval',
        'Raw',
        'Change',
        'Change interval'
      )
  const rows = judge.agreement.map((s) => {
    if (judge.sameJudge)
      return row(text(label(s.slice)), String(s.items), String(s.scorings), ...agreementCells(s.baseline))
    const d = s.drift
    const change = d === null || d.delta === null ? 'undefined' : signed(d.delta, 3)
    const ci = d === null || d.interval === null ? 'n/a' : `[${signed(d.interval[0], 3)}, ${signed(d.interval[1], 3)}]`
    return row(
      text(label(s.slice)),
      String(s.items),
      ...agreementCells(s.baseline),
      ...agreementCells(s.candidate),
      change,
      ci
    )
  })
  out.push(table(head, rows))
  const undefinedKappa = judge.agreement.filter(
    (s) => s.baseline.kappa === null || (s.candidate !== null && s.candidate.kappa === null)
  )
  if (undefinedKappa.length > 0)
    out.push(
      paragraph(
        em(
          words(
            'Kappa is undefined where every item got one same label from both raters (agreement cannot be told from chance): '
          ),
          text(undefinedKappa.map((s) => label(s.slice)).join(', '), 400),
          words('. A floor there is inconclusive, never a pass.')
        )
      )
    )
  const items: Inline[] = []
  for (const r of judge.repeatability) {
    if (r.repeatedItems === 0) continue
    const range =
      r.meanRange === null ? '' : `; the repeats of an item span ${fixed(r.meanRange, 2)} scale steps on average`
    items.push([
      words(
        `Repeatability, ${sideWords(r.side)}: ${r.repeatedItems} items scored more than once, ${percent(r.flipShare ?? 0)} got a different label at least once${range}.`
      )
    ])
  }
  for (const p of judge.position) {
    if (p.scorings === 0) continue
    items.push([
      words(
        `Position consistency, ${sideWords(p.side)}: ${percent(p.consistent ?? 0)} of ${p.scorings} scorings give the same verdict with the answers in either order.`
      )
    ])
  }
  if (items.length > 0) out.push(list(...items))
  return out
}

/** Length bias: per slice, how the score's change follows the length's change. */
function lengthBiasBlocks(judge: JudgeResult): Block[] {
  const lb = judge.lengthBias
  if (lb === null) return []
  const rows = lb.slices.map((s) =>
    row(
      text(s.slice.length === 0 ? 'all queries' : label(s.slice)),
      String(s.n),
      num(s.spearman),
      num(s.pearson),
      s.slope === null ? 'undefined' : fixed(s.slope, 6)
    )
  )
  const out: Block[] = [
    paragraph(
      strong(words('Length bias')),
      words(': per query, the change of '),
      text(lb.score),
      words(' against the change of '),
      text(lb.length),
      words(' (candidate - baseline); a positive rho means longer answers scored higher:')
    ),
    table(cells('Slice', 'Queries', 'Spearman rho', 'Pearson r', 'Slope (score per unit of length)'), rows)
  ]
  if (lb.withoutLength > 0)
    out.push(
      paragraph(
        em(
          words(`${lb.withoutLength} paired queries have no `),
          text(lb.length),
          words(' on one side or both and are left out of the length bias.')
        )
      )
    )
  return out
}

/** The judge part of the Trust section (Markdown lines), empty without `judge` rules. */
export function judgeBody(judge: JudgeResult | null | undefined): Block[] {
  if (judge === null || judge === undefined) return []
  return [...anchorBlocks(judge), ...lengthBiasBlocks(judge)]
}

/** The `judge` field of the JSON report (snake_case, fixed order; null statistics are undefined ones). */
export function judgeJson(judge: JudgeResult): Record<string, unknown> {
  const side = (a: SideAgreement | null): Record<string, unknown> | null =>
    a === null
      ? null
      : { kappa: a.kappa, raw_agreement: a.raw, interval: a.interval, undefined_leave_one_out: a.undefinedLeaveOneOut }
  return {
    anchors: judge.anchors,
    same_judge: judge.sameJudge,
    weights: judge.weights,
    labels: judge.labels,
    confidence: judge.confidence,
    interval: 'jackknife-t over anchor items (kappa on the atanh scale)',
    agreement: judge.agreement.map((s) => ({
      slice: Object.fromEntries(s.slice),
      items: s.items,
      scorings: s.scorings,
      baseline: side(s.baseline),
      candidate: side(s.candidate),
      drift: s.drift
    })),
    repeatability: judge.repeatability.map((r) => ({
      side: r.side,
      repeated_items: r.repeatedItems,
      flip_share: r.flipShare,
      mean_range: r.meanRange
    })),
    position: judge.position.map((p) => ({ side: p.side, scorings: p.scorings, consistent: p.consistent })),
    length_bias:
      judge.lengthBias === null
        ? null
        : {
            score: judge.lengthBias.score,
            length: judge.lengthBias.length,
            without_length: judge.lengthBias.withoutLength,
            slices: judge.lengthBias.slices.map((s) => ({
              slice: Object.fromEntries(s.slice),
              n: s.n,
              spearman: s.spearman,
              pearson: s.pearson,
              slope: s.slope
            }))
          },
    guards: judge.guards.map((g) => ({
      rule: g.rule,
      status: g.status,
      units:
        g.reason.code === 'judge'
          ? g.reason.units.map((u) => ({
              slice: Object.fromEntries(u.slice),
              side: u.side,
              n: u.n,
              value: u.value,
              interval: u.interval,
              status: u.status,
              undecided: u.undecided
            }))
          : []
    }))
  }
}

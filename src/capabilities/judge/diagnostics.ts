import type { PairedTable } from '../../align/pair.js'
import { InputError } from '../../errors.js'
import { valueAt, type SideRows } from '../../model/rows.js'
import type { JudgeAnchors } from './anchors.js'
import { compareCodePoints } from '../../util/order.js'
import { quote } from '../../util/show.js'
import { pearson, slope, spearman } from '../../stats/correlation.js'

/**
 * What the judge does besides agreeing with humans: does it give an item the same label when asked again
 * (repeatability), the same verdict whichever answer is shown first (position consistency, pairwise judges), and
 * does its score follow the answer's length (length bias: a judge that prefers longer answers rewards verbosity).
 */

/** Anchors scored more than once, for one judge. */
export interface Repeatability {
  side: 'baseline' | 'candidate' | 'both'
  /** Items with two or more scorings. */
  repeatedItems: number
  /** Share of them whose judge label was not the same every time (null without repeated items). */
  flipShare: number | null
  /** Mean within-item range of the labels, in steps of the scale (graded labels only; null for nominal ones). */
  meanRange: number | null
}

/** Pairwise judges scored in both orders, for one judge. */
export interface PositionConsistency {
  side: 'baseline' | 'candidate' | 'both'
  /** Scorings that carry the label with the answers swapped. */
  scorings: number
  /** Share whose label is the same in both orders (null without such scorings). */
  consistent: number | null
}

/** Length bias in one slice of the paired queries. */
export interface LengthBiasSlice {
  slice: Array<[string, string]>
  /** Queries with a length on both sides. */
  n: number
  /** Spearman's rho, Pearson's r and the least-squares slope of d_score on d_length (null when undefined). */
  spearman: number | null
  pearson: number | null
  slope: number | null
}

export interface LengthBias {
  score: string
  length: string
  /** Paired queries without a length on one side or both (left out, counted). */
  withoutLength: number
  slices: LengthBiasSlice[]
}

const sidesOf = (anchors: JudgeAnchors): Array<['baseline' | 'candidate', 'baseline' | 'candidate' | 'both']> =>
  anchors.sameJudge
    ? [['baseline', 'both']]
    : [
        ['baseline', 'baseline'],
        ['candidate', 'candidate']
      ]

/** Repeatability of each judge over the items scored more than once; `graded` gives the range in scale steps. */
export function judgeRepeatability(anchors: JudgeAnchors, scale: readonly string[], graded: boolean): Repeatability[] {
  const index = new Map(scale.map((l, i) => [l, i]))
  return sidesOf(anchors).map(([key, side]) => {
    let repeated = 0
    let flips = 0
    let range = 0
    for (const item of anchors.items) {
      if (item.scorings.length < 2) continue
      repeated++
      let lo = Infinity
      let hi = -Infinity
      for (const s of item.scorings) {
        const at = index.get(s[key]) as number
        if (at < lo) lo = at
        if (at > hi) hi = at
      }
      if (hi > lo) flips++
      range += hi - lo
    }
    return {
      side,
      repeatedItems: repeated,
      flipShare: repeated > 0 ? flips / repeated : null,
      meanRange: repeated > 0 && graded ? range / repeated : null
    }
  })
}

/** Position consistency of each judge over the scorings that carry a swapped-order label. */
export function judgePosition(anchors: JudgeAnchors): PositionConsistency[] {
  return sidesOf(anchors).map(([key, side]) => {
    const swappedKey = key === 'baseline' ? 'baselineSwapped' : 'candidateSwapped'
    let scorings = 0
    let same = 0
    for (const item of anchors.items) {
      for (const s of item.scorings) {
        const swapped = s[swappedKey]
        if (swapped === null) continue
        scorings++
        if (swapped === s[key]) same++
      }
    }
    return { side, scorings, consistent: scorings > 0 ? same / scorings : null }
  })
}

/**
 * Length bias over the paired queries: per query d_score = candidate - baseline of `score` and d_length the same
 * for `length`, then their rank correlation overall and per value of `perSlice`. Refuses when either side's rows
 * never carry the length field (the diagnostic the rules ask for could not be computed: never a silent pass).
 */
export function lengthBias(
  table: PairedTable,
  baseline: SideRows,
  candidate: SideRows,
  options: { score: string; length: string; perSlice: string | undefined }
): LengthBias {
  for (const side of [baseline, candidate]) {
    if (!side.numericFields.has(options.length)) {
      throw new InputError(
        { file: side.source, key: 'judge.length_bias.length' },
        `no row has the answer length field "${options.length}" named by judge.length_bias`,
        'write the answer length (characters or tokens) on every per-query row of both sides, or drop judge.length_bias'
      )
    }
  }
  const col = table.metrics.get(options.score) as { base: Float64Array; cand: Float64Array }
  const members: number[] = []
  const dScore: number[] = []
  const dLength: number[] = []
  // Every exam query needs its length on both sides: a query left out would let the candidate choose which
  // queries the guard sees (an answer without a length is refused, never dropped).
  const lengthOf = (side: SideRows, role: 'baseline' | 'candidate', id: string): number => {
    const row = side.index.get(id)
    const v = row === undefined ? null : valueAt(side, options.length, row)
    if (v === null || v === undefined) {
      throw new InputError(
        {
          file: side.source,
          ...(row === undefined ? {} : { line: side.lines[row] }),
          queryId: id,
          key: 'judge.length_bias.length'
        },
        row === undefined
          ? `the ${role} has no row for query ${quote(id)}, so its answer length "${options.length}" is unknown`
          : `the ${role}'s row has no answer length "${options.length}" (judge.length_bias)`,
        `write ${options.length} on the row of every exam query of both sides: length bias is measured over the whole exam, never over the queries an answer chose to carry it (queries.missing: zero fills metric values, not lengths)`
      )
    }
    return v
  }
  table.ids.forEach((id, i) => {
    members.push(i)
    dScore.push(col.cand[i] - col.base[i])
    dLength.push(lengthOf(candidate, 'candidate', id) - lengthOf(baseline, 'baseline', id))
  })
  const sliceOf = (slice: Array<[string, string]>, keep: (i: number) => boolean): LengthBiasSlice => {
    const x: number[] = []
    const y: number[] = []
    members.forEach((row, k) => {
      if (!keep(row)) return
      x.push(dLength[k])
      y.push(dScore[k])
    })
    return { slice, n: x.length, spearman: spearman(x, y), pearson: pearson(x, y), slope: slope(x, y) }
  }
  const slices = [sliceOf([], () => true)]
  const attr = options.perSlice === undefined ? undefined : table.attrs.get(options.perSlice)
  if (options.perSlice !== undefined && attr !== undefined) {
    const name = options.perSlice
    for (const value of [...new Set(members.map((i) => attr[i]))].sort(compareCodePoints))
      slices.push(sliceOf([[name, value]], (i) => attr[i] === value))
  }
  return { score: options.score, length: options.length, withoutLength: table.ids.length - members.length, slices }
}

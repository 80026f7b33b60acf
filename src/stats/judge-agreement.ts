import type { KappaWeights } from '../config/judge-rules.js'
import { InputError } from '../errors.js'
import type { AnchorItem, JudgeAnchors } from '../readers/anchors.js'
import { compareCodePoints } from '../util/order.js'
import { quantileSorted } from '../util/quantile.js'
import { quote } from '../util/show.js'
import { kappaWeighted, rawAgreement, weightMatrix } from './kappa.js'
import { BLOCK, blockState, xoshiro128ss } from './rng.js'
import { MAX_SLICE_VALUES } from '../align/slice-values.js'

/**
 * Agreement of the judge with the human anchors, per slice: Cohen's kappa (weighted for graded labels), raw
 * agreement, and a percentile bootstrap interval over anchor ITEMS (an item scored several times is drawn whole
 * with all its scorings, so repeats do not shrink the interval). With one judge per side the same resampled items
 * give both kappas, so the interval of their difference (judge drift) is paired.
 */

/** One judge's agreement with the humans over a slice. */
export interface SideAgreement {
  /** Null when undefined (chance agreement 1: one label everywhere), never NaN. */
  kappa: number | null
  /** Share of scorings where the judge gave exactly the human label. */
  raw: number
  /** Percentile interval over resampled items, or null when too few resamples had a defined kappa. */
  interval: [number, number] | null
  /** Resamples whose kappa was undefined (left out of the interval, counted). */
  undefinedResamples: number
}

export interface SliceAgreement {
  slice: Array<[string, string]>
  items: number
  scorings: number
  baseline: SideAgreement
  /** Null when one judge serves both sides (then `baseline` is that judge). */
  candidate: SideAgreement | null
  /** Candidate kappa minus baseline kappa and its paired interval; null with one judge. */
  drift: { delta: number | null; interval: [number, number] | null } | null
}

export interface AgreementOptions {
  weights: KappaWeights
  confidence: number
  resamples: number
  seed: string
}

/** At least this share of resamples must have a defined kappa for an interval to be read from them. */
const MIN_DEFINED_SHARE = 0.5

/**
 * The label scale in order: the rules' `labels`, or the labels seen (numerically sorted when all are numbers,
 * else by code points). Weighted kappa needs an order, so text labels with weights need `labels` in the rules.
 */
export function labelScale(anchors: JudgeAnchors, labels: readonly string[] | undefined, weights: KappaWeights): string[] {
  if (labels !== undefined) {
    const scale = new Set(labels)
    for (const l of [...anchors.labels].sort(compareCodePoints)) {
      if (!scale.has(l)) throw new InputError({ file: anchors.source, key: 'judge.labels' }, `the label ${quote(l)} is not on the scale judge.labels`, 'add it to judge.labels, or fix the anchor')
    }
    return [...labels]
  }
  const seen = [...anchors.labels]
  const numeric = seen.every((l) => Number.isFinite(Number(l)) && String(Number(l)) === l)
  if (numeric) return seen.sort((a, b) => Number(a) - Number(b))
  if (weights !== 'none') {
    throw new InputError(
      { file: anchors.source, key: 'judge.weights' },
      `${weights} weights need ordered labels, but the labels are text (${seen
        .sort(compareCodePoints)
        .slice(0, 5)
        .map((l) => quote(l))
        .join(', ')})`,
      'name the scale in order under judge.labels, or use weights: none'
    )
  }
  return seen.sort(compareCodePoints)
}

/** The contingency cells (human row x judge column) of every scoring, for one side: item p's are cells[starts[p] .. starts[p + 1]). */
function cellsOf(items: readonly AnchorItem[], scale: ReadonlyMap<string, number>, k: number, side: 'baseline' | 'candidate'): { starts: Int32Array; cells: Int32Array } {
  const starts = new Int32Array(items.length + 1)
  items.forEach((item, p) => (starts[p + 1] = starts[p] + item.scorings.length))
  const cells = new Int32Array(starts[items.length])
  items.forEach((item, p) => item.scorings.forEach((s, t) => (cells[starts[p] + t] = (scale.get(item.human) as number) * k + (scale.get(s[side]) as number))))
  return { starts, cells }
}

/** Agreement over one slice's items. */
export function sliceAgreement(slice: Array<[string, string]>, items: readonly AnchorItem[], scale: readonly string[], sameJudge: boolean, options: AgreementOptions): SliceAgreement {
  const k = scale.length
  const index = new Map(scale.map((l, i) => [l, i]))
  const sides: Array<'baseline' | 'candidate'> = sameJudge ? ['baseline'] : ['baseline', 'candidate']
  const cells = sides.map((s) => cellsOf(items, index, k, s))
  const tables = cells.map(() => new Float64Array(k * k))
  const w = weightMatrix(k, options.weights)
  const rowsBuf = new Float64Array(k)
  const colsBuf = new Float64Array(k)
  const ks: Array<number | null> = sides.map(() => null)
  // Fills each side's table from the picked items and returns the kappas (reused array: nothing allocated per resample).
  const fill = (picks: ArrayLike<number>): Array<number | null> => {
    for (let c = 0; c < cells.length; c++) {
      const t = tables[c]
      const { starts, cells: flat } = cells[c]
      t.fill(0)
      for (let p = 0; p < picks.length; p++) for (let x = starts[picks[p]]; x < starts[picks[p] + 1]; x++) t[flat[x]]++
      ks[c] = kappaWeighted(t, k, w, rowsBuf, colsBuf).kappa
    }
    return ks
  }
  const all = Array.from({ length: items.length }, (_, i) => i)
  const point = [...fill(all)]
  const raws = cells.map((_, c) => rawAgreement(tables[c], k) ?? 0)
  // Resample items with replacement, in blocks with their own streams (src/stats/rng.ts): same seed, same bytes.
  const draws: number[][] = sides.map(() => [])
  const diffs: number[] = []
  const undefinedCounts = sides.map(() => 0)
  const m = items.length
  const picks = new Int32Array(m)
  const stream = `judge-anchors\u0000${slice.map(([a, v]) => `${a}=${v}`).join('\u0000')}`
  for (let b0 = 0; b0 < options.resamples; b0 += BLOCK) {
    const next = xoshiro128ss(blockState(options.seed, stream, b0 / BLOCK))
    for (let b = b0; b < Math.min(options.resamples, b0 + BLOCK); b++) {
      for (let p = 0; p < m; p++) picks[p] = Math.floor((next() * m) / 4294967296)
      const drawn = fill(picks)
      drawn.forEach((v, c) => (v === null ? undefinedCounts[c]++ : draws[c].push(v)))
      if (!sameJudge && drawn[0] !== null && drawn[1] !== null) diffs.push(drawn[1] - drawn[0])
    }
  }
  const alpha = 1 - options.confidence
  const interval = (values: number[]): [number, number] | null => {
    if (values.length < MIN_DEFINED_SHARE * options.resamples) return null
    const sorted = Float64Array.from(values).sort()
    return [quantileSorted(sorted, alpha / 2), quantileSorted(sorted, 1 - alpha / 2)]
  }
  const side = (c: number): SideAgreement => ({ kappa: point[c], raw: raws[c], interval: interval(draws[c]), undefinedResamples: undefinedCounts[c] })
  const scorings = items.reduce((s, i) => s + i.scorings.length, 0)
  if (sameJudge) return { slice, items: m, scorings, baseline: side(0), candidate: null, drift: null }
  const delta = point[0] === null || point[1] === null ? null : point[1] - point[0]
  return { slice, items: m, scorings, baseline: side(0), candidate: side(1), drift: { delta, interval: interval(diffs) } }
}

/** Agreement over all anchors and, with `perSlice`, over every value of that attribute (values sorted). */
export function judgeAgreement(anchors: JudgeAnchors, scale: readonly string[], perSlice: string | undefined, options: AgreementOptions): SliceAgreement[] {
  const groups = new Map<string, AnchorItem[]>()
  if (perSlice !== undefined) {
    for (const item of anchors.items) {
      const v = item.attrs.get(perSlice) as string
      const list = groups.get(v) ?? []
      list.push(item)
      groups.set(v, list)
    }
  }
  // Every slice is bootstrapped on its own: a per_slice attribute with an id-like value per item is refused (before any
  // resampling), as for queries.
  if (groups.size > MAX_SLICE_VALUES) {
    throw new InputError(
      { file: anchors.source, key: 'judge.per_slice' },
      `"${perSlice}" has ${groups.size} distinct values among the anchors; the limit is ${MAX_SLICE_VALUES}`,
      'per_slice names a short list of tasks or categories, not an id'
    )
  }
  const out = [sliceAgreement([], anchors.items, scale, anchors.sameJudge, options)]
  for (const value of [...groups.keys()].sort(compareCodePoints)) out.push(sliceAgreement([[perSlice as string, value]], groups.get(value) as AnchorItem[], scale, anchors.sameJudge, options))
  return out
}

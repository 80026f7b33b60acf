import type { KappaWeights } from '../../config/judge-rules.js'
import { InputError } from '../../errors.js'
import type { AnchorItem, JudgeAnchors } from './anchors.js'
import { compareCodePoints } from '../../util/order.js'
import { quote, quoteList } from '../../util/show.js'
import { kappaWeighted, kappaWeighting, rawAgreement } from './kappa.js'
import { tQuantile } from '../../stats/special.js'
import { MAX_SLICE_VALUES } from '../../align/slice-values.js'

/**
 * Agreement of the judge with the human anchors, per slice: Cohen's kappa (weighted for graded labels), raw
 * agreement, and a jackknife-t interval over anchor ITEMS (an item scored several times is left out whole with all
 * its scorings, so repeats do not shrink the interval). With one judge per side the same left-out items give both
 * kappas, so the interval of their difference (judge drift) is paired.
 *
 * Why not the percentile bootstrap it replaced: at 10 items its kappa intervals covered 0.43–0.90 for a nominal 0.95
 * and the drift guard passed a drift exactly at max_drop 5–38% of the time (docs/statistics.md). The jackknife
 * standard error with Student's t on m − 1 degrees of freedom holds the drift guard at 0.017–0.027 from 40 items
 * (the default judge.min_items); a single kappa's interval is computed on Fisher's z = atanh(kappa) scale, which
 * keeps it inside [−1, 1] and covers 0.933–0.973 there.
 */

/** One judge's agreement with the humans over a slice. */
export interface SideAgreement {
  /** Null when undefined (chance agreement 1: one label everywhere), never NaN. */
  kappa: number | null
  /** Share of scorings where the judge gave exactly the human label. */
  raw: number
  /** Jackknife-t interval (atanh scale), or null when a leave-one-out kappa is undefined or they do not vary. */
  interval: [number, number] | null
  /** Items whose leave-one-out kappa was undefined (then no interval is read). */
  undefinedLeaveOneOut: number
}

export interface SliceAgreement {
  slice: Array<[string, string]>
  items: number
  scorings: number
  baseline: SideAgreement
  /** Null when one judge serves both sides (then `baseline` is that judge). */
  candidate: SideAgreement | null
  /**
   * Candidate kappa minus baseline kappa, its paired interval, and the skewness of one item's jackknife
   * pseudo-value (what the reliability rule's size rule reads, src/stats/reliability.ts); null with one judge.
   */
  drift: { delta: number | null; interval: [number, number] | null; unitSkew: number } | null
}

export interface AgreementOptions {
  weights: KappaWeights
  confidence: number
}

/**
 * The label scale in order: the rules' `labels`, or the labels seen (numerically sorted when all are numbers,
 * else by code points). Weighted kappa needs an order, so text labels with weights need `labels` in the rules.
 */
export function labelScale(
  anchors: JudgeAnchors,
  labels: readonly string[] | undefined,
  weights: KappaWeights
): string[] {
  if (labels !== undefined) {
    const scale = new Set(labels)
    for (const l of [...anchors.labels].sort(compareCodePoints)) {
      if (!scale.has(l))
        throw new InputError(
          { file: anchors.source, key: 'judge.labels' },
          `the label ${quote(l)} is not on the scale judge.labels`,
          'add it to judge.labels, or fix the anchor'
        )
    }
    return [...labels]
  }
  const seen = [...anchors.labels]
  const numeric = seen.every((l) => Number.isFinite(Number(l)) && String(Number(l)) === l)
  if (numeric) return seen.sort((a, b) => Number(a) - Number(b))
  if (weights !== 'none') {
    throw new InputError(
      { file: anchors.source, key: 'judge.weights' },
      `${weights} weights need ordered labels, but the labels are text (${quoteList(seen.sort(compareCodePoints), 5)})`,
      'name the scale in order under judge.labels, or use weights: none'
    )
  }
  return seen.sort(compareCodePoints)
}

/** The contingency cells (human row x judge column) of every scoring, for one side: item p's are cells[starts[p] .. starts[p + 1]). */
function cellsOf(
  items: readonly AnchorItem[],
  scale: ReadonlyMap<string, number>,
  k: number,
  side: 'baseline' | 'candidate'
): { starts: Int32Array; cells: Int32Array } {
  const starts = new Int32Array(items.length + 1)
  items.forEach((item, p) => (starts[p + 1] = starts[p] + item.scorings.length))
  const cells = new Int32Array(starts[items.length])
  items.forEach((item, p) =>
    item.scorings.forEach(
      (s, t) => (cells[starts[p] + t] = (scale.get(item.human) as number) * k + (scale.get(s[side]) as number))
    )
  )
  return { starts, cells }
}

/** One slice of the anchors: its filters ([] = all), its items, and whether one judge serves both sides. */
export interface AnchorSlice {
  slice: Array<[string, string]>
  items: readonly AnchorItem[]
  /** JudgeAnchors.sameJudge: then only the baseline's labels are read. */
  sameJudge: boolean
}

/** Agreement over one slice's items. */
export function sliceAgreement(
  anchors: AnchorSlice,
  scale: readonly string[],
  options: AgreementOptions
): SliceAgreement {
  const { slice, items, sameJudge } = anchors
  const k = scale.length
  const index = new Map(scale.map((l, i) => [l, i]))
  const sides: Array<'baseline' | 'candidate'> = sameJudge ? ['baseline'] : ['baseline', 'candidate']
  const cells = sides.map((s) => cellsOf(items, index, k, s))
  const weighting = kappaWeighting(k, options.weights)
  const m = items.length
  // Every side's whole table, then each item's cells taken out and put back: m leave-one-out kappas per side.
  const tables = cells.map(({ cells: flat }) => {
    const t = new Float64Array(k * k)
    for (const cell of flat) t[cell]++
    return t
  })
  const point = tables.map((t) => kappaWeighted(t, weighting).kappa)
  const raws = tables.map((t) => rawAgreement(t, k) ?? 0)
  const leaveOut = cells.map(({ starts, cells: flat }, c) => {
    const t = tables[c]
    const out: Array<number | null> = []
    for (let p = 0; p < m; p++) {
      for (let x = starts[p]; x < starts[p + 1]; x++) t[flat[x]]--
      out.push(kappaWeighted(t, weighting).kappa)
      for (let x = starts[p]; x < starts[p + 1]; x++) t[flat[x]]++
    }
    return out
  })
  const t = m > 1 ? tQuantile(1 - (1 - options.confidence) / 2, m - 1) : Number.NaN
  const side = (c: number): SideAgreement => {
    const loo = leaveOut[c]
    const undefinedLeaveOneOut = loo.filter((v) => v === null).length
    return {
      kappa: point[c],
      raw: raws[c],
      interval:
        undefinedLeaveOneOut > 0
          ? null
          : kappaInterval(
              point[c],
              loo.filter((v): v is number => v !== null),
              t
            ),
      undefinedLeaveOneOut
    }
  }
  const scorings = items.reduce((n, i) => n + i.scorings.length, 0)
  if (sameJudge) return { slice, items: m, scorings, baseline: side(0), candidate: null, drift: null }
  const delta = point[0] === null || point[1] === null ? null : point[1] - point[0]
  let interval: [number, number] | null = null
  const [before, after] = leaveOut
  const diffs: number[] = []
  for (let p = 0; p < m; p++) {
    const b = before[p]
    const a = after[p]
    if (a !== null && b !== null) diffs.push(a - b)
  }
  if (delta !== null && diffs.length === m) interval = jackknifeT(delta, diffs, t)
  return {
    slice,
    items: m,
    scorings,
    baseline: side(0),
    candidate: side(1),
    drift: { delta, interval, unitSkew: -skewness(diffs) }
  }
}

/** The sample skewness Σ(x − x̄)³/n / (Σ(x − x̄)²/n)^{3/2} (0 without spread); a pseudo-value's is minus its leave-one-out's. */
function skewness(xs: readonly number[]): number {
  const n = xs.length
  if (n < 2) return 0
  let mean = 0
  for (const x of xs) mean += x
  mean /= n
  let m2 = 0
  let m3 = 0
  for (const x of xs) {
    const d = x - mean
    m2 += d * d
    m3 += d * d * d
  }
  return m2 > 0 ? m3 / n / Math.pow(m2 / n, 1.5) : 0
}

/**
 * The jackknife-t interval θ̂ ± t·se, se² = (m − 1)/m · Σ (θ₍ₚ₎ − θ̄)² over the m leave-one-out estimates (Efron &
 * Tibshirani 1993, eq. 11.5); null when they do not vary (no spread: the interval would be a point, never evidence)
 * or t is undefined (one item).
 */
export function jackknifeT(estimate: number, leaveOneOut: readonly number[], t: number): [number, number] | null {
  const m = leaveOneOut.length
  if (m < 2 || !Number.isFinite(t)) return null
  let mean = 0
  for (const v of leaveOneOut) mean += v
  mean /= m
  let ss = 0
  for (const v of leaveOneOut) ss += (v - mean) * (v - mean)
  const se = Math.sqrt(((m - 1) / m) * ss)
  if (!(se > 0) || !Number.isFinite(estimate)) return null
  return [estimate - t * se, estimate + t * se]
}

/**
 * A kappa's interval: the jackknife-t on Fisher's z = atanh(kappa), mapped back with tanh (inside [−1, 1] by
 * construction), or on kappa itself, clipped to [−1, 1], when a kappa is ±1 (atanh infinite).
 */
function kappaInterval(kappa: number | null, leaveOneOut: readonly number[], t: number): [number, number] | null {
  if (kappa === null) return null
  if (Math.abs(kappa) < 1 && leaveOneOut.every((v) => Math.abs(v) < 1)) {
    const z = jackknifeT(Math.atanh(kappa), leaveOneOut.map(Math.atanh), t)
    return z === null ? null : [Math.tanh(z[0]), Math.tanh(z[1])]
  }
  const raw = jackknifeT(kappa, leaveOneOut, t)
  return raw === null ? null : [Math.max(-1, raw[0]), Math.min(1, raw[1])]
}

/** Agreement over all anchors and, with `perSlice`, over every value of that attribute (values sorted). */
export function judgeAgreement(
  anchors: JudgeAnchors,
  scale: readonly string[],
  perSlice: string | undefined,
  options: AgreementOptions
): SliceAgreement[] {
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
  const { sameJudge } = anchors
  const out = [sliceAgreement({ slice: [], items: anchors.items, sameJudge }, scale, options)]
  for (const value of [...groups.keys()].sort(compareCodePoints)) {
    const items = groups.get(value) as AnchorItem[]
    out.push(sliceAgreement({ slice: [[perSlice as string, value]], items, sameJudge }, scale, options))
  }
  return out
}

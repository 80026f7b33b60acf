/**
 * The `judge` rules as the gate uses them (src/config/judge-schema.ts is their schema). Anchors are part of the
 * exam: human labels written before the results, read at the base commit in a pull request.
 */

/** Kappa weights: nominal labels (none), or graded labels whose near misses count partly (linear, quadratic). */
export type KappaWeights = 'none' | 'linear' | 'quadratic'

export interface JudgeRules {
  /** The anchor file as the rules name it, or undefined when only the length-bias diagnostic is asked for. */
  anchors: string | undefined
  weights: KappaWeights
  /** The ordered label scale (as strings), or undefined: the labels seen in the file. */
  labels: string[] | undefined
  perSlice: string | undefined
  minItems: number
  /** Fewest queries a length-bias slice needs: judge.min_items when given, else {@link DEFAULT_MIN_LENGTH_BIAS_QUERIES}. */
  minLengthBiasQueries: number
  minKappa: number | undefined
  maxDrop: number | undefined
  maxFlipShare: number | undefined
  minConsistent: number | undefined
  lengthBias: { score: string; length: string; perSlice: string | undefined; maxCorrelation: number | undefined } | undefined
}

/**
 * Fewest anchor items per slice for a rule to be decided: a kappa over a handful of items is noise. Measured
 * (docs/statistics.md): at 10 items no kappa interval covers (0.43–0.95 for a nominal 0.95, by design) and the
 * percentile bootstrap's drift guard passed a drift at max_drop 5–38% of the time; from 40 items the jackknife-t
 * intervals cover 0.933–0.973 and the drift guard's false pass is 0.017–0.027, rare labels (10%) included.
 */
export const DEFAULT_MIN_ANCHOR_ITEMS = 40

/**
 * Fewest queries per slice for the length-bias rule when judge.min_items is not given: the anchors' default rose to
 * 40 for the kappa intervals, and a Spearman correlation on the point estimate keeps its own, earlier minimum.
 */
export const DEFAULT_MIN_LENGTH_BIAS_QUERIES = 10

/** The `judge` key as written (validated against the schema). */
export interface RawJudgeRules {
  anchors?: string
  weights?: KappaWeights
  labels?: Array<string | number>
  per_slice?: string
  min_items?: number
  min_kappa?: number
  max_drop?: number
  repeatability?: { max_flip_share: number }
  position?: { min_consistent: number }
  length_bias?: { score: string; length: string; per_slice?: string; max_correlation?: number }
}

type Fail = (path: Array<string | number>, message: string, hint?: string) => never

/**
 * Turns the `judge` key into typed rules, refusing what the schema cannot: a rule over anchors without an anchor
 * file, a length-bias score that is not a metric, and a label scale with two spellings of one label.
 */
export function judgeRules(raw: RawJudgeRules | undefined, metrics: ReadonlySet<string>, fail: Fail): JudgeRules | undefined {
  if (raw === undefined) return undefined
  if (raw.anchors === undefined) {
    const needs = (['weights', 'labels', 'per_slice', 'min_items', 'min_kappa', 'max_drop', 'repeatability', 'position'] as const).find((k) => raw[k] !== undefined)
    if (needs !== undefined) fail(['judge', needs], `judge.${needs} is about the anchors, but judge names no anchor file`, "add judge.anchors: the file of human-labelled items with the judge's labels")
  }
  const labels = raw.labels?.map(String)
  if (labels !== undefined && new Set(labels).size !== labels.length) fail(['judge', 'labels'], 'two labels of the scale are the same once written as text (e.g. 1 and "1")', 'write every label once')
  const lb = raw.length_bias
  if (lb !== undefined && !metrics.has(lb.score)) fail(['judge', 'length_bias', 'score'], `"${lb.score}" is not under metrics`, 'name the judge-scored metric, declared under metrics')
  return {
    anchors: raw.anchors,
    weights: raw.weights ?? 'none',
    labels,
    perSlice: raw.per_slice,
    minItems: raw.min_items ?? DEFAULT_MIN_ANCHOR_ITEMS,
    minLengthBiasQueries: raw.min_items ?? DEFAULT_MIN_LENGTH_BIAS_QUERIES,
    minKappa: raw.min_kappa,
    maxDrop: raw.max_drop,
    maxFlipShare: raw.repeatability?.max_flip_share,
    minConsistent: raw.position?.min_consistent,
    lengthBias: lb && { score: lb.score, length: lb.length, perSlice: lb.per_slice, maxCorrelation: lb.max_correlation }
  }
}

/**
 * The `judge` rules, declared once: their JSON Schema (spread into RULES_SCHEMA by src/config/schema.ts), the typed
 * value they parse to, and the refusals a schema cannot express. Anchors are part of the exam: human labels written
 * before the results, read at the base commit in a pull request; the candidate judge's labels are its answer.
 */
import { camelCased, type Camel, type Fail, type SchemaType } from './schema-type.js'

const share = (description: string) => ({ type: 'number', minimum: 0, maximum: 1, description }) as const

export const JUDGE_RULES_PROPERTIES = {
  judge: {
    type: 'object',
    additionalProperties: false,
    minProperties: 1,
    description:
      'Is the ruler still the same? Checks the LLM judge against human-labelled anchors (docs/trust.md, "Judge anchors") and shows its diagnostics.',
    properties: {
      anchors: {
        type: 'string',
        minLength: 1,
        description:
          "Anchor file (JSON Lines, or CSV by its .csv name): one scoring per record with id, human, judge (the baseline judge's label), optional judge_swapped and attributes. Part of the exam: read at the base commit in a pull request. The candidate judge's labels are the candidate's answer, given apart (--candidate-judge-labels, action input candidate-judge-labels)."
      },
      weights: {
        enum: ['none', 'linear', 'quadratic'],
        description: "Cohen's kappa weights: none (default; nominal labels), linear or quadratic (graded labels)."
      },
      labels: {
        type: 'array',
        minItems: 2,
        maxItems: 100,
        uniqueItems: true,
        items: { type: ['string', 'number'] },
        description:
          'The label scale in order (e.g. [0, 1, 2, 3]). Default: the labels seen in the file, sorted (numerically when all are numbers). Name it when a grade may be absent from the file.'
      },
      per_slice: {
        type: 'string',
        minLength: 1,
        description:
          'Anchor attribute (e.g. task): agreement is computed and checked in every value of it, not only overall.'
      },
      min_items: {
        type: 'integer',
        minimum: 2,
        description:
          'Fewest anchor items a slice needs for its rules to be decided; fewer: inconclusive. Default 40 (below it no kappa interval holds its level, docs/statistics.md).'
      },
      min_kappa: {
        type: 'number',
        minimum: -1,
        maximum: 1,
        description:
          'Floor of Cohen\'s kappa (judge vs human) for every judge in use, in every slice; below it the gate fails as "the ruler changed", naming the slice. An undefined kappa (one label only) is inconclusive.'
      },
      max_drop: share(
        "Judge drift: how far the candidate's judge's kappa may fall below the baseline's, decided on the paired jackknife-t interval of the difference over anchor items (pass: its low end is at least -max_drop; fail: its high end is below it). Needs the candidate judge's labels (--candidate-judge-labels)."
      ),
      repeatability: {
        type: 'object',
        additionalProperties: false,
        required: ['max_flip_share'],
        description: 'Anchors scored more than once (the same id on several records).',
        properties: {
          max_flip_share: share('Most share of repeated items whose judge label is not the same every time.')
        }
      },
      position: {
        type: 'object',
        additionalProperties: false,
        required: ['min_consistent'],
        description:
          'Pairwise judges scored in both orders (judge_swapped: the label with the answers shown the other way round, written in the same terms).',
        properties: { min_consistent: share('Fewest share of items whose label is the same in both orders.') }
      },
      length_bias: {
        type: 'object',
        additionalProperties: false,
        required: ['score', 'length'],
        description:
          "How the change of a judge score relates to the change of answer length, query by query (Spearman's rho of the two changes), overall and per slice.",
        properties: {
          score: { type: 'string', minLength: 1, description: 'The judge-scored metric (a key of metrics).' },
          length: {
            type: 'string',
            minLength: 1,
            description: 'The numeric per-query field holding the answer length (characters or tokens) on both sides.'
          },
          per_slice: { type: 'string', minLength: 1, description: 'Query attribute to break the diagnostic down by.' },
          max_correlation: {
            type: 'number',
            minimum: -1,
            maximum: 1,
            description:
              "Most Spearman's rho of d_score vs d_length allowed in any slice: above it, the score rewards longer answers more than the rules accept."
          }
        }
      }
    }
  }
} as const

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
  lengthBias: Camel<typeof LENGTH_BIAS> | undefined
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

const LENGTH_BIAS = JUDGE_RULES_PROPERTIES.judge.properties.length_bias

/** The `judge` key as written, typed from its schema (already validated). */
type RawJudgeRules = SchemaType<(typeof JUDGE_RULES_PROPERTIES)['judge']>

/**
 * Turns the `judge` key into typed rules, refusing what the schema cannot: a rule over anchors without an anchor
 * file, a length-bias score that is not a metric, and a label scale with two spellings of one label.
 */
export function judgeRules(
  raw: RawJudgeRules | undefined,
  metrics: ReadonlySet<string>,
  fail: Fail
): JudgeRules | undefined {
  if (raw === undefined) return undefined
  if (raw.anchors === undefined) {
    const needs = (
      ['weights', 'labels', 'per_slice', 'min_items', 'min_kappa', 'max_drop', 'repeatability', 'position'] as const
    ).find((k) => raw[k] !== undefined)
    if (needs !== undefined)
      fail(
        ['judge', needs],
        `judge.${needs} is about the anchors, but judge names no anchor file`,
        "add judge.anchors: the file of human-labelled items with the judge's labels"
      )
  }
  const labels = raw.labels?.map(String)
  if (labels !== undefined && new Set(labels).size !== labels.length)
    fail(
      ['judge', 'labels'],
      'two labels of the scale are the same once written as text (e.g. 1 and "1")',
      'write every label once'
    )
  const lb = raw.length_bias
  if (lb !== undefined && !metrics.has(lb.score))
    fail(
      ['judge', 'length_bias', 'score'],
      `"${lb.score}" is not under metrics`,
      'name the judge-scored metric, declared under metrics'
    )
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
    lengthBias: lb && camelCased(LENGTH_BIAS, lb)
  }
}

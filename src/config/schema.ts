import { AMOUNT_SCHEMA } from './amount.js'
import { BUDGET_PROPERTY, REFERENCE_RULES_PROPERTIES } from './reference-rules.js'
import { TRUST_RULES_PROPERTIES } from './trust-rules.js'
import { JUDGE_RULES_PROPERTIES } from './judge-rules.js'

/**
 * The JSON Schema of the rules file. It lives in code so the loader and the published `rules/schema.json`
 * (which editors use for autocompletion, via `# yaml-language-server: $schema=...`) can never disagree:
 * `npm run schema` writes the file from this object and a test fails if they differ.
 */
const margin = {
  description:
    'How much worse the candidate may be. A number is in the metric\'s own units (0.005 = half a point of a 0..1 metric); a string like "20%" is relative to the baseline mean of the compared queries. "100%" on a better: higher metric that cannot go below 0 is refused (it allows a fall to 0).',
  ...AMOUNT_SCHEMA
} as const

const where = {
  type: 'object',
  description:
    'Only the queries whose attributes have these values (e.g. { segment: new }). A value no query has, or a combination no query has ({ segment: new, category: code } where each exists alone), is refused: a check over zero queries protects nothing.',
  minProperties: 1,
  additionalProperties: { type: 'string', minLength: 1 }
} as const

/** An absolute level (`at_least`, `at_most`): a number, or `{ value }`. */
const level = <V extends string, D extends string>(value: V, description: D) =>
  ({
    oneOf: [
      { type: 'number' },
      {
        type: 'object',
        additionalProperties: false,
        required: ['value'],
        properties: { value: { type: 'number', description: value } }
      }
    ],
    description
  }) as const

/** A count of seed files (statistics.seeds, min_seeds). */
const seedCount = <D extends string>(description: D) =>
  ({ type: 'integer', minimum: 1, maximum: 1000, description }) as const

export const RULES_SCHEMA = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  $id: 'https://github.com/retrieval-gate/retrieval-gate/blob/v1/rules/schema.json',
  title: 'retrieval-gate rules',
  description: 'Guardrails written before anyone sees the results. The gate passes only if every check holds.',
  type: 'object',
  additionalProperties: false,
  required: ['version', 'metrics', 'checks'],
  properties: {
    $schema: { type: 'string', description: 'Where editors find this schema.' },
    version: { const: 1, description: 'Rules format version. Always 1.' },
    metrics: {
      type: 'object',
      description:
        'The metric fields of the per-query rows (or measures computed from runs) and which direction is better.',
      minProperties: 1,
      propertyNames: { minLength: 1 },
      additionalProperties: {
        type: 'object',
        additionalProperties: false,
        required: ['better'],
        properties: {
          better: {
            enum: ['higher', 'lower'],
            description:
              'Which direction is an improvement: "higher" or "lower". For "lower" (latency, cost) every comparison flips: a rise is a loss.'
          },
          binary: {
            type: 'boolean',
            description:
              'Values are 0 or 1 (hit@k, answered correctly): enables the exact McNemar test (superior: { test: mcnemar }), and every value must be 0 or 1.'
          },
          range: {
            type: 'array',
            description:
              'The values the metric can take, [min, max]: a value outside is refused; a margin or a regression threshold as wide as the range is refused (the check could never fail). Binary metrics are [0, 1]; ranking measures computed from runs (nDCG@k, R@k, P@k, ...) are [0, 1] without declaring it.',
            items: { type: 'number' },
            minItems: 2,
            maxItems: 2
          },
          unit: { type: 'string', maxLength: 16, description: 'Unit shown after values in the report, e.g. "ms".' },
          fill: {
            type: 'number',
            description:
              'Value scored for a missing query under queries.missing: zero. With a range it is the worst end of the range (min for better: higher, max for better: lower; another value is refused), so leaving a query out never helps; without one it is required (nothing says which value is the worst: a 0 ms latency would look perfect, and a score that can be below 0 would make leaving a query out pay).'
          }
        }
      }
    },
    ...TRUST_RULES_PROPERTIES,
    ...REFERENCE_RULES_PROPERTIES,
    ...JUDGE_RULES_PROPERTIES,
    slices: {
      type: 'array',
      description:
        'Attribute fields to break every metric down by in the report: exploratory (shown, never gating unless a check names them). Every attribute (here, in where, per_slice, statistics.cluster, statistics.weights.by) is read from the exam: the baseline rows, the queries file or the evaluation set. A baseline row without it is refused even if the candidate has it; a candidate value that differs is refused.',
      items: { type: 'string', minLength: 1 },
      uniqueItems: true,
      maxItems: 20
    },
    statistics: {
      type: 'object',
      additionalProperties: false,
      description: 'How intervals and tests are computed.',
      properties: {
        confidence: {
          type: 'number',
          exclusiveMinimum: 0.5,
          exclusiveMaximum: 1,
          description:
            'Two-sided confidence of every interval (0.95: the worse end is the 2.5% percentile), between 0.5 and 1. Default 0.95.'
        },
        resamples: {
          type: 'integer',
          minimum: 100,
          maximum: 1000000,
          description: 'Bootstrap resamples, 100 to 1,000,000. Default 10000.'
        },
        seed: {
          type: ['integer', 'string'],
          description:
            'Seed of the resampling: the same inputs and seed give the same report, byte for byte. Default 1.'
        },
        interval: {
          enum: ['auto', 'percentile', 'bca'],
          description:
            'Interval method. "auto" (default): chosen per check by metric type and design, stated in the report: Tango\'s score interval for binary metrics on independent queries, Hall\'s skew-corrected t otherwise (docs/statistics.md). "percentile" or "bca": the paired bootstrap everywhere ("bca" falls back to percentile, with a note, where BCa is undefined).'
        },
        method: {
          enum: ['auto', 'multinomial', 'poisson'],
          description:
            'How bootstrap resamples are drawn: "multinomial" (the units drawn with replacement), "poisson" (a Poisson(1) weight per unit and resample, a pure function of the seed, the unit id and the resample, which a warehouse can compute where the rows are: docs/scale.md), or "auto" (default: multinomial below 50,000 units, Poisson above for columns with many distinct values; columns with few are drawn by counts, exactly). The report states the method of every comparison.'
        },
        permutations: {
          type: 'integer',
          minimum: 100,
          maximum: 1000000,
          description:
            'Sign flips of the paired randomization test (exact enumeration when there are fewer sign patterns). Default: resamples.'
        },
        cluster: {
          type: 'string',
          minLength: 1,
          description:
            'Attribute whose values are clusters (users, conversations, templates): the bootstrap and the randomization test resample whole clusters, not queries. McNemar is refused under clusters.'
        },
        cluster_weighting: {
          enum: ['query', 'cluster'],
          description:
            'With cluster: every query counts once in the statistic ("query", default) or every cluster counts once ("cluster": mean of cluster means). "cluster" without statistics.cluster is refused.'
        },
        weights: {
          type: 'object',
          additionalProperties: false,
          required: ['by', 'target'],
          description:
            'Target-population weights, fixed before the results: the statistic is the weighted sum of the per-value means of `by`, resampled within each value. The targets must sum to 1 and cover every value present.',
          properties: {
            by: { type: 'string', minLength: 1, description: 'Attribute defining the strata (e.g. segment).' },
            target: {
              type: 'object',
              minProperties: 1,
              additionalProperties: { type: 'number', minimum: 0, maximum: 1 },
              description:
                'Share of each value in the target population, e.g. { established: 0.5, new: 0.5 }; must sum to 1 and name every value present in the data.'
            }
          }
        },
        seeds: {
          description:
            "Seed replicates, declared before the results: how many independently trained seeds (one --baseline / --candidate file each) each side gives, e.g. { baseline: 1, candidate: 3 }, or one number for both. Each side must give exactly that many files; with more than one on a side every interval also covers the spread between seeds (t over seeds and queries, never narrower than the queries' own interval; docs/statistics.md). Without it each side is one file.",
          oneOf: [
            { type: 'integer', minimum: 1, maximum: 1000 },
            {
              type: 'object',
              additionalProperties: false,
              required: ['baseline', 'candidate'],
              properties: {
                baseline: seedCount('How many seed files the baseline gives (--baseline once per seed).'),
                candidate: seedCount('How many seed files the candidate gives (--candidate once per seed).')
              }
            }
          ]
        },
        min_seeds: seedCount(
          'Fewest independently trained seeds every side must give (statistics.seeds declares how many each gives); with fewer every check is inconclusive (reason too_few_seeds).'
        ),
        multiplicity: {
          enum: ['none', 'holm', 'bonferroni'],
          description:
            'Adjustment over the family of statistical checks (one per check and slice): "bonferroni" and "holm" make every interval 1 - alpha/m; p-values are Bonferroni- or Holm-adjusted. Default "none" (see docs/statistics.md: the all-must-pass verdict already caps the false-pass rate at alpha).'
        }
      }
    },
    queries: {
      type: 'object',
      additionalProperties: false,
      description: 'What to do about queries that are not on both sides, and how many a check needs.',
      properties: {
        missing: {
          enum: ['error', 'zero'],
          description:
            'The queries compared are the baseline\'s (the exam). "error" (default): a query on one side only, or a missing value, stops the gate. "zero": a query the candidate dropped, or a missing value, scores the metric\'s fill value (its worst) and is counted in the report; a query only the candidate has is ignored and counted (never compared).'
        },
        min_per_slice: {
          type: 'integer',
          minimum: 1,
          description: 'Fewest queries a statistical check needs; with fewer it is inconclusive. Default 30.'
        },
        file: {
          type: 'string',
          minLength: 1,
          description:
            "The queries file (JSON Lines or CSV: query_id, text, attributes), part of the exam (read at the base commit in a pull request): its attributes are the slices, clusters and weights of every query (runs carry none), its text and both runs' top documents are shown beside each regressed query. Every compared query must be in it; a row that contradicts it is refused."
        }
      }
    },
    on_inconclusive: {
      enum: ['fail', 'pass'],
      description:
        'How a check counts toward the verdict when the data neither prove nor refute it (a non_inferior interval straddling the margin; a trust rule with outcome inconclusive). A superior check that was not shown better always fails: it must be shown. Too few queries is on_too_few. Default "fail".'
    },
    on_too_few: {
      enum: ['fail', 'pass'],
      description:
        'How a statistical check (or one slice of a per_slice check) with too few queries counts toward the verdict: fewer than queries.min_per_slice, or fewer than the reliability rule needs for its margin (reason interval_unreliable). A superior check not shown better fails whatever it says. Default: the value of on_inconclusive.'
    },
    checks: {
      type: 'array',
      minItems: 1,
      maxItems: 100,
      description:
        'The guardrails, all of which must hold, evaluated and reported in this order. Names must be unique.',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['name', 'metric'],
        properties: {
          name: {
            type: 'string',
            minLength: 1,
            maxLength: 200,
            description: 'Shown in the report and the annotation.'
          },
          metric: { type: 'string', minLength: 1, description: 'A key of `metrics`.' },
          where: where,
          per_slice: {
            type: 'string',
            minLength: 1,
            description:
              'Evaluate the check separately for every value of this attribute (within where); all must hold.'
          },
          non_inferior: {
            type: 'object',
            additionalProperties: false,
            required: ['margin'],
            description:
              'Passes when the worse end of the interval of (candidate - baseline) is no worse than -margin.',
            properties: { margin }
          },
          superior: {
            type: 'object',
            additionalProperties: false,
            description:
              'Passes when the candidate is shown better: the bootstrap interval clears the margin (test: bootstrap), or a test of "no difference" has p < alpha with the change in the better direction (test: mcnemar for binary metrics, gained vs lost; t, the paired t-test; randomization, the paired sign-flip test). docs/rules.md.',
            properties: {
              test: { enum: ['bootstrap', 'mcnemar', 't', 'randomization'], description: 'Default bootstrap.' },
              alpha: {
                type: 'number',
                exclusiveMinimum: 0,
                maximum: 0.5,
                description: 'For mcnemar, t and randomization (two-sided). Default 1 - confidence.'
              },
              margin: {
                ...margin,
                description: 'For bootstrap: the better end must clear this improvement (default 0).'
              }
            }
          },
          at_least: level(
            "The floor, in the metric's units.",
            "An absolute floor for a better-higher metric: passes when the worse (low) end of the interval of the candidate's mean is at least the value, fails when the better (high) end is below it, else inconclusive. `at_least: 0.35` or `at_least: { value: 0.35 }`. docs/rules.md."
          ),
          at_most: level(
            "The ceiling, in the metric's units.",
            "An absolute ceiling for a better-lower metric (latency): passes when the worse (high) end of the interval of the candidate's mean is at most the value, fails when the better (low) end is above it, else inconclusive. docs/rules.md."
          ),
          max_regressions: {
            type: 'object',
            additionalProperties: false,
            minProperties: 1,
            description:
              "Caps how many queries may get worse by more than threshold: a count of queries, and/or a share of the compared queries (the exam's). Refused when it could never fail: share 1, a threshold as wide as the metric's range, a count as large as the queries of the check (with per_slice: of its largest slice).",
            properties: {
              count: { type: 'integer', minimum: 0, description: 'At most this many regressed queries.' },
              share: {
                type: 'number',
                minimum: 0,
                maximum: 1,
                description: 'At most this share of the compared queries regressed.'
              },
              threshold: {
                type: 'number',
                minimum: 0,
                description: 'A query counts as regressed when it got worse by more than this (default 0: any drop).'
              }
            }
          },
          ...BUDGET_PROPERTY
        }
      }
    }
  }
} as const

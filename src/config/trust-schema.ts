/**
 * The trust keys of the rules file's JSON Schema (dataset, comparability, pooling, max_zero_hit_share,
 * two_stage), kept with the rest of the rules schema and spread into RULES_SCHEMA by src/config/schema.ts.
 */
const shareCap = (what: string) =>
  ({
    type: 'object',
    additionalProperties: false,
    minProperties: 1,
    properties: {
      share: { type: 'number', minimum: 0, maximum: 1, description: `Most ${what} the candidate may have (0..1).` },
      increase: { type: 'number', minimum: 0, maximum: 1, description: `Most the candidate's ${what} may exceed the baseline's (0..1, absolute points).` },
      outcome: { enum: ['fail', 'inconclusive'], description: 'What a breach makes of the comparison: fail (default), or inconclusive (then on_inconclusive decides).' }
    }
  }) as const

export const TRUST_RULES_PROPERTIES = {
  dataset: {
    type: 'object',
    additionalProperties: false,
    required: ['file'],
    description: 'An evaluation set (JSON Lines, rules/dataset.schema.json) whose gold chunks and graded relevance are the judgments; validated before anything is scored.',
    properties: {
      file: { type: 'string', minLength: 1, description: 'The evaluation set, relative to the working directory.' },
      corpus: { type: 'string', minLength: 1, description: 'Frozen corpus listing (one chunk id per line, or JSON Lines with chunk_id): every referenced chunk must exist.' },
      split: { enum: ['dev', 'holdout', 'all'], description: 'The split the gate grades on. Default holdout.' },
      manifest: { type: 'string', minLength: 1, description: "The dataset's snapshot manifest, compared with the runs' for the fields it has." },
      holdout_looks: {
        type: 'object',
        additionalProperties: false,
        minProperties: 1,
        description:
          'Counts every gate run that grades the holdout in a ledger a pull request cannot reset (commit statuses, docs/trust.md) and caps the looks: beyond a cap, or when the looks cannot be counted, the checks on holdout queries are inconclusive.',
        properties: {
          max_per_pr: { type: 'integer', minimum: 1, description: 'Most gate runs per pull request that may grade the holdout.' },
          max_per_release: { type: 'integer', minimum: 1, description: 'Most gate runs, over every pull request since `release`, that may grade the holdout.' },
          release: { type: 'string', minLength: 1, maxLength: 255, description: 'The tag (or commit) of the last release: the per-release looks are kept on its commit. Required with max_per_release.' }
        }
      }
    }
  },
  comparability: {
    type: 'object',
    additionalProperties: false,
    required: ['must_match'],
    description: 'Snapshot fields (dotted paths into the manifests) that must be equal between baseline and candidate (and dataset). A difference fails the gate as "not comparable".',
    properties: {
      must_match: { type: 'array', minItems: 1, uniqueItems: true, items: { type: 'string', pattern: '^[^.]+(\\.[^.]+)*$' }, description: 'e.g. [corpus.content_hash, chunker, judge.model].' },
      may_differ: {
        type: 'array',
        uniqueItems: true,
        items: { type: 'string', pattern: '^[^.]+(\\.[^.]+)*$' },
        description: 'Fields expected to differ (default [embedding]); any other difference is a comparability warning.'
      }
    }
  },
  pooling: {
    type: 'object',
    additionalProperties: false,
    description: "Pooling bias: unjudged documents in each side's top k, the to-judge list, judged-only (condensed) metrics.",
    properties: {
      depth: { type: 'integer', minimum: 1, maximum: 1000, description: "k of the pool (each side's top k). Default 10." },
      max_unjudged: { ...shareCap('unjudged share of its top k'), description: "Caps the candidate's mean share of unjudged documents in its top k." }
    }
  },
  max_zero_hit_share: {
    ...shareCap('share of queries with no relevant document in the top k'),
    description: "Whole-class failures: caps the candidate's share of queries with no relevant document in its top k, overall and in every slice.",
    properties: {
      ...shareCap('').properties,
      share: { type: 'number', minimum: 0, maximum: 1, description: 'Most share of zero-hit queries the candidate may have, overall and in every slice.' },
      increase: { type: 'number', minimum: 0, maximum: 1, description: "Most the candidate's zero-hit share may exceed the baseline's, overall and in every slice." },
      depth: { type: 'integer', minimum: 1, maximum: 1000, description: 'k (default: pooling.depth, else 10).' }
    }
  },
  two_stage: {
    type: 'object',
    additionalProperties: false,
    description: 'Two-stage diagnostics for runs whose per-query records carry "candidates" (the first-stage pool).',
    properties: {
      k: { type: 'integer', minimum: 1, maximum: 1000, description: "Cutoff of the ranker's nDCG and the pool's ceiling. Default 10." },
      gain: { enum: ['linear', 'exp'], description: 'nDCG gain: linear (grade, trec_eval; default) or exp (2^grade - 1).' }
    }
  }
} as const

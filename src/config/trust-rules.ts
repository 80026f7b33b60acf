/**
 * The trust rules, declared once: the JSON Schema of judgments, dataset, comparability, pooling, max_zero_hit_share
 * and two_stage (spread into RULES_SCHEMA by src/config/schema.ts), the typed values they parse to, and the refusals
 * a schema cannot express.
 */
import { camelCased, type Camel, type Fail, type SchemaType } from './schema-type.js'

/** A manifest field as a dotted path (`corpus.content_hash`). */
const FIELD = {
  type: 'string',
  pattern: '^[^.]+(\\.[^.]+)*$',
  title: 'a dotted manifest field (corpus.content_hash)'
} as const

/** A cap on a share, absolute (`share`) or as an increase over the baseline's (`increase`), with what a breach makes. */
const shareCap = (share: string, increase: string) =>
  ({
    type: 'object',
    additionalProperties: false,
    minProperties: 1,
    properties: {
      share: { type: 'number', minimum: 0, maximum: 1, description: share },
      increase: { type: 'number', minimum: 0, maximum: 1, description: increase },
      outcome: {
        enum: ['fail', 'inconclusive'],
        description:
          'What a breach makes of the comparison: fail (default), or inconclusive (then on_inconclusive decides).'
      }
    }
  }) as const

const zeroHitCap = shareCap(
  'Most share of zero-hit queries the candidate may have, overall and in every slice.',
  "Most the candidate's zero-hit share may exceed the baseline's, overall and in every slice."
)

export const TRUST_RULES_PROPERTIES = {
  judgments: {
    type: 'object',
    additionalProperties: false,
    description:
      'When present, baseline and candidate are runs (TREC or JSON Lines) and the gate computes the measures named under metrics from these judgments, exactly as trec_eval does.',
    properties: {
      qrels: {
        type: 'string',
        minLength: 1,
        description:
          'The judgments, relative to the working directory: TREC qrels (query iteration doc grade), ranx / pytrec_eval JSON or BEIR TSV; the measures under metrics are computed from them exactly as trec_eval does. Required unless the rules name a dataset, whose gold is then the judgments.'
      },
      no_relevant: {
        enum: ['exclude', 'zero', 'report'],
        description:
          'Judged queries without any relevant document: exclude them (default; counted), score them 0 (as trec_eval -c), or report them apart.'
      },
      depth: {
        type: 'integer',
        minimum: 1,
        description: 'Only the top N documents of each ranking count (trec_eval -M).'
      }
    }
  },
  dataset: {
    type: 'object',
    additionalProperties: false,
    required: ['file'],
    description:
      'An evaluation set (JSON Lines, rules/dataset.schema.json) whose gold chunks and graded relevance are the judgments; validated before anything is scored.',
    properties: {
      file: { type: 'string', minLength: 1, description: 'The evaluation set, relative to the working directory.' },
      corpus: {
        type: 'string',
        minLength: 1,
        description:
          'Frozen corpus listing (one chunk id per line, or JSON Lines with chunk_id): every referenced chunk must exist.'
      },
      split: {
        enum: ['dev', 'holdout', 'all'],
        description: 'The split the gate grades on: holdout (default), dev or all.'
      },
      manifest: {
        type: 'string',
        minLength: 1,
        description: "The dataset's snapshot manifest, compared with the runs' for the fields it has."
      },
      holdout_looks: {
        type: 'object',
        additionalProperties: false,
        minProperties: 1,
        description:
          "Counts every gate run that grades the holdout in a ledger a pull request cannot reset (commit statuses on the release's commit, docs/github.md) and caps the looks: beyond a cap, or when the looks cannot be counted, the checks on holdout queries are inconclusive.",
        properties: {
          max_per_pr: {
            type: 'integer',
            minimum: 1,
            description:
              "Most gate runs per pull request that may grade the holdout, counted per head branch on the release's commit (a force-push, a rebase or the branch reopened as a new PR keeps its count); beyond it the checks on holdout queries are inconclusive, with the count. A ledger that cannot be read makes them inconclusive (holdout_looks_unknown)."
          },
          max_per_release: {
            type: 'integer',
            minimum: 1,
            description:
              'Most gate runs, over every pull request since `release`, that may grade the holdout: the count no new branch restarts.'
          },
          release: {
            type: 'string',
            minLength: 1,
            maxLength: 255,
            description:
              "The tag (refs/tags/NAME, or a bare name that is a tag and not a branch) or full commit sha of the last release: every look is kept on its commit, which does not move (a PR's commits move with a force-push, its base commit with every merge). Required; the report counts the looks since the release even without max_per_release."
          }
        }
      }
    }
  },
  comparability: {
    type: 'object',
    additionalProperties: false,
    required: ['must_match'],
    description:
      'Snapshot fields (dotted paths into the manifests) that must be equal between baseline and candidate (and dataset). A difference fails the gate as "not comparable".',
    properties: {
      must_match: {
        type: 'array',
        minItems: 1,
        uniqueItems: true,
        items: FIELD,
        description:
          'Dotted manifest fields that must be equal between the sides (and the dataset), e.g. [corpus.content_hash, chunker, judge.model]; a difference fails the gate as "not comparable".'
      },
      may_differ: {
        type: 'array',
        uniqueItems: true,
        items: FIELD,
        description:
          'Fields expected to differ (default [embedding]); any other difference is a comparability warning (the result is not publishable).'
      }
    }
  },
  pooling: {
    type: 'object',
    additionalProperties: false,
    description:
      "Pooling bias: unjudged documents in each side's top k, the to-judge list, judged-only (condensed) metrics.",
    properties: {
      depth: {
        type: 'integer',
        minimum: 1,
        maximum: 1000,
        description: "k of the pool (each side's top k). Default 10."
      },
      max_unjudged: {
        ...shareCap(
          'Most unjudged share of its top k the candidate may have (0..1).',
          "Most the candidate's unjudged share of its top k may exceed the baseline's (0..1, absolute points)."
        ),
        description: "Caps the candidate's mean share of unjudged documents in its top k."
      }
    }
  },
  max_zero_hit_share: {
    ...zeroHitCap,
    description:
      "Whole-class failures: caps the candidate's share of queries with no relevant document in its top k, overall and in every slice.",
    properties: {
      ...zeroHitCap.properties,
      depth: { type: 'integer', minimum: 1, maximum: 1000, description: 'k (default: pooling.depth, else 10).' }
    }
  },
  two_stage: {
    type: 'object',
    additionalProperties: false,
    description: 'Two-stage diagnostics for runs whose per-query records carry "candidates" (the first-stage pool).',
    properties: {
      k: {
        type: 'integer',
        minimum: 1,
        maximum: 1000,
        description: "Cutoff of the ranker's nDCG and the pool's ceiling. Default 10."
      },
      gain: {
        enum: ['linear', 'exp'],
        description: 'nDCG gain: linear (grade, trec_eval; default) or exp (2^grade - 1).'
      }
    }
  }
} as const

/** Default depth of the pool (top k of each side) when the rules do not name one. */
export const DEFAULT_POOL_DEPTH = 10

/**
 * A cap on a share; a breach fails the gate (`outcome: fail`) or makes the comparison inconclusive (then
 * on_inconclusive decides).
 */
export type ShareCap = Camel<typeof zeroHitCap, 'outcome'>

/** The evaluation set the runs are graded against (its gold and grades are the judgments). */
export interface DatasetRules {
  file: string
  /** Frozen corpus listing: every referenced chunk must be in it. */
  corpus: string | undefined
  /** The split the gate grades on (default holdout). */
  split: 'dev' | 'holdout' | 'all'
  /** The dataset's snapshot manifest (compared with the runs' for the fields it has). */
  manifest: string | undefined
  /** Most gate runs per PR that may grade the holdout (`holdout_looks.max_per_pr`); undefined: no cap. */
  holdoutMaxPerPr?: number
  /** Most gate runs since the release that may grade it (`holdout_looks.max_per_release`), and that release's tag. */
  holdoutMaxPerRelease?: number
  holdoutRelease?: string
}

/** Pooling bias: how deep the pool is (Judged@k, to-judge list, publishability) and the max_unjudged rule. */
export interface PoolingRules {
  depth: number
  maxUnjudged: ShareCap | undefined
}

/** Whole-class failures: queries with no relevant document in the top `depth`, overall and per slice. */
export interface ZeroHitRules extends ShareCap {
  depth: number
}

/** The trust checks (docs/trust.md): the evaluation set, snapshot comparability, pooling bias, whole-class failures. */
export interface TrustRules {
  /** Present when baseline and candidate are runs: the gate computes the measures from these judgments. */
  judgments: Camel<(typeof TRUST_RULES_PROPERTIES)['judgments'], 'no_relevant'> | undefined
  dataset?: DatasetRules
  /** Which snapshot fields must be equal between baseline, candidate (and dataset) manifests. */
  comparability?: Camel<(typeof TRUST_RULES_PROPERTIES)['comparability'], 'may_differ'>
  pooling?: PoolingRules
  maxZeroHitShare?: ZeroHitRules
  /** Two-stage diagnostics: the cutoff and gain of the ranker's nDCG and the pool's ceiling. */
  twoStage?: Camel<(typeof TRUST_RULES_PROPERTIES)['two_stage'], 'k' | 'gain'>
}

/** The trust keys as written in the rules file, typed from their schema (already validated). */
type RawTrustRules = SchemaType<{ type: 'object'; properties: typeof TRUST_RULES_PROPERTIES }>

/**
 * Turns the trust keys into typed rules, refusing what the schema cannot: judgments without qrels and
 * without a dataset, and a cap that names neither a share nor an increase.
 */
export function trustRules(raw: RawTrustRules, fail: Fail): TrustRules {
  if (raw.judgments !== undefined && raw.judgments.qrels === undefined && raw.dataset === undefined) {
    fail(
      ['judgments'],
      'judgments has no qrels file and the rules name no dataset, so there is nothing to score the runs against',
      'add judgments.qrels, or a dataset: { file: ... } whose gold chunks are the judgments'
    )
  }
  if (raw.judgments?.qrels !== undefined && raw.dataset !== undefined) {
    fail(
      ['judgments', 'qrels'],
      'both judgments.qrels and dataset give judgments, and the gate would have to choose',
      "keep one: the dataset's gold chunks and graded relevance are its judgments"
    )
  }
  if (raw.dataset?.holdout_looks !== undefined && raw.dataset.split === 'dev') {
    fail(
      ['dataset', 'holdout_looks'],
      'caps looks at the holdout, but split: dev never grades the holdout, so the cap could never apply',
      'remove holdout_looks, or grade split: holdout (or all)'
    )
  }
  const looks = raw.dataset?.holdout_looks
  // The looks are kept on the release's commit, the one that does not move for what they count (the PR's commits
  // move with a force-push, its base commit with every merge): no cap without it, and never a branch.
  if (looks !== undefined && looks.release === undefined) {
    fail(
      ['dataset', 'holdout_looks'],
      'caps the looks at the holdout, but names no release: the looks are kept on its commit, the one commit that does not move for what they count, so without it they could not be counted',
      'add release: the tag of the last release (release: refs/tags/v1.4, or a full commit sha), e.g. holdout_looks: { max_per_pr: 5, max_per_release: 20, release: v1.4 }'
    )
  }
  if (looks?.release?.startsWith('refs/heads/') === true) {
    fail(
      ['dataset', 'holdout_looks', 'release'],
      'is a branch, whose commit moves with every push, so the looks kept on it would restart',
      'name the release by its tag (refs/tags/v1.4) or a full commit sha'
    )
  }
  const cap = (c: SchemaType<typeof zeroHitCap>, path: Array<string | number>): ShareCap => {
    if (c.share === undefined && c.increase === undefined)
      fail(
        path,
        'names neither share nor increase, so it could never be broken',
        'e.g. { share: 0.2 } or { increase: 0.05 }'
      )
    return { share: c.share, increase: c.increase, outcome: c.outcome ?? 'fail' }
  }
  const dataset: DatasetRules | undefined = raw.dataset && {
    file: raw.dataset.file,
    corpus: raw.dataset.corpus,
    split: raw.dataset.split ?? 'holdout',
    manifest: raw.dataset.manifest,
    holdoutMaxPerPr: raw.dataset.holdout_looks?.max_per_pr,
    holdoutMaxPerRelease: raw.dataset.holdout_looks?.max_per_release,
    holdoutRelease: raw.dataset.holdout_looks?.release
  }
  const comparability =
    raw.comparability &&
    camelCased(TRUST_RULES_PROPERTIES.comparability, raw.comparability, { may_differ: ['embedding'] })
  const pooling: PoolingRules | undefined = raw.pooling && {
    depth: raw.pooling.depth ?? DEFAULT_POOL_DEPTH,
    maxUnjudged: raw.pooling.max_unjudged && cap(raw.pooling.max_unjudged, ['pooling', 'max_unjudged'])
  }
  const z = raw.max_zero_hit_share
  const maxZeroHitShare: ZeroHitRules | undefined = z && {
    ...cap(z, ['max_zero_hit_share']),
    depth: z.depth ?? pooling?.depth ?? DEFAULT_POOL_DEPTH
  }
  const twoStage =
    raw.two_stage &&
    camelCased(TRUST_RULES_PROPERTIES.two_stage, raw.two_stage, { k: DEFAULT_POOL_DEPTH, gain: 'linear' })
  const judgments =
    raw.judgments && camelCased(TRUST_RULES_PROPERTIES.judgments, raw.judgments, { no_relevant: 'exclude' })
  return { judgments, dataset, comparability, pooling, maxZeroHitShare, twoStage }
}

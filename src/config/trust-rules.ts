import type { ComparabilityRules, DatasetRules, PoolingRules, Rules, ShareCap, TwoStageRules, ZeroHitRules } from './types.js'

/** Default depth of the pool (top k of each side) when the rules do not name one. */
export const DEFAULT_POOL_DEPTH = 10

type RawCap = { share?: number; increase?: number; outcome?: 'fail' | 'inconclusive' }

/** The trust keys as written in the rules file (already validated against the schema). */
export interface RawTrustRules {
  judgments?: { qrels?: string }
  dataset?: { file: string; corpus?: string; split?: 'dev' | 'holdout' | 'all'; manifest?: string; holdout_looks?: { max_per_pr?: number; max_per_release?: number; release?: string } }
  comparability?: { must_match: string[]; may_differ?: string[] }
  pooling?: { depth?: number; max_unjudged?: RawCap }
  max_zero_hit_share?: RawCap & { depth?: number }
  two_stage?: { k?: number; gain?: 'linear' | 'exp' }
}

type Fail = (path: Array<string | number>, message: string, hint?: string) => never

/**
 * Turns the trust keys into typed rules, refusing what the schema cannot: judgments without qrels and
 * without a dataset, and a cap that names neither a share nor an increase.
 */
export function trustRules(raw: RawTrustRules, fail: Fail): Pick<Rules, 'dataset' | 'comparability' | 'pooling' | 'maxZeroHitShare' | 'twoStage'> {
  if (raw.judgments !== undefined && raw.judgments.qrels === undefined && raw.dataset === undefined) {
    fail(['judgments'], 'judgments has no qrels file and the rules name no dataset, so there is nothing to score the runs against', 'add judgments.qrels, or a dataset: { file: ... } whose gold chunks are the judgments')
  }
  if (raw.judgments?.qrels !== undefined && raw.dataset !== undefined) {
    fail(['judgments', 'qrels'], 'both judgments.qrels and dataset give judgments, and the gate would have to choose', "keep one: the dataset's gold chunks and graded relevance are its judgments")
  }
  if (raw.dataset?.holdout_looks !== undefined && raw.dataset.split === 'dev') {
    fail(['dataset', 'holdout_looks'], 'caps looks at the holdout, but split: dev never grades the holdout, so the cap could never apply', 'remove holdout_looks, or grade split: holdout (or all)')
  }
  const looks = raw.dataset?.holdout_looks
  if (looks !== undefined && (looks.max_per_release === undefined) !== (looks.release === undefined)) {
    fail(
      ['dataset', 'holdout_looks', looks.release === undefined ? 'max_per_release' : 'release'],
      looks.release === undefined ? 'max_per_release counts looks since a release, but names no release' : 'release names where the looks of a release are kept, but no max_per_release caps them',
      'give both: holdout_looks: { max_per_release: 20, release: v1.4 }'
    )
  }
  const cap = (c: RawCap, path: Array<string | number>): ShareCap => {
    if (c.share === undefined && c.increase === undefined) fail(path, 'names neither share nor increase, so it could never be broken', 'e.g. { share: 0.2 } or { increase: 0.05 }')
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
  const comparability: ComparabilityRules | undefined = raw.comparability && { mustMatch: raw.comparability.must_match, mayDiffer: raw.comparability.may_differ ?? ['embedding'] }
  const pooling: PoolingRules | undefined = raw.pooling && {
    depth: raw.pooling.depth ?? DEFAULT_POOL_DEPTH,
    maxUnjudged: raw.pooling.max_unjudged && cap(raw.pooling.max_unjudged, ['pooling', 'max_unjudged'])
  }
  const z = raw.max_zero_hit_share
  const maxZeroHitShare: ZeroHitRules | undefined = z && { ...cap(z, ['max_zero_hit_share']), depth: z.depth ?? pooling?.depth ?? DEFAULT_POOL_DEPTH }
  const twoStage: TwoStageRules | undefined = raw.two_stage && { k: raw.two_stage.k ?? DEFAULT_POOL_DEPTH, gain: raw.two_stage.gain ?? 'linear' }
  return { dataset, comparability, pooling, maxZeroHitShare, twoStage }
}

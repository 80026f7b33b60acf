import type { PairedTable } from '../align/pair.js'
import type { Rules } from '../config/types.js'
import type { ShareCap } from '../config/trust-rules.js'
import type { DatasetJudgments } from '../readers/dataset/judgments.js'
import { InputError } from '../errors.js'
import type { ParsedMeasure } from '../config/measures.js'
import type { Qrels } from '../model/qrels.js'
import {
  compareManifests,
  describeDifferences,
  type ComparabilityResult,
  type FieldDifference
} from './comparability.js'
import type { SideEvidence } from './evidence.js'
import type { Manifest } from '../readers/manifest.js'
import { analysePooling, type PoolingResult } from './pooling.js'
import { DEFAULT_POOL_DEPTH } from '../config/trust-rules.js'
import { analyseTwoStage, type TwoStageResult } from './two-stage.js'
import { analyseZeroHits, type ZeroHitResult } from './zero-hits.js'

/**
 * The trust checks: can this comparison be believed at all? They run beside the statistics and come first
 * in the verdict: a comparison that is "not comparable" (different corpus, chunker or judge) fails whatever
 * its intervals say. Pure: everything read from files arrives in {@link TrustEvidence}.
 */

/** What the readers gathered for the trust checks (load.ts). */
export interface TrustEvidence {
  /** Present when the sides are runs scored against judgments. */
  runs: {
    qrels: Qrels
    /** The measures computed (condensed values in the evidence follow this order). */
    measures: ParsedMeasure[]
    baseline: SideEvidence
    candidate: SideEvidence
  } | null
  dataset: DatasetJudgments | null
  manifests: { baseline: Manifest | null; candidate: Manifest | null; dataset: Manifest | null }
}

/**
 * The rules key of a trust rule that can decide the verdict (a guard): open, each capability owns its own
 * (`comparability`, `pooling.max_unjudged`, `judge.min_kappa`, ...).
 */
export type TrustRuleName = string

/** Which limit of a share cap a value broke: the absolute share, or the baseline's share plus the increase allowed. */
export type CapBreach = { kind: 'share'; share: number } | { kind: 'increase'; baseline: number; increase: number }

/**
 * Why a guard has its status, as a stable code and the numbers behind it. Open: the capability that returns the
 * guard owns the code and gives its words (`Capability.words`, src/capabilities/contract.ts), so the analysis
 * holds no wording and the core lists no code.
 */
export interface GuardReason {
  readonly code: string
}

/** The reasons of the trust family's guards (their words: src/capabilities/trust/words.ts). */
export type TrustGuardReason =
  | { code: 'comparable'; mustMatch: string[] }
  | { code: 'not_comparable'; mismatches: FieldDifference[] }
  /** Mean unjudged shares of the top `depth`, within the cap. */
  | { code: 'unjudged_within'; depth: number; baseline: number; candidate: number; cap: ShareCap }
  | { code: 'unjudged_above'; depth: number; baseline: number; candidate: number; breach: CapBreach }
  /** No slice breaks the cap; `baseline`/`candidate` are the shares over all queries. */
  | { code: 'zero_hits_within'; depth: number; cap: ShareCap; baseline: number; candidate: number }
  | { code: 'zero_hits_above'; depth: number; breaches: ZeroHitBreach[] }

/** One slice whose share of queries without a relevant document in the top k breaks the cap. */
export interface ZeroHitBreach {
  slice: Array<[string, string]>
  n: number
  baseline: number
  candidate: number
  breach: CapBreach
}

/**
 * A trust rule's outcome, shown before the statistical checks. How it counts toward the verdict (an
 * inconclusive guard resolved by on_inconclusive) is decided in src/decide/, with the checks.
 */
export interface GuardResult<Reason extends GuardReason = GuardReason> {
  rule: TrustRuleName
  status: 'pass' | 'fail' | 'inconclusive'
  reason: Reason
}

/** A guard with its reason in words, given by the capability that owns the code (src/gate.ts adds them). */
export interface WordedGuard extends GuardResult {
  /** RAW: each renderer escapes it for where it goes. */
  words: string
}

/** Unanswerable questions of the gated split, and what each side did with them. */
export interface UnanswerableSide {
  /** Flagged `"abstained": true`. */
  abstained: number
  /** Not flagged, returned nothing. */
  empty: number
  /** Not flagged, returned documents: the system answered a question it should have declined. */
  answered: number
  /** Not in the run at all. */
  absent: number
}

export interface DatasetSummary {
  file: string
  split: string
  gated: number
  disputed: string[]
  unanswerable: { ids: string[]; baseline: UnanswerableSide | null; candidate: UnanswerableSide | null }
  otherSplit: number
}

/**
 * What the publishable judgment reads, filled by the trust family (src/capabilities/trust/); absent ones are null.
 * The report reads none of it: each capability draws its own part (src/capabilities/trust/report.ts).
 */
export interface TrustParts {
  comparability: ComparabilityResult | null
  pooling: PoolingResult | null
  dataset: DatasetSummary | null
}

export interface TrustResult {
  /** The guards in registry order (comparability, pooling, zero hits, judge); src/decide/ counts them. */
  guards: WordedGuard[]
  publishable: { value: boolean; reasons: string[]; unchecked: string[] }
}

const EPS = 1e-12

/** Comparability of the snapshot manifests (rules `comparability`); null when a manifest of either side is absent. */
export function assessComparability(
  rules: Rules,
  manifests: TrustEvidence['manifests']
): { guards: GuardResult<TrustGuardReason>[]; comparability: ComparabilityResult | null } {
  const { baseline: mb, candidate: mc, dataset: md } = manifests
  if (rules.comparability !== undefined && (mb === null || mc === null)) {
    throw new InputError(
      { file: rules.source.file, key: 'comparability' },
      `the rules demand that ${rules.comparability.mustMatch.join(', ')} match, but the ${mb === null ? 'baseline' : 'candidate'} manifest was not given`,
      'pass --baseline-manifest and --candidate-manifest (action inputs baseline-manifest, candidate-manifest)'
    )
  }
  if (mb === null || mc === null) return { guards: [], comparability: null }
  const sides: Array<[string, Manifest]> = [
    ['baseline', mb],
    ['candidate', mc]
  ]
  if (md !== null) sides.push(['dataset', md])
  const comparability = compareManifests(
    sides,
    rules.comparability?.mustMatch ?? [],
    rules.comparability?.mayDiffer ?? ['embedding']
  )
  if (rules.comparability === undefined) return { guards: [], comparability }
  const guard: GuardResult<TrustGuardReason> = {
    rule: 'comparability',
    status: comparability.comparable ? 'pass' : 'fail',
    reason: comparability.comparable
      ? { code: 'comparable', mustMatch: rules.comparability.mustMatch }
      : { code: 'not_comparable', mismatches: comparability.mismatches }
  }
  return { guards: [guard], comparability }
}

/** The rules' pooling depth (the top k the pool, Judged@k and the to-judge list look at). */
export function poolDepth(rules: Rules): number {
  return rules.pooling?.depth ?? DEFAULT_POOL_DEPTH
}

/** Pooling bias (rules `pooling`): null with per-query rows; throws when the rules cap it but the sides are rows. */
export function assessPooling(
  rules: Rules,
  table: PairedTable,
  runs: TrustEvidence['runs']
): { guards: GuardResult<TrustGuardReason>[]; pooling: PoolingResult | null } {
  if (runs === null && rules.pooling?.maxUnjudged !== undefined) refuseRows(rules, 'pooling.max_unjudged')
  const depth = poolDepth(rules)
  const pooling = runs === null ? null : analysePooling(table, runs, depth)
  const cap = rules.pooling?.maxUnjudged
  if (pooling === null || cap === undefined) return { guards: [], pooling }
  const breach = capBreach(cap, pooling.baseline.meanUnjudged, pooling.candidate.meanUnjudged)
  const shares = { depth, baseline: pooling.baseline.meanUnjudged, candidate: pooling.candidate.meanUnjudged }
  const guard: GuardResult<TrustGuardReason> = {
    rule: 'pooling.max_unjudged',
    status: breach === null ? 'pass' : cap.outcome,
    reason:
      breach === null ? { code: 'unjudged_within', ...shares, cap } : { code: 'unjudged_above', ...shares, breach }
  }
  return { guards: [guard], pooling }
}

/** Whole-class failures (rules `max_zero_hit_share`; the table is drawn for every report). */
export function assessZeroHits(
  rules: Rules,
  table: PairedTable,
  runs: TrustEvidence['runs']
): { guards: GuardResult<TrustGuardReason>[]; zeroHits: ZeroHitResult } {
  if (runs === null && rules.maxZeroHitShare !== undefined) refuseRows(rules, 'max_zero_hit_share')
  const zDepth = rules.maxZeroHitShare?.depth ?? poolDepth(rules)
  const gated = [...new Set(rules.checks.map((c) => c.metric))]
  const zeroHits = analyseZeroHits(table, runs && { baseline: runs.baseline, candidate: runs.candidate }, {
    slices: rules.slices,
    metrics: gated,
    depth: zDepth
  })
  const z = rules.maxZeroHitShare
  if (z === undefined) return { guards: [], zeroHits }
  const breaches: ZeroHitBreach[] = []
  for (const s of zeroHits.slices) {
    if (s.baseline === null || s.candidate === null) continue
    const b = capBreach(z, s.baseline, s.candidate)
    if (b !== null) breaches.push({ slice: s.slice, n: s.n, baseline: s.baseline, candidate: s.candidate, breach: b })
  }
  const guard: GuardResult<TrustGuardReason> = {
    rule: 'max_zero_hit_share',
    status: breaches.length === 0 ? 'pass' : z.outcome,
    reason:
      breaches.length === 0
        ? {
            code: 'zero_hits_within',
            depth: zDepth,
            cap: z,
            baseline: zeroHits.slices[0].baseline ?? 0,
            candidate: zeroHits.slices[0].candidate ?? 0
          }
        : { code: 'zero_hits_above', depth: zDepth, breaches }
  }
  return { guards: [guard], zeroHits }
}

/** Two-stage diagnostics, when either run carries first-stage candidates (never a guard). */
export function assessTwoStage(rules: Rules, table: PairedTable, runs: TrustEvidence['runs']): TwoStageResult | null {
  if (runs === null || (runs.baseline.candidates === null && runs.candidate.candidates === null)) return null
  const k = rules.twoStage?.k ?? DEFAULT_POOL_DEPTH
  const gain = rules.twoStage?.gain ?? 'linear'
  return {
    k,
    gain,
    baseline: analyseTwoStage(table.ids, runs.baseline, runs.qrels.queries, { k, gain }),
    candidate: analyseTwoStage(table.ids, runs.candidate, runs.qrels.queries, { k, gain })
  }
}

/** A guard that reads the runs (`key`) asked of per-query rows: refused, never passed for want of evidence. */
function refuseRows(rules: Rules, key: string): never {
  throw new InputError(
    { file: rules.source.file, key },
    'needs runs scored against judgments, but the sides are per-query rows',
    'add judgments (or a dataset) to the rules and pass runs'
  )
}

/** The limit a value breaks (the absolute share first, then the increase over the baseline), or null when within. */
function capBreach(cap: ShareCap, baseline: number, candidate: number): CapBreach | null {
  if (cap.share !== undefined && candidate > cap.share + EPS) return { kind: 'share', share: cap.share }
  if (cap.increase !== undefined && candidate - baseline > cap.increase + EPS)
    return { kind: 'increase', baseline, increase: cap.increase }
  return null
}

export function summariseDataset(d: DatasetJudgments, runs: TrustEvidence['runs']): DatasetSummary {
  const side = (ev: SideEvidence): UnanswerableSide => {
    const s: UnanswerableSide = { abstained: 0, empty: 0, answered: 0, absent: 0 }
    for (const id of d.unanswerable) {
      const q = ev.unjudged.get(id)
      if (q === undefined) s.absent++
      else if (q.abstained) s.abstained++
      else if (q.numRet === 0) s.empty++
      else s.answered++
    }
    return s
  }
  return {
    file: d.qrels.source,
    split: d.split,
    gated: d.gated.length,
    disputed: d.disputed,
    unanswerable: {
      ids: d.unanswerable,
      baseline: runs && side(runs.baseline),
      candidate: runs && side(runs.candidate)
    },
    otherSplit: d.otherSplit
  }
}

/**
 * Publishable = a number someone outside the team may quote. Not when the pooled top k holds documents
 * without a grade (the score depends on what nobody looked at), when disputed questions were left out (the
 * exam was not the agreed one), or when a comparability warning or mismatch stands; and not established
 * when one of these could not be checked.
 */
/** The parts when no capability filled one (per-query rows, none of the trust family in the registry). */
const NO_TRUST_PARTS: TrustParts = { comparability: null, pooling: null, dataset: null }

/**
 * The trust section the reports show: every guard, and whether the result is publishable from the parts the
 * capabilities filled (a later one's part wins). src/gate.ts hands every capability's part here without naming one.
 */
export function trustSection(
  guards: WordedGuard[],
  filled: ReadonlyArray<Partial<TrustParts> | undefined>
): TrustResult {
  const parts: TrustParts = { ...NO_TRUST_PARTS }
  for (const part of filled) Object.assign(parts, part)
  return { guards, publishable: judgePublishable(parts.pooling, parts.dataset, parts.comparability) }
}

function judgePublishable(
  pooling: PoolingResult | null,
  dataset: DatasetSummary | null,
  comparability: ComparabilityResult | null
): TrustResult['publishable'] {
  const reasons: string[] = []
  const unchecked: string[] = []
  if (pooling === null) unchecked.push('judgment completeness (the sides are per-query rows, not runs)')
  else if (pooling.pool.unjudged > 0) {
    reasons.push(
      `${pooling.pool.unjudged} of the ${pooling.pool.documents} pooled top-${pooling.depth} documents (both systems) have no graded judgment, in ${pooling.pool.queriesWithUnjudged} queries`
    )
  }
  if (dataset !== null && dataset.disputed.length > 0) {
    reasons.push(
      `${dataset.disputed.length} disputed ${dataset.disputed.length === 1 ? 'question was' : 'questions were'} excluded from the gated metrics`
    )
  }
  if (comparability === null) unchecked.push('snapshot comparability (no manifests given)')
  else {
    if (!comparability.comparable) reasons.push(`not comparable: ${describeDifferences(comparability.mismatches)}`)
    if (comparability.warnings.length > 0)
      reasons.push(
        `comparability ${comparability.warnings.length === 1 ? 'warning' : 'warnings'}: ${describeDifferences(comparability.warnings)}`
      )
  }
  // A result is publishable only when every condition was checked and held: what could not be checked
  // (per-query rows have no judgments; no manifests were given) is not evidence of completeness.
  return { value: reasons.length === 0 && unchecked.length === 0, reasons, unchecked }
}

/**
 * The gate's result: the decision with the evidence behind it, what decide hands to the report. It sits in
 * decide/ (not in gate.ts, and not in model/) so that report/ reads the shape without importing the pipeline
 * runner, and every type it gathers comes from a room below it: it imports only types, and only downward.
 */
import type { Coverage, PairedTable } from '../align/pair.js'
import type { Rules } from '../config/types.js'
import type { Decision } from './evaluate.js'
import type { Comparison } from '../stats/compare.js'
import type { TrustResult } from '../trust/trust.js'
import type { JudgeResult } from '../stats/judge.js'
import type { Provenance } from '../model/provenance.js'
import type { HoldoutAccount } from './holdout.js'
import type { HistoryInput } from '../model/history.js'
import type { SeedsSummary } from '../stats/seeds.js'

/** How many regressed queries the report lists (the regression set file holds all of them). */
export const TOP_REGRESSIONS = 10

/** A query that got worse on the primary metric, with both values and its attributes. */
export interface RegressedQuery {
  id: string
  baseline: number
  candidate: number
  delta: number
  attrs: Array<[string, string]>
}

/** Everything the gate found, ready for any report format: a pure function of rules and inputs. */
export interface GateResult {
  rules: Rules
  inputs: { baseline: string; candidate: string }
  coverage: Coverage
  decision: Decision
  /** Every metric over all queries, then every metric for every value of every `slices` attribute. */
  comparisons: Comparison[]
  /** The metric of the first check: the one the regression list and pictures are about. */
  primaryMetric: string
  /** All queries that got worse on the primary metric, worst first (ties by id). */
  regressions: RegressedQuery[]
  /** Per-query differences of the primary metric, in the table's order (for histograms). */
  primaryDifferences: Float64Array
  /** The paired per-query values and attributes (for the regression set file). */
  table: PairedTable
  /** Where the rules and the baseline came from (set by the action after runGate; the CLI leaves it out). */
  provenance?: Provenance
  /**
   * Whether the two sides can be compared (corpus snapshot, judge, unjudged share, ...), one entry per aspect,
   * filled by comparability checks when they run; the report's comparability section lists every entry.
   */
  comparability?: Array<{ aspect: string; status: 'same' | 'differs' | 'unknown'; detail: string }>
  /**
   * The trust checks (docs/trust.md): dataset summary, snapshot comparability, pooling bias, whole-class
   * failures, two-stage diagnostics, publishable. A trust rule that counts as fail fails the verdict first
   * (`decision.decidedBy` is then that guard; `decision.guards` says how each guard counts).
   */
  trust?: TrustResult
  /**
   * The reference the checks' budgets were spent against (rules `reference`), when one was read: its label,
   * the rows file as read, its row count, and what its snapshot check found (null: no comparability rules).
   * Each budgeted unit's figures are its `budget` (decision.checks[].units[].budget).
   */
  reference?: { label: string; file: string; rows: number; snapshot: string | null }
  /** The judge against its human anchors and its diagnostics (rules `judge`); its guards are among the trust guards. */
  judge?: JudgeResult | null
  /** How often the holdout has been graded (this run, this PR, in total); undefined without an evaluation set. */
  holdout?: HoldoutAccount
  /** The gated metrics over the last gate runs on the default branch (set by the action when the rules ask for history). */
  history?: HistoryInput
  /** Seed replicates (several files per side, or statistics.min_seeds): the files, the spread between seeds per metric (src/stats/seeds.ts). */
  seeds?: SeedsSummary
}

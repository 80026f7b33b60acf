import type { JudgeRules } from './judge-rules.js'
import type { TrustRules } from './trust-rules.js'
import type { ReferenceRules } from './reference-rules.js'
import type { Margin } from './amount.js'

/** The rules file read once into a typed object; every later stage takes this, never the raw text. */

export type Direction = 'higher' | 'lower'

export interface MetricRule {
  name: string
  better: Direction
  binary: boolean
  /** Allowed values [min, max], or undefined when any finite number is allowed. */
  range: [number, number] | undefined
  /**
   * The values it is known to take: `range` when declared, else a ranking measure's own [0, 1] when the rules
   * score runs (src/config/measures.ts measureRange); undefined when unknown. Margins and thresholds are judged
   * against it, and the report shows the changes of a metric bounded within a width of 1 in points
   * (src/report/words.ts inPoints). Set by the rules loader; undefined elsewhere means `range`.
   */
  bounds?: [number, number]
  unit: string
  /** Value given to a missing query when `queries.missing` is "zero". */
  fill: number | undefined
}

/**
 * How a superior check decides: the bootstrap interval against its margin, or a test of "no difference" at alpha
 * with the change in the better direction (exact McNemar for binary metrics, the paired t-test, the paired
 * randomization (sign-flip) test).
 */
export type SuperiorTest = 'bootstrap' | 'mcnemar' | 't' | 'randomization'

export type CheckKind =
  | { type: 'non_inferior'; margin: Margin }
  | { type: 'superior'; test: SuperiorTest; alpha: number; margin: Margin }
  | { type: 'max_regressions'; count: number | undefined; share: number | undefined; threshold: number }
  /**
   * An absolute level: the candidate's mean at least `value` (`at_least`, a better-higher metric) or at most
   * `value` (`at_most`, a better-lower one), judged on the interval of that mean (src/decide/floor.ts).
   */
  | { type: 'level'; bound: 'at_least' | 'at_most'; value: number }

export interface CheckRule {
  /** Position in the rules file (0-based); checks are evaluated and reported in this order. */
  index: number
  name: string
  metric: string
  /** Attribute filters, sorted by attribute name. */
  where: Array<[string, string]>
  perSlice: string | undefined
  kind: CheckKind
  /** Cumulative drop allowed since the rules' reference (src/config/reference-rules.ts), or undefined. */
  budget?: Margin
  /** 1-based line of the check in the rules file, when known (for annotations). */
  line: number | undefined
}

export interface StatisticsRules {
  confidence: number
  resamples: number
  seed: string
  /**
   * Interval method: auto (default: chosen per comparison by metric type and design, src/stats/interval-choice.ts),
   * or the percentile / bias-corrected and accelerated bootstrap everywhere.
   */
  interval: 'auto' | 'percentile' | 'bca'
  /**
   * How the bootstrap draws its resamples (src/stats/resampling.ts): `multinomial` (draw the units with
   * replacement), `poisson` (independent Poisson(1) weights per unit, a pure function of seed, unit and resample,
   * so a warehouse can compute them where the rows are), or `auto` (default: multinomial below
   * POISSON_FROM_UNITS units, Poisson above for the columns that are not drawn by counts). Optional so that a
   * hand-built StatisticsRules (tests, simulations) keeps today's meaning: absent is `auto`.
   */
  method?: 'auto' | 'multinomial' | 'poisson'
  /** Sign flips of the paired randomization test (default: resamples). */
  permutations: number
  /** Attribute whose values are clusters resampled whole (users, conversations), or undefined. */
  cluster: string | undefined
  /** With clusters: every query counts once (query, default) or every cluster counts once (cluster). */
  clusterWeighting: 'query' | 'cluster'
  /** Target-population weights: the estimate is Σ weight · mean per value of `by`, sorted by value. */
  weights: { by: string; target: Array<[string, number]> } | undefined
  /** Adjustment over the family of statistical check units. */
  multiplicity: 'none' | 'holm' | 'bonferroni'
  /** Fewest seed files (independently trained seeds) each side must give; with fewer every check is inconclusive (`too_few_seeds`). */
  minSeeds?: number
  /**
   * Seed replicates declared by the rules (statistics.seeds): the seed files each side gives, exactly. Absent: one
   * file per side. The number of files an answer brings never chooses the design (src/stats/law.ts).
   */
  seeds?: { baseline: number; candidate: number }
}

/** The rules; the trust checks' keys are src/config/trust-rules.ts's {@link TrustRules}. */
export interface Rules extends TrustRules {
  version: 1
  metrics: Map<string, MetricRule>
  slices: string[]
  statistics: StatisticsRules
  /** `file`: the queries file (its text and attributes are the exam's; src/capabilities/queries/capability.ts). */
  queries: { missing: 'error' | 'zero'; minPerSlice: number; file?: string }
  /** How an inconclusive unit counts when the data do not show it (see decide/counts.ts). */
  onInconclusive: 'fail' | 'pass'
  /** How a unit with fewer than min_per_slice queries counts (`on_too_few`; defaults to on_inconclusive). */
  onTooFew: 'fail' | 'pass'
  checks: CheckRule[]
  source: { file: string; sha256: string }
  /**
   * The values of the keys capabilities add to the schema (`Capability.rules`), as written and validated, by key;
   * a capability's `config` reads its own from here.
   */
  extra: ReadonlyMap<string, unknown>
  /** The LLM judge checked against human anchors, and its diagnostics (docs/trust.md, "Judge anchors"). */
  judge?: JudgeRules
  /** The last release's rows the checks' budgets are spent against (src/config/reference-rules.ts). */
  reference?: ReferenceRules
}

/**
 * The gate's result: the decision with the evidence behind it, what decide hands to the report. It sits in
 * decide/ (not in gate.ts, and not in model/) so that report/ reads the shape without importing the pipeline
 * runner, and every type it gathers comes from a room below it: it imports only types, and only downward.
 */
import { rowOfId } from '../align/row-of-id.js'
import type { Block, Inline } from '../model/document.js'
import type { Coverage, PairedTable } from '../align/pair.js'
import type { MetricRule, Rules } from '../config/types.js'
import type { Decision } from './evaluate.js'
import type { Comparison } from '../stats/compare.js'
import type { TrustResult } from '../trust/trust.js'
import type { PoolingResult } from '../trust/pooling.js'
import type { Provenance } from '../model/provenance.js'
import type { FormatChoice } from '../model/format.js'
import type { GuardResult } from '../trust/trust.js'
import type { CheckResult, UnitResult } from './types.js'

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
  /** The files compared and, when they were read from files, the format each was read as (src/readers/read.ts). */
  inputs: {
    baseline: string
    candidate: string
    formats?: { baseline: FormatChoice | null; candidate: FormatChoice | null }
  }
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
   * The trust checks (docs/trust.md): dataset summary, snapshot comparability, pooling bias, whole-class
   * failures, two-stage diagnostics, publishable, assembled from the trust capabilities. A trust rule that counts
   * as fail fails the verdict first (`decision.decidedBy` is then that guard; `decision.guards` says how each
   * guard counts).
   */
  trust?: TrustResult
  /**
   * Every capability the rules switched on (src/capabilities/registry.ts), in registry order: its guards, its
   * summary and its report parts. The renderers place the parts in fixed slots; nothing else in the result is
   * per capability.
   */
  capabilities: CapabilityOutcome[]
}

/** The output files written beside a report, as the caller names them; an absent field: not written. */
export interface WrittenFiles {
  /** The regression set (the CLI's `--regressions FILE`; the action's report-dir/regressions.jsonl). */
  regressions?: string
  /** The to-judge list (the CLI's `--to-judge FILE`; the action's report-dir/to-judge.jsonl). */
  toJudge?: string
}

/** Where in the report a capability's blocks go (src/report/markdown.ts and text.ts place the slots). */
export type ReportSlot =
  /** Under the verdict, after provenance (the holdout's looks). */
  | 'head'
  /** Under the gated checks table, beside the statistics sentences (seeds). */
  | 'underChecks'
  /** After the other findings, before the pictures: a `### ` section of its own (the regression budget). */
  | 'afterFindings'
  /** After the pictures (history). */
  | 'afterPictures'
  /** Lines at the top of the collapsible Trust section (the judge). */
  | 'trustDetails'
  /** In the Trust section under the trust rules' table: what the exam was (the evaluation set). */
  | 'trustExam'
  /** Then each trust check's evidence (pooling bias, whole-class failures, two-stage diagnostics). */
  | 'trustChecks'

/** What a renderer passes to a capability's parts. */
export interface RenderContext {
  result: GateResult
  files?: WrittenFiles
  /** The JSON report's number rule: non-finite becomes null. */
  num: (x: number) => number | null
}

/**
 * A capability's report parts: blocks (src/model/document.ts) that the Markdown, HTML and terminal renderers
 * escape, each its own way. Every part is optional: without it, nothing is there.
 */
export interface RenderParts {
  /** Its blocks for a slot (src/model/document.ts): the Markdown report, the HTML page and the terminal draw them alike. */
  blocks?: Partial<Record<ReportSlot, (ctx: RenderContext) => Block[]>>
  /**
   * Collapsed sections of its own after Trust (seeds): a title (plain words, HTML-safe) and a body of blocks.
   * Markdown wraps each in `<details>`, the HTML page in its own collapsed section.
   */
  sections?: (ctx: RenderContext) => Array<{ id: string; title: string; body: Block[] }>
  /**
   * Rows of the Method table it states (setting, value), each replacing the core's row of that setting (seeds: how
   * many training runs the intervals cover). Values are Markdown, already escaped.
   */
  methodRows?: (ctx: RenderContext) => Array<[string, string]>
  /** Its top-level key in the JSON report and the value (null: no key). */
  json?: (ctx: RenderContext) => [string, unknown] | null
  /** Its key in the JSON report's `trust` object and the value, after the guards (the trust family's). */
  trustJson?: (ctx: RenderContext) => [string, unknown]
  /** Its rows of the comparability table (manifest fields compared, judged shares), RAW. */
  comparability?: () => ComparabilityEntry[]
  /** The pooled top-k documents without a grade: the to-judge list and the sentence that names it. */
  toJudge?: () => Pick<PoolingResult, 'depth' | 'pool' | 'toJudge'>
  /** Extra keys of one unit in the JSON report (the budget, the holdout looks). */
  unitJson?: (unit: UnitResult, check: CheckResult, ctx: RenderContext) => Array<[string, unknown]>
  /**
   * The sentence for a unit whose reason is one of its own codes (RAW), else undefined: the one sentence the verdict,
   * the annotations and every report give the unit (src/report/words.ts explainUnit asks each capability first).
   */
  unitWords?: (unit: UnitResult, said: UnitSaid) => string | undefined
  /** What it adds to a unit's "Needs" cell (the budget: "; ≤ 1.0 points since v1.4 (0.2 used)"). */
  unitNeeds?: (unit: UnitResult, metric: MetricRule) => Inline
  /**
   * Queries no per-query output may show (the holdout): the index into the paired table -> true when withheld.
   * Every renderer that lists queries one by one (Markdown, text, regressions.jsonl, to-judge, HTML) asks.
   */
  withheld?: (i: number) => boolean
  /** What a per-query output may show beside the query at index `i` (its text; both runs' top documents). */
  queryDetails?: (i: number) => QueryDetails | undefined
}

/** A row of the comparability table: an aspect of both sides, whether it is the same, and how (RAW). */
export interface ComparabilityEntry {
  aspect: string
  status: 'same' | 'differs' | 'unknown'
  detail: string
}

/** What a capability's unit sentence may build on (RAW): the check, the metric, and the core's opening words. */
export interface UnitSaid {
  check: CheckResult
  metric: MetricRule
  /** `recall@10 for segment = new` */
  name: string
  /** "recall@10 for segment = new fell by 9.8 points (95% interval -17.8 to -8.7 points, 40 queries)" */
  head: string
}

/** Beside a query in per-query outputs. */
export interface QueryDetails {
  text?: string
  top?: { baseline: string[]; candidate: string[] }
  /** The judgments' grade of each of `top`'s documents, in the same order (null: not judged). */
  grades?: { baseline: Array<number | null>; candidate: Array<number | null> }
}

/** Every capability's details of the query at index `i` of the paired table, merged (empty when none gives any). */
export function queryDetails(result: Pick<GateResult, 'capabilities'>, i: number): QueryDetails {
  const out: QueryDetails = {}
  for (const c of result.capabilities) Object.assign(out, c.parts.queryDetails?.(i) ?? {})
  return out
}

/** A capability after assessment, as the result carries it. */
export interface CapabilityOutcome {
  name: string
  guards: GuardResult[]
  /** Its summary (typed by the capability; read it with summaryOf in src/capabilities/registry.ts). */
  summary: unknown
  parts: RenderParts
}

/**
 * A test by query id for the queries some capability withholds from per-query outputs (null when none does), for
 * writers that hold ids rather than table indexes.
 */
export function withheldIds(result: Pick<GateResult, 'capabilities' | 'table'>): ((id: string) => boolean) | null {
  if (!result.capabilities.some((c) => c.parts.withheld !== undefined)) return null
  return (id) => {
    const i = rowOfId(result.table, id)
    return i >= 0 && isWithheld(result, i)
  }
}

/** True when some capability withholds the query at index `i` of the paired table from per-query outputs. */
export function isWithheld(result: Pick<GateResult, 'capabilities'>, i: number): boolean {
  for (const c of result.capabilities) if (c.parts.withheld?.(i) === true) return true
  return false
}

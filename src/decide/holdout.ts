import type { PairedTable } from '../align/pair.js'
import type { Rules } from '../config/types.js'
import type { StatsEngine } from '../stats/compare.js'
import { unitCounts } from './counts.js'
import { decideVerdict } from './decided-by.js'
import type { Decision } from './evaluate.js'
import type { CheckResult, UnitResult } from './types.js'

/**
 * Holdout accounting: an evaluation set graded again and again stops measuring generalisation, so every gate
 * run that grades the holdout is counted (per PR, and in total over the gate's history) and a rule may cap the
 * looks per PR. The counts come from outside (the sticky comment's metadata, the history reports); this file
 * only adds this run and applies the cap, so the core stays pure.
 */

/** Looks counted before this run, as the caller found them. */
export interface PriorLooks {
  /** Gate runs of this PR that graded the holdout before this one (from the sticky comment); null: not a pull request. */
  thisPr: number | null
  /** Looks recorded by the past gate runs read as history (their reports' `holdout.looks.this_run` summed); undefined: history is off. */
  history?: { looks: number; reports: number }
}

/** What the report says about the holdout: whether this run graded it and how often it has been looked at. */
export interface HoldoutAccount {
  /** The split the rules grade (dataset.split). */
  split: 'dev' | 'holdout' | 'all'
  /** Paired queries of the holdout in this run (0: the holdout was not graded). */
  queries: number
  /** 1 when this run graded the holdout, else 0. */
  thisRun: 0 | 1
  /** Looks in this pull request, this run included; null outside a pull request. */
  thisPr: number | null
  /** Looks in the history read plus this PR's (or this run's); null when history is off. */
  total: number | null
  /** How many history reports the total sums (null when history is off). */
  historyReports: number | null
  /** The cap (dataset.holdout_looks.max_per_pr), or null. */
  maxPerPr: number | null
  /** This PR has looked more often than the cap allows: the units on holdout queries are inconclusive. */
  exceeded: boolean
}

/** Indices (into the table) of the holdout's queries: all of them when the rules grade the holdout, the `split` = holdout ones under `all`. */
function holdoutMask(rules: Rules, table: PairedTable): Uint8Array {
  const n = table.ids.length
  const mask = new Uint8Array(n)
  const split = rules.dataset?.split
  if (split === 'holdout') mask.fill(1)
  else if (split === 'all') {
    const column = table.attrs.get('split')
    if (column) for (let i = 0; i < n; i++) mask[i] = column[i] === 'holdout' ? 1 : 0
  }
  return mask
}

/**
 * Counts this run's look at the holdout (when it grades any holdout query) on top of `prior`. Undefined when
 * the rules name no evaluation set: without splits there is no holdout to account for.
 */
export function countHoldoutLooks(rules: Rules, table: PairedTable, prior: PriorLooks): HoldoutAccount | undefined {
  if (!rules.dataset) return undefined
  const mask = holdoutMask(rules, table)
  let queries = 0
  for (const m of mask) queries += m
  const thisRun: 0 | 1 = queries > 0 ? 1 : 0
  const thisPr = prior.thisPr === null ? null : prior.thisPr + thisRun
  const maxPerPr = rules.dataset.holdoutMaxPerPr ?? null
  return {
    split: rules.dataset.split,
    queries,
    thisRun,
    thisPr,
    total: prior.history === undefined ? null : prior.history.looks + (thisPr ?? thisRun),
    historyReports: prior.history === undefined ? null : prior.history.reports,
    maxPerPr,
    exceeded: thisRun === 1 && maxPerPr !== null && thisPr !== null && thisPr > maxPerPr
  }
}

/** Whether the query at index `i` is of the holdout (for reports that show per-query details of the dev split only). */
export function holdoutQueries(rules: Rules, table: PairedTable): (i: number) => boolean {
  const mask = holdoutMask(rules, table)
  return (i) => mask[i] === 1
}

/**
 * Beyond the cap, the checks on holdout queries are inconclusive: a unit that passed, or was inconclusive, on
 * queries that include the holdout becomes inconclusive with reason `holdout_looks_exceeded` (how it counts:
 * on_inconclusive, or fail for a superior check, as for any inconclusive unit). A unit that failed stays failed:
 * looking too often makes a pass untrustworthy (the change may be fitted to the holdout), not a shown loss.
 * The verdict and what decided it are decided again from the new statuses.
 */
export function capHoldoutLooks(rules: Rules, table: PairedTable, stats: StatsEngine, decision: Decision, account: HoldoutAccount | undefined): Decision {
  if (!account?.exceeded || account.thisPr === null || account.maxPerPr === null) return decision
  const mask = holdoutMask(rules, table)
  const looks = { thisPr: account.thisPr, maxPerPr: account.maxPerPr }
  // A unit's slice is its query set's filters (the check's where, plus its per_slice value).
  const touchesHoldout = (unit: UnitResult): boolean => {
    for (const i of stats.members(unit.slice)) if (mask[i] === 1) return true
    return false
  }
  const checks = decision.checks.map((check): CheckResult => {
    const units = check.units.map((u): UnitResult => (u.status !== 'fail' && touchesHoldout(u) ? { ...u, status: 'inconclusive', reason: 'holdout_looks_exceeded', holdoutLooks: looks } : u))
    if (units.every((u, i) => u === check.units[i])) return check
    const status = units.some((u) => u.status === 'fail') ? 'fail' : units.some((u) => u.status === 'inconclusive') ? 'inconclusive' : 'pass'
    const counts = units.some((u) => unitCounts(u, check.rule, rules) === 'fail') ? 'fail' : 'pass'
    return { ...check, status, counts, units }
  })
  const { verdict, decidedBy, guards } = decideVerdict(rules, decision.guards, checks)
  return { ...decision, verdict, decidedBy, checks, guards }
}

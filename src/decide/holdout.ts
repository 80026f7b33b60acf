import type { PairedTable } from '../align/pair.js'
import type { Rules } from '../config/types.js'
import type { StatsEngine } from '../stats/compare.js'
import type { UnitResult } from './types.js'

/**
 * Holdout accounting: an evaluation set graded again and again stops measuring generalisation, so every gate
 * run that grades the holdout is counted (per PR, and in total over the gate's history) and a rule may cap the
 * looks per PR. The counts come from outside (the sticky comment's metadata, the history reports); this file
 * only adds this run and applies the cap, so the core stays pure.
 */

/** Looks counted before this run, as the caller found them. */
export interface PriorLooks {
  /** Gate runs of this PR that graded the holdout before this one (from the look ledger); null: not counted. */
  thisPr: number | null
  /**
   * A pull request whose rules name no release (dataset.holdout_looks.release): no ledger counts its looks, since
   * nothing that does not move could keep them; only this run's look is known.
   */
  unledgered?: boolean
  /** Looks since the release (dataset.holdout_looks.release) before this one; absent without a release. */
  release?: number
  /** Looks recorded by the past gate runs read as history (their reports' `holdout.looks.this_run` summed); undefined: history is off. */
  history?: { looks: number; reports: number }
  /**
   * Why the looks so far could not be counted (the record was unreadable, or this run's look could not be
   * recorded where a pull request cannot erase it); absent when counted. A count that is unknown is never taken
   * as 0: every unit on holdout queries is then inconclusive (fail closed).
   */
  unknown?: string
}

/** What the report says about the holdout: whether this run graded it and how often it has been looked at. */
export interface HoldoutAccount {
  /** The split the rules grade (dataset.split). */
  split: 'dev' | 'holdout' | 'all'
  /** Paired queries of the holdout in this run (0: the holdout was not graded). */
  queries: number
  /** 1 when this run graded the holdout, else 0. */
  thisRun: 0 | 1
  /** Looks in this pull request, this run included; null outside a pull request or without a ledger. */
  thisPr: number | null
  /** A pull request without a look ledger (no release named): its earlier looks are not counted. */
  unledgered: boolean
  /** Looks in the history read plus this PR's (or this run's); null when history is off. */
  total: number | null
  /** How many history reports the total sums (null when history is off). */
  historyReports: number | null
  /** The cap (dataset.holdout_looks.max_per_pr), or null. */
  maxPerPr: number | null
  /** Looks since the release, this run included, and its cap; both null without a release. */
  thisRelease: number | null
  maxPerRelease: number | null
  /** This PR has looked more often than the cap allows: the units on holdout queries are inconclusive. */
  exceeded: boolean
  /** Why the looks could not be counted (then, too, the units on holdout queries are inconclusive); null when counted. */
  unknown: string | null
}

/** Indices (into the table) of the holdout's queries: all of them when the rules grade the holdout, the `split` = holdout ones under `all`. */
export function holdoutMask(rules: Rules, table: PairedTable): Uint8Array {
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
  const maxPerRelease = rules.dataset.holdoutMaxPerRelease ?? null
  const thisRelease = prior.release === undefined ? null : prior.release + thisRun
  const overPr = maxPerPr !== null && thisPr !== null && thisPr > maxPerPr
  const overRelease = maxPerRelease !== null && thisRelease !== null && thisRelease > maxPerRelease
  return {
    split: rules.dataset.split,
    queries,
    thisRun,
    thisPr,
    unledgered: prior.unledgered === true,
    total: prior.history === undefined ? null : prior.history.looks + (thisPr ?? thisRun),
    historyReports: prior.history === undefined ? null : prior.history.reports,
    maxPerPr,
    thisRelease,
    maxPerRelease,
    exceeded: thisRun === 1 && (overPr || overRelease),
    unknown: thisRun === 1 && prior.unknown !== undefined ? prior.unknown : null
  }
}

/** The looks a capped unit carries (its mark `holdout`): this PR's, or the release's, against the cap in force. */
export interface UnitLooks {
  thisPr: number
  maxPerPr: number
  release?: true
}

/** The looks on a unit the holdout capped for them, if any. */
export function unitLooks(unit: UnitResult): UnitLooks | undefined {
  return unit.marks?.holdout as UnitLooks | undefined
}

/**
 * Beyond the cap (or when the looks could not be counted), a unit on queries that include the holdout becomes
 * inconclusive: a unit that passed, or was inconclusive, takes reason `holdout_looks_exceeded` (or
 * `holdout_looks_unknown`); how it counts is on_inconclusive, or fail for a superior check, as for any
 * inconclusive unit. A unit that failed stays failed: looking too often makes a pass untrustworthy (the change
 * may be fitted to the holdout), not a shown loss. The caller decides every check and the verdict again.
 */
export function capHoldoutUnit(
  unit: UnitResult,
  account: HoldoutAccount,
  mask: Uint8Array,
  stats: StatsEngine
): UnitResult {
  if (unit.status === 'fail') return unit
  if (!account.exceeded && account.unknown === null) return unit
  if (!stats.members(unit.slice).some((i) => mask[i] === 1)) return unit
  // more queries settle nothing here: no interval is too wide
  const capped = { ...unit, status: 'inconclusive' as const, settledByQueries: false as const }
  if (account.unknown !== null) return { ...capped, reason: 'holdout_looks_unknown' }
  const release =
    account.maxPerRelease !== null && account.thisRelease !== null && account.thisRelease > account.maxPerRelease
  const looks = release
    ? { thisPr: account.thisRelease as number, maxPerPr: account.maxPerRelease as number, release: true as const }
    : { thisPr: account.thisPr as number, maxPerPr: account.maxPerPr as number }
  return { ...capped, reason: 'holdout_looks_exceeded', marks: { ...unit.marks, holdout: looks } }
}

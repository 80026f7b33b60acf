import type { GateResult } from '../decide/result.js'
import type { HoldoutAccount } from '../decide/holdout.js'
import { withheldIds, type RegressedQuery } from '../decide/result.js'

/**
 * What the reports say about the holdout (src/decide/holdout.ts): how often it has been looked at, and which
 * per-query details a report may show. An exam whose questions a PR author can read query by query becomes
 * development data, so the Markdown report (PR comment, job summary) lists regressed queries of the dev split
 * only and gives the holdout as aggregates.
 */

const times = (n: number): string => (n === 1 ? 'once' : `${n} times`)

/** The report's sentence about the holdout (RAW: numbers and fixed words, and the ledger's reason when unknown). */
export function holdoutSentence(h: HoldoutAccount): string {
  if (h.unknown !== null) {
    return `Holdout: ${h.thisRun === 1 ? `graded by this run (${h.queries} ${h.queries === 1 ? 'query' : 'queries'})` : `not graded by this run (split ${h.split})`}, but the looks so far could not be counted (${h.unknown}), so the checks on holdout queries are inconclusive. Per-query details are shown for the dev split only; the holdout is reported in aggregates.`
  }
  if (h.thisRun === 0) {
    const pr = h.thisPr !== null && h.thisPr > 0 ? ` It has been looked at ${times(h.thisPr)} in this PR.` : ''
    return `Holdout: not graded by this run (split ${h.split}).${pr}`
  }
  const cap = h.maxPerPr === null ? '' : ` (dataset.holdout_looks.max_per_pr allows ${h.maxPerPr})`
  const pr =
    h.thisPr === null
      ? h.unledgered
        ? 'once by this run (its earlier looks in this PR are not counted: no dataset.holdout_looks.release names the commit a look ledger is kept on)'
        : 'once by this run (outside a pull request; in one, every look is counted in the look ledger)'
      : `${times(h.thisPr)} in this PR, this run included${cap}`
  const release =
    h.thisRelease === null
      ? ''
      : `, ${times(h.thisRelease)} since the release${h.maxPerRelease === null ? '' : ` (dataset.holdout_looks.max_per_release allows ${h.maxPerRelease})`}`
  const total =
    h.total === null
      ? ''
      : `, ${times(h.total)} in total over the ${h.historyReports} gate runs on the default branch read as history and ${h.thisPr === null ? 'this run' : 'this PR'}`
  const over = h.exceeded ? ' That is more than allowed: the checks on holdout queries are inconclusive.' : ''
  return `Holdout: graded by this run (${h.queries} ${h.queries === 1 ? 'query' : 'queries'}); looked at ${pr}${release}${total}.${over} Per-query details are shown for the dev split only; the holdout is reported in aggregates.`
}

/**
 * The regressed queries a report may list one by one (those no capability withholds: the dev split's), and how
 * many were withheld from the list (0 when the holdout is not graded).
 */
export function listableRegressions(result: GateResult): { shown: RegressedQuery[]; withheld: number } {
  const isHeld = withheldIds(result)
  if (isHeld === null) return { shown: result.regressions, withheld: 0 }
  const shown = result.regressions.filter((r) => !isHeld(r.id))
  return { shown, withheld: result.regressions.length - shown.length }
}

/** The sentence under a list of regressed queries that left holdout queries out (RAW). */
export function withheldSentence(withheld: number): string {
  return `${withheld} holdout ${withheld === 1 ? 'query' : 'queries'} that got worse ${withheld === 1 ? 'is' : 'are'} not listed: the holdout is reported in aggregates only.`
}

/** The JSON report's `holdout` object (docs/report.md): additive, present only with an evaluation set. */
export function holdoutJson(h: HoldoutAccount): Record<string, unknown> {
  return {
    split: h.split,
    graded: h.thisRun === 1,
    queries: h.queries,
    looks: { this_run: h.thisRun, this_pr: h.thisPr, total: h.total, history_reports: h.historyReports },
    max_per_pr: h.maxPerPr,
    // the looks since the release, whenever one is named (its ledger is where every look is kept)
    ...(h.maxPerRelease === null && h.thisRelease === null
      ? {}
      : { this_release: h.thisRelease, max_per_release: h.maxPerRelease }),
    exceeded: h.exceeded,
    ...(h.unknown === null ? {} : { unknown: h.unknown })
  }
}

import type { GateResult } from '../../decide/result.js'
import { budgetSection } from '../budget.js'
import { holdoutSentence } from '../holdout.js'
import { historySection } from '../history.js'
import { judgeBody } from '../judge.js'
import { comparabilityBody } from '../sections.js'
import { seedSentences, seedsBody } from '../seeds.js'
import { esc } from './escape.js'
import { markdownToHtml } from './markdown-subset.js'

/**
 * THE HOOK for the parts of the page that belong to capabilities (holdout accounting, regression budget, seed
 * replicates, judge anchors, history, the comparability entries): the one place in html/ that reads a
 * per-feature field of GateResult. Today every part is the Markdown report's own text for it (budget.ts,
 * seeds.ts, judge.ts, history.ts, holdout.ts, sections.ts `comparabilityBody`) turned into HTML by
 * markdown-subset.ts, so the page says what the PR comment says, from the same code. When the capability
 * registry lands, point each field at its capability's renderer (or loop over the registry's HTML parts); the
 * rest of the page only places the fragments. Every fragment is HTML, already escaped; '' when absent.
 */
export interface CapabilityParts {
  /** Under the verdict: the holdout's looks. */
  head: string
  /** Under the checks table: how the intervals treat seed replicates, and gains within the seed spread. */
  underChecks: string
  /** A section after the checks: the regression budget since the reference. */
  budget: string
  /** A section after the pictures: the gated metrics over past runs. */
  history: string
  /** The comparability section's body (query set, attributes, every comparability entry). */
  comparability: string
  /** The start of the trust section: the judge against its human anchors. */
  judge: string
  /** A collapsed section: the spread between seeds. */
  seeds: string
}

/** The capability parts of `result`'s page. */
export function capabilityParts(result: GateResult): CapabilityParts {
  const holdout = holdoutSentence(result)
  const seeds = seedSentences(result)
  return {
    head: holdout === null ? '' : `<p>${esc(holdout, 800)}</p>`,
    underChecks: seeds.map((s) => `<p class="note">${esc(s, 600)}</p>`).join('\n'),
    budget: markdownToHtml(budgetSection(result), 2),
    history: markdownToHtml(historySection(result), 2),
    comparability: markdownToHtml(comparabilityBody(result)),
    judge: markdownToHtml(judgeBody(result.judge)),
    seeds: result.seeds ? markdownToHtml(seedsBody(result.seeds, result)) : ''
  }
}

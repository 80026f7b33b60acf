import { rowOfId } from '../../align/row-of-id.js'
import { queryDetails, type GateResult } from '../../decide/result.js'
import { capabilitySections, slotBlocks } from '../slots.js'
import { comparabilityBody } from '../sections.js'
import type { WrittenFiles } from '../files.js'
import { toHtml } from '../doc/html.js'
import type { QueryDetails, RankedDoc } from './regressed-table.js'

/**
 * The parts of the page that belong to capabilities (holdout accounting, regression budget, seed replicates,
 * judge anchors, history): each capability's report blocks (src/capabilities/, through report/slots.ts) drawn
 * by doc/html.ts, so the page says what the PR comment says, from the same blocks, and
 * html/ names no capability. Every fragment is HTML, already escaped; '' when absent.
 */
export interface CapabilityParts {
  /** Under the verdict: the holdout's looks. */
  head: string
  /** Under the checks table: how the intervals treat seed replicates, and gains within the seed spread. */
  underChecks: string
  /** Sections after the checks (the regression budget since the reference). */
  budget: string
  /** Sections after the pictures (the gated metrics over past runs). */
  history: string
  /** The comparability section's body (query set, attributes, every comparability entry). */
  comparability: string
  /** The start of the trust section (the judge against its human anchors). */
  judge: string
  /** The capabilities' own sections (the spread between seeds), each collapsed by the page. */
  sections: Array<{ id: string; title: string; html: string }>
}

/** The capability parts of `result`'s page. */
export function capabilityParts(result: GateResult, files?: WrittenFiles): CapabilityParts {
  return {
    head: toHtml(slotBlocks(result, 'head', files)),
    underChecks: toHtml(slotBlocks(result, 'underChecks', files)),
    budget: toHtml(slotBlocks(result, 'afterFindings', files), 2),
    history: toHtml(slotBlocks(result, 'afterPictures', files), 2),
    comparability: toHtml(comparabilityBody(result)),
    judge: toHtml(slotBlocks(result, 'trustDetails', files)),
    sections: capabilitySections(result, files).map((s) => ({ id: s.id, title: s.title, html: toHtml(s.body) }))
  }
}

/**
 * What the capabilities show beside each query (the queries file's text; both runs' top documents with their
 * judgments' grades in runs mode), as the page's lookups by query id.
 */
export function capabilityDetails(result: GateResult): QueryDetails | undefined {
  if (!result.capabilities.some((c) => c.parts.queryDetails !== undefined)) return undefined
  const at = (id: string) => queryDetails(result, rowOfId(result.table, id))
  const ranked = (docs: string[] | undefined, grades: Array<number | null> | undefined): RankedDoc[] | undefined =>
    docs?.map((doc, k) => ({ doc, grade: grades?.[k] ?? null }))
  return {
    text: { get: (id) => at(id).text },
    baselineTop: { get: (id) => ranked(at(id).top?.baseline, at(id).grades?.baseline) },
    candidateTop: { get: (id) => ranked(at(id).top?.candidate, at(id).grades?.candidate) }
  }
}

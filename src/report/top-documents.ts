import { rowOfId } from '../align/row-of-id.js'
import { queryDetails, type GateResult, type RegressedQuery } from '../decide/result.js'
import { cells, table, text, words, type Block, type Inline } from '../model/document.js'
import { fixed } from './format.js'

/** Longest document id a cell shows (the HTML page and regressions.jsonl have them whole). */
const DOC_CHARS = 60

/** A grade as a cell shows it (here and on the page): the judgments' number, – for a document without one. */
export function gradeText(g: number | null | undefined): string {
  return g === null || g === undefined || !Number.isFinite(g) ? '–' : fixed(g, Number.isInteger(g) ? 0 : 2)
}

/**
 * Both runs' top documents of the regressed queries the Markdown lists (runs mode: src/capabilities/queries/capability.ts
 * keeps the first five of each side, with the judgments' grades), collapsed under their table: one row per rank,
 * baseline beside candidate, so a reviewer sees in the PR comment what the candidate put where the relevant
 * documents were. Bounded: the listed queries (TOP_REGRESSIONS) times the kept ranks, each id cut to DOC_CHARS and
 * escaped (document ids come from the runs, the candidate's from the PR). Empty when no query has top documents.
 */
export function topDocumentsBlock(result: GateResult, shown: readonly RegressedQuery[]): Block[] {
  const rows: Inline[][] = []
  for (const r of shown) {
    const d = queryDetails(result, rowOfId(result.table, r.id))
    if (d.top === undefined) continue
    const ranks = Math.max(d.top.baseline.length, d.top.candidate.length)
    for (let k = 0; k < ranks; k++) {
      const cell = (docs: string[], grades: Array<number | null> | undefined): Inline =>
        k < docs.length ? [text(docs[k], DOC_CHARS), words(` (${gradeText(grades?.[k])})`)] : []
      rows.push([
        k === 0 ? [text(r.id)] : [],
        [words(String(k + 1))],
        cell(d.top.baseline, d.grades?.baseline),
        cell(d.top.candidate, d.grades?.candidate)
      ])
    }
  }
  if (rows.length === 0) return []
  const summary = `Both runs’ top documents of these queries, with the judgments’ grades (– not judged)`
  const head = cells('Query', 'Rank', 'Baseline (grade)', 'Candidate (grade)')
  return [{ kind: 'details', summary: [words(summary)], body: [table(head, rows)] }]
}

import type { Provenance } from '../model/provenance.js'
import { code, list, text, words, type Block, type Inline, type Span } from '../model/document.js'

const short = (sha: string): Span => code(sha.slice(0, 12), 12)

/** "⚠️ This pull request changes rules.yml: base rules enforced; the PR's change takes effect after merge (…)". */
function changedByPr(file: string, what: string, base: string, pr: string): Inline {
  return [
    words('⚠️ This pull request changes '),
    text(file, 200),
    words(`${what}; the PR's change takes effect after merge (base sha256 `),
    code(base, 64),
    words(', PR sha256 '),
    code(pr, 64),
    words(').')
  ]
}

/** "Rules: gate.yml read from the workspace (rules-from: workspace); sha256 …." and each exam file's line. */
const readFrom = (what: string, file: string, from: Inline, sha256: string): Inline => [
  words(what),
  text(file, 200),
  words(' read from '),
  ...from,
  words('; sha256 '),
  code(sha256, 64),
  words('.')
]

/** "artifact “rows” (eval/rows.csv) from run 123" (the run linked): where an artifact a report names came from. */
export function artifactSpans(a: { name: string; runUrl: string; runId: number }, file: string): Inline {
  return [
    words('artifact “'),
    text(a.name, 100),
    words('” ('),
    text(file, 200),
    words(') from run '),
    { kind: 'link', href: encodeURI(a.runUrl), spans: [words(String(a.runId))] }
  ]
}

/** The provenance list (short: it sits under the verdict and is never dropped); none without provenance. */
export function provenanceBlocks(p: Provenance | undefined): Block[] {
  if (!p) return []
  const out: Inline[] = []
  const r = p.rules
  if (r) {
    const where = r.from === 'base' ? [words("the PR's base commit "), short(r.commit ?? '')] : [words('the workspace')]
    const chosen = r.chosenBy === 'default' ? ', the default for this event' : ''
    out.push(readFrom('Rules: ', r.file, [...where, words(` (rules-from: ${r.from}${chosen})`)], r.sha256))
    if (r.workspaceSha256 !== undefined)
      out.push(changedByPr(r.file, ': base rules enforced', r.sha256, r.workspaceSha256))
  }
  for (const e of p.exam ?? []) {
    if (e.workspaceSha256 === undefined)
      out.push(readFrom('Exam file ', e.file, [words("the PR's base commit "), short(e.commit)], e.sha256))
    else
      out.push(
        changedByPr(
          e.file,
          ", part of the exam that grades it: the base commit's copy graded this PR",
          e.sha256,
          e.workspaceSha256
        )
      )
  }
  const b = p.baseline
  if (b?.from === 'artifact' && b.artifact) {
    const a = b.artifact
    out.push([
      words('Baseline: '),
      ...artifactSpans(a, b.file),
      words(' on '),
      text(a.branch, 100),
      words(', commit '),
      short(a.commit),
      words(', built '),
      text(a.createdAt, 40),
      words(` (${formatAge(a.ageSeconds)} before this run).`)
    ])
  } else if (b) out.push([words('Baseline: file '), text(b.file, 200), words(' from the workspace.')])
  for (const w of p.warnings) out.push([words('⚠️ '), text(w, 600)])
  return out.length === 0 ? [] : [list(...out)]
}

/** The JSON report's `provenance` object (fixed key order). */
export function provenanceJson(p: Provenance): Record<string, unknown> {
  const r = p.rules
  const b = p.baseline
  return {
    rules: r
      ? {
          from: r.from,
          chosen_by: r.chosenBy,
          file: r.file,
          sha256: r.sha256,
          commit: r.commit ?? null,
          changed_in_pr: r.workspaceSha256 !== undefined,
          workspace_sha256: r.workspaceSha256 ?? null
        }
      : null,
    baseline: b
      ? {
          from: b.from,
          file: b.file,
          artifact: b.artifact
            ? {
                name: b.artifact.name,
                id: b.artifact.id,
                run_id: b.artifact.runId,
                run_url: b.artifact.runUrl,
                branch: b.artifact.branch,
                commit: b.artifact.commit,
                created_at: b.artifact.createdAt,
                age_seconds: b.artifact.ageSeconds
              }
            : null
        }
      : null,
    exam_files: p.exam
      ? p.exam.map((e) => ({
          file: e.file,
          commit: e.commit,
          sha256: e.sha256,
          bytes: e.bytes,
          changed_in_pr: e.workspaceSha256 !== undefined,
          workspace_sha256: e.workspaceSha256 ?? null
        }))
      : null,
    warnings: p.warnings
  }
}

/** "3 d 4 h", "5 h 2 min", "40 min", "12 s": an age a reviewer reads at a glance. */
export function formatAge(seconds: number): string {
  if (!Number.isFinite(seconds)) return 'an unknown time'
  const s = Math.max(0, Math.floor(seconds))
  const d = Math.floor(s / 86400)
  const h = Math.floor((s % 86400) / 3600)
  const m = Math.floor((s % 3600) / 60)
  if (d > 0) return `${d} d ${h} h`
  if (h > 0) return `${h} h ${m} min`
  if (m > 0) return `${m} min`
  return `${s} s`
}

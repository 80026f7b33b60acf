import type { Provenance } from '../model/provenance.js'
import { inline } from './escape.js'

const short = (sha: string): string => inline(sha.slice(0, 12), 12)

/** Markdown lines for the provenance block (short: it sits under the verdict and is never dropped). */
export function provenanceLines(p: Provenance | undefined): string[] {
  if (!p) return []
  const out: string[] = []
  const r = p.rules
  if (r) {
    const where = r.from === 'base' ? `the PR's base commit \`${short(r.commit ?? '')}\`` : 'the workspace'
    out.push(
      `- Rules: ${inline(r.file, 200)} read from ${where} (rules-from: ${r.from}${r.chosenBy === 'default' ? ', the default for this event' : ''}); sha256 \`${inline(r.sha256, 64)}\`.`
    )
    if (r.workspaceSha256 !== undefined) {
      out.push(
        `- ⚠️ This pull request changes ${inline(r.file, 200)}: base rules enforced; the PR's change takes effect after merge (base sha256 \`${inline(r.sha256, 64)}\`, PR sha256 \`${inline(r.workspaceSha256, 64)}\`).`
      )
    }
  }
  for (const e of p.exam ?? []) {
    if (e.workspaceSha256 === undefined) {
      out.push(
        `- Exam file ${inline(e.file, 200)} read from the PR's base commit \`${short(e.commit)}\`; sha256 \`${inline(e.sha256, 64)}\`.`
      )
    } else {
      out.push(
        `- ⚠️ This pull request changes ${inline(e.file, 200)}, part of the exam that grades it: the base commit's copy graded this PR; the PR's change takes effect after merge (base sha256 \`${inline(e.sha256, 64)}\`, PR sha256 \`${inline(e.workspaceSha256, 64)}\`).`
      )
    }
  }
  const b = p.baseline
  if (b?.from === 'artifact' && b.artifact) {
    const a = b.artifact
    out.push(
      `- Baseline: artifact “${inline(a.name, 100)}” (${inline(b.file, 200)}) from run [${a.runId}](${encodeURI(a.runUrl)}) on ${inline(a.branch, 100)}, commit \`${short(a.commit)}\`, built ${inline(a.createdAt, 40)} (${formatAge(a.ageSeconds)} before this run).`
    )
  } else if (b) {
    out.push(`- Baseline: file ${inline(b.file, 200)} from the workspace.`)
  }
  for (const w of p.warnings) out.push(`- ⚠️ ${inline(w, 600)}`)
  return out
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
  const s = Math.max(0, Math.floor(seconds))
  const d = Math.floor(s / 86400)
  const h = Math.floor((s % 86400) / 3600)
  const m = Math.floor((s % 3600) / 60)
  if (d > 0) return `${d} d ${h} h`
  if (h > 0) return `${h} h ${m} min`
  if (m > 0) return `${m} min`
  return `${s} s`
}

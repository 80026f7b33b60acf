import { DefaultArtifactClient } from '@actions/artifact'
import path from 'node:path'

/** The report artifact's name without a comment-name (input comment-name `default`). */
const REPORT_ARTIFACT = 'retrieval-gate-report'

/**
 * The name of the artifact that holds a push run's JSON report: `retrieval-gate-report`, or
 * `retrieval-gate-report-NAME` when comment-name is not the default, so that several gates in one repository
 * keep separate histories (and do not collide in one run).
 */
export function reportArtifactName(commentName: string): string {
  return commentName === 'default' ? REPORT_ARTIFACT : `${REPORT_ARTIFACT}-${commentName}`
}

/** Uploads `file` as artifact `name` (one file, stored at the artifact's root). */
export type ArtifactUploader = (name: string, file: string) => Promise<void>

/** The real uploader: @actions/artifact's DefaultArtifactClient, the file at the artifact's root. */
export const artifactClientUploader: ArtifactUploader = async (name, file) => {
  await new DefaultArtifactClient().uploadArtifact(name, [file], path.dirname(file))
}

/**
 * Uploads a push run's JSON report so later PRs can draw history from it. Uploading on every push run (not
 * only when the rules ask for history) is what lets a PR that turns history on find past points at once.
 * Returns a warning instead of throwing: history is bookkeeping, and the verdict never depends on it. Outside
 * a GitHub runner (no ACTIONS_RUNTIME_TOKEN, for example a local test run) nothing is uploaded and the
 * returned `skipped` says why.
 */
export async function uploadReportArtifact(
  upload: ArtifactUploader,
  name: string,
  file: string,
  env: Record<string, string | undefined>
): Promise<{ uploaded: boolean; message: string }> {
  if (!env.ACTIONS_RUNTIME_TOKEN)
    return {
      uploaded: false,
      message: `the report was not uploaded as artifact ${name} for history: not on a GitHub runner (ACTIONS_RUNTIME_TOKEN is not set)`
    }
  try {
    await upload(name, file)
    return { uploaded: true, message: `the report was uploaded as artifact ${name} (history for later pull requests)` }
  } catch (error) {
    return {
      uploaded: false,
      message: `the report could not be uploaded as artifact ${name} for history: ${(error as Error).message}. The verdict is unaffected.`
    }
  }
}

/** The report artifact's name without a comment-name (input comment-name `default`). */
const REPORT_ARTIFACT = 'retrieval-gate-report'

/**
 * The name of the artifact that holds a push run's JSON report: `retrieval-gate-report`, or
 * `retrieval-gate-report-NAME` when comment-name is not the default, so that several gates in one repository
 * keep separate histories (and do not collide in one run). The action exposes it as output history-artifact; the
 * workflow's own upload step uses it, so the SDK that uploads artifacts is not in the bundle.
 */
export function reportArtifactName(commentName: string): string {
  return commentName === 'default' ? REPORT_ARTIFACT : `${REPORT_ARTIFACT}-${commentName}`
}

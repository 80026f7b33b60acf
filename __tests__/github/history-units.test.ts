/**
 * The small pieces of history and holdout accounting on the GitHub side: the report artifact's name and upload
 * (never a failure), and the holdout count in the sticky comment's hidden metadata.
 */
import { describe, expect, it } from '@jest/globals'
import { metadataLine, parseMetadata } from '../../src/github/comment.js'
import { reportArtifactName, uploadReportArtifact } from '../../src/github/report-artifact.js'

describe('the report artifact of push runs', () => {
  it('is named retrieval-gate-report, suffixed with a comment-name that is not the default', () => {
    expect(reportArtifactName('default')).toBe('retrieval-gate-report')
    expect(reportArtifactName('latency')).toBe('retrieval-gate-report-latency')
  })

  it('is uploaded on a runner; a failed upload is a message, never a throw', async () => {
    const calls: Array<[string, string]> = []
    const ok = await uploadReportArtifact(
      async (name, file) => void calls.push([name, file]),
      'retrieval-gate-report',
      '/r/report.json',
      { ACTIONS_RUNTIME_TOKEN: 'x' }
    )
    expect(ok.uploaded).toBe(true)
    expect(calls).toEqual([['retrieval-gate-report', '/r/report.json']])
    const failed = await uploadReportArtifact(
      async () => {
        throw new Error('Conflict: an artifact with this name already exists on the workflow run')
      },
      'retrieval-gate-report',
      '/r/report.json',
      { ACTIONS_RUNTIME_TOKEN: 'x' }
    )
    expect(failed).toEqual({
      uploaded: false,
      message:
        'the report could not be uploaded as artifact retrieval-gate-report for history: Conflict: an artifact with this name already exists on the workflow run. The verdict is unaffected.'
    })
    const off = await uploadReportArtifact(
      async () => void calls.push(['no', 'no']),
      'retrieval-gate-report',
      '/r/report.json',
      {}
    )
    expect(off.uploaded).toBe(false)
    expect(calls).toHaveLength(1)
  })
})

describe('the comment metadata holds no count', () => {
  it('is the head commit, the run and the verdict only: the holdout looks live in the ledger, which a PR cannot reset', () => {
    const line = metadataLine({ head_sha: 'a'.repeat(40), run_id: 5, verdict: 'pass' })
    expect(line).toBe(`<!-- retrieval-gate-meta {"head_sha":"${'a'.repeat(40)}","run_id":5,"verdict":"pass"} -->`)
    // An older comment's count is read as nothing (never as a count the gate would trust).
    const old = `<!-- retrieval-gate:default -->\n<!-- retrieval-gate-meta {"head_sha":"ab","run_id":1,"verdict":"pass","holdout_looks":0} -->\n`
    expect(parseMetadata(old)).toEqual({ head_sha: 'ab', run_id: 1, verdict: 'pass' })
  })
})

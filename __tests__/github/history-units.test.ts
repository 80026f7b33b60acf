/**
 * The small pieces of history and holdout accounting on the GitHub side: the report artifact's name (the workflow
 * uploads it), and the holdout count in the sticky comment's hidden metadata.
 */
import { describe, expect, it } from '@jest/globals'
import { metadataLine, parseMetadata } from '../../src/github/comment.js'
import { reportArtifactName } from '../../src/github/report-artifact.js'

describe('the report artifact of push runs', () => {
  it('is named retrieval-gate-report, suffixed with a comment-name that is not the default', () => {
    expect(reportArtifactName('default')).toBe('retrieval-gate-report')
    expect(reportArtifactName('latency')).toBe('retrieval-gate-report-latency')
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

/**
 * Issue 34 item 7: a file given as the wrong input is named for what it is and where it goes, through the format
 * registry's shapes (src/readers/shapes.ts), not with the error its first line makes in the wrong reader ("fix or
 * remove the line", "must be a mapping"): judgments where a run is expected, a run as the judgments (files
 * swapped), per-query rows as a run, a run (or judgments, or rows) as the rules. The rules' own hint names
 * `retrieval-gate init`, which every user has, not rules/presets/default.yml, which an installed user does not.
 */
import { describe, expect, it } from '@jest/globals'
import { rulesFromText } from '../../src/load.js'
import { cli, hasStackTrace, refusal, writeFiles } from '../helpers.js'

const QRELS = 'examples/runs/qrels.txt'
const RUN = 'examples/trec/baseline.run'
const CANDIDATE = 'examples/trec/candidate.run'
const ROWS = 'examples/baseline.jsonl'
const RUN_RULES = 'examples/trec/rules.yml'

async function refused(args: string[]): Promise<string> {
  const r = await cli(args)
  expect(r.code).toBe(2)
  expect(r.stdout).toBe('')
  expect(hasStackTrace(r.stderr)).toBe(false)
  expect(r.stderr).not.toMatch(/fix or remove the line|must be a mapping/)
  return r.stderr
}

describe('a file given as another input is named for what it is, and where it goes', () => {
  it('judgments given where a run is expected (gate --baseline)', async () => {
    const err = await refused(['gate', '--rules', RUN_RULES, '--baseline', QRELS, '--candidate', CANDIDATE])
    expect(err).toBe(
      `retrieval-gate: ${QRELS}:1: this looks like judgments (TREC qrels: query iteration doc grade), not a run. pass it as --qrels / judgments.qrels, and the runs as --baseline / --candidate\n`
    )
  })

  it('a run and judgments swapped (metrics --qrels RUN --run QRELS): the first read names each', async () => {
    const swapped = await refused(['metrics', '--qrels', RUN, '--run', QRELS, '-m', 'nDCG@10'])
    expect(swapped).toBe(
      `retrieval-gate: ${RUN}:1: this looks like a TREC run (query Q0 doc rank score tag), not judgments. pass it as --baseline / --candidate (metrics: --run), with the judgments as --qrels / judgments.qrels\n`
    )
    const asRun = await refused(['metrics', '--qrels', QRELS, '--run', QRELS, '-m', 'nDCG@10'])
    expect(asRun).toContain('this looks like judgments (TREC qrels: query iteration doc grade), not a run')
    // A JSON Lines run given as the judgments too.
    const jsonl = await refused(['metrics', '--qrels', 'examples/runs/baseline.jsonl', '--run', RUN, '-m', 'AP'])
    expect(jsonl).toContain('this looks like a JSON Lines run')
    expect(jsonl).toContain('not judgments. pass it as --baseline / --candidate (metrics: --run)')
  })

  it('per-query rows given as a run (the rules name judgments), as JSON Lines and as CSV', async () => {
    const err = await refused(['gate', '--rules', RUN_RULES, '--baseline', ROWS, '--candidate', CANDIDATE])
    expect(err).toContain(
      `${ROWS}:1: this looks like per-query rows (a JSON object per query with "query_id" and metric values), not a run. per-query rows carry their metrics: pass them as --baseline / --candidate, with rules that name no judgments (no judgments.qrels, no --qrels)`
    )
    const f = writeFiles({ 'rows.csv': 'query_id,nDCG@10,segment\nq001,0.5,new\n' })
    const csv = await refused(['gate', '--rules', RUN_RULES, '--baseline', f['rows.csv'], '--candidate', CANDIDATE])
    expect(csv).toContain('this looks like per-query rows (a CSV header with query_id), not a run')
  })

  it('a run, judgments or rows given as --rules, to gate and to explain: what it is, and retrieval-gate init', async () => {
    const run = await refused(['gate', '--rules', RUN, '--baseline', RUN, '--candidate', CANDIDATE])
    expect(run).toBe(
      `retrieval-gate: ${RUN}:1: this looks like a TREC run (query Q0 doc rank score tag), not rules. pass it as --baseline / --candidate (metrics: --run), with the judgments as --qrels / judgments.qrels; the rules are a YAML file of checks: retrieval-gate init --baseline B --candidate C writes a starter from your two files\n`
    )
    const qrels = await refused(['explain', '--rules', QRELS])
    expect(qrels).toContain('this looks like judgments (TREC qrels: query iteration doc grade), not rules')
    const rows = await refused(['gate', '--rules', ROWS, '--baseline', ROWS, '--candidate', ROWS])
    expect(rows).toContain('this looks like per-query rows')
    expect(rows).toContain('not rules')
  })

  it('the action reads its rules text the same way (main.ts: rulesFromText)', async () => {
    const e = await refusal(() => rulesFromText('q1 Q0 d1 1 2.5 bm25\nq1 Q0 d2 2 1.5 bm25\n', 'retrieval-gate.yml'))
    expect(e.message).toMatch(/^retrieval-gate\.yml:1: this looks like a TREC run .*, not rules\. /)
  })

  it('rules that are not a mapping, or empty, point to retrieval-gate init, never to a preset file', async () => {
    const f = writeFiles({ 'word.yml': 'hello\n', 'empty.yml': '\n', 'list.yml': '- a\n- b\n' })
    for (const file of Object.values(f)) {
      const r = await cli(['explain', '--rules', file])
      expect(r.code).toBe(2)
      const err = r.stderr
      expect(err).toContain('retrieval-gate init --baseline B --candidate C writes a starter rules file')
      expect(err).not.toContain('rules/presets')
    }
  })

  it('a rules file with a misspelt key is still a rules file (its own refusal, with the key)', async () => {
    const f = writeFiles({ 'r.yml': 'version: 1\nmetrix: {}\n' })
    const r = await cli(['explain', '--rules', f['r.yml']])
    expect(r.code).toBe(2)
    expect(r.stderr).not.toContain('this looks like')
  })
})

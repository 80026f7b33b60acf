/**
 * The coverage table of runs scored by the gate (judgments mode) tells the truth about the runs (red-team finding):
 * the rows are the judged queries', so "Rows in the candidate 3 / Only in the candidate 0" beside the notes "1 judged
 * query absent from the run scored 0" and "1 run query without judgments ignored" contradicted them. The table now
 * gives each run's queries, the judged ones it lacks (scored 0) and its queries without judgments (ignored), with the
 * notes' counts, in the Markdown (the HTML draws the same blocks) and the JSON.
 */
import { describe, expect, it } from '@jest/globals'
import { cli, writeFiles } from '../helpers.js'

describe('the coverage of runs scored against judgments', () => {
  it("counts the run's queries, those absent from it and those without judgments, as the notes do", async () => {
    const f = writeFiles({
      'q.txt': 'a 0 d1 1\nb 0 d2 1\nc 0 d3 1\n',
      'b.run': 'a Q0 d1 1 3 x\nb Q0 d2 1 3 x\nc Q0 d3 1 3 x\n',
      'c.run': 'a Q0 d1 1 3 y\nb Q0 d2 1 3 y\nz Q0 d9 1 3 y\n'
    })
    const rules = writeFiles({
      'r.yml': `version: 1
judgments: { qrels: ${f['q.txt']} }
metrics:
  P@1: { better: higher }
checks:
  - name: precision holds
    metric: P@1
    non_inferior: { margin: 0.05 }
`
    })['r.yml']
    const args = ['gate', '--rules', rules, '--baseline', f['b.run'], '--candidate', f['c.run']]
    const md = await cli(args)
    expect(md.stderr).toBe('')
    const table = md.stdout.slice(md.stdout.indexOf('| Queries | Count |'))
    expect(table).toContain('candidate: 1 judged query absent from the run scored 0 for every measure')
    expect(table).toContain('candidate: 1 run query without judgments ignored')
    const lines = table.slice(0, table.indexOf('\n\n')).split('\n')
    expect(lines).toEqual([
      '| Queries | Count |',
      '| - | - |',
      `| Rows scored for the baseline (${f['b.run']}) | 3 |`,
      "| Queries in the baseline's run | 3 |",
      '| Baseline: judged queries absent from the run (scored 0) | 0 |',
      '| Baseline: run queries without judgments (ignored) | 0 |',
      `| Rows scored for the candidate (${f['c.run']}) | 3 |`,
      "| Queries in the candidate's run | 3 |",
      '| Candidate: judged queries absent from the run (scored 0) | 1 |',
      '| Candidate: run queries without judgments (ignored) | 1 |',
      '| Paired and compared | 3 |',
      '| Rows only in the baseline | 0 |',
      '| Rows only in the candidate | 0 |'
    ])
    const json = await cli([...args, '--format', 'json'])
    const report = JSON.parse(json.stdout) as { coverage: Record<string, unknown> }
    expect(report.coverage).toMatchObject({
      baseline_rows: 3,
      candidate_rows: 3,
      runs: {
        baseline: { queries: 3, absent_scored_zero: 0, without_judgments_ignored: 0 },
        candidate: { queries: 3, absent_scored_zero: 1, without_judgments_ignored: 1 }
      }
    })
  })
})

/**
 * Rules that ask for two-stage diagnostics (`two_stage`) and get none say why in the report (red-team finding,
 * 2026-12-02: on per-query rows `explain` listed them as active and the report said nothing of them).
 */
import { describe, expect, it } from '@jest/globals'
import { loadRules } from '../../src/config/rules.js'
import { toMarkdown } from '../../src/report/markdown.js'
import { cli, gateSides, metricSide, writeFiles } from '../helpers.js'

const side = (file: string, values: number[]) => metricSide(file, 'm', values)

const text = (extra: string) =>
  `version: 1\n${extra}metrics:\n  m: { better: higher, range: [0, 1] }\nchecks:\n  - { name: c, metric: m, non_inferior: { margin: 0.05 } }\n`
const values = Array.from({ length: 40 }, (_, i) => (i % 10) / 10)

describe('two_stage without first-stage candidates', () => {
  it('says so on per-query rows', () => {
    const md = toMarkdown(
      gateSides(loadRules(text('two_stage: { k: 10 }\n'), 'r.yml'), side('b', values), side('c', values))
    )
    expect(md).toContain('Two-stage diagnostics (two_stage): they need runs whose records carry the first-stage')
  })

  it('says nothing when the rules do not ask for them', () => {
    const md = toMarkdown(gateSides(loadRules(text(''), 'r.yml'), side('b', values), side('c', values)))
    expect(md).not.toContain('Two-stage diagnostics')
  })

  it('says so for runs whose records carry no first-stage candidates', async () => {
    const files = writeFiles({
      'r.yml':
        'version: 1\njudgments: { qrels: examples/runs/qrels.txt }\ntwo_stage: { k: 10 }\nmetrics:\n  nDCG@10: { better: higher }\nchecks:\n  - { name: c, metric: nDCG@10, non_inferior: { margin: 0.05 } }\n'
    })
    const r = await cli([
      'gate',
      '--rules',
      files['r.yml'],
      '--baseline',
      'examples/runs/baseline.jsonl',
      '--candidate',
      'examples/runs/candidate.jsonl'
    ])
    expect(r.stdout + r.stderr).not.toContain('Error')
    const md = await cli([
      'gate',
      '--rules',
      files['r.yml'],
      '--baseline',
      'examples/runs/baseline.jsonl',
      '--candidate',
      'examples/runs/candidate.jsonl',
      '--format',
      'markdown'
    ])
    expect(md.stdout).toContain('Two-stage diagnostics (two_stage): neither run carries first-stage "candidates"')
  })
})

/**
 * reference.looks outside a pull request (the CLI, an action run on a push): nothing counts the looks there, so the
 * report must not say that the budgets hold at the release's confidence over the release (red-team finding). Each
 * look's interval is at the per-look level; the release-wide level needs every look counted, which the look ledger
 * does in a pull request (docs/github.md "Record, then count"; the PR wording is tested in github/reference.test.ts).
 */
import { describe, expect, it } from '@jest/globals'
import { cli, jsonl, writeFiles } from '../helpers.js'

const rows = (shift: number) =>
  Array.from({ length: 40 }, (_, i) => ({ query_id: `q${i}`, recall: ((i * 7) % 10) / 10 + shift }))

describe('reference.looks outside a pull request', () => {
  it('says the looks are not counted, and claims no release-wide level', async () => {
    const f = writeFiles({ 'b.jsonl': jsonl(rows(0)), 'c.jsonl': jsonl(rows(0.05)) })
    const rules = writeFiles({
      'rules.yml': `version: 1
metrics:
  recall: { better: higher, range: [0, 2] }
reference: { path: ${f['b.jsonl']}, ref: refs/tags/v1, name: v1, looks: 5 }
checks:
  - name: recall holds
    metric: recall
    non_inferior: { margin: 0.05 }
    budget: 0.03
`
    })['rules.yml']
    const args = ['gate', '--rules', rules, '--baseline', f['b.jsonl'], '--candidate', f['c.jsonl']]
    const md = await cli([...args, '--reference', f['b.jsonl']])
    expect(md.stderr).toBe('')
    const flat = md.stdout.replace(/\s+/g, ' ')
    expect(flat).not.toMatch(/so over the release the budgets hold at 95%/)
    expect(flat).not.toMatch(/This run is look 1 of at most 5/)
    expect(flat).toContain(
      'The budget at v1 is looked at once by this run (outside a pull request, where no look ledger counts the looks; in one, every look is counted in it): each budget interval is at 99%, the level of each of the at most 5 looks reference.looks allows, but the budgets hold at 95% over the release only if every look is counted.'
    )
    const json = await cli([...args, '--reference', f['b.jsonl'], '--format', 'json'])
    const report = JSON.parse(json.stdout) as { budgets: { reference: { looks: Record<string, unknown> } } }
    expect(report.budgets.reference.looks).toEqual({
      this_look: 1,
      allowed: 5,
      confidence_each: 0.99,
      counted: false,
      unknown: null
    })
  })
})

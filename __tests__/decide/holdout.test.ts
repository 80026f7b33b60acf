/**
 * Holdout accounting (src/decide/holdout.ts, src/report/holdout.ts): every gate run that grades the holdout is
 * counted on top of the looks found before it (this PR's, from the sticky comment; history's), a rule caps the
 * looks per PR (beyond it the checks on holdout queries are inconclusive, and say the count), and the Markdown
 * report lists regressed queries of the dev split only.
 *
 * Fixture __tests__/fixtures/trust/dataset (see __tests__/trust/dataset-gate.test.ts): holdout h1..h4 gated
 * (4 queries), d1 dev. Candidate loses h3 and h4 entirely (nDCG@3 1 -> 0); per-query differences of nDCG@3:
 * h1 +0.036060, h2 0, h3 -1, h4 -1: two of four queries got worse, so `max_regressions: { share: 0.5 }` holds (limit floor(0.5 x 4) = 2).
 */
import { describe, expect, it } from '@jest/globals'
import { readFileSync } from 'node:fs'
import { loadRules } from '../../src/config/rules.js'
import type { PriorLooks } from '../../src/decide/holdout.js'
import { runGate } from '../../src/gate.js'
import { toMarkdown } from '../../src/report/markdown.js'
import { toText } from '../../src/report/text.js'
import { refusal, loadFiles, toJsonReport } from '../helpers.js'

const D = '__tests__/fixtures/trust/dataset'
const BASE_RULES = readFileSync(`${D}/rules.yml`, 'utf8')
  .replace(/max_zero_hit_share.*\n/, '')
  .replace('non_inferior: { margin: 0.6 }', 'max_regressions: { share: 0.5 }')

function rulesWith(datasetExtra: string, split = 'holdout'): string {
  return BASE_RULES.replace('split: holdout }', `split: ${split}${datasetExtra} }`)
}

async function gate(rulesText: string, prior?: PriorLooks) {
  const rules = loadRules(rulesText, 'rules.yml')
  const loaded = await loadFiles(rules, { baseline: `${D}/baseline.jsonl`, candidate: `${D}/candidate.jsonl` })
  const result = runGate({ ...loaded, evidence: new Map([...loaded.evidence, ['holdout', prior ?? { thisPr: null }]]) })
  return { result, json: JSON.parse(toJsonReport(result)) as Record<string, any>, markdown: toMarkdown(result) }
}

describe('holdout looks are counted', () => {
  it('a PR run that grades the holdout adds one look to the count read from the comment', async () => {
    const { json, markdown } = await gate(rulesWith(''), { thisPr: 2 })
    expect(json.holdout).toEqual({
      split: 'holdout',
      graded: true,
      queries: 4,
      looks: { this_run: 1, this_pr: 3, total: null, history_reports: null },
      max_per_pr: null,
      exceeded: false
    })
    expect(markdown).toContain(
      'Holdout: graded by this run (4 queries); looked at 3 times in this PR, this run included.'
    )
    expect(json.verdict).toBe('pass')
  })

  it('the terminal report says it too', async () => {
    const { result } = await gate(rulesWith(''), { thisPr: 2 })
    expect(toText(result, { color: false })).toContain(
      'Holdout: graded by this run (4 queries); looked at 3 times in this PR, this run included.'
    )
  })

  it('in total: the looks of the history reports plus this PR', async () => {
    const { json, markdown } = await gate(rulesWith(''), { thisPr: 0, history: { looks: 7, reports: 9 } })
    expect(json.holdout.looks).toEqual({ this_run: 1, this_pr: 1, total: 8, history_reports: 9 })
    expect(markdown).toContain(
      'looked at once in this PR, this run included, 8 times in total over the 9 gate runs on the default branch read as history and this PR.'
    )
  })

  it('outside a pull request (CLI, push) the run is one look and the JSON says so, to be summed as history', async () => {
    const { json, markdown } = await gate(rulesWith(''))
    expect(json.holdout.looks).toEqual({ this_run: 1, this_pr: null, total: null, history_reports: null })
    expect(markdown).toContain('looked at once by this run (outside a pull request')
  })

  it('a run on the dev split does not look at the holdout and leaves the count as it was', async () => {
    const { json, markdown } = await gate(rulesWith('', 'dev'), { thisPr: 2 })
    expect(json.holdout).toMatchObject({ split: 'dev', graded: false, queries: 0, looks: { this_run: 0, this_pr: 2 } })
    expect(markdown).toContain('Holdout: not graded by this run (split dev). It has been looked at 2 times in this PR.')
  })
})

describe('dataset.holdout_looks.max_per_pr caps the looks per PR', () => {
  // the looks are kept on the release's commit (v1.4 here; the decision takes them as given)
  const capped = rulesWith(', holdout_looks: { max_per_pr: 2, release: v1.4 }')

  it('at the cap the check passes as before', async () => {
    const { json } = await gate(capped, { thisPr: 1 })
    expect(json.holdout).toMatchObject({ looks: { this_pr: 2 }, max_per_pr: 2, exceeded: false })
    expect(json.verdict).toBe('pass')
    expect(json.checks[0].units[0].reason).toBe('holds')
  })

  it('beyond it the holdout check is inconclusive with the count said, and decides the verdict by name', async () => {
    const { json, markdown } = await gate(capped, { thisPr: 2 })
    expect(json.holdout).toMatchObject({ looks: { this_pr: 3 }, max_per_pr: 2, exceeded: true })
    const unit = json.checks[0].units[0]
    expect(unit).toMatchObject({
      status: 'inconclusive',
      reason: 'holdout_looks_exceeded',
      holdout_looks: { this_pr: 3, max_per_pr: 2 }
    })
    // on_inconclusive defaults to fail: the verdict fails, decided by the check
    expect(json.verdict).toBe('fail')
    expect(json.decided_by).toBe('nDCG@3 does not drop')
    expect(markdown).toContain(
      'the holdout has been graded 3 times in this PR, more than dataset.holdout\\_looks.max\\_per\\_pr (2) allows'
    )
    expect(markdown).toContain('That is more than allowed: the checks on holdout queries are inconclusive.')
    // not an interval too wide to decide: more queries would settle nothing
    expect(markdown).not.toContain('An interval is too wide to decide')
  })

  it('on_inconclusive: pass lets it pass, as for any other inconclusive check', async () => {
    const { json } = await gate(capped + 'on_inconclusive: pass\n', { thisPr: 5 })
    expect(json.checks[0].status).toBe('inconclusive')
    expect(json.verdict).toBe('pass')
  })

  it('a cap with split: dev is refused (it could never apply)', async () => {
    const e = await refusal(() =>
      loadRules(rulesWith(', holdout_looks: { max_per_pr: 2, release: v1.4 }', 'dev'), 'rules.yml')
    )
    expect(e.message).toContain('holdout_looks')
    expect(e.message).toContain('split: dev never grades the holdout')
  })
})

describe('per-query details: the dev split only', () => {
  it('grading the holdout, the regressed queries are withheld and counted', async () => {
    const { markdown, json } = await gate(rulesWith(''), { thisPr: 0 })
    expect(json.regressions.count).toBe(2) // h3, h4: the JSON report keeps them (docs/report.md)
    expect(markdown).toContain(
      '2 holdout queries that got worse are not listed: the holdout is reported in aggregates only.'
    )
    expect(markdown).not.toMatch(/\| h3 \|/)
    expect(markdown).not.toMatch(/\| h4 \|/)
  })

  it('grading both splits (all), the holdout queries are counted as the look and withheld from the list', async () => {
    const { json, markdown } = await gate(rulesWith('', 'all'), { thisPr: 0 })
    expect(json.holdout).toMatchObject({ split: 'all', graded: true, queries: 4 })
    expect(json.coverage.paired).toBe(5) // h1..h4 and d1
    expect(markdown).toContain('2 holdout queries that got worse are not listed')
  })

  it('grading the dev split, they are listed as before', async () => {
    const { markdown } = await gate(rulesWith('', 'dev'), { thisPr: 0 })
    expect(markdown).not.toContain('holdout queries that got worse')
  })
})

/**
 * The release recipe's rules (docs/github.md, "Required checks and release branches") are copied by users as they are:
 * they must load under the schema and the rules checks, with the reference, budget and history they document.
 * Written after the recipe, the budget and the history landed in parallel (issue 16): this test ties them.
 */
import { describe, expect, it } from '@jest/globals'
import { readFileSync } from 'node:fs'
import { historyRules } from '../../src/capabilities/history/rules.js'
import { rulesFromText as loadRules } from '../../src/load.js'

function recipeRules(): string {
  const readme = readFileSync(new URL('../../docs/github.md', import.meta.url), 'utf8')
  const start = readme.indexOf('# .github/retrieval-gate-release.yml\n')
  expect(start).toBeGreaterThan(0)
  const end = readme.indexOf('```', start)
  return readme.slice(start, end)
}

describe('the release recipe rules in docs/github.md', () => {
  it('load, with the reference, a budget on the check and history', () => {
    const rules = loadRules(recipeRules(), '.github/retrieval-gate-release.yml')
    expect(rules.reference).toMatchObject({ label: 'v1.4', path: 'eval/release/rows.csv', ref: 'v1.4' })
    expect(rules.checks[0].budget).toBeDefined()
    expect(historyRules(rules)).toMatchObject({
      runs: 20,
      workflow: 'retrieval-history.yml',
      artifact: 'retrieval-gate-report'
    })
  })

  it('the commented artifact form loads too', () => {
    const text = recipeRules()
      .replace(/^ {2}path: .*\n/m, '')
      .replace(/^ {2}ref: .*\n/m, '')
      .replace(/^ {2}# or instead of path\/ref: {2}(artifact: .*)$/m, '  $1')
    const rules = loadRules(text, '.github/retrieval-gate-release.yml')
    expect(rules.reference?.artifact).toMatchObject({ name: 'release-rows', workflow: 'release.yml' })
  })
})

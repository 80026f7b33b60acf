/**
 * Issue 24, item 7: holdout per-query details leaked. `gate --format text` listed holdout query ids with their
 * values, and regressions.jsonl (uploaded from pull-request runs by the shipped workflows) listed holdout queries.
 * Nothing a PR's run can read or publish names a holdout query with its per-query values: every per-query writer
 * asks the capabilities which queries are withheld, and the counts stay.
 */
import { describe, expect, it } from '@jest/globals'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { cli, tempDir } from '../helpers.js'

const D = '__tests__/fixtures/trust/dataset'
/** The holdout questions of the fixture evaluation set (split holdout); d1 is its one dev question. */
const HOLDOUT = ['h1', 'h2', 'h3', 'h4', 'u1', 'u2', 'x1']

async function gate(
  format: 'text' | 'json' | 'markdown'
): Promise<{ stdout: string; regressions: string; toJudge: string; json: Record<string, any> }> {
  const dir = tempDir()
  const files = {
    regressions: path.join(dir, 'r.jsonl'),
    toJudge: path.join(dir, 't.jsonl'),
    json: path.join(dir, 'report.json')
  }
  const r = await cli([
    'gate',
    '--rules',
    `${D}/rules.yml`,
    '--baseline',
    `${D}/baseline.jsonl`,
    '--candidate',
    `${D}/candidate.jsonl`,
    '--format',
    format,
    '--regressions',
    files.regressions,
    '--to-judge',
    files.toJudge,
    '--json',
    files.json
  ])
  expect(r.code).not.toBe(2)
  return {
    stdout: r.stdout,
    regressions: readFileSync(files.regressions, 'utf8'),
    toJudge: readFileSync(files.toJudge, 'utf8'),
    json: JSON.parse(readFileSync(files.json, 'utf8')) as Record<string, any>
  }
}

/** Every holdout id that a text names as a whole word (ids are short: h1 must not match h10). */
const named = (text: string): string[] =>
  HOLDOUT.filter((id) => new RegExp(`(^|[^A-Za-z0-9_])${id}([^A-Za-z0-9_]|$)`).test(text))

describe('holdout queries are reported in aggregates only', () => {
  it('the terminal report lists no holdout query, and says how many were withheld', async () => {
    const { stdout, json } = await gate('text')
    expect(json.regressions.count).toBeGreaterThan(0) // there are holdout regressions to withhold
    expect(named(stdout.split('Most regressed')[1] ?? '')).toEqual([])
    expect(stdout).toMatch(/\d+ holdout quer(y|ies) that got worse (is|are) not listed/)
  })

  it('regressions.jsonl and to-judge.jsonl name no holdout query', async () => {
    const { regressions, toJudge } = await gate('markdown')
    expect(named(regressions)).toEqual([])
    expect(named(toJudge)).toEqual([])
  })

  it('the JSON report counts the regressions but lists no holdout query, nor its judged share', async () => {
    const { json } = await gate('json')
    expect(
      json.regressions.queries.map((q: { query_id: string }) => q.query_id).filter((id: string) => HOLDOUT.includes(id))
    ).toEqual([])
    expect(json.regressions.withheld).toBe(json.regressions.count - json.regressions.queries.length)
    const perQuery = (json.trust.pooling?.judged_per_query ?? []) as Array<{ query_id: string }>
    expect(perQuery.filter((q) => HOLDOUT.includes(q.query_id))).toEqual([])
  })
})

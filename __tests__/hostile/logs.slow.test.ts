/**
 * Logs are data, never commands (see logs.test.ts), at real size: a 10 MB query id or attribute value is cut in
 * the refusal, with its length, and the printed lines stay inert and short. Slow (10 MB inputs through the whole
 * gate): `npm run test:slow`.
 */
import { describe, expect, it } from '@jest/globals'
import { cli, writeFiles } from '../helpers.js'
import { RULES, rowsJsonl } from './harness.js'
import { expectInertLog, MAX_LINE } from './inert-log.js'

const TEN_MB = 10 * 1024 * 1024

describe('what reaches a message or a log is escaped and cut, at 10 MB', () => {
  it('a 10 MB query id repeated in a rows file is cut in the message, with its length', async () => {
    const id = 'q'.repeat(TEN_MB)
    const rows =
      rowsJsonl() + JSON.stringify({ query_id: id, m: 0.5 }) + '\n' + JSON.stringify({ query_id: id, m: 0.5 }) + '\n'
    const f = writeFiles({ 'rules.yml': RULES, 'b.jsonl': rowsJsonl(), 'c.jsonl': rows })
    const r = await cli(['gate', '--rules', f['rules.yml'], '--baseline', f['b.jsonl'], '--candidate', f['c.jsonl']])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain(`${TEN_MB} characters`)
    expect(r.stderr.length).toBeLessThan(MAX_LINE)
    expectInertLog(r.stderr)
  })

  it('a 10 MB attribute value is cut in the message, with its length', async () => {
    const rules = RULES.replace(
      '    non_inferior: { margin: 0.1 }\n',
      '    where: { segment: new }\n    non_inferior: { margin: 0.1 }\n'
    )
    const rows = rowsJsonl(3, 0.5, { segment: 's'.repeat(TEN_MB) + '\n::warning::INJECTED' })
    const f = writeFiles({ 'rules.yml': rules, 'b.jsonl': rows, 'c.jsonl': rows })
    const r = await cli(['gate', '--rules', f['rules.yml'], '--baseline', f['b.jsonl'], '--candidate', f['c.jsonl']])
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/\d{8} characters/)
    expect(r.stderr.length).toBeLessThan(MAX_LINE)
    expectInertLog(r.stderr)
  })
})

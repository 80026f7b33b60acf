/**
 * Issue 34 item 18: docs/rules.md lists every rules key, because its table is generated from the published schema
 * (`npm run docs:rules`, scripts/rules-table.js; the schema is src/config/schema.ts and its fragments, `npm run
 * schema`). A key added to the schema without regenerating the table, or a table edited by hand, fails here; so
 * does a key without a description (the words the table and an editor show). statistics.method, the key a refusal
 * tells users to set, was missing from the hand-kept table.
 */
import { describe, expect, it } from '@jest/globals'
import { readFileSync } from 'node:fs'
// @ts-expect-error the script is plain JavaScript (no declarations): its functions are tested here
import { rulesKeys, rulesTable, withTable } from '../../scripts/rules-table.js'
import { rulesSchema } from '../../src/capabilities/rules-schema.js'

const keysOf = rulesKeys as (schema: unknown) => Map<string, string | undefined>

describe('docs/rules.md, every key', () => {
  const doc = readFileSync('docs/rules.md', 'utf8')

  it('is the table the schema gives (npm run docs:rules)', () => {
    const table = (rulesTable as (schema: unknown) => string)(rulesSchema())
    expect((withTable as (doc: string, table: string) => string)(doc, table)).toBe(doc)
  })

  it('documents every key of the schema, each with a description, statistics.method among them', () => {
    const keys = keysOf(rulesSchema())
    expect(keys.size).toBeGreaterThan(100)
    for (const key of ['statistics.method', 'statistics.interval', 'checks[].where', 'metrics.<name>.better'])
      expect(keys.has(key)).toBe(true)
    const undocumented = [...keys.keys()].filter((k) => !doc.includes(`| \`${k}\` |`))
    expect(undocumented).toEqual([])
    expect([...keys].filter(([, d]) => d === undefined || d.trim() === '').map(([k]) => k)).toEqual([])
  })
})

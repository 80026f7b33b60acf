/**
 * The head of every report says how many compared queries the candidate left out (red-team finding, 2026-12-02:
 * under queries.missing: zero a candidate that left out its 90 worst queries read "300 queries paired", the 90
 * filled ones named only in the folded Coverage section).
 */
import { describe, expect, it } from '@jest/globals'
import { loadRules } from '../../src/config/rules.js'
import { toMarkdown } from '../../src/report/markdown.js'
import { toText } from '../../src/report/text.js'
import { toHtmlReport } from '../../src/report/html/index.js'
import { gateSides, metricSide } from '../helpers.js'

const side = (file: string, values: number[]) => metricSide(file, 'm', values)

const rules = loadRules(
  'version: 1\nqueries: { missing: zero }\nmetrics:\n  m: { better: higher, range: [0, 1] }\nchecks:\n  - { name: c, metric: m, non_inferior: { margin: 0.02 } }\n',
  'rules.yml'
)
const base = Array.from({ length: 40 }, (_, i) => (i % 10) / 10)

describe('the head counts the queries the candidate left out', () => {
  it('says how many of the compared queries were filled, in Markdown, text and HTML', () => {
    const result = gateSides(rules, side('b.jsonl', base), side('c.jsonl', base.slice(0, 31)))
    const said = '40 queries compared, 9 of them left out by the candidate and scored with the fill values'
    expect(toMarkdown(result)).toContain(said)
    expect(toText(result, { color: false })).toContain(said)
    expect(toHtmlReport(result)).toContain(said)
  })

  it('says "paired" when every query was answered, and one query is a query', () => {
    expect(toMarkdown(gateSides(rules, side('b.jsonl', base), side('c.jsonl', base)))).toContain('· 40 queries paired.')
    expect(toMarkdown(gateSides(rules, side('b.jsonl', [0.5]), side('c.jsonl', [0.5])))).toContain('· 1 query paired.')
  })
})

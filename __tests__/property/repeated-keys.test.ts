/**
 * Repeating a key (with any value) never changes a fail into a pass: it is refused (fast-check). A failing
 * candidate (every query 0.3 below the baseline, beyond the 0.1 margin) is written as JSON Lines, as a JSON
 * array of rows or as a pytrec_eval object; one record gets a key repeated (the metric itself, the id, an
 * attribute, or a key inside a nested object) with any JSON value, before or after the original. Whatever
 * the value, the gate exits 2 naming the file and the line, never 0.
 */
import { describe, expect, it } from '@jest/globals'
import fc from 'fast-check'
import { cli, writeFiles } from '../helpers.js'

const RUNS = Math.min(Number(process.env.RG_PROPERTY_RUNS ?? 100), 60)
const RULES =
  'version: 1\nmetrics:\n  m: { better: higher, range: [0, 1] }\nqueries: { min_per_slice: 1 }\nstatistics: { resamples: 200, seed: 3 }\nchecks:\n  - name: m holds\n    metric: m\n    non_inferior: { margin: 0.1 }\n'
const N = 6

/** Record `i` as JSON object members (without braces), each a `"key": value` text. */
const members = (i: number, m: number): string[] => [
  `"query_id": "q${i + 1}"`,
  `"m": ${m}`,
  `"segment": "s${i % 2}"`,
  `"trace": {"step": ${i}, "ok": true}`
]

const jsonValue = fc.oneof(
  fc.double({ min: 0, max: 1, noNaN: true }),
  fc.constantFrom(0, 1, 0.99, 0.3),
  fc.string({ maxLength: 8 }),
  fc.boolean(),
  fc.constant(null),
  fc.jsonValue({ maxDepth: 2 })
)
const shape = fc.constantFrom('jsonl', 'array', 'pytrec')

describe('repeated keys (fast-check)', () => {
  it('repeating a key (with any value) never changes a fail into a pass: it is refused', async () => {
    const base = writeFiles({
      'rules.yml': RULES,
      'b.jsonl': Array.from({ length: N }, (_, i) => `{${members(i, 0.8).join(', ')}}`).join('\n') + '\n'
    })
    const basePytrec = writeFiles({
      'b.json': '{\n' + Array.from({ length: N }, (_, i) => `"q${i + 1}": {"m": 0.8}`).join(',\n') + '\n}\n'
    })
    await fc.assert(
      fc.asyncProperty(
        shape,
        fc.nat(N - 1),
        fc.nat(3),
        jsonValue,
        fc.boolean(),
        async (format, row, which, value, before) => {
          const v = JSON.stringify(value)
          let text: string
          let file: string
          let line: number
          if (format === 'pytrec') {
            // the repeated measure, on its own line
            const entries = Array.from({ length: N }, (_, i) =>
              i === row
                ? `"q${i + 1}": {"m": 0.5,\n  "m": ${typeof value === 'number' ? v : 0.99}}`
                : `"q${i + 1}": {"m": 0.5}`
            )
            text = '{\n' + entries.join(',\n') + '\n}\n'
            file = 'c.json'
            line = row + 3
          } else {
            const records = Array.from({ length: N }, (_, i) => {
              const ms = members(i, 0.5)
              if (i !== row) return `{${ms.join(', ')}}`
              if (which === 3)
                ms[3] = before
                  ? `"trace": {"step": ${v}, "step": ${i}, "ok": true}`
                  : `"trace": {"step": ${i}, "ok": true, "step": ${v}}`
              else {
                const key = ms[which].slice(0, ms[which].indexOf(':'))
                if (before) ms.unshift(`${key}: ${v}`)
                else ms.push(`${key}: ${v}`)
              }
              return `{${ms.join(', ')}}`
            })
            if (format === 'jsonl') {
              text = records.join('\n') + '\n'
              file = 'c.jsonl'
              line = row + 1
            } else {
              text = '[\n' + records.join(',\n') + '\n]\n'
              file = 'c.json'
              line = row + 2
            }
          }
          const f = writeFiles({ [file]: text })
          const baseline = format === 'pytrec' ? basePytrec['b.json'] : base['b.jsonl']
          const r = await cli(['gate', '--rules', base['rules.yml'], '--baseline', baseline, '--candidate', f[file]])
          expect(r.code).toBe(2)
          expect(r.stderr).toContain(`${file}:${line}: `)
          expect(r.stderr).toMatch(/appears twice/)
        }
      ),
      { numRuns: RUNS }
    )
  }, 120_000)

  it('without the repeat the same candidate fails (so the refusal is what stops the pass)', async () => {
    const f = writeFiles({
      'rules.yml': RULES,
      'b.jsonl': Array.from({ length: N }, (_, i) => `{${members(i, 0.8).join(', ')}}`).join('\n') + '\n',
      'c.jsonl': Array.from({ length: N }, (_, i) => `{${members(i, 0.5).join(', ')}}`).join('\n') + '\n'
    })
    const r = await cli(['gate', '--rules', f['rules.yml'], '--baseline', f['b.jsonl'], '--candidate', f['c.jsonl']])
    expect(r.code).toBe(1)
  })
})

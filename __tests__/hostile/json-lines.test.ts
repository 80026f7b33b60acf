import { describe, expect, it } from '@jest/globals'
import { parseObjectLine } from '../../src/readers/json/lines.js'
import { cli, hasStackTrace, writeFiles } from '../helpers.js'

describe('every JSON Lines reader reads a line the same way (src/readers/json/lines.ts)', () => {
  it('refuses invalid JSON, a non-object and a repeated key, and accepts an object', () => {
    expect(parseObjectLine('{"a": 1').problem).toMatch(/^is not valid JSON/)
    expect(parseObjectLine('[1]').problem).toBe('is not a JSON object')
    expect(parseObjectLine('"q1"').problem).toBe('is not a JSON object')
    expect(parseObjectLine('{"m": 0.1, "m": 0.9}').problem).toBe(
      'key "m" appears twice in the record (JSON would silently keep the last)'
    )
    expect(parseObjectLine('{"m": {"x": 1, "x": 2}, "n": 1}').problem).toBe(
      'key "x" appears twice in the object at "m" (JSON would silently keep the last)'
    )
  })

  it('a ragas JSON Lines export with a repeated metric key is refused at its line (it used to keep the last value)', async () => {
    const line = (id: string, extra = '') => `{"query_id": "${id}", "user_input": "q", "context_recall": 0.5${extra}}`
    const good = [line('a'), line('b')].join('\n') + '\n'
    const bad = [line('a'), line('b', ', "context_recall": 0.9')].join('\n') + '\n'
    const rules =
      'version: 1\nmetrics: { context_recall: { better: higher } }\nqueries: { min_per_slice: 1 }\nchecks:\n  - { name: r, metric: context_recall, non_inferior: { margin: 0.1 } }\n'
    const f = writeFiles({ 'rules.yml': rules, 'b.jsonl': good, 'c.jsonl': bad })
    const r = await cli([
      'gate',
      '--rules',
      f['rules.yml'],
      '--baseline',
      f['b.jsonl'],
      '--candidate',
      f['c.jsonl'],
      '--input-format',
      'ragas'
    ])
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/c\.jsonl:2: key "context_recall" appears twice in the record/)
    expect(hasStackTrace(r.stderr)).toBe(false)
  })

  it('validate lists a question with a repeated key as a violation, not as its last value', async () => {
    const q =
      '{"id": "h1", "question": "q?", "answerable": true, "gold_chunk_ids": ["c1"], "split": "holdout", "split": "dev"}'
    const f = writeFiles({ 'd.jsonl': q + '\n' })
    const r = await cli(['validate', '--dataset', f['d.jsonl']])
    expect(r.code).toBe(2)
    expect(r.stdout + r.stderr).toMatch(/d\.jsonl:1: .*json: key "split" appears twice in the record/)
  })
})

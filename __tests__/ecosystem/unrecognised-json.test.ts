/**
 * A valid JSON document that is none of the shapes the gate reads used to be told, by the JSON Lines reader, that
 * its first line "is not valid JSON" and to "write one JSON object per line". It is valid JSON: the refusal now says
 * so, names the top-level shape it saw (keys escaped and cut) and lists the JSON shapes that are read.
 */
import { join } from 'node:path'
import { describe, expect, it } from '@jest/globals'
import { readRows } from '../../src/readers/read.js'
import { computeRunRows } from '../../src/metrics/index.js'
import { describeJsonShape } from '../../src/readers/importers/unrecognised-json.js'
import { refusal, writeFiles } from '../helpers.js'

const metricFields = new Set(['ndcg@10'])
const trec = join(process.cwd(), '__tests__', 'fixtures', 'trec')

describe('valid JSON of a shape the gate does not read', () => {
  it('per-query rows: names the shape and what is read, never "is not valid JSON"', async () => {
    const f = writeFiles({
      'summary.json': JSON.stringify({ experiment: 'bm25', results: [1, 2] }, null, 2),
      'record.json': JSON.stringify({ query_id: 'q1', 'ndcg@10': 0.5 }, null, 2),
      'numbers.json': '[1, 2, 3]\n',
      'flat.json': '{"experiment": "bm25",\n "n": 3}\n'
    })
    const summary = (await refusal(() => readRows(f['summary.json'], { metricFields }))).message
    expect(summary).toMatch(
      /summary\.json: is valid JSON, but not a shape the gate reads: the document is an object with 2 keys: "experiment" \(text\), "results" \(an array of 2\)\. the JSON read here: JSON Lines \(one \{"query_id": "q1", "<metric>": 0\.5\} object per line\), a JSON array of such records .*pytrec_eval .*deepeval/
    )
    expect((await refusal(() => readRows(f['record.json'], { metricFields }))).message).toMatch(
      /record\.json: is valid JSON, .*an object with 2 keys: "query_id" \(text\), "ndcg@10" \(number\)\. the JSON read here: JSON Lines/
    )
    expect((await refusal(() => readRows(f['numbers.json'], { metricFields }))).message).toMatch(
      /numbers\.json: is valid JSON, .*an array of 3 items, the first a number/
    )
    expect((await refusal(() => readRows(f['flat.json'], { metricFields }))).message).toMatch(
      /flat\.json: is valid JSON, .*an object with 2 keys: "experiment" \(text\), "n" \(number\)/
    )
    for (const file of Object.values(f))
      expect((await refusal(() => readRows(file, { metricFields }))).message).not.toMatch(
        /is not valid JSON|write one JSON object per line/
      )
  })

  it('a run: names the shape and the run formats', async () => {
    const f = writeFiles({ 'run.json': JSON.stringify({ name: 'bm25', k1: 0.9 }, null, 2) })
    const message = (
      await refusal(() =>
        computeRunRows({
          runFile: f['run.json'],
          qrelsFile: join(trec, 'qrels.txt'),
          measures: ['AP'],
          noRelevant: 'zero'
        })
      )
    ).message
    expect(message).toMatch(
      /run\.json: is valid JSON, but not a shape the gate reads: the document is an object with 2 keys: "name" \(text\), "k1" \(number\)\. the JSON read here: a ranx \/ pytrec_eval object \{query_id: \{doc_id: score\}\}/
    )
  })

  it('escapes and cuts the keys it shows, and names at most five', () => {
    const shape = describeJsonShape({ ['evil\n::error::' + 'x'.repeat(200)]: 1, b: null, c: {}, d: true, e: 'x', f: 2 })
    expect(shape).toMatch(
      /^an object with 6 keys: "evil\\n::error::x+…" \(\d+ characters\) \(number\), "b" \(null\), "c" \(an object of 0 keys\), "d" \(boolean\), "e" \(text\), and 1 more$/
    )
    expect(shape).not.toContain('\n')
    expect(describeJsonShape('s')).toBe('a single string')
    expect(describeJsonShape([])).toBe('an empty array []')
  })

  it('broken JSON is still refused as broken, at its line', async () => {
    const f = writeFiles({
      'cut.json': '{\n  "experiment": "bm25",\n',
      'rows.jsonl': '{"query_id": "q1", "ndcg@10": 0.5\n{"query_id": "q2", "ndcg@10": 0.5}\n'
    })
    expect((await refusal(() => readRows(f['cut.json'], { metricFields }))).message).toMatch(/cut\.json:\d+: .*JSON/)
    expect((await refusal(() => readRows(f['rows.jsonl'], { metricFields }))).message).toMatch(
      /rows\.jsonl:1: is not valid JSON/
    )
  })
})

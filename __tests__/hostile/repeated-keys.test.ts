/**
 * A key repeated in one JSON object is refused in every JSON the gate reads, at any depth, with the file and
 * the line (src/readers/json/document.ts; src/readers/json/nested.ts for ranx / pytrec_eval objects; the YAML
 * parser's uniqueKeys for rules). JSON.parse would keep the last value silently: `"recall@10": 0.30, ...,
 * "recall@10": 0.99` turned a failing candidate into a pass, and a second `content_hash` satisfied
 * `must_match`.
 */
import { describe, expect, it } from '@jest/globals'
import { findRepeatedKey, parseStrictJson } from '../../src/readers/json/document.js'
import { RULES, rowsJsonl, runCase, type HostileCase } from './harness.js'

const rows = rowsJsonl()
const BASE_ARRAY = '[\n{"query_id": "q1", "m": 0.5},\n{"query_id": "q2", "m": 0.5},\n{"query_id": "q3", "m": 0.5}\n]\n'
const MANIFEST = '{\n  "corpus": {"documents": 3, "content_hash": "sha256:1"},\n  "judge": {"model": "j"}\n}\n'
const MANIFEST_RULES = RULES + 'comparability:\n  must_match: [corpus.content_hash]\n'
const withManifests = [
  'gate',
  '--rules',
  '{rules.yml}',
  '--baseline',
  '{b.jsonl}',
  '--candidate',
  '{c.jsonl}',
  '--baseline-manifest',
  '{bm.json}',
  '--candidate-manifest',
  '{cm.json}'
]
const QRELS = 'q1 0 d1 1\nq1 0 d2 0\n'
const RAGAS_RULES =
  'version: 1\nmetrics: { context_recall: { better: higher, range: [0, 1] } }\nqueries: { min_per_slice: 1 }\nstatistics: { resamples: 200, seed: 3 }\nchecks:\n  - { name: r, metric: context_recall, non_inferior: { margin: 0.1 } }\n'
const ragasRecord = (id: string, extra = '') =>
  `{"query_id": "${id}", "user_input": "q ${id}", "context_recall": 0.5${extra}}`
const DEEPEVAL_RULES =
  'version: 1\nmetrics:\n  Contextual Precision: { better: higher, range: [0, 1] }\nqueries: { min_per_slice: 1 }\nstatistics: { resamples: 200, seed: 3 }\nchecks:\n  - { name: cp, metric: Contextual Precision, non_inferior: { margin: 0.1 } }\n'
const deepevalCase = (id: string, scores: string) =>
  `    {"name": "${id}", "success": true, "metrics_data": [{"name": "Contextual Precision", "success": true, ${scores}}]}`
const deepevalDoc = (cases: string[]) => `{\n  "test_results": [\n${cases.join(',\n')}\n  ]\n}\n`

export const REPEATED_KEY_CASES: HostileCase[] = [
  {
    name: 'JSON-array candidate rows: a metric key repeated in a record (0.30 then 0.99) is refused at its line',
    files: {
      'rules.yml': RULES,
      'b.json': BASE_ARRAY,
      'c.json':
        '[\n{"query_id": "q1", "m": 0.5},\n{"query_id": "q2", "m": 0.5},\n{"query_id": "q3", "m": 0.30, "m": 0.99}\n]\n'
    },
    args: ['gate', '--rules', '{rules.yml}', '--baseline', '{b.json}', '--candidate', '{c.json}'],
    code: 2,
    where: 'c.json:4',
    message: /key "m" appears twice in the object at "\[2\]"/
  },
  {
    name: 'JSON Lines rows: a key repeated inside a nested object is refused at its line',
    files: {
      'rules.yml': RULES,
      'b.jsonl': rows,
      'c.jsonl': rows + '{"query_id": "q4", "m": 0.5, "trace": {"step": 1, "step": 2}}\n'
    },
    code: 2,
    where: 'c.jsonl:4',
    message: /key "step" appears twice in the object at "trace"/
  },
  {
    name: 'JSON Lines rows: a key repeated deep inside arrays and objects',
    files: {
      'rules.yml': RULES,
      'b.jsonl': rows,
      'c.jsonl':
        '{"query_id": "q1", "m": 0.5, "t": [1, {"a": [{"x": 1}, {"x": 1, "y": 2, "x": 3}]}]}\n' +
        rows.split('\n').slice(1).join('\n')
    },
    code: 2,
    where: 'c.jsonl:1',
    message: /key "x" appears twice in the object at "t\[1\]\.a\[1\]"/
  },
  {
    name: 'pytrec_eval per-query results: a measure repeated in a query is refused at its line',
    files: {
      'rules.yml': RULES,
      'b.json': '{\n"q1": {"m": 0.5},\n"q2": {"m": 0.5}\n}\n',
      'c.json': '{\n"q1": {"m": 0.5},\n"q2": {"m": 0.1,\n "m": 0.9}\n}\n'
    },
    args: ['gate', '--rules', '{rules.yml}', '--baseline', '{b.json}', '--candidate', '{c.json}'],
    code: 2,
    where: 'c.json:4',
    message: /measure "m" appears twice in query "q2" \(also on line 3/
  },
  {
    name: 'ranx / pytrec_eval judgments: a document repeated in a query is refused at its line',
    files: { 'qrels.json': '{"q1": {"d1": 1,\n"d1": 0}}\n', 'run.txt': 'q1 Q0 d1 1 1.0 r\n' },
    args: ['metrics', '--qrels', '{qrels.json}', '--run', '{run.txt}', '-m', 'P@1'],
    code: 2,
    where: 'qrels.json:2',
    message: /document id "d1" appears twice in query "q1"/
  },
  {
    name: 'ranx run: a document repeated in a query is refused at its line',
    files: { 'qrels.txt': QRELS, 'run.json': '{"q1": {"d1": 2.0,\n"d2": 1.0,\n"d1": 0.5}}\n' },
    args: ['metrics', '--qrels', '{qrels.txt}', '--run', '{run.json}', '-m', 'P@1'],
    code: 2,
    where: 'run.json:3',
    message: /document id "d1" appears twice in query "q1"/
  },
  {
    name: 'manifest: a repeated content_hash (one matching, one not) is refused, not read as the last',
    files: {
      'rules.yml': MANIFEST_RULES,
      'b.jsonl': rows,
      'c.jsonl': rows,
      'bm.json': MANIFEST,
      'cm.json':
        '{\n  "corpus": {"documents": 3, "content_hash": "sha256:2",\n    "content_hash": "sha256:1"},\n  "judge": {"model": "j"}\n}\n'
    },
    args: withManifests,
    code: 2,
    where: 'cm.json:3',
    message: /key "content_hash" appears twice in the object at "corpus"/
  },
  {
    name: 'manifest: a repeated top-level key is refused',
    files: {
      'rules.yml': MANIFEST_RULES,
      'b.jsonl': rows,
      'c.jsonl': rows,
      'bm.json': MANIFEST,
      'cm.json': '{"judge": {"model": "j"},\n"judge": {"model": "k"}}'
    },
    args: withManifests,
    code: 2,
    where: 'cm.json:2',
    message: /key "judge" appears twice in the record/
  },
  {
    name: 'rules written as JSON: a key repeated in a nested object is refused at its line',
    files: {
      'rules.json':
        '{\n"version": 1,\n"metrics": {"m": {"better": "higher", "range": [0, 1]}},\n"queries": {"min_per_slice": 1},\n"checks": [{"name": "m holds", "metric": "m",\n  "non_inferior": {"margin": 0.1, "margin": 1}}]\n}\n',
      'b.jsonl': rows,
      'c.jsonl': rows
    },
    args: ['gate', '--rules', '{rules.json}', '--baseline', '{b.jsonl}', '--candidate', '{c.jsonl}'],
    code: 2,
    where: 'rules.json:6',
    message: /a key is repeated in the same mapping/
  },
  {
    name: 'rules: a quoted and an unquoted key that become the same name ("1" and 1) are refused',
    files: { 'rules.yml': RULES + 'slices: []\nnotes: {"1": a, 1: b}\n', 'b.jsonl': rows, 'c.jsonl': rows },
    code: 2,
    where: 'rules.yml:',
    message: /a key is repeated in the same mapping/
  },
  {
    name: 'ragas JSON export (records): a metric repeated in a record is refused at its line',
    files: {
      'rules.yml': RAGAS_RULES,
      'b.json': `[\n${ragasRecord('a')},\n${ragasRecord('b')}\n]\n`,
      'c.json': `[\n${ragasRecord('a')},\n${ragasRecord('b', ', "context_recall": 0.9')}\n]\n`
    },
    args: [
      'gate',
      '--rules',
      '{rules.yml}',
      '--baseline',
      '{b.json}',
      '--candidate',
      '{c.json}',
      '--input-format',
      'ragas'
    ],
    code: 2,
    where: 'c.json:3',
    message: /key "context_recall" appears twice/
  },
  {
    name: 'deepeval export: a score repeated in a metric result is refused at its line',
    files: {
      'rules.yml': DEEPEVAL_RULES,
      'b.json': deepevalDoc([deepevalCase('a', '"score": 0.5'), deepevalCase('b', '"score": 0.5')]),
      'c.json': deepevalDoc([deepevalCase('a', '"score": 0.5'), deepevalCase('b', '"score": 0.1, "score": 0.9')])
    },
    args: ['gate', '--rules', '{rules.yml}', '--baseline', '{b.json}', '--candidate', '{c.json}'],
    code: 2,
    where: 'c.json:4',
    message: /key "score" appears twice in the object at "test_results\[1\]\.metrics_data\[0\]"/
  },
  {
    name: 'evaluation set: a key repeated in a nested object (graded_relevance) is a violation at its line',
    files: {
      'd.jsonl':
        '{"id": "h1", "question": "q?", "answerable": true, "gold_chunk_ids": ["c1"], "graded_relevance": {"c1": 3, "c1": 0}, "split": "holdout", "review": {"by": "a", "method": "double-annotated", "status": "accepted"}}\n'
    },
    args: ['validate', '--dataset', '{d.jsonl}'],
    code: 2,
    where: 'd.jsonl:1',
    message: /key "c1" appears twice in the object at "graded_relevance"/
  },
  {
    name: 'evaluation set: a key repeated in review (status accepted, then disputed) is a violation',
    files: {
      'd.jsonl':
        '{"id": "h1", "question": "q?", "answerable": true, "gold_chunk_ids": ["c1"], "split": "holdout", "review": {"by": "a", "method": "double-annotated", "status": "disputed", "status": "accepted"}}\n'
    },
    args: ['validate', '--dataset', '{d.jsonl}'],
    code: 2,
    where: 'd.jsonl:1',
    message: /key "status" appears twice in the object at "review"/
  },
  {
    name: 'JSON Lines corpus listing: a repeated key is a violation at its line',
    files: {
      'd.jsonl':
        '{"id": "h1", "question": "q?", "answerable": true, "gold_chunk_ids": ["c1"], "split": "holdout", "review": {"by": "a", "method": "double-annotated", "status": "accepted"}}\n',
      'corpus.jsonl': '{"chunk_id": "c1"}\n{"chunk_id": "c2", "chunk_id": "c1"}\n'
    },
    args: ['validate', '--dataset', '{d.jsonl}', '--corpus', '{corpus.jsonl}'],
    code: 2,
    where: 'corpus.jsonl:2',
    message: /key "chunk_id" appears twice/
  },
  {
    name: 'JSON Lines run: a key repeated inside a result object is refused at its line',
    files: {
      'qrels.txt': QRELS,
      'run.jsonl': '{"query_id": "q1", "results": [{"doc_id": "d2", "score": 2, "doc_id": "d1"}]}\n'
    },
    args: ['metrics', '--qrels', '{qrels.txt}', '--run', '{run.jsonl}', '-m', 'P@1'],
    code: 2,
    where: 'run.jsonl:1',
    message: /key "doc_id" appears twice in the object at "results\[0\]"/
  }
]

describe('a repeated key is refused in every JSON the gate reads, at any depth, with file and line', () => {
  it.each(REPEATED_KEY_CASES.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    await runCase(c)
  })

  it('findRepeatedKey names the key, its line and the path of its object, and accepts equal keys in different objects', () => {
    expect(findRepeatedKey('{"a": 1, "b": {"a": 2}, "c": [{"a": 3}, {"a": 4}]}')).toBeUndefined()
    expect(findRepeatedKey('{"a": 1,\n"a": 2}')).toEqual({ key: 'a', line: 2, path: '' })
    expect(findRepeatedKey('[{"k": [1, 2]}, {"k": {"\\u0078": 1, "x": 2}}]')).toEqual({
      key: 'x',
      line: 1,
      path: '[1].k'
    })
    expect(findRepeatedKey('{"s": "a\\"b, {\\"x\\": 1, \\"x\\": 2}"}')).toBeUndefined()
    expect(parseStrictJson('{"a": {"b": 1, "b": 1}}').problem).toBe(
      'key "b" appears twice in the object at "a" (JSON would silently keep the last)'
    )
  })

  it('the scan is linear: 200,000 keys in one object and 100,000 nested levels take seconds, not minutes', () => {
    const wide = '{' + Array.from({ length: 200_000 }, (_, i) => `"k${i}": ${i}`).join(',') + ', "k7": 0}'
    const deep = '['.repeat(100_000) + ']'.repeat(100_000)
    const start = Date.now()
    expect(findRepeatedKey(wide)?.key).toBe('k7')
    expect(findRepeatedKey(deep)).toBeUndefined()
    expect(Date.now() - start).toBeLessThan(8000) // a quadratic scan would take minutes; generous for a loaded CI machine
  })
})

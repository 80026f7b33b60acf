/**
 * Hostile evaluation sets (src/readers/dataset, `validate`) and snapshot manifests (src/readers/manifest.ts, `gate
 * --baseline-manifest / --candidate-manifest`), through the in-process CLI.
 */
import { afterAll, describe, it } from '@jest/globals'
import { expectNoPollution, RULES, rowsJsonl, runCase, type HostileCase } from './harness.js'

const q = (id: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    id,
    question: `question ${id}?`,
    answerable: true,
    gold_chunk_ids: ['c01'],
    category: 'x',
    split: 'holdout',
    review: { by: 'a', method: 'double-annotated', status: 'accepted' },
    ...extra
  })
const DATASET = [q('h1'), q('h2', { gold_chunk_ids: ['c02'] })].join('\n') + '\n'
const CORPUS = 'c01\nc02\nc03\n'
const validate = ['validate', '--dataset', '{d.jsonl}', '--corpus', '{corpus.txt}']
const ds = (name: string, dataset: string | Buffer, code: 0 | 2, where?: string, message?: RegExp): HostileCase => ({
  name,
  files: { 'd.jsonl': dataset, 'corpus.txt': CORPUS },
  args: validate,
  code,
  where,
  message
})

const MANIFEST = JSON.stringify({
  corpus: { documents: 3, content_hash: 'sha256:1' },
  embedding: { model: 'e5' },
  metric_code_version: 'x'
})
const rows = rowsJsonl()
const withManifest = [
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
  '{cm.json}',
  '--json',
  '{report.json}'
]
const mf = (name: string, manifest: string | Buffer, code: 0 | 2, where?: string, message?: RegExp): HostileCase => ({
  name,
  files: { 'rules.yml': RULES, 'b.jsonl': rows, 'c.jsonl': rows, 'bm.json': manifest, 'cm.json': MANIFEST },
  args: withManifest,
  code,
  where,
  message
})

export const DATASET_CASES: HostileCase[] = [
  ds('a valid dataset (sanity)', DATASET, 0),
  ds(
    'duplicate question id',
    DATASET + q('h1') + '\n',
    2,
    'd.jsonl:3',
    /duplicate_id: id "h1" is used twice \(also on line 1\)/
  ),
  ds('BOM and CRLF are accepted', '\ufeff' + DATASET.replace(/\n/g, '\r\n'), 0),
  ds('truncated last line', DATASET + q('h3').slice(0, 40), 2, 'd.jsonl:3', /is not valid JSON/),
  ds(
    'NaN grade is not JSON',
    DATASET + q('h3').replace('"split"', '"graded_relevance":{"c01":NaN},"split"') + '\n',
    2,
    'd.jsonl:3',
    /not valid JSON/
  ),
  // 1e400 overflows to Infinity on purpose: the file must hold a number JSON.parse cannot represent.
  ds(
    'grade 1e400 is not an integer 0..3',
    // eslint-disable-next-line no-loss-of-precision
    DATASET + q('h3', { graded_relevance: { c01: 1e400 } }).replace('null', '1e400') + '\n',
    2,
    'd.jsonl:3',
    /graded_relevance\.c01/
  ),
  ds(
    'grade "2" written as a string',
    DATASET + q('h3', { graded_relevance: { c01: '2' } }) + '\n',
    2,
    'd.jsonl:3',
    /graded_relevance\.c01 must be integer/
  ),
  ds('numeric question id', DATASET + q('h3').replace('"id":"h3"', '"id":3') + '\n', 2, 'd.jsonl:3', /id/),
  ds(
    'invalid UTF-8',
    Buffer.concat([Buffer.from(DATASET + '{"id":"h'), Buffer.from([0xff]), Buffer.from('"}\n')]),
    2,
    'd.jsonl:3',
    /not valid UTF-8/
  ),
  ds(
    'a gold chunk missing from the corpus listing',
    DATASET + q('h3', { gold_chunk_ids: ['c99'] }) + '\n',
    2,
    'd.jsonl:3',
    /unknown_chunk/
  ),
  ds(
    '__proto__ as id and as a graded_relevance key',
    DATASET +
      q('__proto__', { graded_relevance: JSON.parse('{"__proto__": 2, "c01": 3}') }).replace(
        '"graded_relevance":{"c01":3}',
        '"graded_relevance":{"__proto__":2,"c01":3}'
      ) +
      '\n',
    2,
    'd.jsonl:3',
    /__proto__/
  ),
  ds('empty dataset', '', 2, 'd.jsonl', /empty|no questions|holds no/),
  // --- manifests
  mf('a valid manifest (sanity)', MANIFEST, 0),
  mf('manifest that is not JSON', '{"corpus": {', 2, 'bm.json', /is not valid JSON/),
  mf('empty manifest file', '', 2, 'bm.json', /is not valid JSON/),
  mf('manifest that is an array', '[1, 2]', 2, 'bm.json', /is not a JSON object/),
  mf(
    'known manifest key of the wrong type',
    JSON.stringify({ corpus: 'big' }),
    2,
    'bm.json (corpus)',
    /"corpus" must be an object, not string/
  ),
  mf(
    'manifest key with a dot',
    JSON.stringify({ chunker: { 'chunk.size': 512 } }),
    2,
    'bm.json (chunker.chunk.size)',
    /contains a dot/
  ),
  mf('manifest with a BOM is accepted', '\ufeff' + MANIFEST, 0),
  mf(
    'manifest with invalid UTF-8',
    Buffer.concat([Buffer.from('{"judge": {"model": "'), Buffer.from([0xc3, 0x28]), Buffer.from('"}}')]),
    2,
    'bm.json',
    /not valid UTF-8/
  ),
  mf(
    'manifest over 1 MiB',
    JSON.stringify({ notes: 'x'.repeat(1024 * 1024) }),
    2,
    'bm.json',
    /is \d+ bytes; a manifest is read whole and the limit is 1048576/
  ),
  {
    ...mf(
      '__proto__ keys in a manifest are plain data',
      '{"__proto__": {"polluted": 1}, "corpus": {"constructor": "x"}}',
      0
    ),
    check: () => expectNoPollution()
  }
]

describe('hostile datasets and manifests', () => {
  it.each(DATASET_CASES.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    await runCase(c)
  })

  afterAll(() => {
    expectNoPollution()
  })
})

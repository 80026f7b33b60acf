import { describe, expect, it } from '@jest/globals'
import { readFileSync } from 'node:fs'
import { compareManifests } from '../../src/trust/comparability.js'
import { parseManifest } from '../../src/readers/manifest.js'
import { cli, hasStackTrace, writeFiles } from '../helpers.js'

// Fixtures: __tests__/fixtures/trust/manifests/. The candidates differ from baseline.json in:
//   new-embedding: embedding.{model,dimension} only (what the change is about: allowed by default)
//   rechunked: also chunker.params.size 512 -> 256 and corpus.chunks 5400 -> 10800
//   new-metric-code: also metric_code_version (not in must_match, not allowed to differ: a warning)
//   no-judge: embedding, and no judge at all
const M = '__tests__/fixtures/trust/manifests'
const manifest = (name: string) => parseManifest(readFileSync(`${M}/${name}.json`, 'utf8'), `${M}/${name}.json`)
const MUST = ['corpus.content_hash', 'chunker', 'judge.model']

describe('snapshot comparability (pure)', () => {
  it('a new embedding model is allowed; nothing else differs: comparable', () => {
    const r = compareManifests(
      [
        ['baseline', manifest('baseline')],
        ['candidate', manifest('candidate-new-embedding')]
      ],
      MUST,
      ['embedding']
    )
    expect(r.comparable).toBe(true)
    expect(r.mismatches).toEqual([])
    expect(r.warnings).toEqual([])
    expect(r.allowed.map((d) => d.path)).toEqual(['embedding.dimension', 'embedding.model'])
  })

  it('a different chunker is named with both values; corpus.chunks is a warning', () => {
    const r = compareManifests(
      [
        ['baseline', manifest('baseline')],
        ['candidate', manifest('candidate-rechunked')]
      ],
      MUST,
      ['embedding']
    )
    expect(r.comparable).toBe(false)
    expect(r.mismatches).toEqual([
      {
        path: 'chunker.params.size',
        values: [
          ['baseline', '512'],
          ['candidate', '256']
        ]
      }
    ])
    expect(r.warnings).toEqual([
      {
        path: 'corpus.chunks',
        values: [
          ['baseline', '5400'],
          ['candidate', '10800']
        ]
      }
    ])
  })

  it('a must_match field absent on one side cannot be confirmed: not comparable', () => {
    const r = compareManifests(
      [
        ['baseline', manifest('baseline')],
        ['candidate', manifest('candidate-no-judge')]
      ],
      MUST,
      ['embedding']
    )
    expect(r.comparable).toBe(false)
    expect(r.mismatches).toEqual([
      {
        path: 'judge.model',
        values: [
          ['baseline', '"judge-a"'],
          ['candidate', null]
        ]
      }
    ])
    // judge.prompt_hash is not in must_match: its absence is a warning
    expect(r.warnings.map((w) => w.path)).toEqual(['judge.prompt_hash'])
  })

  it('a dataset manifest speaks only for the fields it has', () => {
    const dataset = parseManifest(JSON.stringify({ corpus: { content_hash: 'sha256:2222' } }), 'dataset.json')
    const r = compareManifests(
      [
        ['baseline', manifest('baseline')],
        ['candidate', manifest('candidate-new-embedding')],
        ['dataset', dataset]
      ],
      MUST,
      ['embedding']
    )
    expect(r.mismatches).toEqual([
      {
        path: 'corpus.content_hash',
        values: [
          ['baseline', '"sha256:1111"'],
          ['candidate', '"sha256:1111"'],
          ['dataset', '"sha256:2222"']
        ]
      }
    ])
  })

  it('refuses a manifest that is not a JSON object, or has a known key of the wrong type', () => {
    expect(() => parseManifest('[1]', 'm.json')).toThrow('m.json: is not a JSON object')
    expect(() => parseManifest('{"chunker": "recursive"}', 'm.json')).toThrow(
      'm.json (chunker): "chunker" must be an object, not string'
    )
    expect(() => parseManifest('{"a.b": 1}', 'm.json')).toThrow('contains a dot')
  })
})

describe('snapshot comparability in the gate', () => {
  const P = '__tests__/fixtures/trust/pooling'
  const rules = (extra: string) =>
    writeFiles({
      'rules.yml': `version: 1\njudgments: { qrels: ${P}/qrels-complete.txt }\nmetrics:\n  nDCG@10: { better: higher }\nqueries: { min_per_slice: 1 }\nstatistics: { resamples: 200, interval: percentile }\non_too_few: pass\nchecks:\n  - { name: n, metric: nDCG@10, non_inferior: { margin: 0.05 } }\n${extra}`
    })['rules.yml']
  const gate = async (rulesFile: string, cand: string, ...more: string[]) => {
    const out = writeFiles({ 'r.json': '' })['r.json']
    const r = await cli([
      'gate',
      '--rules',
      rulesFile,
      '--baseline',
      `${P}/baseline.jsonl`,
      '--candidate',
      `${P}/candidate.jsonl`,
      '--baseline-manifest',
      `${M}/baseline.json`,
      '--candidate-manifest',
      `${M}/${cand}.json`,
      '--json',
      out,
      '--format',
      'markdown',
      ...more
    ])
    return { ...r, json: JSON.parse(readFileSync(out, 'utf8')) }
  }

  it('fails as "not comparable", naming the field and both values, whatever the statistics say', async () => {
    const r = await gate(
      rules('comparability: { must_match: [corpus.content_hash, chunker, judge.model] }\n'),
      'candidate-rechunked'
    )
    expect(r.code).toBe(1)
    expect(r.json.verdict).toBe('fail')
    expect(r.json.decided_by).toBe('comparability')
    expect(r.json.checks[0].counts_as).toBe('pass') // the statistical check alone would pass (on_too_few: pass)
    expect(r.json.trust.guards[0]).toEqual({
      rule: 'comparability',
      status: 'fail',
      counts_as: 'fail',
      reason: 'not comparable: chunker.params.size: baseline 512, candidate 256'
    })
    expect(r.stdout).toContain('## ❌ retrieval-gate: fail, decided by trust rule “comparability”')
    expect(r.stdout).toContain('not comparable: chunker.params.size: baseline 512, candidate 256')
    expect(r.json.publishable.value).toBe(false)
  })

  it('passes when only the embedding differs; a comparability warning makes the result unpublishable', async () => {
    const ok = await gate(
      rules('comparability: { must_match: [corpus.content_hash, chunker, judge.model] }\n'),
      'candidate-new-embedding'
    )
    expect(ok.code).toBe(0)
    expect(ok.json.publishable).toEqual({ value: true, reasons: [], unchecked: [] })
    expect(ok.stdout).toContain(
      '| embedding.model | ⚠️ differs | allowed to differ: embedding.model: baseline "e5-base-v2", candidate "bge-large" |'
    )
    const warned = await gate(
      rules('comparability: { must_match: [corpus.content_hash, chunker, judge.model] }\n'),
      'candidate-new-metric-code'
    )
    expect(warned.code).toBe(0)
    expect(warned.json.publishable.reasons).toEqual([
      'comparability warning: metric_code_version: baseline "retrieval-gate 0.1.0", candidate "retrieval-gate 0.2.0"'
    ])
    expect(warned.stdout).toContain('**Publishable: no**: comparability warning: metric\\_code\\_version')
  })

  it('refuses rules that demand comparability when a manifest is missing (exit 2)', async () => {
    const r = await cli([
      'gate',
      '--rules',
      rules('comparability: { must_match: [chunker] }\n'),
      '--baseline',
      `${P}/baseline.jsonl`,
      '--candidate',
      `${P}/candidate.jsonl`,
      '--baseline-manifest',
      `${M}/baseline.json`
    ])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain(
      '(comparability): the rules demand that chunker match, but the candidate manifest was not given. pass --baseline-manifest and --candidate-manifest'
    )
    expect(hasStackTrace(r.stderr)).toBe(false)
  })
})

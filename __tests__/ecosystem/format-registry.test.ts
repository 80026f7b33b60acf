/**
 * The format registry (src/readers/formats.ts) is the one place formats are declared, and detection
 * (src/readers/read.ts) the one step that picks among them:
 * - every committed fixture (and example) is detected as the format it is used as, and each such format is an entry;
 * - every entry is exercised, by a fixture or by a small sample written here (refusals, forms without a fixture);
 * - every `--input-format` name is answered by an entry, unconditionally by at least one;
 * - an entry added to the registry is picked up by the readers' entry points, with nothing else changed;
 * - docs/importers.md lists the registry as it is.
 */
import { describe, expect, it } from '@jest/globals'
import { readFileSync } from 'node:fs'
import { execFileSync } from 'node:child_process'
import { join } from 'node:path'
import { detectFormat } from '../../src/readers/read.js'
import {
  FORMATS,
  type FormatEntry,
  type FormatKind,
  type QrelsEntry,
  type RowsEntry
} from '../../src/readers/formats.js'
import { ROW_FORMATS } from '../../src/readers/rows-input.js'
import { readQrels, readRows } from '../../src/readers/read.js'
import { rowsOf, sideFromRows } from '../../src/model/rows.js'
import { writeFiles } from '../helpers.js'

const root = process.cwd()

/** Each committed fixture and example: the kind it is read as and the format it must be detected as, or why it is not detected. */
const FIXTURES: Record<string, { kind: FormatKind; name: string; metrics?: string[] } | string> = {
  '__tests__/fixtures/importers/README.md': 'documentation',
  '__tests__/fixtures/importers/VERSIONS.txt': 'documentation (the versions of the tools that wrote them)',
  '__tests__/fixtures/importers/beir/qrels/test.tsv': { kind: 'qrels', name: 'beir' },
  '__tests__/fixtures/importers/deepeval/baseline.json': { kind: 'rows', name: 'deepeval' },
  '__tests__/fixtures/importers/deepeval/candidate.json': { kind: 'rows', name: 'deepeval' },
  '__tests__/fixtures/importers/deepeval/evaluation-result.json': { kind: 'rows', name: 'deepeval' },
  '__tests__/fixtures/importers/deepeval/latest_test_run.json': { kind: 'rows', name: 'deepeval' },
  '__tests__/fixtures/importers/deepeval/positional.json': { kind: 'rows', name: 'deepeval' },
  '__tests__/fixtures/importers/ir_measures/run.tsv': { kind: 'rows', name: 'ir_measures' },
  '__tests__/fixtures/importers/ir_measures/run-windows.tsv': { kind: 'rows', name: 'ir_measures' },
  '__tests__/fixtures/importers/ir_measures/long.csv': { kind: 'rows', name: 'long-csv', metrics: ['AP'] },
  '__tests__/fixtures/importers/pytrec_eval/qrels.json': { kind: 'qrels', name: 'json' },
  '__tests__/fixtures/importers/pytrec_eval/results.json': { kind: 'rows', name: 'pytrec_eval' },
  '__tests__/fixtures/importers/pytrec_eval/run.json': { kind: 'run', name: 'json' },
  '__tests__/fixtures/importers/ragas/baseline.csv': { kind: 'rows', name: 'csv-records' },
  '__tests__/fixtures/importers/ragas/baseline-windows.csv': { kind: 'rows', name: 'csv-records' },
  '__tests__/fixtures/importers/ragas/baseline-with-index.csv': { kind: 'rows', name: 'csv-records' },
  '__tests__/fixtures/importers/ragas/baseline.json': { kind: 'rows', name: 'json-records' },
  '__tests__/fixtures/importers/ragas/candidate.csv': { kind: 'rows', name: 'csv-records' },
  '__tests__/fixtures/importers/ragas/candidate.jsonl': { kind: 'rows', name: 'jsonl-records' },
  '__tests__/fixtures/importers/ragas/evaluate-string-metrics.csv': { kind: 'rows', name: 'csv-records' },
  '__tests__/fixtures/importers/ragas/candidate.parquet': { kind: 'rows', name: 'parquet', metrics: ['faithfulness'] },
  '__tests__/fixtures/importers/ragas/columns.json': { kind: 'rows', name: 'columns-orient' },
  '__tests__/fixtures/importers/ranx/qrels.json': { kind: 'qrels', name: 'json' },
  '__tests__/fixtures/importers/ranx/qrels.lz4': { kind: 'qrels', name: 'lz4' },
  '__tests__/fixtures/importers/ranx/run.json': { kind: 'run', name: 'json' },
  '__tests__/fixtures/importers/ranx/run.lz4': { kind: 'run', name: 'lz4' },
  '__tests__/fixtures/importers/ranx/run-linked-checksums.lz4': { kind: 'run', name: 'lz4' },
  '__tests__/fixtures/importers/ranx/run.parquet': { kind: 'run', name: 'parquet' },
  '__tests__/fixtures/importers/ranx/qrels.parquet': { kind: 'qrels', name: 'parquet' },
  '__tests__/fixtures/importers/ranx/report.json': { kind: 'rows', name: 'ranx-report' },
  '__tests__/fixtures/importers/ranx/scores.json': { kind: 'rows', name: 'metric-major' },
  '__tests__/fixtures/importers/ranx/per-query.json': { kind: 'rows', name: 'pytrec_eval' },
  '__tests__/fixtures/parquet/README.md': 'documentation',
  '__tests__/fixtures/parquet/make-fixtures.js': 'the script that writes the fixtures',
  '__tests__/fixtures/parquet/baseline.parquet': { kind: 'rows', name: 'parquet', metrics: ['recall@10'] },
  '__tests__/fixtures/parquet/candidate.parquet': { kind: 'rows', name: 'parquet', metrics: ['recall@10'] },
  '__tests__/fixtures/parquet/baseline-long.parquet': { kind: 'rows', name: 'parquet-long', metrics: ['recall@10'] },
  '__tests__/fixtures/parquet/candidate-long.parquet': { kind: 'rows', name: 'parquet-long', metrics: ['recall@10'] },
  '__tests__/fixtures/trec/README.md': 'documentation',
  '__tests__/fixtures/trec/expected.txt': { kind: 'rows', name: 'trec_eval' },
  '__tests__/fixtures/trec/expected-M5.txt': { kind: 'rows', name: 'trec_eval' },
  '__tests__/fixtures/trec/expected-l2.txt': { kind: 'rows', name: 'trec_eval' },
  '__tests__/fixtures/trec/expected-norel.txt': { kind: 'rows', name: 'trec_eval' },
  '__tests__/fixtures/trec/expected-norel-c.txt': { kind: 'rows', name: 'trec_eval' },
  '__tests__/fixtures/trec/qrels.txt': { kind: 'qrels', name: 'trec' },
  '__tests__/fixtures/trec/qrels-norel.txt': { kind: 'qrels', name: 'trec' },
  '__tests__/fixtures/trec/run.txt': { kind: 'run', name: 'trec' },
  '__tests__/fixtures/trec/run-norel.txt': { kind: 'run', name: 'trec' },
  '__tests__/fixtures/trec/run-ungrouped.txt': { kind: 'run', name: 'trec' },
  '__tests__/fixtures/trec/run.jsonl': { kind: 'run', name: 'jsonl' },
  '__tests__/fixtures/trust/dataset/baseline.jsonl': { kind: 'rows', name: 'jsonl' },
  '__tests__/fixtures/trust/dataset/candidate.jsonl': { kind: 'rows', name: 'jsonl' },
  '__tests__/fixtures/trust/dataset/changed.jsonl': 'an evaluation set (src/readers/dataset/read.ts, one layout)',
  '__tests__/fixtures/trust/dataset/dataset.jsonl': 'an evaluation set (src/readers/dataset/read.ts, one layout)',
  '__tests__/fixtures/trust/dataset/invalid.jsonl': 'an evaluation set (src/readers/dataset/read.ts, one layout)',
  '__tests__/fixtures/trust/dataset/previous.jsonl': 'an evaluation set (src/readers/dataset/read.ts, one layout)',
  '__tests__/fixtures/trust/dataset/corpus.txt': 'a corpus listing (one document id per line, src/readers/dataset/)',
  '__tests__/fixtures/trust/dataset/rules.yml': 'a rules file (src/config/)',
  '__tests__/fixtures/trust/manifests/baseline.json': 'a manifest (src/readers/manifest.ts, one JSON object)',
  '__tests__/fixtures/trust/manifests/candidate-new-embedding.json':
    'a manifest (src/readers/manifest.ts, one JSON object)',
  '__tests__/fixtures/trust/manifests/candidate-new-metric-code.json':
    'a manifest (src/readers/manifest.ts, one JSON object)',
  '__tests__/fixtures/trust/manifests/candidate-no-judge.json': 'a manifest (src/readers/manifest.ts, one JSON object)',
  '__tests__/fixtures/trust/manifests/candidate-rechunked.json':
    'a manifest (src/readers/manifest.ts, one JSON object)',
  '__tests__/fixtures/trust/pooling/baseline.jsonl': { kind: 'rows', name: 'jsonl' },
  '__tests__/fixtures/trust/pooling/candidate.jsonl': { kind: 'rows', name: 'jsonl' },
  '__tests__/fixtures/trust/pooling/qrels.txt': { kind: 'qrels', name: 'trec' },
  '__tests__/fixtures/trust/pooling/qrels-complete.txt': { kind: 'qrels', name: 'trec' },
  '__tests__/fixtures/trust/pooling/rules.yml': 'a rules file (src/config/)',
  '__tests__/fixtures/trust/two-stage/qrels.txt': { kind: 'qrels', name: 'trec' },
  '__tests__/fixtures/trust/two-stage/run.jsonl': { kind: 'run', name: 'jsonl' },
  '__tests__/fixtures/trust/two-stage/rules.yml': 'a rules file (src/config/)',
  'examples/baseline.jsonl': { kind: 'rows', name: 'jsonl' },
  'examples/candidate.jsonl': { kind: 'rows', name: 'jsonl' },
  'examples/rules.yml': 'a rules file (src/config/)',
  'examples/runs/baseline.jsonl': { kind: 'run', name: 'jsonl' },
  'examples/runs/candidate.jsonl': { kind: 'run', name: 'jsonl' },
  'examples/runs/qrels.txt': { kind: 'qrels', name: 'trec' },
  'examples/runs/rules.yml': 'a rules file (src/config/)',
  'examples/trec/baseline.run': { kind: 'run', name: 'trec' },
  'examples/trec/candidate.run': { kind: 'run', name: 'trec' },
  'examples/trec/queries.jsonl': { kind: 'records', name: 'jsonl' },
  'examples/trec/rules.yml': 'a rules file (src/config/)'
}

/** Samples of the formats no committed file exercises as itself: refusals, and forms only tests write. */
const SAMPLES: Array<{ kind: FormatKind; name: string; file: string; text: string | Buffer }> = [
  // committed files given where another kind is read: refused by name (rows, judgments) or read (a run table)
  {
    kind: 'rows',
    name: 'lz4',
    file: 'run.lz4',
    text: readFileSync(join(root, '__tests__/fixtures/importers/ranx/run.lz4'))
  },
  {
    kind: 'qrels',
    name: 'parquet',
    file: 'qrels.parquet',
    text: readFileSync(join(root, '__tests__/fixtures/parquet/baseline.parquet'))
  },
  {
    kind: 'run',
    name: 'parquet',
    file: 'run.parquet',
    text: readFileSync(join(root, '__tests__/fixtures/parquet/baseline.parquet'))
  },
  {
    kind: 'rows',
    name: 'ranx-report',
    file: 'report.json',
    text: '{"model_names": ["bm25"], "stat_test": "student", "metrics": ["ndcg@10"]}\n'
  },
  {
    kind: 'rows',
    name: 'beir-results',
    file: 'results.json',
    text: '{"ndcg": {"NDCG@10": 0.5}, "map": {"MAP@10": 0.4}}\n'
  },
  { kind: 'rows', name: 'metric-major', file: 'scores.json', text: '{"ndcg@10": {"q1": 0.5, "q2": 0.25}}\n' },
  {
    kind: 'rows',
    name: 'long-jsonl',
    file: 'long.jsonl',
    text: '{"query_id": "q1", "measure": "nDCG@10", "value": 0.5}\n'
  },
  { kind: 'rows', name: 'long-tsv', file: 'long.tsv', text: 'qid\tmeasure\tvalue\nq1\tAP\t0.5\n' },
  { kind: 'rows', name: 'long-csv', file: 'long.csv', text: 'query_id,measure,value\nq1,AP,0.5\n' },
  {
    kind: 'rows',
    name: 'json-document',
    file: 'summary.json',
    text: '{\n  "experiment": "bm25",\n  "results": [1, 2]\n}\n'
  },
  { kind: 'rows', name: 'csv', file: 'rows.csv', text: 'query_id,recall@10\nq1,0.5\n' },
  { kind: 'run', name: 'json-document', file: 'summary.json', text: '{\n  "experiment": "bm25"\n}\n' },
  { kind: 'records', name: 'csv', file: 'labels.csv', text: 'item,label\na,1\n' },
  // a run, judgments or per-query rows given as another kind (src/readers/shapes.ts): refused as what they are
  { kind: 'rows', name: 'looks-like-trec-run', file: 'as-rows.run', text: 'q1 Q0 d1 1 2.5 bm25\n' },
  { kind: 'rows', name: 'looks-like-trec-qrels', file: 'as-rows.qrels', text: 'q1 0 d1 1\n' },
  { kind: 'rows', name: 'looks-like-beir-qrels', file: 'as-rows.tsv', text: 'query-id\tcorpus-id\tscore\nq1\td1\t1\n' },
  { kind: 'run', name: 'looks-like-trec-qrels', file: 'as-run.qrels', text: 'q1 0 d1 1\n' },
  { kind: 'run', name: 'looks-like-beir-qrels', file: 'as-run.tsv', text: 'query-id\tcorpus-id\tscore\nq1\td1\t1\n' },
  { kind: 'run', name: 'looks-like-jsonl-rows', file: 'as-run.jsonl', text: '{"query_id": "q1", "recall@10": 0.5}\n' },
  { kind: 'run', name: 'looks-like-csv-rows', file: 'as-run.csv', text: 'query_id,recall@10\nq1,0.5\n' },
  { kind: 'qrels', name: 'looks-like-trec-run', file: 'as-qrels.run', text: 'q1 Q0 d1 1 2.5 bm25\n' },
  {
    kind: 'qrels',
    name: 'looks-like-jsonl-run',
    file: 'as-qrels-run.jsonl',
    text: '{"query_id": "q1", "results": [{"doc_id": "d1", "score": 2.5}]}\n'
  },
  {
    kind: 'qrels',
    name: 'looks-like-jsonl-rows',
    file: 'as-qrels.jsonl',
    text: '{"query_id": "q1", "recall@10": 0.5}\n'
  },
  { kind: 'qrels', name: 'looks-like-csv-rows', file: 'as-qrels.csv', text: 'query_id,recall@10\nq1,0.5\n' },
  // the layouts of `gate --aggregates` (the warehouse tests read each one in full from DuckDB's output)
  { kind: 'aggregates', name: 'parquet', file: 'sums.parquet', text: 'PAR1 (detected by its magic only here)' },
  { kind: 'aggregates', name: 'csv', file: 'sums.csv', text: 'section,shard,family\nmeta,s0,0\n' },
  { kind: 'aggregates', name: 'jsonl', file: 'sums.jsonl', text: '{"section": "meta", "shard": "s0"}\n' }
]

/** What a detection of `file` as `kind` chooses (the rules' metrics: recall@10, or those given). */
async function detected(kind: FormatKind, file: string, metrics = ['recall@10']): Promise<string> {
  return (await detectFormat({ kind, file, metricFields: new Set(metrics) })).choice.name
}

const entryNames = (kind: FormatKind): string[] => FORMATS.filter((e) => e.kind === kind).map((e) => e.name)

describe('the format registry', () => {
  it('detects every committed fixture and example as the format it is used as, each an entry of the registry', async () => {
    const committed = execFileSync('git', ['ls-files', '__tests__/fixtures', 'examples'], {
      cwd: root,
      encoding: 'utf8'
    })
      .split('\n')
      .filter((f) => f !== '')
    // a file added without saying how it is read fails here
    expect(committed.filter((f) => !(f in FIXTURES))).toEqual([])
    for (const [file, expected] of Object.entries(FIXTURES)) {
      if (typeof expected === 'string') continue
      expect(entryNames(expected.kind)).toContain(expected.name)
      expect([file, await detected(expected.kind, join(root, file), expected.metrics)]).toEqual([file, expected.name])
    }
  })

  it('has no entry that neither a fixture nor a sample exercises, and the samples are detected as their entries', async () => {
    const dir = writeFiles(Object.fromEntries(SAMPLES.map((s) => [s.file, s.text])))
    const path = (file: string): string => dir[file]
    for (const s of SAMPLES)
      expect([s.kind, s.file, await detected(s.kind, path(s.file))]).toEqual([s.kind, s.file, s.name])
    const exercised = new Set([
      ...Object.values(FIXTURES).flatMap((f) => (typeof f === 'string' ? [] : [`${f.kind} ${f.name}`])),
      ...SAMPLES.map((s) => `${s.kind} ${s.name}`)
    ])
    expect(FORMATS.map((e) => `${e.kind} ${e.name}`).filter((k) => !exercised.has(k))).toEqual([])
  })

  it('names each entry once per kind, and ends each kind with a format that takes any file', async () => {
    for (const kind of ['rows', 'run', 'qrels', 'records', 'aggregates'] as const) {
      const names = entryNames(kind)
      expect(new Set(names).size).toBe(names.length)
      const empty = writeFiles({ empty: '' }).empty
      expect(await detected(kind, empty)).toBe(names[names.length - 1])
    }
  })

  it('answers every --input-format name, each by at least one entry that takes any file, and names no other', () => {
    const rows = FORMATS.filter((e): e is RowsEntry => e.kind === 'rows')
    for (const option of ROW_FORMATS)
      expect([option, rows.some((e) => e.named?.some((n) => n.option === option && n.when === undefined))]).toEqual([
        option,
        true
      ])
    const named = new Set(FORMATS.flatMap((e) => (e.named ?? []).map((n) => n.option)))
    expect([...named].filter((n) => !(ROW_FORMATS as readonly string[]).includes(n))).toEqual([])
    // a refusal is never what an option picks
    expect(FORMATS.filter((e) => e.refuse !== undefined && e.named !== undefined).map((e) => e.name)).toEqual([])
  })

  it('says why: the content, the name, the option, or the default', async () => {
    const f = writeFiles({ 'rows.csv': 'query_id,m\nq1,1\n', 'odd.txt': 'hello\n' })
    expect((await detectFormat({ kind: 'rows', file: f['rows.csv'] })).choice).toEqual({
      kind: 'rows',
      name: 'csv',
      by: 'extension',
      why: 'the name ends in .csv'
    })
    expect((await detectFormat({ kind: 'rows', file: f['rows.csv'], format: 'jsonl' })).choice).toEqual({
      kind: 'rows',
      name: 'jsonl',
      by: 'explicit',
      why: 'named with --input-format jsonl'
    })
    expect((await detectFormat({ kind: 'rows', file: join(root, 'examples/baseline.jsonl') })).choice.by).toBe(
      'content'
    )
    expect((await detectFormat({ kind: 'rows', file: f['odd.txt'] })).choice).toEqual({
      kind: 'rows',
      name: 'jsonl',
      by: 'fallback',
      why: 'no other rows format matched'
    })
    // a fetched copy is detected by the name it goes by, not only its temporary path
    const copy = writeFiles({ 'fetched-copy': 'section,shard\n' })['fetched-copy']
    expect((await detectFormat({ kind: 'aggregates', file: copy, name: 'sums.csv' })).choice.name).toBe('csv')
    expect((await detectFormat({ kind: 'aggregates', file: copy })).choice.name).toBe('jsonl')
    // the head can be given instead of read
    expect((await detectFormat({ kind: 'run', file: 'given.bin', head: Buffer.from('PAR1....') })).choice.name).toBe(
      'parquet'
    )
  })
})

describe('an entry added to the registry', () => {
  it('is detected and read by the readers entry points, with nothing else changed', async () => {
    const f = writeFiles({
      'scores.fake': 'q1 0.5\n',
      'rows.jsonl': '{"query_id": "q1", "m": 0.25}\n',
      'judged.fake': 'anything\n'
    })
    const rows: RowsEntry = {
      kind: 'rows',
      name: 'fake',
      named: [{ option: 'csv', when: (p) => p.file.endsWith('.fake') }],
      sniff: (p) => (p.file.endsWith('.fake') ? { by: 'extension', why: 'the name ends in .fake' } : undefined),
      read: async (p) => sideFromRows(p.file, [{ id: 'q1', line: 1, values: [['m', Number(p.head.split(' ')[1])]] }])
    }
    const qrels: QrelsEntry = {
      kind: 'qrels',
      name: 'fake',
      sniff: (p) => (p.file.endsWith('.fake') ? { by: 'extension', why: 'the name ends in .fake' } : undefined),
      read: async (p) => ({ source: p.file, queries: new Map(), ids: [], judgments: 0 })
    }
    const registry = FORMATS as FormatEntry[]
    registry.unshift(rows, qrels)
    try {
      const side = await readRows(f['scores.fake'], { metricFields: new Set(['m']) })
      expect(side.format).toEqual({ kind: 'rows', name: 'fake', by: 'extension', why: 'the name ends in .fake' })
      expect(rowsOf(side).map((r) => [r.id, r.values.get('m')])).toEqual([['q1', 0.5]])
      expect((await readRows(f['scores.fake'], { metricFields: new Set(['m']), format: 'csv' })).format?.by).toBe(
        'explicit'
      )
      expect((await readRows(f['rows.jsonl'], { metricFields: new Set(['m']) })).format?.name).toBe('jsonl')
      expect((await readQrels(f['judged.fake'])).source).toBe(f['judged.fake'])
    } finally {
      registry.splice(registry.indexOf(rows), 1)
      registry.splice(registry.indexOf(qrels), 1)
    }
    expect((await detectFormat({ kind: 'rows', file: f['scores.fake'] })).choice.name).toBe('jsonl')
  })
})

describe('docs/importers.md', () => {
  it('lists the registry, every entry in its order, under "How a format is detected"', () => {
    const doc = readFileSync(join(root, 'docs/importers.md'), 'utf8')
    const start = doc.indexOf('<!-- formats:')
    expect(start).toBeGreaterThan(-1)
    const rows = doc
      .slice(start)
      .split('\n')
      .slice(3)
      .filter((_, i, lines) => lines.slice(0, i + 1).every((l) => l.startsWith('|')))
      .map((l) => l.split('|').map((c) => c.trim()))
      .map((cells) => `${cells[1]} ${cells[2].replace(/`/g, '')}`)
    expect(rows).toEqual(FORMATS.map((e) => `${e.kind} ${e.name}`))
  })
})

/**
 * Issue 14 item 1: per-query rows in long (tidy) form, `query_id,measure,value` (ir_measures `iter_calc` to a
 * DataFrame, PyTerrier `Experiment(perquery=True)`), in CSV, TSV and JSON Lines. The same data in wide and long
 * form must give the same JSON and Markdown reports byte for byte (only the file names differ, and are
 * replaced before comparing); a repeated measure and an attribute that varies within a query are refused
 * with both lines.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from '@jest/globals'
import { readRows } from '../../src/readers/read.js'
import { cli, hasStackTrace, tempDir, withoutInputFormats, writeFiles } from '../helpers.js'
import { rowsOf } from '../../src/model/rows.js'

const examples = join(process.cwd(), 'examples')
const METRICS = ['recall@10', 'hit@10', 'mrr@10', 'latency_ms']

type Row = Record<string, unknown>
const fixtureRows = (side: string): Row[] =>
  readFileSync(join(examples, `${side}.jsonl`), 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Row)

/** Fields other than the id and the metrics: attributes, repeated on every long line of their query. */
const attrsOf = (r: Row): string[] => Object.keys(r).filter((k) => k !== 'query_id' && !METRICS.includes(k))

function wideCsv(rows: Row[]): string {
  const keys = ['query_id', ...METRICS, ...attrsOf(rows[0])]
  return [keys.join(','), ...rows.map((r) => keys.map((k) => String(r[k])).join(','))].join('\n') + '\n'
}

function longLines(rows: Row[], sep: string, idName = 'query_id'): string {
  const attrs = attrsOf(rows[0])
  const out = [[idName, 'measure', 'value', ...attrs].join(sep)]
  for (const r of rows)
    for (const m of METRICS)
      out.push([String(r.query_id), m, String(r[m]), ...attrs.map((a) => String(r[a]))].join(sep))
  return out.join('\n') + '\n'
}

function longJsonl(rows: Row[]): string {
  const lines: string[] = []
  for (const r of rows) {
    for (const m of METRICS) {
      const attrs = Object.fromEntries(attrsOf(r).map((a) => [a, r[a]]))
      lines.push(JSON.stringify({ qid: r.query_id, metric: m, score: r[m], ...attrs }))
    }
  }
  return lines.join('\n') + '\n'
}

async function reports(
  dir: string,
  ext: string,
  extra: string[] = []
): Promise<{ json: string; md: string; format: string }> {
  const out = tempDir()
  const r = await cli([
    'gate',
    '--rules',
    join(examples, 'rules.yml'),
    '--baseline',
    join(dir, `baseline.${ext}`),
    '--candidate',
    join(dir, `candidate.${ext}`),
    '--json',
    join(out, 'r.json'),
    '--markdown',
    join(out, 'r.md'),
    '--format',
    'json',
    ...extra
  ])
  expect(r.stderr).toBe('')
  expect([0, 1]).toContain(r.code)
  const clean = (t: string): string => t.split(dir).join('DIR').split(`.${ext}`).join('.EXT')
  const json = readFileSync(join(out, 'r.json'), 'utf8')
  // the same report for the same data in every form, except that the JSON one names the format it was read as
  const formats = (JSON.parse(json) as { inputs: { formats: Record<string, { name: string }> } }).inputs.formats
  return {
    json: clean(withoutInputFormats(json)),
    md: clean(readFileSync(join(out, 'r.md'), 'utf8')),
    format: formats.baseline.name
  }
}

describe('long (tidy) form', () => {
  const base = fixtureRows('baseline')
  const cand = fixtureRows('candidate')

  it('gives the same JSON and Markdown reports, byte for byte, as the wide form (CSV, TSV, JSON Lines)', async () => {
    const wide = tempDir()
    writeFilesIn(wide, { 'baseline.csv': wideCsv(base), 'candidate.csv': wideCsv(cand) })
    const { format: csvFormat, ...reference } = await reports(wide, 'csv')
    expect(csvFormat).toBe('csv')
    const wideJl = tempDir()
    writeFilesIn(wideJl, {
      'baseline.jsonl': readFileSync(join(examples, 'baseline.jsonl'), 'utf8'),
      'candidate.jsonl': readFileSync(join(examples, 'candidate.jsonl'), 'utf8')
    })
    expect(await reports(wideJl, 'jsonl')).toEqual({ ...reference, format: 'jsonl' })
    const longCsv = tempDir()
    writeFilesIn(longCsv, { 'baseline.csv': longLines(base, ','), 'candidate.csv': longLines(cand, ',') })
    expect(await reports(longCsv, 'csv')).toEqual({ ...reference, format: 'long-csv' })
    const longTsv = tempDir()
    writeFilesIn(longTsv, {
      'baseline.tsv': longLines(base, '\t', 'qid'),
      'candidate.tsv': longLines(cand, '\t', 'qid')
    })
    expect(await reports(longTsv, 'tsv')).toEqual({ ...reference, format: 'long-tsv' })
    const longJl = tempDir()
    writeFilesIn(longJl, { 'baseline.jsonl': longJsonl(base), 'candidate.jsonl': longJsonl(cand) })
    expect(await reports(longJl, 'jsonl')).toEqual({ ...reference, format: 'long-jsonl' })
    expect(await reports(longJl, 'jsonl', ['--input-format', 'long'])).toEqual({ ...reference, format: 'long-jsonl' })
  })

  it('reads PyTerrier Experiment(perquery=True) to_csv (index column, name,qid,measure,value) and ir_measures iter_calc frames', async () => {
    const f = writeFiles({
      'pt.csv':
        ',name,qid,measure,value\n0,BM25,q1,nDCG@10,0.5\n1,BM25,q1,AP,0.25\n2,BM25,q2,nDCG@10,0.125\n3,BM25,q2,AP,0.0\n',
      'irm.csv': 'query_id,measure,value\nq1,nDCG@10,0.5\nq2,nDCG@10,0.125\n'
    })
    const side = await readRows(f['pt.csv'], { metricFields: new Set(['nDCG@10', 'AP']) })
    expect(rowsOf(side).map((r) => [r.id, r.values.get('nDCG@10'), r.values.get('AP'), r.attrs.get('name')])).toEqual([
      ['q1', 0.5, 0.25, 'BM25'],
      ['q2', 0.125, 0, 'BM25']
    ])
    const irm = await readRows(f['irm.csv'], { metricFields: new Set(['nDCG@10']) })
    expect(rowsOf(irm).map((r) => [r.id, r.values.get('nDCG@10')])).toEqual([
      ['q1', 0.5],
      ['q2', 0.125]
    ])
  })

  it('refuses a measure repeated for one query, with both lines', async () => {
    const f = writeFiles({ 'rep.csv': 'qid,measure,value\nq1,nDCG@10,0.5\nq2,nDCG@10,0.25\nq1,nDCG@10,0.75\n' })
    await expect(readRows(f['rep.csv'], { metricFields: new Set(['nDCG@10']) })).rejects.toThrow(
      /rep\.csv:4: measure "nDCG@10" appears twice for query "q1" \(lines 2 and 4\)/
    )
    const r = await cli([
      'gate',
      '--rules',
      join(examples, 'rules.yml'),
      '--baseline',
      f['rep.csv'],
      '--candidate',
      f['rep.csv']
    ])
    expect(r.code).toBe(2)
    expect(hasStackTrace(r.stderr)).toBe(false)
  })

  it('refuses an attribute that differs within a query (attributes belong to the query), with both lines', async () => {
    const f = writeFiles({
      'a.jsonl':
        '{"qid": "q1", "measure": "m", "value": 0.5, "segment": "new"}\n{"qid": "q1", "measure": "n", "value": 0.5, "segment": "old"}\n'
    })
    await expect(
      readRows(f['a.jsonl'], { metricFields: new Set(['m', 'n']), keepAttributes: new Set(['segment']) })
    ).rejects.toThrow(/a\.jsonl:2: attribute "segment" of query "q1" is "new" on line 1 and "old" on line 2/)
  })

  it('is not taken for wide form when the rules name the value column as a metric', async () => {
    const f = writeFiles({ 'w.csv': 'query_id,name,score\nq1,alice,0.5\nq2,bob,0.25\n' })
    const side = await readRows(f['w.csv'], { metricFields: new Set(['score']) })
    expect(rowsOf(side).map((r) => [r.id, r.values.get('score')])).toEqual([
      ['q1', 0.5],
      ['q2', 0.25]
    ])
  })

  it('--input-format long refuses a file without the three columns, naming them', async () => {
    const f = writeFiles({ 'x.csv': 'query_id,recall\nq1,0.5\n' })
    await expect(readRows(f['x.csv'], { metricFields: new Set(['recall']), format: 'long' })).rejects.toThrow(
      /x\.csv:1: is not long form: it needs a query id/
    )
  })
})

function writeFilesIn(dir: string, files: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [name, text] of Object.entries(files)) {
    writeFileSync(join(dir, name), text)
    out[name] = dir
  }
  return out
}

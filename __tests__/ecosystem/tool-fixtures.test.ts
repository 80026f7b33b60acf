/**
 * The importer fixtures as the tools write them (__tests__/fixtures/importers/make-fixtures.py names each tool's
 * source file, version and write call): line endings and layouts that a hand-written sample would get wrong.
 * pandas' to_csv ends lines with os.linesep (CRLF on Windows; pandas/io/formats/csvs.py), BEIR's write_to_tsv uses
 * csv.writer's default "\r\n" on every platform, print() redirected on Windows writes CRLF, and ranx's Run.save
 * writes two-space indented JSON (orjson OPT_INDENT_2).
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from '@jest/globals'
import { readRows } from '../../src/readers/rows.js'
import { readQrels } from '../../src/metrics/index.js'
import type { SideRows } from '../../src/model/rows.js'
import { rowsOf } from '../../src/model/rows.js'

const fx = join(process.cwd(), '__tests__', 'fixtures', 'importers')
const trec = join(process.cwd(), '__tests__', 'fixtures', 'trec')

function shape(side: SideRows): unknown {
  return rowsOf(side).map((r) => [r.id, [...r.values.entries()], [...r.attrs.entries()]])
}

describe('fixtures written as the tools write them', () => {
  it('ranx Run.save / Qrels.save JSON is indented by two spaces, no trailing newline (orjson OPT_INDENT_2), and read', async () => {
    for (const file of ['ranx/run.json', 'ranx/qrels.json']) {
      const text = readFileSync(join(fx, file), 'utf8')
      expect(text.startsWith('{\n  "01": {\n    "')).toBe(true)
      expect(text.endsWith('\n  }\n}')).toBe(true)
    }
    expect(readFileSync(join(fx, 'ranx/run.json'), 'utf8')).toContain('"dé": 1.0')
    expect((await readQrels(join(fx, 'ranx/qrels.json'))).judgments).toBe(1270)
  })

  it('BEIR write_to_tsv ends lines with CRLF (csv.writer default) and gives the TREC judgments', async () => {
    const text = readFileSync(join(fx, 'beir/qrels/test.tsv'), 'utf8')
    expect(text.startsWith('query-id\tcorpus-id\tscore\r\n')).toBe(true)
    const q = await readQrels(join(fx, 'beir/qrels/test.tsv'))
    const ref = await readQrels(join(trec, 'qrels.txt'))
    expect(q.ids).toEqual(ref.ids)
    expect(q.judgments).toBe(ref.judgments)
  })

  it('a ragas CSV written by pandas on Windows (CRLF) reads exactly as the one written on Linux', async () => {
    const windows = readFileSync(join(fx, 'ragas/baseline-windows.csv'), 'utf8')
    expect(windows.split('\r\n').length).toBe(10)
    const metricFields = new Set(['context_precision', 'faithfulness'])
    const a = await readRows(join(fx, 'ragas/baseline.csv'), { metricFields, idField: 'user_input' })
    const b = await readRows(join(fx, 'ragas/baseline-windows.csv'), { metricFields, idField: 'user_input' })
    expect(rowsOf(b).length).toBe(8)
    expect(shape(b)).toEqual(shape(a))
  })

  it('ir_measures -q redirected on Windows (CRLF) reads exactly as on Linux', async () => {
    const metricFields = new Set(['AP', 'nDCG@10'])
    const a = await readRows(join(fx, 'ir_measures/run.tsv'), { metricFields })
    const b = await readRows(join(fx, 'ir_measures/run-windows.tsv'), { metricFields })
    expect(readFileSync(join(fx, 'ir_measures/run-windows.tsv'), 'utf8')).toContain('\tAP\t0.')
    expect(shape(b)).toEqual(shape(a))
    expect(rowsOf(b).length).toBeGreaterThan(10)
  })

  it('deepeval\'s .latest_test_run.json ({"testRunData": ...}, TestRunManager.save_test_run) reads as the results-folder file', async () => {
    const metricFields = new Set(['Contextual Precision', 'Faithfulness'])
    const a = await readRows(join(fx, 'deepeval/baseline.json'), { metricFields })
    const b = await readRows(join(fx, 'deepeval/latest_test_run.json'), { metricFields })
    expect(rowsOf(b).length).toBe(8)
    expect(shape(b)).toEqual(shape(a))
  })
})

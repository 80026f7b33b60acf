/**
 * The gate's own rows and the exports' rows go through one sink (src/readers/importers/rows-sink.ts), so they follow
 * one set of rules (review of 2026-12-04: the own rows kept a mode of their own): a list field is skipped with a
 * count, never silently; a line refused in a fetched copy of an export names the file as the caller does; an
 * export's repeated id is refused with its lines as the own rows' are.
 */
import { describe, expect, it } from '@jest/globals'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { readRows } from '../../src/readers/read.js'
import { refusal, tempDir } from '../helpers.js'

const dir = tempDir('rg-one-sink-')
const metricFields = new Set(['recall@10'])

describe('one sink for every rows reader', () => {
  it("the gate's own JSON Lines rows count a list field they skip", async () => {
    const file = join(dir, 'own.jsonl')
    writeFileSync(
      file,
      '{"query_id":"q1","recall@10":0.5,"docs":["d1","d2"]}\n{"query_id":"q2","recall@10":0.7,"docs":["d3"]}\n'
    )
    const side = await readRows(file, { metricFields })
    expect(side.notes).toContainEqual(expect.stringMatching(/field "docs" skipped in 2 rows \(a list or object/))
  })

  it("an export's line over the cap names the file as the caller does", async () => {
    const file = join(dir, 'fetched-77.tmp')
    writeFileSync(file, `user_input,recall@10\n"${'x'.repeat(200)}",0.5\n`)
    const r = await refusal(() =>
      readRows(file, { metricFields, idField: 'user_input', format: 'csv', name: 'ragas.csv', maxLineBytes: 64 })
    )
    expect(r.where.file).toBe('ragas.csv')
  })
})

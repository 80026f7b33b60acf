/**
 * A line over the line-length cap (MAX_LINE_BYTES, 16 MiB, src/readers/lines.ts) is refused by every line reader
 * with its number, shown here with a small cap injected. The real case, a 300 MB line read by the bundled CLI
 * with its peak memory measured, is in huge-line.slow.test.ts (`npm run test:slow`).
 */
import { describe, expect, it } from '@jest/globals'
import { writeFileSync } from 'node:fs'
import path from 'node:path'
import { forEachCsvRecord } from '../../src/readers/csv.js'
import { forEachLine, MAX_LINE_BYTES } from '../../src/readers/lines.js'
import { readRows } from '../../src/readers/read.js'
import { refusal, tempDir } from '../helpers.js'

describe('line-length cap, small cap injected', () => {
  it('lines, CSV and rows readers refuse a line over the cap with its number', async () => {
    const dir = tempDir()
    const file = path.join(dir, 'rows.jsonl')
    writeFileSync(file, '{"query_id":"q1","m":0.5}\n' + '{"query_id":"q2","pad":"' + 'x'.repeat(5000) + '"}\n')
    expect((await refusal(() => forEachLine(file, () => {}, { maxLineBytes: 1000 }))).message).toMatch(
      /rows\.jsonl:2: line is longer than 1000 bytes/
    )
    expect((await refusal(() => readRows(file, { metricFields: new Set(['m']), maxLineBytes: 1000 }))).message).toMatch(
      /rows\.jsonl:2: line is longer than 1000 bytes/
    )
    const csv = path.join(dir, 'rows.csv')
    writeFileSync(csv, 'query_id,m\nq1,' + '1'.repeat(4000))
    expect((await refusal(() => forEachCsvRecord(csv, () => {}, { maxLineBytes: 1000 }))).message).toMatch(
      /rows\.csv:2: line is longer than 1000 bytes/
    )
    // exactly at the cap is accepted
    writeFileSync(file, 'y'.repeat(1000) + '\n' + 'z'.repeat(1000))
    let lines = 0
    await forEachLine(file, () => lines++, { maxLineBytes: 1000 })
    expect(lines).toBe(2)
  })

  it('the documented cap is 16 MiB', () => {
    expect(MAX_LINE_BYTES).toBe(16 * 1024 * 1024)
  })
})

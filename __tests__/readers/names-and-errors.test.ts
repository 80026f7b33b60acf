/**
 * Two reader seams found in review: a refusal of a line names the file as the caller names it (an exam file is read
 * from a fetched copy, whose temporary path means nothing to the user), and a whole-file read turns only a system
 * error into "cannot be read" (Node's own ERR_* errors are bugs, never the file's fault).
 */
import { describe, expect, it } from '@jest/globals'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { InputError } from '../../src/errors.js'
import { AGGREGATE_COLUMNS } from '../../src/model/aggregates.js'
import { readCsvAggregates } from '../../src/readers/aggregate-rows.js'
import { forEachJsonRecord } from '../../src/readers/json/lines.js'
import { withFileSync } from '../../src/readers/whole-file.js'
import { refusal, tempDir } from '../helpers.js'

describe('a line refused in a fetched copy names the file as the caller does', () => {
  const dir = tempDir('rg-names-')
  const copy = join(dir, 'fetched-0123.tmp')

  it('a line that is not UTF-8', async () => {
    writeFileSync(copy, Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d, 0x0a]))
    const r = await refusal(() => forEachJsonRecord(copy, () => undefined, { hint: 'one object', name: 'sums.jsonl' }))
    expect([r.where.file, r.where.line, r.message]).toEqual(['sums.jsonl', 1, expect.stringMatching(/not valid UTF-8/)])
  })

  it('a line over the cap', async () => {
    writeFileSync(copy, `{"a":"${'x'.repeat(200)}"}\n`)
    const r = await refusal(() =>
      forEachJsonRecord(copy, () => undefined, { hint: 'one object', name: 'sums.jsonl', maxLineBytes: 64 })
    )
    expect([r.where.file, r.where.line]).toEqual(['sums.jsonl', 1])
  })
})

describe('a whole-file read', () => {
  const file = join(tempDir('rg-whole-'), 'f.json')
  writeFileSync(file, '{}')

  it("passes Node's own errors through (a bug), not as the file's", () => {
    const bug = Object.assign(new RangeError('offset out of range'), { code: 'ERR_OUT_OF_RANGE' })
    let thrown: unknown
    try {
      withFileSync(file, () => {
        throw bug
      })
    } catch (error) {
      thrown = error
    }
    expect(thrown).toBe(bug)
  })

  it('turns a system error into a refusal naming the file', () => {
    const eio = Object.assign(new Error('EIO: i/o error, read'), { code: 'EIO', errno: -5 })
    let thrown: unknown
    try {
      withFileSync(file, () => {
        throw eio
      })
    } catch (error) {
      thrown = error
    }
    expect(thrown).toBeInstanceOf(InputError)
    expect((thrown as InputError).where.file).toBe(file)
  })
})

describe("a warehouse's CSV aggregates header", () => {
  const dir = tempDir('rg-agg-csv-')
  const read = (text: string) => {
    const file = join(dir, 'sums.csv')
    writeFileSync(file, text)
    const seen: Array<string | undefined> = []
    return readCsvAggregates({
      path: file,
      name: 'sums.csv',
      hint: 'write it as `sql` does',
      onCells: (cell) => seen.push(cell('x') as string | undefined)
    }).then(() => seen)
  }
  const header = AGGREGATE_COLUMNS.join(',')
  const cells = AGGREGATE_COLUMNS.map((c, i) => (c === 'x' ? '7' : String(i)))

  it('refuses a column named twice (which one is meant?), naming it', async () => {
    const r = await refusal(() => read(`${header},x\n${cells.join(',')},8\n`))
    expect([r.where.file, r.where.line, r.message]).toEqual([
      'sums.csv',
      1,
      expect.stringContaining('the header names column "x" twice')
    ])
  })

  it('reads each column by its name, in any order', async () => {
    expect(await read(`${[...AGGREGATE_COLUMNS].reverse().join(',')}\n${[...cells].reverse().join(',')}\n`)).toEqual([
      '7'
    ])
  })
})

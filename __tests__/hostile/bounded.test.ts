/**
 * The caps and linear-time parsers behind "bounded in time and memory" (issue 12), with small caps injected
 * so every case is fast; the CLI cases at real size are in bounded-cli.test.ts.
 */
import { describe, expect, it } from '@jest/globals'
import fc from 'fast-check'
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { refuseTooManySliceValues, MAX_SLICE_VALUES } from '../../src/align/slice-values.js'
import type { PairedTable } from '../../src/align/pair.js'
import { loadRules } from '../../src/config/rules.js'
import { forEachCsvRecord } from '../../src/readers/csv.js'
import {
  MAX_ATTRIBUTE_CHARS,
  MAX_HINT_FIELD_CHARS,
  MAX_HINT_FIELDS,
  MAX_QUERY_ID_CHARS
} from '../../src/readers/field-caps.js'
import { forEachLine } from '../../src/readers/lines.js'
import { isDecimalText, MAX_NUMBER_CHARS, parseDecimal, parseMetricCell } from '../../src/readers/numbers.js'
import { readRows } from '../../src/readers/read.js'
import { readWholeText } from '../../src/readers/whole-file.js'
import { parseScoreBytes } from '../../src/readers/score.js'
import { maxOf, minOf, pushAll } from '../../src/util/extent.js'
import { refusal, writeFiles } from '../helpers.js'
import { rowsOf } from '../../src/model/rows.js'

const root = path.resolve(import.meta.dirname, '../..')

describe('numbers: one linear scan, no backtracking, a length cap', () => {
  // The regex the scanner replaced, as the reference for the syntax (on short strings only: it backtracks).
  const OLD = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/

  it('accepts exactly what the old regex accepted', () => {
    const text = fc.string({
      unit: fc.constantFrom('0', '1', '9', '.', '+', '-', 'e', 'E', 'x', ' ', '٣'),
      maxLength: 12
    })
    fc.assert(
      fc.property(text, (s) => isDecimalText(s) === OLD.test(s)),
      { numRuns: 3000 }
    )
    for (const s of [
      '1',
      '-1.',
      '.5',
      '+0.5e-3',
      '1E+10',
      '',
      '.',
      '-',
      'e5',
      '1e',
      '1e+',
      '1.2.3',
      '0x10',
      ' 1',
      '1 '
    ])
      expect(isDecimalText(s)).toBe(OLD.test(s))
  })

  it('a 100,000-digit run then "x" is refused in milliseconds (the regex took 17 s)', () => {
    const hostile = '1'.repeat(100000) + 'x'
    const start = Date.now()
    expect(isDecimalText(hostile)).toBe(false)
    expect(parseDecimal(hostile)).toBeUndefined()
    expect(parseScoreBytes(Buffer.from(hostile), 0, hostile.length)).toBeNaN()
    expect(Date.now() - start).toBeLessThan(5000) // quadratic backtracking took 17 s; generous for a loaded CI machine
  })

  it(`a number is at most MAX_NUMBER_CHARS (${MAX_NUMBER_CHARS}) characters`, () => {
    const longest = '0.' + '5'.repeat(MAX_NUMBER_CHARS - 2)
    expect(parseDecimal(longest)).toBe(0.5555555555555556)
    expect(parseScoreBytes(Buffer.from(longest), 0, longest.length)).toBe(0.5555555555555556)
    expect(parseDecimal(longest + '5')).toBeUndefined()
    expect(parseScoreBytes(Buffer.from(longest + '5'), 0, longest.length + 1)).toBeNaN()
    expect(() => parseMetricCell(longest + '5', 'm', { file: 'c.csv', line: 2 })).toThrow(
      /c\.csv:2: column "m": is 1001 characters long; a number is at most 1000/
    )
  })
})

describe('CSV records spanning lines are capped; fields are built from slices', () => {
  it('an open quote is refused at the record cap, at the line where the record starts', async () => {
    const f = writeFiles({ 'open.csv': 'query_id,m\nq1,0.5\n"q2,0.5\n' + 'abcdefghi\n'.repeat(500) })
    const e = await refusal(() => forEachCsvRecord(f['open.csv'], () => {}, { maxRecordBytes: 1000 }))
    expect(e.message).toMatch(
      /open\.csv:3: a CSV record \(a quoted field spanning lines\) is longer than 1000 bytes \(the record cap\)/
    )
  })

  it('without a record cap of its own, the line cap given applies to the record', async () => {
    const f = writeFiles({ 'open.csv': 'a\n"' + 'x\n'.repeat(600) })
    expect((await refusal(() => forEachCsvRecord(f['open.csv'], () => {}, { maxLineBytes: 1000 }))).message).toMatch(
      /open\.csv:2: .*longer than 1000 bytes \(the record cap\)/
    )
  })

  it('a record just under the cap is read exactly: quotes, commas, doubled quotes and line breaks', async () => {
    const note = 'a,"b"\n' + 'c'.repeat(900)
    const f = writeFiles({ 'ok.csv': `id,note,x\nq1,"${note.replace(/"/g, '""')}",1\r\nq2,,"",\n` })
    const records: Array<[string[], number]> = []
    await forEachCsvRecord(f['ok.csv'], (fields, line) => records.push([fields, line]), { maxRecordBytes: 1000 })
    expect(records).toEqual([
      [['id', 'note', 'x'], 1],
      [['q1', note, '1'], 2],
      [['q2', '', '', ''], 4]
    ])
  })

  it('an 8 MiB quoted field over 8,000 lines is read in linear time', async () => {
    const line = 'z'.repeat(1023)
    const f = writeFiles({ 'big.csv': 'id,note\nq1,"' + (line + '\n').repeat(8192) + '"\n' })
    const start = Date.now()
    let length = 0
    await forEachCsvRecord(f['big.csv'], (fields) => (length = fields[1]?.length ?? length))
    expect(length).toBe(8192 * 1024)
    expect(Date.now() - start).toBeLessThan(3000)
  })
})

describe('special files: devices refused, pipes read under the cap', () => {
  const CAP = { limit: 16, what: 'a test file', hint: 'keep it short' }

  it('a whole-file read of /dev/zero is refused before a byte is read (stat says 0 bytes)', async () => {
    await expect(readWholeText('/dev/zero', CAP)).rejects.toThrow(/\/dev\/zero: is a device, not a regular file/)
  })

  it('a streamed read of a device is refused by name', async () => {
    expect((await refusal(() => forEachLine('/dev/zero', () => {}))).message).toMatch(/\/dev\/zero: is a device/)
    expect((await refusal(() => forEachLine('/dev/null', () => {}))).message).toMatch(/\/dev\/null: is a device/)
  })

  it('a regular file at the cap is read; one byte more is refused', async () => {
    const f = writeFiles({ 'a.txt': 'x'.repeat(16), 'b.txt': 'x'.repeat(17) })
    expect(await readWholeText(f['a.txt'], CAP)).toBe('x'.repeat(16))
    await expect(readWholeText(f['b.txt'], CAP)).rejects.toThrow(/b\.txt: is 17 bytes/)
  })
})

describe('rows keep only the attributes the rules use', () => {
  const write = (name: string, text: string) => writeFiles({ [name]: text })[name]
  const rows =
    '{"query_id":"q1","m":0.5,"seg":"a","answer":"long text","n":3}\n{"query_id":"q2","m":0.5,"seg":"b","answer":"more","flag":true}\n'

  it('JSON Lines: unused fields are named for hints but their values are not kept', async () => {
    const side = await readRows(write('r.jsonl', rows), {
      metricFields: new Set(['m']),
      keepAttributes: new Set(['seg'])
    })
    expect(rowsOf(side).map((r) => [...r.attrs])).toEqual([[['seg', 'a']], [['seg', 'b']]])
    expect([...side.attributeFields].sort()).toEqual(['answer', 'flag', 'seg'])
    expect([...side.numericFields].sort()).toEqual(['m', 'n'])
  })

  it('CSV and the ragas importer: the same', async () => {
    const csv = 'query_id,m,seg,answer\nq1,0.5,a,long text\nq2,0.5,b,more\n'
    const side = await readRows(write('r.csv', csv), { metricFields: new Set(['m']), keepAttributes: new Set(['seg']) })
    expect(rowsOf(side).map((r) => [...r.attrs])).toEqual([[['seg', 'a']], [['seg', 'b']]])
    const ragas = await readRows(write('r2.csv', csv.replace('query_id', 'id')), {
      metricFields: new Set(['m']),
      keepAttributes: new Set(['seg']),
      format: 'ragas'
    })
    expect(rowsOf(ragas).map((r) => [...r.attrs])).toEqual([[['seg', 'a']], [['seg', 'b']]])
    expect(ragas.attributeFields.has('answer')).toBe(true)
  })

  it('without a list (init), every attribute is kept, uncapped', async () => {
    const side = await readRows(write('r.jsonl', rows.replace('long text', 'y'.repeat(MAX_ATTRIBUTE_CHARS + 1))), {
      metricFields: new Set(['m'])
    })
    expect(rowsOf(side)[0].attrs.get('answer')).toHaveLength(MAX_ATTRIBUTE_CHARS + 1)
  })

  it(`a kept attribute value over ${MAX_ATTRIBUTE_CHARS} characters and a query id over ${MAX_QUERY_ID_CHARS} are refused with file and line`, async () => {
    const longSeg = rows.replace('"seg":"b"', `"seg":"${'b'.repeat(MAX_ATTRIBUTE_CHARS + 1)}"`)
    expect(
      (
        await refusal(() =>
          readRows(write('r.jsonl', longSeg), { metricFields: new Set(['m']), keepAttributes: new Set(['seg']) })
        )
      ).message
    ).toMatch(/r\.jsonl:2: attribute "seg" is 257 characters long .*\(query "q2"\)/)
    const longId = rows.replace('"q2"', `"${'q'.repeat(MAX_QUERY_ID_CHARS + 1)}"`)
    expect(
      (
        await refusal(() =>
          readRows(write('r.jsonl', longId), { metricFields: new Set(['m']), keepAttributes: new Set() })
        )
      ).message
    ).toMatch(/r\.jsonl:2: the query id "q+"… is 1025 characters long/)
    const csv = `query_id,m\nq1,0.5\n${'q'.repeat(MAX_QUERY_ID_CHARS + 1)},0.5\n`
    expect(
      (await refusal(() => readRows(write('r.csv', csv), { metricFields: new Set(['m']), keepAttributes: new Set() })))
        .message
    ).toMatch(/r\.csv:3: the query id .* is 1025 characters long/)
  })

  it(`field names seen only for hints stop at MAX_HINT_FIELDS (${MAX_HINT_FIELDS}); names the rules use are always recorded`, async () => {
    const lines = Array.from({ length: MAX_HINT_FIELDS + 500 }, (_, i) =>
      JSON.stringify({
        query_id: `q${i}`,
        m: 0.5,
        [`f${i}`]: 'x',
        ...(i === MAX_HINT_FIELDS + 400 ? { seg: 'late' } : {})
      })
    )
    const side = await readRows(write('r.jsonl', lines.join('\n') + '\n'), {
      metricFields: new Set(['m']),
      keepAttributes: new Set(['seg'])
    })
    expect(side.attributeFields.size).toBe(MAX_HINT_FIELDS + 1)
    expect(side.attributeFields.has('seg')).toBe(true)
  })

  it(`a field name longer than MAX_HINT_FIELD_CHARS (${MAX_HINT_FIELD_CHARS}) is not kept for hints, by either JSON path`, async () => {
    const long = 'k'.repeat(100_000)
    // The first line takes the flat fast path, the second (a non-ASCII value) the general one.
    const jsonl =
      [
        JSON.stringify({ query_id: 'q1', m: 0.5, [long]: 'x' }),
        JSON.stringify({ query_id: 'q2', m: 0.5, [long + 'y']: 'caf\u00e9' })
      ].join('\n') + '\n'
    const side = await readRows(write('r.jsonl', jsonl), { metricFields: new Set(['m']), keepAttributes: new Set() })
    expect([...side.attributeFields].every((name) => name.length <= MAX_HINT_FIELD_CHARS)).toBe(true)
    expect(side.ids).toEqual(['q1', 'q2'])
  })
})

describe('distinct values per slice attribute are capped', () => {
  const rules = (body: string) => loadRules(`version: 1\nmetrics:\n  m: { better: higher }\n${body}`, 'rules.yml')
  const table = (columns: Record<string, string[]>): PairedTable => {
    const n = Object.values(columns)[0].length
    return {
      ids: Array.from({ length: n }, (_, i) => `q${i}`),
      metrics: new Map(),
      attrs: new Map(Object.entries(columns)),
      coverage: {} as PairedTable['coverage']
    }
  }
  const seg = ['a', 'b', 'c', 'd', 'a', 'b']
  const user = ['u1', 'u2', 'u3', 'u4', 'u5', 'u6']
  const segment = ['new', 'new', 'new', 'old', 'old', 'old']

  it('slices: more than the cap is refused with the count and the rules key; at the cap is accepted', () => {
    const r = rules('slices: [seg]\nchecks:\n  - { name: c, metric: m, non_inferior: { margin: 0.1 } }\n')
    expect(() => refuseTooManySliceValues(r, table({ seg }), 3)).toThrow(
      /rules\.yml \(slices\[0\]\): attribute "seg" has 4 distinct values; a slice attribute may have at most 3/
    )
    expect(() => refuseTooManySliceValues(r, table({ seg }), 4)).not.toThrow()
  })

  it('per_slice counts the values among the queries its where selects, and names the check', () => {
    const r = rules(
      'checks:\n  - name: c\n    metric: m\n    where: { segment: new }\n    per_slice: user\n    max_regressions: { count: 1, threshold: 0.1 }\n'
    )
    expect(() => refuseTooManySliceValues(r, table({ user, segment }), 3)).not.toThrow()
    expect(() => refuseTooManySliceValues(r, table({ user, segment }), 2)).toThrow(
      /rules\.yml:5 \(checks\[0\]\.per_slice\): attribute "user" has 3 distinct values/
    )
  })

  it('the cluster attribute is not a slice and is not capped', () => {
    const r = rules(
      'statistics: { cluster: user }\nchecks:\n  - { name: c, metric: m, non_inferior: { margin: 0.1 } }\n'
    )
    expect(() => refuseTooManySliceValues(r, table({ user }), 2)).not.toThrow()
  })

  it('the documented cap is 20,000 (docs/limits.md; npm run bench:scale measures it)', () => {
    expect(MAX_SLICE_VALUES).toBe(20000)
  })
})

describe('no spread of an input-sized array into a call', () => {
  it('minOf / maxOf / pushAll handle 100,000 values (Math.min(...values) overflows the stack near 45,000)', () => {
    const values = Array.from({ length: 100000 }, (_, i) => (i * 7919) % 100003)
    expect(minOf(values)).toBe(0)
    expect(maxOf(values)).toBe(100002)
    expect(minOf([])).toBe(Infinity)
    expect(maxOf([1, NaN])).toBeNaN()
    const out: number[] = []
    pushAll(out, values)
    expect(out).toHaveLength(100000)
  })

  it('src/ has no Math.min/Math.max/String.fromCharCode over a spread array', () => {
    const offenders: string[] = []
    const walk = (dir: string): void => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const p = path.join(dir, entry.name)
        if (entry.isDirectory()) walk(p)
        else if (p.endsWith('.ts')) {
          readFileSync(p, 'utf8')
            .split('\n')
            .forEach((line, i) => {
              if (
                /(Math\.(min|max)|String\.fromCharCode|fromCodePoint)\(\s*\.\.\./.test(line) &&
                !line.trim().startsWith('*')
              )
                offenders.push(`${path.relative(root, p)}:${i + 1}`)
            })
        }
      }
    }
    walk(path.join(root, 'src'))
    expect(offenders).toEqual([])
  })
})

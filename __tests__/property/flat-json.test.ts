/**
 * The flat-line fast path (src/readers/json/flat-record.ts) against the general path it stands in for: on every line
 * it accepts, JSON.parse must accept the line too, without a repeated key, and give the same members in the
 * same order with the same values (Object.is, so -0 and every double bit count). Lines are generated to hit
 * its edges: numbers of every shape (exponents, leading zeros, 16+ digits, -0, huge and tiny), escapes,
 * non-ASCII, nested values, repeated and array-index keys, stray bytes and white space. A line it declines
 * is the general path's to read or refuse, so declining is always safe; accepting wrongly is the bug.
 */
import { describe, expect, it } from '@jest/globals'
import fc from 'fast-check'
import { FlatRecord } from '../../src/readers/json/flat-record.js'
import { findRepeatedKey } from '../../src/readers/json/document.js'

const RUNS = Number(process.env.RG_PROPERTY_RUNS ?? 100) * 20

/** What the general path reads from a line: its members in Object.keys order, or null when it refuses the line. */
function general(text: string): Array<[string, unknown]> | null {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return null
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return null
  if (findRepeatedKey(text) !== undefined) return null
  const record = value as Record<string, unknown>
  return Object.keys(record).map((k) => [k, record[k]])
}

function fast(text: string): Array<[string, unknown]> | null {
  const flat = new FlatRecord()
  const bytes = Buffer.from(text, 'utf8')
  if (!flat.parse(bytes, 0, bytes.length)) return null
  return flat.keys.slice(0, flat.size).map((k, i) => [k, flat.values[i]])
}

/** Same members, same order, values equal by Object.is. */
function same(a: Array<[string, unknown]>, b: Array<[string, unknown]>): boolean {
  return a.length === b.length && a.every(([k, v], i) => k === b[i][0] && Object.is(v, b[i][1]))
}

const digits = fc.string({ unit: fc.constantFrom('0', '1', '2', '5', '9'), minLength: 1, maxLength: 20 })
const w = <T>(weight: number, arbitrary: fc.Arbitrary<T>) => ({ weight, arbitrary })
// Mostly valid JSON numbers of every shape, some invalid ones.
const numberText = fc.oneof(
  w(
    4,
    fc.double({ noNaN: true, noDefaultInfinity: true }).map((x) => JSON.stringify(x))
  ),
  w(
    4,
    fc.integer({ min: -100000, max: 100000 }).map((x) => (x / 10000).toString())
  ),
  w(
    3,
    fc
      .tuple(
        fc.constantFrom('', '-'),
        fc.constantFrom('0', '1', '42', '999999999999999', '1234567890123456789'),
        fc.option(digits),
        fc.option(fc.tuple(fc.constantFrom('e', 'E'), fc.constantFrom('', '+', '-'), digits))
      )
      .map(
        ([sign, int, frac, exp]) => `${sign}${int}${frac === null ? '' : `.${frac}`}${exp === null ? '' : exp.join('')}`
      )
  ),
  w(
    1,
    fc.constantFrom(
      '-0',
      '0.0',
      '-0.0',
      '1e400',
      '-1e-400',
      '0.30000000000000004',
      '1.',
      '.5',
      '+1',
      '01',
      '-',
      '1e',
      '0x10',
      'NaN',
      'Infinity'
    )
  )
)
const stringText = fc.oneof(
  w(
    5,
    fc.string({ maxLength: 8 }).map((s) => JSON.stringify(s))
  ),
  w(
    2,
    fc.string({ unit: 'binary', maxLength: 6 }).map((s) => JSON.stringify(s))
  ),
  w(1, fc.constantFrom('"a\\"b"', '"\\u0041"', '"tab\there"', '"caf\u00e9"', '"unterminated', '""', '"del\u007f"'))
)
const valueText = fc.oneof(
  w(5, numberText),
  w(4, stringText),
  w(2, fc.constantFrom('true', 'false', 'null')),
  w(1, fc.constantFrom('tru', 'nul', '[]', '{}', '[1,2]', '{"x":1}', ''))
)
const keyText = fc.oneof(
  w(6, fc.constantFrom('"query_id"', '"m"', '"recall@10"', '"hit@10"', '"segment"', '"__proto__"', '""')),
  w(
    2,
    fc.string({ maxLength: 6 }).map((s) => JSON.stringify(s))
  ),
  w(1, fc.constantFrom('"0"', '"17"', '"01"', '"a\\u0062"', '"k\u00e9"'))
)
const space = fc.oneof(
  w(8, fc.constantFrom('', ' ', '\t', '  ', '\r', '\n')),
  w(1, fc.constantFrom('\u000b', '\u00a0', '\u2028'))
)

const lineArb = fc
  .tuple(
    space,
    fc.array(fc.tuple(keyText, space, valueText, space), { maxLength: 8 }),
    space,
    fc.constantFrom('{', '{', '{', '{', '{', '{', '[', ''),
    fc.constantFrom('}', '}', '}', '}', '}', '}', '', '},', '} x')
  )
  .map(
    ([s0, members, s1, open, close]) =>
      `${s0}${open}${members.map(([k, a, v, b]) => `${k}${a}:${b}${v}`).join(',')}${s1}${close}`
  )

describe('flat JSON lines: the fast path reads what JSON.parse reads, or declines', () => {
  it('every line it accepts, the general path accepts with the same members and values', () => {
    let accepted = 0
    let valid = 0
    fc.assert(
      fc.property(lineArb, (text) => {
        const got = fast(text)
        if (general(text) !== null) valid++
        if (got === null) return
        accepted++
        const want = general(text)
        expect(want).not.toBeNull()
        expect(same(got, want as Array<[string, unknown]>)).toBe(true)
      }),
      { numRuns: RUNS }
    )
    // Not vacuous: a good part of the generated lines is valid JSON, and the fast path takes many of those.
    expect(valid).toBeGreaterThan(RUNS / 10)
    expect(accepted).toBeGreaterThan(valid / 4)
  })

  it('reads the lines the gate is given (so the fast path is actually taken)', () => {
    for (const text of [
      '{"query_id":"q0000000","hit@10":1,"hit@3":0,"recall@10":0.8396,"ndcg@10":0.8682,"latency_ms":42.6,"bucket":"b0"}',
      '{ "query_id": "q1", "m": -0.0, "n": 1e-7, "flag": true, "none": null }',
      '{"query_id":"q2","big":12345678901234567890,"tiny":0.000000000000000000001}',
      '{}'
    ]) {
      const got = fast(text)
      expect(got).not.toBeNull()
      expect(same(got as Array<[string, unknown]>, general(text) as Array<[string, unknown]>)).toBe(true)
    }
  })

  it('declines what the general path must judge: repeated keys, escapes, non-ASCII, nesting, array-index keys, bad numbers', () => {
    for (const text of [
      '{"m":1,"m":2}',
      '{"a\\u0062":1}',
      '{"k":"caf\u00e9"}',
      '{"k":[1]}',
      '{"k":{"x":1}}',
      '{"1":1,"a":2}',
      '{"m":01}',
      '{"m":1.}',
      '{"m":.5}',
      '{"m":1}x',
      '{"m":1',
      '[1]',
      '{"m":1,}'
    ]) {
      expect(fast(text)).toBeNull()
    }
  })

  it('a repeated key is refused by the reader whichever path reads the line', () => {
    // The fast path declines it; the general path's refusal is the one users see (json/document.ts).
    expect(fast('{"query_id":"q1","m":0.1,"m":0.9}')).toBeNull()
    expect(general('{"query_id":"q1","m":0.1,"m":0.9}')).toBeNull()
  })
})

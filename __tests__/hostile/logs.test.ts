/**
 * Logs are data, never commands. In a workflow's `run:` step every line the CLI prints is read by the GitHub
 * runner: a line that starts with `::` (after blanks) or holds `##[` is a workflow command. Whatever an input
 * holds (a CSV header with a line break, a JSON key with a newline, a 10 MB value), no printed line may start
 * a command, carry a raw carriage return or other control character, or be long (src/util/show.ts). The 10 MB
 * cases are in logs.slow.test.ts.
 */
import { describe, expect, it } from '@jest/globals'
import { formatInputError } from '../../src/errors.js'
import { MAX_ERROR_CHARS, MAX_SHOWN_CHARS, quote, safeLines, sanitizeText } from '../../src/util/show.js'
import { cli, writeFiles } from '../helpers.js'
import { RULES, rowsJsonl } from './harness.js'
import { expectInertLog } from './inert-log.js'

describe('what reaches a message or a log is escaped and cut', () => {
  it('a quoted CSV header "x\\n::warning::INJECTED" (named twice) starts no stderr line with ::', async () => {
    const f = writeFiles({
      'rules.yml': RULES,
      'b.jsonl': rowsJsonl(),
      'c.csv': 'query_id,"x\n::warning::INJECTED","x\n::warning::INJECTED",m\nq1,a,a,0.5\n'
    })
    const r = await cli(['gate', '--rules', f['rules.yml'], '--baseline', f['b.jsonl'], '--candidate', f['c.csv']])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain('c.csv:1: the header names column "x\\n::warning::INJECTED" twice')
    expectInertLog(r.stderr)
  })

  it('a JSON key with a newline and a carriage return is shown escaped, never raw', async () => {
    const de =
      'version: 1\nmetrics:\n  Contextual Precision: { better: higher, range: [0, 1] }\nqueries: { min_per_slice: 1 }\nchecks:\n  - { name: cp, metric: Contextual Precision, non_inferior: { margin: 0.1 } }\n'
    const key = 'x\r\n::warning::INJECTED ##[error]TOO'
    const tc = (id: string) => ({
      name: id,
      success: true,
      metrics_data: [
        { name: 'Contextual Precision', success: true, score: 0.5 },
        { name: key, success: true, score: 0.5 }
      ],
      additional_metadata: { [key]: 1 }
    })
    const f = writeFiles({
      'rules.yml': de,
      'b.json': JSON.stringify({ test_results: [tc('a'), tc('b')] }),
      'c.json': JSON.stringify({ test_results: [tc('a'), tc('b')] })
    })
    const r = await cli(['gate', '--rules', f['rules.yml'], '--baseline', f['b.json'], '--candidate', f['c.json']])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain('field "x\\r\\n::warning::INJECTED #\\u0023[error]TOO" comes twice')
    expectInertLog(r.stderr)
  })

  it('quote: JSON.stringify for plain values; escapes controls, separators, bidi and ##[; cuts with the length', () => {
    expect(quote('q7')).toBe('"q7"')
    expect(quote('café "x" \\')).toBe(JSON.stringify('café "x" \\'))
    expect(quote(0.5)).toBe('0.5')
    expect(quote('a\nb\rc\u0085d\u2028e\u202ef\u001b')).toBe('"a\\nb\\rc\\u0085d\\u2028e\\u202ef\\u001b"')
    expect(quote('x ##[warning]y')).toBe('"x #\\u0023[warning]y"')
    expect(quote('a'.repeat(500))).toBe(`"${'a'.repeat(MAX_SHOWN_CHARS)}…" (500 characters)`)
    // a surrogate pair is never split by the cut, and a lone surrogate is escaped
    expect(quote('a'.repeat(MAX_SHOWN_CHARS - 1) + '😀b')).toBe(
      `"${'a'.repeat(MAX_SHOWN_CHARS - 1)}…" (${MAX_SHOWN_CHARS + 2} characters)`
    )
    expect(quote('\ud800x')).toBe('"\\ud800x"')
  })

  it('the backstops: formatInputError and safeLines leave clean text alone and neutralise the rest', () => {
    expect(formatInputError({ file: 'b.jsonl', line: 3 }, 'is bad', 'fix it')).toBe('b.jsonl:3: is bad. fix it')
    const e = formatInputError(
      { file: 'f\n::error::x', key: 'k\r', queryId: 'q\n' },
      'raw\n::warning::m',
      'h' + 'i'.repeat(10_000)
    )
    expect(e).not.toMatch(/[\r\n]/)
    expect(e.length).toBeLessThan(MAX_ERROR_CHARS + 40)
    expect(sanitizeText('::warning::x')).toBe('\\u003a:warning::x')
    const report = '## title\n| a | b |\n\tindented\n'
    expect(safeLines(report)).toBe(report)
    expect(safeLines('ok\n  ::warning::x\nid ##[error]y\r\n')).toBe(
      'ok\n  \\u003a:warning::x\nid #\\u0023[error]y\\r\n'
    )
    expect(safeLines('\u001b[31mred\u001b[0m', { colour: true })).toBe('\u001b[31mred\u001b[0m')
    expect(safeLines('\u001b[31mred')).toBe('\\u001b[31mred')
  })
})

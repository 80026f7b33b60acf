/**
 * Hostile per-query rows (src/readers/read.ts, csv.ts, lines.ts), through the in-process CLI. Refusals name
 * the file and line (or query id); accepted oddities (BOM, CRLF, quoted CSV, look-alike ids) are read
 * exactly, which the JSON report's paired count proves.
 */
import { afterAll, describe, expect, it } from '@jest/globals'
import { expectNoPollution, idsJsonl, paired, RULES, rowsCsv, rowsJsonl, runCase, type HostileCase } from './harness.js'

const ok = rowsJsonl()
const okCsv = rowsCsv()
const bin = RULES.replace(
  '  m: { better: higher, range: [0, 1] }',
  '  m: { better: higher, range: [0, 1] }\n  hit: { better: higher, binary: true }'
)
const csvArgs = [
  'gate',
  '--rules',
  '{rules.yml}',
  '--baseline',
  '{b.csv}',
  '--candidate',
  '{c.csv}',
  '--json',
  '{report.json}'
]
const line = (id: string, m: unknown) => JSON.stringify({ query_id: id, m })
const BAD_UTF8 = Buffer.concat([
  Buffer.from('{"query_id":"q1","m":0.5}\n{"query_id":"q'),
  Buffer.from([0xc3, 0x28]),
  Buffer.from('","m":0.5}\n')
])
const SURROGATE = Buffer.concat([
  Buffer.from('query_id,m\nq1,0.5\nq'),
  Buffer.from([0xed, 0xa0, 0x80]),
  Buffer.from(',0.5\n')
])

export const ROWS_CASES: HostileCase[] = [
  // --- duplicate and look-alike ids
  {
    name: 'duplicate id (JSONL), both lines named',
    files: { 'rules.yml': RULES, 'b.jsonl': ok + line('q2', 0.1) + '\n', 'c.jsonl': ok },
    code: 2,
    where: 'b.jsonl',
    message: /duplicate query ids: "q2" \(lines 2 and 4\)/
  },
  {
    name: 'duplicate id (CSV)',
    files: { 'rules.yml': RULES, 'b.csv': okCsv, 'c.csv': okCsv + 'q1,0.4\n' },
    args: csvArgs,
    code: 2,
    where: 'c.csv',
    message: /duplicate query ids: "q1" \(lines 2 and 5\)/
  },
  {
    name: 'many duplicates are counted, not listed without end',
    files: { 'rules.yml': RULES, 'b.jsonl': ok.repeat(12), 'c.jsonl': ok },
    code: 2,
    where: 'b.jsonl',
    message: /duplicate query ids: .* and 13 more/
  },
  {
    name: '"01" and "1" are distinct ids (JSONL)',
    files: { 'rules.yml': RULES, 'b.jsonl': idsJsonl(['01', '1', '001']), 'c.jsonl': idsJsonl(['1', '001', '01']) },
    code: 0,
    check: paired(3)
  },
  {
    name: '"01" and "1" are distinct ids (CSV)',
    files: { 'rules.yml': RULES, 'b.csv': 'query_id,m\n01,0.5\n1,0.5\n', 'c.csv': 'query_id,m\n1,0.5\n01,0.5\n' },
    args: csvArgs,
    code: 0,
    check: paired(2)
  },
  {
    name: '"01" on one side and "1" on the other do not pair',
    files: { 'rules.yml': RULES, 'b.jsonl': idsJsonl(['01']), 'c.jsonl': idsJsonl(['1']) },
    code: 2,
    where: 'b.jsonl:1',
    message: /in the baseline only: "01".*in the candidate only: "1"/
  },
  {
    name: 'ids are case-sensitive',
    files: { 'rules.yml': RULES, 'b.jsonl': idsJsonl(['Q1', 'q1']), 'c.jsonl': idsJsonl(['q1', 'Q1']) },
    code: 0,
    check: paired(2)
  },
  {
    name: 'NFC and NFD spellings are distinct ids, with a note in the report',
    files: {
      'rules.yml': RULES,
      'b.jsonl': idsJsonl(['caf\u00e9', 'cafe\u0301']),
      'c.jsonl': idsJsonl(['cafe\u0301', 'caf\u00e9'])
    },
    code: 0,
    check: (r) => {
      paired(2)(r)
      expect(r.report?.coverage?.notes.join('\n')).toMatch(
        /only in Unicode normali[sz]ation.*"cafe\\u0301" \(line 2\) ~ "caf\\u00e9"/
      )
    }
  },
  {
    name: 'NFC on one side and NFD on the other do not pair silently',
    files: { 'rules.yml': RULES, 'b.jsonl': idsJsonl(['caf\u00e9']), 'c.jsonl': idsJsonl(['cafe\u0301']) },
    code: 2,
    where: 'b.jsonl:1',
    message: /baseline only: "caf\u00e9"/
  },
  {
    name: 'numeric query id beyond 2^53 (JSONL) is refused',
    files: { 'rules.yml': RULES, 'b.jsonl': ok + '{"query_id": 9007199254740993, "m": 0.5}\n', 'c.jsonl': ok },
    code: 2,
    where: 'b.jsonl:4',
    message: /"query_id" is a number .*not a string.*2\^53/
  },
  {
    name: 'numeric-looking ids beyond 2^53 stay exact in CSV',
    files: {
      'rules.yml': RULES,
      'b.csv': 'query_id,m\n9007199254740993,0.5\n9007199254740992,0.5\n',
      'c.csv': 'query_id,m\n9007199254740992,0.5\n9007199254740993,0.5\n'
    },
    args: csvArgs,
    code: 0,
    check: paired(2)
  },
  {
    name: 'empty query id (JSONL)',
    files: { 'rules.yml': RULES, 'b.jsonl': ok + line('', 0.5) + '\n', 'c.jsonl': ok },
    code: 2,
    where: 'b.jsonl:4',
    message: /"query_id" is empty/
  },
  {
    name: 'empty query id (CSV)',
    files: { 'rules.yml': RULES, 'b.csv': okCsv + ',0.5\n', 'c.csv': okCsv },
    args: csvArgs,
    code: 2,
    where: 'b.csv:5',
    message: /"query_id" is empty/
  },
  {
    name: 'null query id',
    files: { 'rules.yml': RULES, 'b.jsonl': '{"query_id": null, "m": 0.5}\n', 'c.jsonl': ok },
    code: 2,
    where: 'b.jsonl:1',
    message: /"query_id" must be a string/
  },
  {
    name: 'no query_id field',
    files: { 'rules.yml': RULES, 'b.jsonl': ok + '{"id": "q9", "m": 0.5}\n', 'c.jsonl': ok },
    code: 2,
    where: 'b.jsonl:4',
    message: /has no "query_id" field/
  },

  // --- values
  {
    name: 'NaN in a used JSONL field is refused by name',
    files: { 'rules.yml': RULES, 'b.jsonl': ok + '{"query_id": "q4", "m": NaN}\n', 'c.jsonl': ok },
    code: 2,
    where: 'b.jsonl:4',
    message: /"m" is NaN.*write null or drop the field/
  },
  {
    name: 'NaN in CSV',
    files: { 'rules.yml': RULES, 'b.csv': okCsv + 'q4,NaN\n', 'c.csv': okCsv },
    args: csvArgs,
    code: 2,
    where: 'b.csv:5',
    message: /"NaN" is not a decimal number/
  },
  {
    name: 'Infinity and -inf in CSV',
    files: { 'rules.yml': RULES, 'b.csv': okCsv, 'c.csv': 'query_id,m\nq1,-inf\n' },
    args: csvArgs,
    code: 2,
    where: 'c.csv:2',
    message: /"-inf" is not a decimal number/
  },
  {
    name: 'null value is a missing value, refused with the query and line',
    files: {
      'rules.yml': RULES,
      'b.jsonl': ok,
      'c.jsonl': line('q1', 0.5) + '\n' + line('q2', null) + '\n' + line('q3', 0.5) + '\n'
    },
    code: 2,
    where: 'c.jsonl:2',
    message: /missing metric values: "q2"/
  },
  {
    name: '1e400 in JSONL overflows',
    files: { 'rules.yml': RULES, 'b.jsonl': ok + '{"query_id": "q4", "m": 1e400}\n', 'c.jsonl': ok },
    code: 2,
    where: 'b.jsonl:4',
    message: /"m" is Infinity, not a number the gate can compare \(a value beyond the double range.*query "q4"/
  },
  {
    name: '"1e400" as a JSON string is a string, not a number',
    files: { 'rules.yml': RULES, 'b.jsonl': line('q1', '1e400') + '\n', 'c.jsonl': ok },
    code: 2,
    where: 'b.jsonl:1',
    message: /"m" is a string \("1e400"\), not a number/
  },
  {
    name: '1e400 in CSV overflows',
    files: { 'rules.yml': RULES, 'b.csv': 'query_id,m\nq1,1e400\n', 'c.csv': okCsv },
    args: csvArgs,
    code: 2,
    where: 'b.csv:2',
    message: /"1e400" overflows to infinity/
  },
  {
    name: '"" in CSV is a missing value, refused',
    files: { 'rules.yml': RULES, 'b.csv': 'query_id,m\nq1,0.5\nq2,\nq3,0.5\n', 'c.csv': okCsv },
    args: csvArgs,
    code: 2,
    where: 'b.csv:3',
    message: /missing metric values: "q2"/
  },
  {
    name: '"0x10" in CSV is not a number',
    files: { 'rules.yml': RULES, 'b.csv': okCsv, 'c.csv': 'query_id,m\nq1,0x10\n' },
    args: csvArgs,
    code: 2,
    where: 'c.csv:2',
    message: /"0x10" is not a decimal number/
  },
  {
    name: '"0x10" in JSONL is a string',
    files: { 'rules.yml': RULES, 'b.jsonl': ok, 'c.jsonl': line('q1', '0x10') + '\n' },
    code: 2,
    where: 'c.jsonl:1',
    message: /"m" is a string \("0x10"\)/
  },
  {
    name: '1_000 and padded text in CSV',
    files: { 'rules.yml': RULES, 'b.csv': 'query_id,m\nq1,1_000\n', 'c.csv': okCsv },
    args: csvArgs,
    code: 2,
    where: 'b.csv:2',
    message: /"1_000" is not a decimal number/
  },
  {
    name: 'a boolean metric value',
    files: { 'rules.yml': RULES, 'b.jsonl': line('q1', true) + '\n', 'c.jsonl': ok },
    code: 2,
    where: 'b.jsonl:1',
    message: /"m" is boolean, not a number/
  },
  {
    name: 'an object as metric value',
    files: { 'rules.yml': RULES, 'b.jsonl': line('q1', { v: 1 }) + '\n', 'c.jsonl': ok },
    code: 2,
    where: 'b.jsonl:1',
    message: /"m" is object, not a number/
  },
  {
    name: 'value above the declared range',
    files: {
      'rules.yml': RULES,
      'b.jsonl': ok,
      'c.jsonl': line('q1', 0.5) + '\n' + line('q2', 1.5) + '\n' + line('q3', 0.5) + '\n'
    },
    code: 2,
    where: 'c.jsonl:2',
    message: /m = 1\.5 is outside its range \[0, 1\].*"q2"/
  },
  {
    name: 'value just below the declared range',
    files: { 'rules.yml': RULES, 'b.jsonl': line('q1', -1e-12) + '\n', 'c.jsonl': idsJsonl(['q1']) },
    code: 2,
    where: 'b.jsonl:1',
    message: /m = -1e-12 is outside its range/
  },
  {
    name: 'binary metric with 0.5',
    files: {
      'rules.yml': bin,
      'b.jsonl': rowsJsonl(2, 0.5, { hit: 1 }),
      'c.jsonl': rowsJsonl(1, 0.5, { hit: 0.5 }) + '{"query_id":"q2","m":0.5,"hit":1}\n'
    },
    code: 2,
    where: 'c.jsonl:1',
    message: /hit = 0\.5, but the rules declare it binary/
  },
  {
    name: 'duplicate key inside one JSON object',
    files: { 'rules.yml': RULES, 'b.jsonl': ok + '{"query_id": "q4", "m": 0.5, "m": 0.9}\n', 'c.jsonl': ok },
    code: 2,
    where: 'b.jsonl:4',
    message: /key "m" appears twice/
  },
  {
    name: 'a duplicated query_id key inside one object',
    files: { 'rules.yml': RULES, 'b.jsonl': '{"query_id": "q1", "query_id": "q2", "m": 0.5}\n', 'c.jsonl': ok },
    code: 2,
    where: 'b.jsonl:1',
    message: /key "query_id" appears twice/
  },

  // --- encodings and line ends
  {
    name: 'BOM (JSONL) is accepted',
    files: { 'rules.yml': RULES, 'b.jsonl': '\ufeff' + ok, 'c.jsonl': ok },
    code: 0,
    check: paired(3)
  },
  {
    name: 'BOM (CSV) is accepted and not part of the first column name',
    files: { 'rules.yml': RULES, 'b.csv': '\ufeff' + okCsv, 'c.csv': okCsv },
    args: csvArgs,
    code: 0,
    check: paired(3)
  },
  {
    name: 'CRLF (JSONL) is accepted',
    files: { 'rules.yml': RULES, 'b.jsonl': ok.replace(/\n/g, '\r\n'), 'c.jsonl': ok },
    code: 0,
    check: paired(3)
  },
  {
    name: 'CRLF (CSV) is accepted, values not polluted by \\r',
    files: { 'rules.yml': RULES, 'b.csv': okCsv.replace(/\n/g, '\r\n'), 'c.csv': okCsv },
    args: csvArgs,
    code: 0,
    check: paired(3)
  },
  {
    name: 'no newline after the last line is accepted',
    files: { 'rules.yml': RULES, 'b.jsonl': ok.trimEnd(), 'c.jsonl': ok },
    code: 0,
    check: paired(3)
  },
  {
    name: 'blank lines between JSON lines are skipped',
    files: { 'rules.yml': RULES, 'b.jsonl': ok.replace(/\n/g, '\n\n  \n'), 'c.jsonl': ok },
    code: 0,
    check: paired(3)
  },
  {
    name: 'invalid UTF-8 (JSONL)',
    files: { 'rules.yml': RULES, 'b.jsonl': BAD_UTF8, 'c.jsonl': ok },
    code: 2,
    where: 'b.jsonl:2',
    message: /is not valid UTF-8/
  },
  {
    name: 'an encoded surrogate (invalid UTF-8) in CSV',
    files: { 'rules.yml': RULES, 'b.csv': SURROGATE, 'c.csv': okCsv },
    args: csvArgs,
    code: 2,
    where: 'b.csv:3',
    message: /is not valid UTF-8/
  },
  {
    name: 'UTF-16 file (NUL bytes, BOM FF FE)',
    files: {
      'rules.yml': RULES,
      'b.jsonl': Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(ok, 'utf16le')]),
      'c.jsonl': ok
    },
    code: 2,
    where: 'b.jsonl:1',
    message: /not valid UTF-8/
  },

  // --- empty, header-only, truncated
  {
    name: 'empty JSONL file',
    files: { 'rules.yml': RULES, 'b.jsonl': '', 'c.jsonl': ok },
    code: 2,
    where: 'b.jsonl',
    message: /has no rows/
  },
  {
    name: 'JSONL of blank lines only',
    files: { 'rules.yml': RULES, 'b.jsonl': ok, 'c.jsonl': '\n \r\n\t\n' },
    code: 2,
    where: 'c.jsonl',
    message: /has no rows/
  },
  {
    name: 'empty CSV file',
    files: { 'rules.yml': RULES, 'b.csv': '', 'c.csv': okCsv },
    args: csvArgs,
    code: 2,
    where: 'b.csv',
    message: /is empty.*header/
  },
  {
    name: 'header-only CSV',
    files: { 'rules.yml': RULES, 'b.csv': okCsv, 'c.csv': 'query_id,m\r\n' },
    args: csvArgs,
    code: 2,
    where: 'c.csv',
    message: /has no rows/
  },
  {
    name: 'truncated last JSON line',
    files: { 'rules.yml': RULES, 'b.jsonl': ok + '{"query_id": "q4", "m": 0.', 'c.jsonl': ok },
    code: 2,
    where: 'b.jsonl:4',
    message: /is not valid JSON.*truncated/
  },
  {
    name: 'truncated CSV: last row cut inside quotes',
    files: { 'rules.yml': RULES, 'b.csv': okCsv + '"q4,0.5\n', 'c.csv': okCsv },
    args: csvArgs,
    code: 2,
    where: 'b.csv:5',
    message: /never closed.*truncated/
  },
  {
    name: 'truncated CSV: last row without its value column',
    files: { 'rules.yml': RULES, 'b.csv': okCsv + 'q4', 'c.csv': okCsv },
    args: csvArgs,
    code: 2,
    where: 'b.csv:5',
    message: /has 1 fields but the header has 2/
  },
  {
    name: 'a JSON array line instead of an object',
    files: { 'rules.yml': RULES, 'b.jsonl': ok + '["q4", 0.5]\n', 'c.jsonl': ok },
    code: 2,
    where: 'b.jsonl:4',
    message: /is not a JSON object/
  },
  {
    name: 'a JSON array of rows is read as one document (src/readers/importers), not line by line',
    files: {
      'rules.yml': RULES,
      'b.jsonl': JSON.stringify(
        [
          { query_id: 'q1', m: 0.5 },
          { query_id: 'q2', m: 0.5 }
        ],
        null,
        2
      ),
      'c.jsonl': idsJsonl(['q2', 'q1'])
    },
    code: 0,
    check: paired(2)
  },
  {
    name: 'a JSON array with a bad element names its line',
    files: {
      'rules.yml': RULES,
      'b.jsonl': JSON.stringify(
        [
          { query_id: 'q1', m: 0.5 },
          { query_id: 'q2', m: 'x' }
        ],
        null,
        2
      ),
      'c.jsonl': idsJsonl(['q2', 'q1'])
    },
    code: 2,
    where: 'b.jsonl',
    message: /"m"|m/
  },

  // --- CSV shape
  {
    name: 'CSV with quoted commas, quotes and newlines in ids and attributes',
    files: {
      'rules.yml': RULES.replace('checks:', 'slices: [note]\nchecks:'),
      'b.csv': 'query_id,m,note\r\n"a,b",0.5,"x, y"\r\n"multi\nline",0.5,"say ""hi"""\r\nplain,0.5,z\r\n',
      'c.csv': 'note,query_id,m\n"say ""hi""","multi\nline",0.5\nz,plain,0.5\n"x, y","a,b",0.5\n'
    },
    args: csvArgs,
    code: 0,
    check: (r) => {
      paired(3)(r)
      const slices = (r.report?.comparisons as Array<{ slice: Record<string, string> }>)
        .map((c) => c.slice.note)
        .filter(Boolean)
        .sort()
      expect(slices).toEqual(['say "hi"', 'x, y', 'z'])
    }
  },
  {
    name: 'ragged CSV row (too many fields)',
    files: { 'rules.yml': RULES, 'b.csv': 'query_id,m\nq1,0.5\nq2,0.5,extra\n', 'c.csv': okCsv },
    args: csvArgs,
    code: 2,
    where: 'b.csv:3',
    message: /has 3 fields but the header has 2/
  },
  {
    name: 'ragged CSV row after a multi-line quoted field names the line it starts on',
    files: { 'rules.yml': RULES, 'b.csv': 'query_id,m\n"q\n1",0.5\nq2\n', 'c.csv': okCsv },
    args: csvArgs,
    code: 2,
    where: 'b.csv:4',
    message: /has 1 fields/
  },
  {
    name: 'text after a closing quote',
    files: { 'rules.yml': RULES, 'b.csv': 'query_id,m\n"q1"x,0.5\n', 'c.csv': okCsv },
    args: csvArgs,
    code: 2,
    where: 'b.csv:2',
    message: /text after a closing quote/
  },
  {
    name: 'a stray quote inside an unquoted field',
    files: { 'rules.yml': RULES, 'b.csv': 'query_id,m\nq"1,0.5\n', 'c.csv': okCsv },
    args: csvArgs,
    code: 2,
    where: 'b.csv:2',
    message: /quote in the middle/
  },
  {
    name: 'CSV header naming a column twice',
    files: { 'rules.yml': RULES, 'b.csv': 'query_id,m,m\nq1,0.5,0.6\n', 'c.csv': okCsv },
    args: csvArgs,
    code: 2,
    where: 'b.csv:1',
    message: /names column "m" twice/
  },
  {
    name: 'CSV without a query_id column',
    files: { 'rules.yml': RULES, 'b.csv': 'qid,m\nq1,0.5\n', 'c.csv': okCsv },
    args: csvArgs,
    code: 2,
    where: 'b.csv:1',
    message: /no "query_id" column/
  },
  {
    name: 'CSV header with an empty column name',
    files: { 'rules.yml': RULES, 'b.csv': 'query_id,,m\nq1,x,0.5\n', 'c.csv': okCsv },
    args: csvArgs,
    code: 2,
    where: 'b.csv:1',
    message: /empty column name/
  },

  // --- prototype keys are data
  {
    name: '__proto__ / constructor as ids, keys and attribute values (JSONL)',
    files: {
      'rules.yml': RULES.replace('checks:', 'slices: [constructor]\nchecks:'),
      'b.jsonl':
        '{"query_id":"__proto__","m":0.5,"__proto__":{"polluted":1},"constructor":"prototype"}\n{"query_id":"constructor","m":0.5,"constructor":"toString"}\n{"query_id":"hasOwnProperty","m":0.5,"constructor":"__proto__"}\n',
      'c.jsonl':
        '{"query_id":"hasOwnProperty","m":0.5,"constructor":"__proto__"}\n{"query_id":"__proto__","m":0.5,"constructor":"prototype"}\n{"query_id":"constructor","m":0.5,"constructor":"toString","__proto__":{"m":1}}\n'
    },
    code: 0,
    check: (r) => {
      paired(3)(r)
      expectNoPollution()
    }
  },
  {
    name: '__proto__ as a CSV column and id',
    files: {
      'rules.yml': RULES,
      'b.csv': 'query_id,m,__proto__\n__proto__,0.5,polluted\nconstructor,0.5,x\n',
      'c.csv': 'query_id,m,constructor\nconstructor,0.5,y\n__proto__,0.5,z\n'
    },
    args: csvArgs,
    code: 0,
    check: (r) => {
      paired(2)(r)
      expectNoPollution()
    }
  },
  {
    name: 'a metric named __proto__',
    files: {
      'rules.yml': RULES.replace(/\bm\b/g, '__proto__'),
      'b.jsonl': '{"query_id":"q1","__proto__":0.5}\n',
      'c.jsonl': '{"query_id":"q1","__proto__":0.5}\n'
    },
    code: 0,
    check: (r) => {
      paired(1)(r)
      expectNoPollution()
    }
  }
]

describe('hostile per-query rows', () => {
  it.each(ROWS_CASES.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    await runCase(c)
  })

  afterAll(() => {
    expectNoPollution()
  })
})

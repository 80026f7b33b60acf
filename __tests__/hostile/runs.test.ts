/**
 * Hostile runs and judgments (src/readers/trec-run.ts, jsonl-run.ts, qrels.ts), through the in-process CLI:
 * the gate with --qrels (runs scored against judgments) and the metrics command.
 */
import { afterAll, describe, expect, it } from '@jest/globals'
import { expectNoPollution, runCase, type CliResult, type HostileCase } from './harness.js'

// Two queries cannot support a statistical pass (docs/statistics.md); the policies below let an accepted run exit 0:
// these cases are about reading runs and judgments, not about the interval.
const RULES = `version: 1
metrics:
  P@2: { better: higher, range: [0, 1] }
queries: { min_per_slice: 1 }
statistics: { resamples: 200, seed: 3 }
on_inconclusive: pass
on_too_few: pass
checks:
  - name: precision holds
    metric: P@2
    non_inferior: { margin: 0.5 }
`
const QRELS = 'q1 0 d1 1\nq1 0 d2 0\nq2 0 d3 1\nq2 0 d4 2\n'
const RUN = 'q1 Q0 d1 1 2.0 t\nq1 Q0 d2 2 1.0 t\nq2 Q0 d3 1 1.5 t\nq2 Q0 d4 2 1.25 t\n'
const JRUN =
  '{"query_id":"q1","results":[{"doc_id":"d1","score":2},{"doc_id":"d2","score":1}]}\n{"query_id":"q2","results":[{"doc_id":"d3","score":1.5},{"doc_id":"d4","score":1.25}]}\n'

/** gate over two TREC runs (or JSONL runs) and the judgments. */
const gate = (b = 'b.txt', c = 'c.txt', q = 'qrels.txt') => [
  'gate',
  '--rules',
  '{rules.yml}',
  '--baseline',
  `{${b}}`,
  '--candidate',
  `{${c}}`,
  '--qrels',
  `{${q}}`,
  '--json',
  '{report.json}'
]
/** metrics over one run. */
const metrics = (run = 'run.txt', q = 'qrels.txt') => [
  'metrics',
  '--qrels',
  `{${q}}`,
  '--run',
  `{${run}}`,
  '-m',
  'P@2',
  '--per-query'
]
const runCaseT = (name: string, run: string | Buffer, where: string, message: RegExp): HostileCase => ({
  name,
  files: { 'qrels.txt': QRELS, 'run.txt': run },
  args: metrics(),
  code: 2,
  where,
  message
})
const qrelsCase = (name: string, qrels: string | Buffer, where: string, message: RegExp): HostileCase => ({
  name,
  files: { 'qrels.txt': qrels, 'run.txt': RUN },
  args: metrics(),
  code: 2,
  where,
  message
})
const notes = (r: CliResult) => (r.report?.coverage?.notes as string[]).join('\n')
/** metrics --per-query prints `P@2<TAB>qid<TAB>value` lines. */
const perQuery = (r: CliResult) =>
  r.stdout
    .trim()
    .split('\n')
    .map((l) => l.split('\t'))

export const RUN_CASES: HostileCase[] = [
  // --- TREC runs
  runCaseT('TREC run line with too few fields', RUN + 'q2 Q0 d5\n', 'run.txt:5', /needs the fields .* found 3/),
  runCaseT('TREC run truncated inside the last line', RUN + 'q2 Q0 d5 3', 'run.txt:5', /found 4/),
  runCaseT('TREC score NaN', 'q1 Q0 d1 1 NaN t\n', 'run.txt:1', /score "NaN" is not a finite decimal number/),
  runCaseT('TREC score 1e400', RUN + 'q2 Q0 d5 3 1e400 t\n', 'run.txt:5', /score "1e400" is not a finite/),
  runCaseT('TREC score 0x10', 'q1 Q0 d1 1 0x10 t\n', 'run.txt:1', /score "0x10"/),
  runCaseT('TREC score Infinity', 'q1 Q0 d1 1 -Infinity t\n', 'run.txt:1', /score "-Infinity"/),
  runCaseT(
    'TREC document listed twice for a query',
    RUN + 'q2 Q0 d3 3 0.5 t\n',
    'run.txt:5',
    /document "d3" appears twice for query "q2" \(also on line 3\)/
  ),
  runCaseT(
    'TREC run with invalid UTF-8 in a query id',
    Buffer.concat([Buffer.from(RUN + 'q'), Buffer.from([0xff]), Buffer.from(' Q0 d1 1 1 t\n')]),
    'run.txt:5',
    /not valid UTF-8/
  ),
  runCaseT('empty TREC run', '', 'run.txt', /holds no results/),
  runCaseT('blank TREC run', '\n \r\n\n', 'run.txt', /holds no results/),
  {
    name: 'TREC run with BOM and CRLF is read exactly',
    files: { 'qrels.txt': QRELS, 'run.txt': '\ufeff' + RUN.replace(/\n/g, '\r\n') },
    args: metrics(),
    code: 0,
    check: (r) =>
      expect(perQuery(r)).toEqual([
        ['P@2', 'q1', '0.5000'],
        ['P@2', 'q2', '1.0000'],
        ['P@2', 'all', '0.7500']
      ])
  },
  {
    name: 'run ids "01" and "q1" vs judgments "1"/"q1": exact match only, the rest counted',
    files: { 'rules.yml': RULES, 'qrels.txt': QRELS, 'b.txt': RUN.replace(/^q1 /gm, '01 '), 'c.txt': RUN },
    args: gate(),
    code: 0,
    check: (r) => {
      expect(notes(r)).toMatch(/baseline: 1 judged query absent from the run scored 0/)
      expect(notes(r)).toMatch(/baseline: 1 run query without judgments ignored/)
    }
  },
  {
    name: 'numeric-looking query ids beyond 2^53 stay exact in TREC files',
    files: {
      'qrels.txt': '9007199254740993 0 d1 1\n9007199254740992 0 d1 0\n',
      'run.txt': '9007199254740993 Q0 d1 1 1 t\n9007199254740992 Q0 d1 1 1 t\n'
    },
    args: metrics(),
    code: 0,
    // ...992 has no relevant document and counts, as in `trec_eval -q -m P.2` (10.0), which prints these three lines.
    check: (r) =>
      expect(perQuery(r)).toEqual([
        ['P@2', '9007199254740992', '0.0000'],
        ['P@2', '9007199254740993', '0.5000'],
        ['P@2', 'all', '0.2500']
      ])
  },
  {
    name: 'NFC and NFD query ids in runs are different queries',
    files: { 'qrels.txt': 'caf\u00e9 0 d1 1\n', 'run.txt': 'cafe\u0301 Q0 d1 1 1 t\ncaf\u00e9 Q0 d1 1 1 t\n' },
    args: metrics(),
    code: 0,
    check: (r) => expect(perQuery(r)[0]).toEqual(['P@2', 'caf\u00e9', '0.5000'])
  },
  {
    name: '__proto__ / constructor as query and document ids',
    files: {
      'qrels.txt': '__proto__ 0 constructor 1\nconstructor 0 __proto__ 1\n',
      'run.txt': '__proto__ Q0 constructor 1 1 t\nconstructor Q0 __proto__ 1 1 t\nconstructor Q0 toString 2 0.5 t\n'
    },
    args: metrics(),
    code: 0,
    check: (r) => {
      expect(perQuery(r).map((f) => f[1])).toEqual(['__proto__', 'constructor', 'all'])
      expectNoPollution()
    }
  },
  {
    name: 'a run not grouped by query is read whole, and the report says so',
    files: {
      'rules.yml': RULES,
      'qrels.txt': QRELS,
      'b.txt': 'q1 Q0 d1 1 2 t\nq2 Q0 d3 1 1.5 t\nq1 Q0 d2 2 1 t\nq2 Q0 d4 2 1.25 t\n',
      'c.txt': RUN
    },
    args: gate(),
    code: 0,
    check: (r) => expect(notes(r)).toMatch(/baseline: the run is not grouped by query, so it was held in memory whole/)
  },

  // --- JSON Lines runs
  {
    name: 'JSONL run: numeric query_id',
    files: { 'qrels.txt': QRELS, 'run.jsonl': '{"query_id": 1, "doc_id": "d1", "score": 1}\n' },
    args: metrics('run.jsonl'),
    code: 2,
    where: 'run.jsonl:1',
    message: /query_id 1 is a JSON number/
  },
  {
    name: 'JSONL run: results is not an array',
    files: { 'qrels.txt': QRELS, 'run.jsonl': '{"query_id": "q1", "results": {"doc_id": "d1"}}\n' },
    args: metrics('run.jsonl'),
    code: 2,
    where: 'run.jsonl:1',
    message: /"results" is not an array/
  },
  {
    name: 'JSONL run: score written as a string',
    files: { 'qrels.txt': QRELS, 'run.jsonl': JRUN + '{"query_id":"q3","results":[{"doc_id":"d1","score":"1.5"}]}\n' },
    args: metrics('run.jsonl'),
    code: 2,
    where: 'run.jsonl:3',
    message: /results\[0\]\.score is not a finite number \(found "1\.5"\)/
  },
  {
    name: 'JSONL run: score null',
    files: { 'qrels.txt': QRELS, 'run.jsonl': '{"query_id":"q1","doc_id":"d1","score":null}\n' },
    args: metrics('run.jsonl'),
    code: 2,
    where: 'run.jsonl:1',
    message: /score is not a finite number \(found null\)/
  },
  {
    name: 'JSONL run: score 1e400',
    files: { 'qrels.txt': QRELS, 'run.jsonl': '{"query_id":"q1","doc_id":"d1","score":1e400}\n' },
    args: metrics('run.jsonl'),
    code: 2,
    where: 'run.jsonl:1',
    message: /score is not a finite number/
  },
  {
    name: 'JSONL run: passthrough field 1e400',
    files: {
      'rules.yml': RULES,
      'qrels.txt': QRELS,
      'b.jsonl': JRUN.replace('{"query_id":"q2",', '{"query_id":"q2","latency":1e400,'),
      'c.jsonl': JRUN
    },
    args: gate('b.jsonl', 'c.jsonl'),
    code: 2,
    where: 'b.jsonl:2',
    message: /"latency" is not a finite number/
  },
  {
    name: 'JSONL run: a repeated key in a record',
    files: {
      'qrels.txt': QRELS,
      'run.jsonl': '{"query_id":"q1","results":[],"results":[{"doc_id":"d1","score":1}]}\n'
    },
    args: metrics('run.jsonl'),
    code: 2,
    where: 'run.jsonl:1',
    message: /key "results" appears twice/
  },
  {
    name: 'JSONL run: a second per-query record',
    files: { 'qrels.txt': QRELS, 'run.jsonl': JRUN + '{"query_id":"q1","results":[]}\n' },
    args: metrics('run.jsonl'),
    code: 2,
    where: 'run.jsonl:3',
    message: /has a second per-query record/
  },
  {
    name: 'JSONL run: empty doc_id',
    files: { 'qrels.txt': QRELS, 'run.jsonl': '{"query_id":"q1","results":[{"doc_id":"","score":1}]}\n' },
    args: metrics('run.jsonl'),
    code: 2,
    where: 'run.jsonl:1',
    message: /results\[0\]\.doc_id is not a non-empty string/
  },
  {
    name: 'JSONL run: NaN is not JSON',
    files: { 'qrels.txt': QRELS, 'run.jsonl': '{"query_id":"q1","doc_id":"d1","score":NaN}\n' },
    args: metrics('run.jsonl'),
    code: 2,
    where: 'run.jsonl:1',
    message: /is not valid JSON/
  },
  {
    name: 'JSONL run: truncated last line',
    files: { 'qrels.txt': QRELS, 'run.jsonl': JRUN + '{"query_id":"q3","results":[{"doc_id":"d1","sc' },
    args: metrics('run.jsonl'),
    code: 2,
    where: 'run.jsonl:3',
    message: /is not valid JSON/
  },
  {
    name: 'JSONL run: invalid UTF-8',
    files: {
      'qrels.txt': QRELS,
      'run.jsonl': Buffer.concat([
        Buffer.from('{"query_id":"q1","doc_id":"d'),
        Buffer.from([0xc0, 0xaf]),
        Buffer.from('","score":1}\n')
      ])
    },
    args: metrics('run.jsonl'),
    code: 2,
    where: 'run.jsonl:1',
    message: /not valid UTF-8/
  },
  {
    name: 'JSONL run: __proto__ fields and ids are plain data',
    files: {
      'qrels.txt': '__proto__ 0 d1 1\n',
      'run.jsonl':
        '{"query_id":"__proto__","__proto__":{"polluted":1},"constructor":"x","results":[{"doc_id":"d1","score":1,"__proto__":{"polluted":2}}]}\n'
    },
    args: metrics('run.jsonl'),
    code: 0,
    check: (r) => {
      expect(perQuery(r)[0]).toEqual(['P@2', '__proto__', '0.5000'])
      expectNoPollution()
    }
  },

  // --- judgments
  qrelsCase('qrels line with 3 fields', QRELS + 'q3 0 d1\n', 'qrels.txt:5', /needs 4 fields .* found 3/),
  qrelsCase('qrels truncated last line', QRELS + 'q3 0', 'qrels.txt:5', /found 2/),
  qrelsCase('qrels grade 1.5', 'q1 0 d1 1.5\n', 'qrels.txt:1', /grade "1\.5" is not a whole number/),
  // held as a 32-bit integer for the ideal ranking: 2^31 would wrap to -2^31 and nDCG could leave [0, 1]
  qrelsCase(
    'qrels grade 2^31',
    'q1 0 d1 2147483648\n',
    'qrels.txt:1',
    /grade 2147483648 .* is beyond a 32-bit integer/
  ),
  qrelsCase('qrels grade 0x1', QRELS + 'q3 0 d1 0x1\n', 'qrels.txt:5', /grade "0x1" is not a whole number/),
  qrelsCase(
    'qrels grade beyond 2^53',
    'q1 0 d1 99999999999999999999\n',
    'qrels.txt:1',
    /grade "99999999999999999999" is not a whole number/
  ),
  qrelsCase('qrels grade NaN', 'q1 0 d1 NaN\n', 'qrels.txt:1', /grade "NaN"/),
  qrelsCase(
    'qrels document judged twice',
    QRELS + 'q1 0 d1 0\n',
    'qrels.txt:5',
    /document "d1" is judged twice for query "q1" \(also on line 1\)/
  ),
  qrelsCase('empty qrels', '', 'qrels.txt', /holds no judgments/),
  qrelsCase('qrels of comments and blank lines only', '# header\n\n# more\n', 'qrels.txt', /holds no judgments/),
  qrelsCase(
    'qrels with invalid UTF-8',
    Buffer.concat([Buffer.from(QRELS + 'q3 0 d'), Buffer.from([0xe2, 0x82]), Buffer.from(' 1\n')]),
    'qrels.txt:5',
    /not valid UTF-8/
  ),
  {
    name: 'qrels with BOM and CRLF are read exactly',
    files: { 'qrels.txt': '\ufeff' + QRELS.replace(/\n/g, '\r\n'), 'run.txt': RUN },
    args: metrics(),
    code: 0,
    check: (r) =>
      expect(perQuery(r)).toEqual([
        ['P@2', 'q1', '0.5000'],
        ['P@2', 'q2', '1.0000'],
        ['P@2', 'all', '0.7500']
      ])
  }
]

describe('hostile runs and judgments', () => {
  it.each(RUN_CASES.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    await runCase(c)
  })

  afterAll(() => {
    expectNoPollution()
  })
})

/**
 * Everything generated from input is escaped for the format it is written in (issue 24, item 9). Ids, metric
 * and attribute names and slice values holding a newline, a carriage return, U+2028 / U+2029 / NEL, a workflow
 * command (`::error::`), backticks, `|` and `<script>` go through every writer: `init`'s starter rules (YAML:
 * they must parse to exactly the rules intended, and no comment may carry a line break), `metrics --format trec`
 * (refused with the id escaped: a TREC field cannot hold white space) and `--format jsonl` (one record a line,
 * ids exact), `validate` (one violation a line), and the gate's text, Markdown, JSON and regressions.jsonl
 * reports (the same lines as for plain names). A 16 MiB id is refused by the field caps wherever it is read.
 */
import { describe, expect, it } from '@jest/globals'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { parse as parseYaml } from 'yaml'
import { toJudgeJsonl } from '../../src/report/to-judge.js'
import { cli, hasStackTrace, writeFiles } from '../helpers.js'

/** The hostile strings of the issue (each is also a prefix of ids and values below). */
const HOSTILE = [
  'a\nb',
  'a\rb',
  'a\u2028b',
  'a\u2029b',
  'a\u0085b',
  '::error::x',
  '`tick`',
  'a|b',
  '<script>alert(1)</script>'
]
/**
 * Plain strings for the same report with nothing to escape: as many, and sorting as the hostile ones do (query ids
 * are paired and resampled in code-point order, so the same order gives the same statistics and the same lines).
 */
const SORTED = [...HOSTILE].sort()
const PLAIN = HOSTILE.map((h) => `p${SORTED.indexOf(h)}`)

/** A line break of any kind a reader of the output might honour, other than the newline between lines. */
const RAW_BREAK = /[\r\u0085\u2028\u2029]/

/** The 16 MiB id (a little under, so that its line stays under the 16 MiB line cap and the id cap decides). */
const HUGE_ID = 'q'.repeat(16 * 1024 * 1024 - 256)

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

/** Output lines the runner could take as commands, or that a raw break split. */
function expectInert(text: string): void {
  expect(text).not.toMatch(RAW_BREAK)
  for (const line of text.split('\n')) expect(line).not.toMatch(/^\s*::/)
}

describe('init: the starter rules parse to exactly what was meant', () => {
  /** 60 rows: two metrics and a slice attribute with hostile names, slice values and cluster values that are hostile. */
  function rows(names: string[], side: number): string {
    const [metric, attribute] = [`m${names[0]}`, `seg${names[2]}`]
    return (
      Array.from({ length: 60 }, (_, i) =>
        JSON.stringify({
          query_id: `q${i}`,
          [metric]: ((i * (side + 3)) % 10) / 10,
          latency_ms: 20 + i,
          [attribute]: names[i % names.length],
          user: `u${names[0]}${i % 25}`
        })
      ).join('\n') + '\n'
    )
  }
  // sorts first among the values, so the starter file's comment lists it
  const LIVE_KEY = '!x\non_too_few: pass\n#'

  it('hostile metric, attribute and value names: no live key, no raw break in a comment, the intended rules', async () => {
    const names = [...HOSTILE, LIVE_KEY]
    const f = writeFiles({ 'b.jsonl': rows(names, 0), 'c.jsonl': rows(names, 1) })
    const out = path.join(path.dirname(f['b.jsonl']), 'rules.yml')
    const r = await cli(['init', '--baseline', f['b.jsonl'], '--candidate', f['c.jsonl'], '--out', out])
    expect(r.code).toBe(0)
    const text = readFileSync(out, 'utf8')
    expect(text).not.toMatch(RAW_BREAK)
    const parsed = parseYaml(text) as Record<string, unknown>
    expect(Object.keys(parsed)).toEqual([
      'version',
      'metrics',
      'slices',
      'statistics',
      'queries',
      'on_inconclusive',
      'checks'
    ])
    expect(Object.keys(parsed.metrics as object).sort()).toEqual(['latency_ms', `m${names[0]}`].sort())
    expect(parsed.slices).toEqual([`seg${names[2]}`])
    expect((parsed.checks as Array<{ name: string; metric: string }>).map((c) => [c.name, c.metric])).toEqual([
      [`m${names[0]} does not drop`, `m${names[0]}`],
      ['latency_ms does not grow', 'latency_ms']
    ])
    // the hostile value is in its comment, escaped, and explain applies the default, not the planted key
    expect(text).toContain(JSON.stringify(LIVE_KEY))
    const explained = await cli(['explain', '--rules', out])
    expect(explained.code).toBe(0)
    expect(explained.stdout).toContain('on_too_few: fail')
    expect(explained.stdout).not.toContain('on_too_few: pass')
    expectInert(explained.stdout)
    // the summary on the terminal: one line per field, each hostile name escaped
    expectInert(r.stdout)
    expect(r.stdout).toContain(JSON.stringify(`m${names[0]}`))
  })

  it('a 16 MiB query id is refused by the id cap, shown cut', async () => {
    const f = writeFiles({
      'b.jsonl': JSON.stringify({ query_id: HUGE_ID, m: 0.5 }) + '\n',
      'c.jsonl': JSON.stringify({ query_id: 'q1', m: 0.5 }) + '\n'
    })
    const r = await cli([
      'init',
      '--baseline',
      f['b.jsonl'],
      '--candidate',
      f['c.jsonl'],
      '--out',
      path.join(path.dirname(f['b.jsonl']), 'rules.yml')
    ])
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/b\.jsonl:1: the query id "q{40}"… is 16776960 characters long; the limit is 1024/)
    expect(r.stderr.length).toBeLessThan(1000)
  })
})

describe('explain: names from the rules stay on their line', () => {
  it('a check, metric and slice named with line breaks and a workflow command print escaped', async () => {
    const rules = `version: 1
metrics:
  "m\\n::error::x": { better: higher, range: [0, 1] }
slices: ["seg\\u2028x"]
checks:
  - { name: "holds\\r\\non_too_few: pass", metric: "m\\n::error::x", non_inferior: { margin: 0.1 } }
`
    const f = writeFiles({ 'rules.yml': rules })
    const r = await cli(['explain', '--rules', f['rules.yml']])
    expect(r.code).toBe(0)
    expectInert(r.stdout)
    expect(r.stdout).toContain('"holds\\r\\non_too_few: pass"')
    expect(r.stdout).not.toMatch(/^on_too_few/m)
  })
})

describe('metrics: TREC lines refuse what a TREC field cannot hold; JSON Lines keep every id exact', () => {
  const ids = HOSTILE.map((h, i) => `${h}${i}`)
  const files = (list: string[]): Record<string, string> =>
    writeFiles({
      'run.jsonl':
        list
          .map((id) =>
            JSON.stringify({
              query_id: id,
              results: [
                { doc_id: 'd1', score: 2 },
                { doc_id: 'd2', score: 1 }
              ]
            })
          )
          .join('\n') + '\n',
      'qrels.json': JSON.stringify(Object.fromEntries(list.map((id) => [id, { d1: 1 }])))
    })

  it('--format jsonl: one record a line, every id read back exactly', async () => {
    const f = files(ids)
    const r = await cli([
      'metrics',
      '--qrels',
      f['qrels.json'],
      '--run',
      f['run.jsonl'],
      '-m',
      'P@5',
      '--per-query',
      '--format',
      'jsonl'
    ])
    expect(r.code).toBe(0)
    expectInert(r.stdout)
    const lines = r.stdout.trimEnd().split('\n')
    expect(lines).toHaveLength(ids.length + 1)
    const records = lines.map((l) => JSON.parse(l) as { query_id?: string })
    expect(
      records
        .slice(0, -1)
        .map((x) => x.query_id)
        .sort()
    ).toEqual([...ids].sort())
  })

  it('--format trec: an id with a line break or white space is refused, escaped, with --format jsonl as the way out', async () => {
    for (const id of ['q\n1', 'q\r1', 'q\u20281', 'q 1', 'q\t1', 'all']) {
      const f = files([id, 'q2'])
      const r = await cli(['metrics', '--qrels', f['qrels.json'], '--run', f['run.jsonl'], '-m', 'P@5', '--per-query'])
      expect(r.code).toBe(2)
      expect(r.stdout).toBe('')
      expect(r.stderr).toContain(`run.jsonl: the query id ${JSON.stringify(id).replace('\u2028', '\\u2028')}`)
      expect(r.stderr).toMatch(/--format jsonl writes every id/)
      expect(hasStackTrace(r.stderr)).toBe(false)
    }
  })

  it('--format trec: ids that are one field print as they are (backticks, |, <script>, ::error:: mid-line)', async () => {
    const fine = ['::error::x', '`tick`', 'a|b', '<script>alert(1)</script>']
    const f = files(fine)
    const r = await cli(['metrics', '--qrels', f['qrels.json'], '--run', f['run.jsonl'], '-m', 'P@5', '--per-query'])
    expect(r.code).toBe(0)
    const lines = r.stdout.trimEnd().split('\n')
    expect(lines).toHaveLength(fine.length + 1)
    expect(
      lines
        .slice(0, -1)
        .map((l) => l.split('\t')[1])
        .sort()
    ).toEqual([...fine].sort())
  })

  it('--format trec: a measure spelled with a line break inside is refused', async () => {
    const f = files(['q1'])
    const r = await cli(['metrics', '--qrels', f['qrels.json'], '--run', f['run.jsonl'], '-m', 'P(rel=1\n)@5'])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain('the measure "P(rel=1\\n)@5" holds white space')
  })

  it('a 16 MiB query id in a run is refused by the id cap', async () => {
    const f = writeFiles({
      'run.jsonl': JSON.stringify({ query_id: HUGE_ID, doc_id: 'd1', score: 1 }) + '\n',
      'qrels.txt': 'q1 0 d1 1\n'
    })
    const r = await cli(['metrics', '--qrels', f['qrels.txt'], '--run', f['run.jsonl'], '-m', 'P@5'])
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/run\.jsonl:1: the query id "q{40}"… is 16776960 characters long; the limit is 1024/)
  })
})

describe('validate: one violation a line, whatever the ids hold', () => {
  const question = (id: string, extra: Record<string, unknown> = {}) =>
    JSON.stringify({ id, question: 'Q?', answerable: true, gold_chunk_ids: [], split: 'dev', ...extra })

  it('ids with line breaks, commands and markup are shown escaped, each violation on its own line', async () => {
    const ids = HOSTILE.map((h, i) => `${h}${i}`)
    const f = writeFiles({
      'd.jsonl': ids.map((id) => question(id)).join('\n') + '\n',
      'prev.jsonl': [...ids, ...HOSTILE.map((h) => `gone${h}`)].map((id) => question(id)).join('\n') + '\n'
    })
    const r = await cli(['validate', '--dataset', f['d.jsonl'], '--previous', f['prev.jsonl']])
    expect(r.code).toBe(2)
    expectInert(r.stderr)
    const violations = r.stderr.split('\n').filter((l) => / answerable_without_gold: /.test(l))
    expect(violations).toHaveLength(ids.length)
    // an id with a line break is shown as a JSON string (its breaks escaped); any other stays as it is, mid-line
    const escaped = (id: string) =>
      JSON.stringify(id).replace(/[\u0085\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
    for (const id of ids) expect(r.stderr).toContain(`[${/[\n\r\u0085\u2028\u2029]/.test(id) ? escaped(id) : id}]`)
    expect(r.stderr).toMatch(new RegExp(`ids removed: .*${escapeRegExp(JSON.stringify('gone' + HOSTILE[0]))}`))
  })

  it('a 16 MiB id is refused by the dataset schema (at most 200 characters), shown cut', async () => {
    const f = writeFiles({ 'd.jsonl': question(HUGE_ID) + '\n' })
    const r = await cli(['validate', '--dataset', f['d.jsonl']])
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(
      /d\.jsonl:1: \["q+…" \(16776960 characters\)\] schema: id must NOT have more than 200 characters/
    )
    expect(r.stderr.length).toBeLessThan(4000)
  })
})

describe('gate reports: the same lines for hostile names as for plain ones', () => {
  const RULES = `version: 1
metrics:
  m: { better: higher, range: [0, 1] }
slices: [seg]
queries: { min_per_slice: 1 }
statistics: { resamples: 200, seed: 3 }
checks:
  - { name: m holds, metric: m, non_inferior: { margin: 0.1 } }
  - { name: each seg, metric: m, per_slice: seg, max_regressions: { count: 2, threshold: 0.05 } }
`
  /** 36 queries over the 9 strings: ids and slice values built from `names`; the candidate loses on a third of them. */
  function sides(names: string[]): Record<string, string> {
    const row = (i: number, m: number) => JSON.stringify({ query_id: `${names[i % 9]}#${i}`, m, seg: names[i % 9] })
    return {
      'rules.yml': RULES,
      'b.jsonl': Array.from({ length: 36 }, (_, i) => row(i, 0.6)).join('\n') + '\n',
      'c.jsonl': Array.from({ length: 36 }, (_, i) => row(i, i % 3 === 0 ? 0.4 : 0.6)).join('\n') + '\n'
    }
  }
  async function gate(
    names: string[]
  ): Promise<{ code: number; text: string; markdown: string; json: string; regressions: string }> {
    const f = writeFiles(sides(names))
    const dir = path.dirname(f['rules.yml'])
    const out = (n: string) => path.join(dir, n)
    const r = await cli([
      'gate',
      '--rules',
      f['rules.yml'],
      '--baseline',
      f['b.jsonl'],
      '--candidate',
      f['c.jsonl'],
      '--format',
      'text',
      '--markdown',
      out('r.md'),
      '--json',
      out('r.json'),
      '--regressions',
      out('reg.jsonl')
    ])
    if (r.code === 2) throw new Error(r.stderr)
    return {
      code: r.code,
      text: r.stdout,
      markdown: readFileSync(out('r.md'), 'utf8'),
      json: readFileSync(out('r.json'), 'utf8'),
      regressions: readFileSync(out('reg.jsonl'), 'utf8')
    }
  }

  it('text, Markdown, JSON and regressions.jsonl: hostile ids and slice values change no line and survive exactly where data', async () => {
    const hostile = await gate(HOSTILE)
    const plain = await gate(PLAIN)
    expect(hostile.code).toBe(plain.code)
    for (const kind of ['text', 'markdown', 'regressions'] as const) {
      expectInert(hostile[kind])
      expect(hostile[kind].split('\n').length).toBe(plain[kind].split('\n').length)
    }
    // outside its fenced pictures (text GitHub does not parse), the Markdown holds no live HTML and no raw code span
    const prose = hostile.markdown.replace(/^(`{3,})text\n[\s\S]*?^\1$/gm, '')
    expect(prose).not.toContain('<script>')
    expect(prose).toContain('&lt;script&gt;')
    expect(prose).not.toMatch(/(^|[^\\])`tick/m)
    // the data outputs keep every id and value exactly
    const regressed = hostile.regressions
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as { query_id: string; attributes: { seg: string } })
    expect(regressed.map((x) => x.query_id)).toEqual(
      Array.from({ length: 12 }, (_, k) => `${HOSTILE[(k * 3) % 9]}#${k * 3}`).sort((a, b) =>
        a < b ? -1 : a > b ? 1 : 0
      )
    )
    expect(new Set(regressed.map((x) => x.attributes.seg))).toEqual(new Set([HOSTILE[0], HOSTILE[3], HOSTILE[6]]))
    const report = JSON.parse(hostile.json) as { comparisons: Array<{ slice: Record<string, string> }> }
    expect(new Set(report.comparisons.filter((c) => c.slice.seg !== undefined).map((c) => c.slice.seg))).toEqual(
      new Set(HOSTILE)
    )
  })

  it('to-judge.jsonl: one record a line, ids exact', () => {
    const text = toJudgeJsonl(
      HOSTILE.map((h) => ({
        queryId: h,
        documents: [{ docId: `${h}doc`, baselineRank: 1, candidateRank: null, pooledUnjudged: false }]
      })),
      10
    )
    expectInert(text)
    const lines = text.trimEnd().split('\n')
    expect(lines.map((l) => (JSON.parse(l) as { query_id: string }).query_id)).toEqual(HOSTILE)
  })

  it('a 16 MiB query id in the rows is refused by the id cap', async () => {
    const f = writeFiles({ ...sides(PLAIN), 'c.jsonl': JSON.stringify({ query_id: HUGE_ID, m: 0.5, seg: 'a' }) + '\n' })
    const r = await cli(['gate', '--rules', f['rules.yml'], '--baseline', f['b.jsonl'], '--candidate', f['c.jsonl']])
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/c\.jsonl:1: the query id "q{40}"… is 16776960 characters long; the limit is 1024/)
  })
})

/**
 * The queries file (rules `queries.file`, issue 26 item 1): runs plus judgments carry no query attributes, so a
 * TREC run could not be sliced. The queries file is part of the exam: its attributes slice, cluster and weight
 * every query, its text is shown beside each regressed query (Markdown and regressions.jsonl, with both runs'
 * top documents in runs mode), and neither side's rows may contradict it.
 */
import { describe, expect, it } from '@jest/globals'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { cli, jsonl, tempDir, writeFiles } from '../helpers.js'

const EX = 'examples/runs'
/** The example's JSON Lines runs as TREC runs: no attributes at all. */
function trec(file: string): string {
  return readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { query_id: string; results: Array<{ doc_id: string; score: number }> })
    .flatMap((q) => q.results.map((r, k) => `${q.query_id} Q0 ${r.doc_id} ${k + 1} ${r.score} sys`))
    .join('\n')
}
const queryIds = [
  ...new Set(
    readFileSync(`${EX}/qrels.txt`, 'utf8')
      .trim()
      .split('\n')
      .map((l) => l.split(' ')[0])
  )
]
const family = (id: string): string => ['howto', 'billing', 'errors'][Number(id.slice(1)) % 3]
const QUERIES = jsonl(queryIds.map((id) => ({ query_id: id, text: `what about ${id}?`, family: family(id) })))

const rules = (queriesFile: string | null): string => `version: 1
judgments: { qrels: ${EX}/qrels.txt }
metrics:
  nDCG@10: { better: higher, range: [0, 1] }
statistics: { resamples: 500, seed: 7 }
queries: { min_per_slice: 10${queriesFile === null ? '' : `, file: ${queriesFile}`} }
slices: [family]
checks:
  - name: every family holds
    metric: nDCG@10
    per_slice: family
    non_inferior: { margin: 0.5 }
`

async function gate(
  files: Record<string, string>,
  extra: string[] = []
): Promise<{ code: number; stdout: string; stderr: string; dir: string }> {
  const f = writeFiles({ 'b.txt': trec(`${EX}/baseline.jsonl`), 'c.txt': trec(`${EX}/candidate.jsonl`), ...files })
  const dir = tempDir()
  const text = (files['rules.yml'] ?? rules(f['queries.jsonl'] ?? null)).split('QUERIES').join(f['queries.jsonl'] ?? '')
  const r = writeFiles({ 'rules.yml': text })
  const out = await cli([
    'gate',
    '--rules',
    r['rules.yml'],
    '--baseline',
    f['b.txt'],
    '--candidate',
    f['c.txt'],
    '--json',
    path.join(dir, 'report.json'),
    '--regressions',
    path.join(dir, 'r.jsonl'),
    '--markdown',
    path.join(dir, 'report.md'),
    ...extra
  ])
  return { ...out, dir }
}

describe('a queries file slices runs that carry no attributes', () => {
  it('without it a TREC run cannot be sliced: refused, naming the attribute', async () => {
    const r = await gate({})
    expect(r.code).toBe(2)
    expect(r.stderr).toContain('family')
  })

  it('with it every family is a unit, the text is beside each regressed query, and regressions.jsonl has both runs’ top documents', async () => {
    const r = await gate({ 'queries.jsonl': QUERIES })
    expect(r.code).not.toBe(2)
    const report = JSON.parse(readFileSync(path.join(r.dir, 'report.json'), 'utf8')) as Record<string, any>
    expect(report.checks[0].units.map((u: { slice: Record<string, string> }) => u.slice.family).sort()).toEqual([
      'billing',
      'errors',
      'howto'
    ])
    expect(report.queries_file).toMatchObject({ queries: queryIds.length, attributes: ['family'] })
    const md = readFileSync(path.join(r.dir, 'report.md'), 'utf8')
    expect(md).toMatch(/\| Query \| Text \| Baseline \|/)
    expect(md).toMatch(/\| q\d+ \| what about q\d+\? \|/)
    const first = JSON.parse(readFileSync(path.join(r.dir, 'r.jsonl'), 'utf8').split('\n')[0]) as Record<string, any>
    expect(first.text).toBe(`what about ${first.query_id as string}?`)
    expect(first.attributes.family).toBe(family(first.query_id as string))
    expect(first.top.baseline.length).toBeGreaterThan(0)
    expect(first.top.candidate.length).toBeGreaterThan(0)
  })

  it('a compared query the file does not list is refused: the file lists the exam', async () => {
    const partial = jsonl(queryIds.slice(1).map((id) => ({ query_id: id, family: family(id) })))
    const r = await gate({ 'queries.jsonl': partial })
    expect(r.code).toBe(2)
    expect(r.stderr).toContain(`query "${queryIds[0]}"`)
    expect(r.stderr).toContain('is not in the queries file')
  })

  it('a row that says otherwise than the file is refused, and a query listed twice too', async () => {
    // The example's JSON Lines baseline carries `segment`; a queries file with another segment contradicts it.
    const withSegment = jsonl(queryIds.map((id) => ({ query_id: id, segment: 'other', family: family(id) })))
    const r = await cli([
      'gate',
      '--rules',
      writeFiles({
        'rules.yml': rules(writeFiles({ 'q.jsonl': withSegment })['q.jsonl']).replace(
          'slices: [family]',
          'slices: [family, segment]'
        )
      })['rules.yml'],
      '--baseline',
      `${EX}/baseline.jsonl`,
      '--candidate',
      `${EX}/candidate.jsonl`
    ])
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/the row says segment = ".*", but the queries file .* says "other"/)
    const twice = await gate({ 'queries.jsonl': QUERIES + jsonl([{ query_id: queryIds[0], family: 'howto' }]) })
    expect(twice.code).toBe(2)
    expect(twice.stderr).toContain('is listed twice')
  })
})

describe('a misspelt attribute with a queries file (issue 34 item 8)', () => {
  // The file has more fields than the rules use: family (sliced), lang and user_segment (not used by the rules).
  const RICH = jsonl(
    queryIds.map((id, i) => ({
      query_id: id,
      text: `what about ${id}?`,
      family: family(id),
      lang: i % 2 ? 'en' : 'de',
      user_segment: 'x'
    }))
  )
  const misspelt = (line: string): string =>
    rules('QUERIES').replace('    non_inferior: { margin: 0.5 }\n', `    non_inferior: { margin: 0.5 }\n${line}`)

  it('blames the rules key, suggests from all of the file’s fields, lists them, and does not ask for a queries file', async () => {
    const r = await gate({
      'queries.jsonl': RICH,
      'rules.yml': misspelt(
        '  - name: German holds\n    metric: nDCG@10\n    where: { languag: de }\n    non_inferior: { margin: 0.5 }\n'
      )
    })
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(
      /rules\.yml \(checks\[1\]\.where\.languag\): no query of the queries file .*queries\.jsonl has the attribute "languag" \(did you mean "lang"\?\)/
    )
    expect(r.stderr).toContain("the queries file's fields: family, lang, user_segment")
    expect(r.stderr).not.toContain('b.txt')
    expect(r.stderr).not.toMatch(/name a queries file/)
    expect(r.stderr).toContain('fix the name in the rules, or add the attribute to the queries file')
  })

  it('the same for slices and per_slice', async () => {
    const slices = await gate({
      'queries.jsonl': RICH,
      'rules.yml': rules('QUERIES').replace('slices: [family]', 'slices: [family, user_segmnt]')
    })
    expect(slices.stderr).toMatch(
      /\(slices\[1\]\): no query of the queries file .* has the attribute "user_segmnt" \(did you mean "user_segment"\?\)/
    )
    const perSlice = await gate({
      'queries.jsonl': RICH,
      'rules.yml': rules('QUERIES').replace('per_slice: family', 'per_slice: famly')
    })
    expect(perSlice.stderr).toMatch(/\(checks\[0\]\.per_slice\): .*"famly" \(did you mean "family"\?\)/)
  })
})

describe('the README example examples/trec (TREC runs, the segment and topic in a queries file)', () => {
  it('is what scripts/make-run-example.js writes: the JSON Lines example runs as TREC lines', () => {
    expect(readFileSync('examples/trec/baseline.run', 'utf8').trim()).toBe(
      trec(`${EX}/baseline.jsonl`).replace(/ sys$/gm, ' bm25')
    )
    expect(readFileSync('examples/trec/candidate.run', 'utf8').trim()).toBe(
      trec(`${EX}/candidate.jsonl`).replace(/ sys$/gm, ' hybrid')
    )
  })

  it('fails on the new users, slices by topic, and shows each regressed query with its text', async () => {
    const dir = tempDir()
    const r = await cli([
      'gate',
      '--rules',
      'examples/trec/rules.yml',
      '--baseline',
      'examples/trec/baseline.run',
      '--candidate',
      'examples/trec/candidate.run',
      '--json',
      path.join(dir, 'r.json'),
      '--format',
      'markdown'
    ])
    expect(r.stderr).toBe('')
    expect(r.code).toBe(1)
    const report = JSON.parse(readFileSync(path.join(dir, 'r.json'), 'utf8')) as {
      decided_by: string
      checks: Array<{ units: Array<{ slice: Record<string, string> }> }>
    }
    expect(report.decided_by).toBe('new users are protected')
    expect(report.checks[2].units.map((u) => u.slice.topic)).toEqual(['billing', 'export', 'login', 'search'])
    expect(r.stdout).toContain('how do I fix')
  })

  it('the Markdown (the PR comment) shows both runs’ top documents with their grades, collapsed and bounded (issue 34 item 17)', async () => {
    const r = await cli([
      'gate',
      '--rules',
      'examples/trec/rules.yml',
      '--baseline',
      'examples/trec/baseline.run',
      '--candidate',
      'examples/trec/candidate.run',
      '--format',
      'markdown'
    ])
    expect(r.code).toBe(1)
    const block = /<details><summary>Both runs’ top documents of these queries[^\n]*\n([\s\S]*?)<\/details>/.exec(
      r.stdout
    )
    expect(block).not.toBeNull()
    // Nested in the regressed queries' section, after its table.
    const section = r.stdout.indexOf('<details><summary>Regressed queries:')
    expect(section).toBeGreaterThan(0)
    expect(r.stdout.indexOf('Both runs’ top documents')).toBeGreaterThan(section)
    const rows = (block?.[1] ?? '').split('\n').filter((l) => /^\| (q\d+ )?\| \d \|/.test(l))
    // The 10 listed queries, five ranks each: bounded by what the section lists.
    expect(rows).toHaveLength(50)
    // Each document's grade is the judgments' (read here from the qrels as written), – where they give none.
    const grades = new Map(
      readFileSync(`${EX}/qrels.txt`, 'utf8')
        .trim()
        .split('\n')
        .map((l) => l.split(' '))
        .map((f) => [`${f[0]} ${f[2]}`, f[3]])
    )
    let query = ''
    let graded = 0
    for (const row of rows) {
      const cells = row.split(' | ').map((c) => c.replace(/^\| |\|$/g, '').trim())
      if (cells[0] !== '') query = cells[0]
      for (const cell of cells.slice(2)) {
        const m = /^(\S+) \((.+)\)$/.exec(cell)
        expect(m).not.toBeNull()
        expect(m?.[2]).toBe(grades.get(`${query} ${m?.[1] ?? ''}`) ?? '–')
        if (m?.[2] !== '–') graded++
      }
    }
    expect(graded).toBeGreaterThan(20)
  })
})

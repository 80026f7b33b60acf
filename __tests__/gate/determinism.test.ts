import { describe, expect, it } from '@jest/globals'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { cli, writeFiles } from '../helpers.js'

const root = path.resolve(import.meta.dirname, '../..')
const read = (p: string) => readFileSync(path.join(root, p), 'utf8')

/** Fisher-Yates with a fixed LCG, so the shuffled order is itself reproducible. */
function shuffle<T>(items: T[], seed: number): T[] {
  const out = [...items]
  let s = seed
  for (let i = out.length - 1; i > 0; i--) {
    s = (s * 1103515245 + 12345) % 2147483648
    const j = s % (i + 1)
    ;[out[i], out[j]] = [out[j], out[i]]
  }
  return out
}

async function gateReports(baseline: string, candidate: string) {
  const f = writeFiles({ 'b.jsonl': baseline, 'c.jsonl': candidate })
  const json = f['b.jsonl'] + '.report.json'
  const r = await cli([
    'gate',
    '--rules',
    path.join(root, 'examples/rules.yml'),
    '--baseline',
    f['b.jsonl'],
    '--candidate',
    f['c.jsonl'],
    '--json',
    json
  ])
  // File names differ between runs (temp folders); compare the reports with them normalised.
  const norm = (t: string) => t.split(f['b.jsonl']).join('<baseline>').split(f['c.jsonl']).join('<candidate>')
  return { code: r.code, markdown: norm(r.stdout), json: norm(readFileSync(json, 'utf8')) }
}

describe('same inputs give byte-identical reports', () => {
  const baseline = read('examples/baseline.jsonl')
  const candidate = read('examples/candidate.jsonl')

  it('twice in a row', async () => {
    const a = await gateReports(baseline, candidate)
    const b = await gateReports(baseline, candidate)
    expect(a.code).toBe(1)
    expect(b.markdown).toBe(a.markdown)
    expect(b.json).toBe(a.json)
  })

  it('with the rows of both files in another order', async () => {
    const a = await gateReports(baseline, candidate)
    const lines = (t: string) => t.trimEnd().split('\n')
    const b = await gateReports(
      shuffle(lines(baseline), 42).join('\n') + '\n',
      shuffle(lines(candidate), 7).join('\n') + '\n'
    )
    expect(b.markdown).toBe(a.markdown)
    expect(b.json).toBe(a.json)
  })

  it('as CSV instead of JSON Lines', async () => {
    const a = await gateReports(baseline, candidate)
    const toCsv = (t: string) => {
      const rows = t
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, unknown>)
      const cols = Object.keys(rows[0])
      return [cols.join(','), ...rows.map((r) => cols.map((c) => String(r[c])).join(','))].join('\r\n') + '\r\n'
    }
    const f = writeFiles({ 'b.csv': toCsv(baseline), 'c.csv': toCsv(candidate) })
    const r = await cli([
      'gate',
      '--rules',
      path.join(root, 'examples/rules.yml'),
      '--baseline',
      f['b.csv'],
      '--candidate',
      f['c.csv']
    ])
    const norm = r.stdout.split(f['b.csv']).join('<baseline>').split(f['c.csv']).join('<candidate>')
    // The checks table and everything computed is the same; only the row counts line mentions the files.
    expect(norm.replace(/\n- Baseline:.*\n/, '\n')).toBe(a.markdown.replace(/\n- Baseline:.*\n/, '\n'))
  })
})

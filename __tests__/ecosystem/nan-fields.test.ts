/**
 * A NaN the rules never read decides nothing, so it must not reject the file: a field or measure the rules do not
 * name is not read, whatever it holds (Python's json.dump writes float("nan") as a bare `NaN`, which is not JSON;
 * pandas' to_json writes null; ir_measures prints `nan`). A NaN in a field the rules do use is refused with the
 * file, the line, the field and the fix (null or no field is a missing value, which `queries.missing` decides).
 * The files are written as Python 3's json.dumps writes them (checked with /usr/bin/python3, Debian 3.x:
 * `json.dumps({"query_id": "q1", "ndcg@10": 0.5, "bpref": float("nan")})` gives
 * `{"query_id": "q1", "ndcg@10": 0.5, "bpref": NaN}`).
 */
import { describe, expect, it } from '@jest/globals'
import { cli, hasStackTrace, writeFiles } from '../helpers.js'

const RULES = `version: 1
metrics:
  ndcg@10: { better: higher, range: [0, 1] }
checks:
  - name: ndcg holds
    metric: ndcg@10
    non_inferior: { margin: 0.5 }
`

/** Per-query values, one line per query; `extra(i)` gives the text of the other fields of query i. */
function jsonl(values: number[], extra: (i: number) => string): string {
  return values.map((v, i) => `{"query_id": "q${i + 1}", "ndcg@10": ${v}, ${extra(i)}}\n`).join('')
}

async function gate(files: Record<string, string>, baseline: string, candidate: string, extra: string[] = []) {
  const f = writeFiles({ 'rules.yml': RULES, ...files })
  return {
    f,
    r: await cli([
      'gate',
      '--rules',
      f['rules.yml'],
      '--baseline',
      f[baseline],
      '--candidate',
      f[candidate],
      '--format',
      'json',
      ...extra
    ])
  }
}

// 40 queries (the rules' default minimum is 30); the candidate a little better, so the check passes.
const B = Array.from({ length: 40 }, (_, i) => ((i * 7) % 10) / 10)
const C = B.map((v, i) => (i % 3 === 0 ? Math.min(1, v + 0.1) : v))

describe('a NaN in a field the rules do not use is not read', () => {
  it('JSON Lines with bare NaN / Infinity in an unused field (json.dumps), on the first line too', async () => {
    const { r } = await gate(
      {
        'b.jsonl': jsonl(B, (i) => `"bpref": ${i % 2 === 0 ? 'NaN' : '0.25'}`),
        'c.jsonl': jsonl(C, (i) => `"bpref": ${i === 1 ? '-Infinity' : 'NaN'}, "segment": "s${i % 2}"`)
      },
      'b.jsonl',
      'c.jsonl'
    )
    expect(r.stderr).toBe('')
    expect(r.code).toBe(0)
    expect((JSON.parse(r.stdout) as { verdict: string }).verdict).toBe('pass')
  })

  it('pytrec_eval-shaped {qid: {measure: value}} with NaN (json.dump of ranx run.scores transposed) and null (pandas to_json)', async () => {
    // json.dumps(pandas.DataFrame(run.scores).to_dict(orient="index")) with a NaN bpref, and df.to_json(orient="index").
    const dump = (values: number[], bpref: string) =>
      `{${values.map((v, i) => `"q${i + 1}": {"ndcg@10": ${v}, "bpref": ${bpref}}`).join(', ')}}`
    const { r } = await gate(
      { 'b.json': dump(B, 'NaN'), 'c.json': dump(C, 'null').replace(/ /g, '') },
      'b.json',
      'c.json'
    )
    expect(r.stderr).toBe('')
    expect(r.code).toBe(0)
  })

  it('a JSON array of records (json.dump of a list of dicts) with NaN in an unused field', async () => {
    const records = (values: number[]) =>
      `[${values.map((v, i) => `{"query_id": "q${i + 1}", "ndcg@10": ${v}, "bpref": NaN}`).join(', ')}]`
    const { r } = await gate({ 'b.json': records(B), 'c.json': records(C) }, 'b.json', 'c.json')
    expect(r.stderr).toBe('')
    expect(r.code).toBe(0)
  })

  it('long form (JSON Lines and ir_measures text) with NaN for a measure the rules do not name', async () => {
    const long = (values: number[]) =>
      values
        .map(
          (v, i) =>
            `{"qid": "q${i + 1}", "measure": "ndcg@10", "value": ${v}}\n{"qid": "q${i + 1}", "measure": "bpref", "value": NaN}\n`
        )
        .join('')
    // ir_measures -q prints f'{query_id}\t{measure}\t{value:.4f}', and f'{float("nan"):.4f}' is "nan".
    const irm = (values: number[]) =>
      values.map((v, i) => `q${i + 1}\tndcg@10\t${v.toFixed(4)}\nq${i + 1}\tbpref\tnan\n`).join('')
    const jsonLong = await gate({ 'b.jsonl': long(B), 'c.jsonl': long(C) }, 'b.jsonl', 'c.jsonl')
    expect(jsonLong.r.stderr).toBe('')
    expect(jsonLong.r.code).toBe(0)
    const text = await gate({ 'b.tsv': irm(B), 'c.tsv': irm(C) }, 'b.tsv', 'c.tsv', ['--input-format', 'ir_measures'])
    expect(text.r.stderr).toBe('')
    expect(text.r.code).toBe(0)
  })
})

describe('a NaN in a field the rules use is refused, saying where and what to write', () => {
  it('JSON Lines: file, line, field and the fix, not "not valid JSON"', async () => {
    const { f, r } = await gate(
      {
        'b.jsonl': jsonl(B, () => '"bpref": 0.1'),
        'c.jsonl': jsonl(C, () => '"bpref": 0.1').replace('"ndcg@10": 0.4', '"ndcg@10": NaN')
      },
      'b.jsonl',
      'c.jsonl'
    )
    expect(r.code).toBe(2)
    expect(hasStackTrace(r.stderr)).toBe(false)
    expect(r.stderr).not.toMatch(/not valid JSON/)
    expect(r.stderr).toContain(`${f['c.jsonl']}:3: "ndcg@10" is NaN`)
    expect(r.stderr).toContain(
      'write null or drop the field where the value is missing (queries.missing decides what the gate does with a missing value)'
    )
  })

  it('pytrec_eval-shaped JSON: the line of the entry', async () => {
    const { f, r } = await gate(
      {
        'b.json': '{"q1": {"ndcg@10": 0.5},\n "q2": {"ndcg@10": 0.4}}',
        'c.json': '{"q1": {"ndcg@10": 0.5},\n "q2": {"ndcg@10": Infinity}}'
      },
      'b.json',
      'c.json'
    )
    expect(r.code).toBe(2)
    expect(r.stderr).toContain(`${f['c.json']}:2: "ndcg@10" is Infinity`)
    expect(r.stderr).toContain('write null or drop the field')
  })

  it('a null or absent used field is a missing value, as before (queries.missing: error refuses it by name)', async () => {
    const { r } = await gate(
      {
        'b.jsonl': jsonl(B, () => '"bpref": NaN'),
        'c.jsonl': jsonl(C, () => '"bpref": NaN').replace('"ndcg@10": 0.4', '"ndcg@10": null')
      },
      'b.jsonl',
      'c.jsonl'
    )
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/missing|no value/i)
    expect(r.stderr).not.toMatch(/NaN/)
  })
})

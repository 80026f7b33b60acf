import { describe, expect, it } from '@jest/globals'
import path from 'node:path'
import { readWholeText } from '../../src/inputs/whole-file.js'
import { cli, hasStackTrace, jsonl, tempDir, writeFiles } from '../helpers.js'

const CAP = { limit: 16, what: 'a test file', hint: 'keep it short' }

describe('readWholeText: the one capped whole-file read (rules, manifests, evaluator exports)', () => {
  it('removes a byte order mark and returns the text', async () => {
    const f = writeFiles({ 'a.txt': '\ufeffversion: 1\n' })
    expect(await readWholeText(f['a.txt'], CAP)).toBe('version: 1\n')
  })

  it('refuses a missing file, a directory, an oversized file and invalid UTF-8 by name', async () => {
    const f = writeFiles({ 'big.txt': 'x'.repeat(17), 'bad.txt': Buffer.from([0x61, 0xff, 0x0a]) })
    await expect(readWholeText(path.join(tempDir(), 'nope.txt'), CAP)).rejects.toThrow(/nope\.txt: file not found/)
    await expect(readWholeText(tempDir(), CAP)).rejects.toThrow(/is a directory, not a file/)
    await expect(readWholeText(f['big.txt'], CAP)).rejects.toThrow(/big\.txt: is 17 bytes; a test file is read whole and the limit is 16\. keep it short/)
    await expect(readWholeText(f['bad.txt'], CAP)).rejects.toThrow(/bad\.txt: is not valid UTF-8/)
  })

  it('a manifest path that does not exist is refused as such, through the gate (exit 2)', async () => {
    const rules = 'version: 1\nmetrics: { m: { better: higher } }\nqueries: { min_per_slice: 1 }\ncomparability: { must_match: [chunker] }\nchecks:\n  - { name: m, metric: m, non_inferior: { margin: 0.1 } }\n'
    const rows = jsonl([{ query_id: 'q1', m: 0.5 }])
    const f = writeFiles({ 'rules.yml': rules, 'b.jsonl': rows, 'c.jsonl': rows, 'cm.json': '{"chunker": "x"}' })
    const r = await cli(['gate', '--rules', f['rules.yml'], '--baseline', f['b.jsonl'], '--candidate', f['c.jsonl'], '--baseline-manifest', 'missing-manifest.json', '--candidate-manifest', f['cm.json']])
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/missing-manifest\.json: file not found/)
    expect(hasStackTrace(r.stderr)).toBe(false)
  })
})

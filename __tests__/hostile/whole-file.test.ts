import { describe, expect, it } from '@jest/globals'
import path from 'node:path'
import { readWholeText } from '../../src/readers/whole-file.js'
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
    await expect(readWholeText(f['big.txt'], CAP)).rejects.toThrow(
      /big\.txt: is 17 bytes; a test file is read whole and the limit is 16\. keep it short/
    )
    await expect(readWholeText(f['bad.txt'], CAP)).rejects.toThrow(/bad\.txt: is not valid UTF-8/)
  })

  it('a manifest path that does not exist is refused as such, through the gate (exit 2)', async () => {
    const rules =
      'version: 1\nmetrics: { m: { better: higher } }\nqueries: { min_per_slice: 1 }\ncomparability: { must_match: [chunker] }\nchecks:\n  - { name: m, metric: m, non_inferior: { margin: 0.1 } }\n'
    const rows = jsonl([{ query_id: 'q1', m: 0.5 }])
    const f = writeFiles({ 'rules.yml': rules, 'b.jsonl': rows, 'c.jsonl': rows, 'cm.json': '{"chunker": "x"}' })
    const r = await cli([
      'gate',
      '--rules',
      f['rules.yml'],
      '--baseline',
      f['b.jsonl'],
      '--candidate',
      f['c.jsonl'],
      '--baseline-manifest',
      'missing-manifest.json',
      '--candidate-manifest',
      f['cm.json']
    ])
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/missing-manifest\.json: file not found/)
    expect(hasStackTrace(r.stderr)).toBe(false)
  })
})

describe('forEachLineBytes: one line splitter for every line-based reader', () => {
  it('passes a bug in the line handler through as it is, instead of calling it a file that "cannot be read"', async () => {
    const { forEachLine } = await import('../../src/readers/lines.js')
    const f = writeFiles({ 'a.txt': 'x\n' })
    const bug = new TypeError('handler bug')
    await expect(
      forEachLine(f['a.txt'], () => {
        throw bug
      })
    ).rejects.toBe(bug)
  })

  it('gives byte ranges without CR or BOM, numbered from 1, the last line without a newline included', async () => {
    const { forEachLineBytes } = await import('../../src/readers/lines.js')
    const f = writeFiles({ 'a.txt': Buffer.from('\ufeffq1 a\r\n\nq2 b', 'utf8') })
    const seen: Array<[number, string]> = []
    const n = await forEachLineBytes(f['a.txt'], (bytes, start, end, line) =>
      seen.push([line, bytes.toString('utf8', start, end)])
    )
    expect(n).toBe(3)
    expect(seen).toEqual([
      [1, 'q1 a'],
      [2, ''],
      [3, 'q2 b']
    ])
  })
})

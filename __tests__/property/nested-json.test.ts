/**
 * The streamed `{outer: {inner: number}}` reader (src/readers/json/nested.ts, ranx / pytrec_eval runs, qrels and
 * per-query results) against JSON.parse, on documents of a few MiB: its window over the file is 1 MiB, so keys,
 * escapes, multi-byte characters, numbers and white space fall across the window's edge many times. Every key,
 * value (Object.is: every double bit) and line it reports must be what JSON.parse and the text say.
 */
import { describe, expect, it } from '@jest/globals'
import { readNestedNumbers } from '../../src/readers/json/nested.js'
import { writeFiles } from '../helpers.js'

/** mulberry32: a small seeded generator, so each document is the same on every run. */
function random(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const PIECES = [
  'a',
  'q',
  'doc',
  '-',
  '_',
  '7',
  ' ',
  '\\"',
  '\\\\',
  '\\n',
  '\\/',
  '\\u00e9',
  '\\ud83d\\ude00',
  'é',
  '日本',
  '😀'
]
const SPACE = ['', '', ' ', '\n', '\n  ', '\n    ', '\t', '\r\n']

interface Expected {
  outer: Array<[string, number]>
  entries: Array<[string, number, number]>
}

/** A document of about `bytes` bytes and what a reader must find in it. */
function document(seed: number, bytes: number): { text: string; expected: Expected } {
  const r = random(seed)
  const pick = <T>(list: readonly T[]): T => list[Math.floor(r() * list.length)]
  const parts: string[] = []
  let size = 0
  let line = 1
  const put = (text: string): void => {
    parts.push(text)
    size += text.length
    for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) line++
  }
  const key = (n: number): string => {
    // Mostly short keys; now and then one of thousands of bytes, so some straddle the window's edge.
    const count = r() < 0.01 ? 500 + Math.floor(r() * 3000) : Math.floor(r() * 12)
    let text = ''
    for (let i = 0; i < count; i++) text += pick(PIECES)
    return `"${text}#${n}"`
  }
  const numberText = (): string => {
    const kind = Math.floor(r() * 6)
    if (kind === 0) return JSON.stringify((r() - 0.5) * 10 ** Math.floor(r() * 40 - 20))
    if (kind === 1) return String(Math.floor(r() * 100000))
    if (kind === 2) return (r() * 1000).toFixed(Math.floor(r() * 8))
    if (kind === 3) return pick(['-0', '0', '1e5', '0.5E-3', '12345678901234567890', '-1.5e+300'])
    return r().toFixed(4)
  }
  const expected: Expected = { outer: [], entries: [] }
  put(`${pick(SPACE)}{`)
  for (let q = 0; size < bytes; q++) {
    put(q === 0 ? pick(SPACE) : `,${pick(SPACE)}`)
    const k = key(q)
    expected.outer.push([JSON.parse(k) as string, line])
    put(`${k}${pick(SPACE)}:${pick(SPACE)}{`)
    const n = 1 + Math.floor(r() * 200)
    for (let d = 0; d < n; d++) {
      put(d === 0 ? pick(SPACE) : `,${pick(SPACE)}`)
      const dk = key(d)
      const value = numberText()
      expected.entries.push([JSON.parse(dk) as string, JSON.parse(value) as number, line])
      put(`${dk}${pick(SPACE)}:${pick(SPACE)}${value}${pick(SPACE)}`)
    }
    put('}')
  }
  put(`${pick(SPACE)}}${pick(SPACE)}`)
  return { text: parts.join(''), expected }
}

describe('readNestedNumbers', () => {
  it('reads every key, value and line as JSON.parse and the text give them, across the edges of its 1 MiB window', () => {
    for (const seed of [1, 2]) {
      const { text, expected } = document(seed, 2.5 * 1024 * 1024)
      const f = writeFiles({ 'doc.json': text })
      const got: Expected = { outer: [], entries: [] }
      const summary = readNestedNumbers(
        f['doc.json'],
        { outer: (k, line) => got.outer.push([k, line]), entry: (k, v, line) => got.entries.push([k, v, line]) },
        { what: 'a test document', example: '{}', innerKey: 'key', value: 'value' }
      )
      // the oracle: JSON.parse of the same text gives the same keys and values
      const parsed = JSON.parse(text) as Record<string, Record<string, number>>
      expect(got.outer.map(([k]) => k)).toEqual(Object.keys(parsed))
      expect(got.entries.length).toBe(expected.entries.length)
      expect(summary).toEqual({ outerKeys: expected.outer.length, entries: expected.entries.length })
      expect(got.outer).toEqual(expected.outer)
      const mismatch = got.entries.findIndex(
        ([k, v, line], i) =>
          k !== expected.entries[i][0] || !Object.is(v, expected.entries[i][1]) || line !== expected.entries[i][2]
      )
      expect(mismatch === -1 ? null : [got.entries[mismatch], expected.entries[mismatch]]).toBeNull()
    }
  })
})

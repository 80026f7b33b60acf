import { describe, expect, it } from '@jest/globals'
import { jsonChunks, StreamedArray } from '../../src/report/json/stream.js'
import { jsonNumbers } from '../../src/util/json-number.js'

const whole = (v: unknown): string => [...jsonChunks(v)].join('')
const reference = (v: unknown): string => JSON.stringify(v, jsonNumbers, 2) + '\n'

describe('the streamed JSON writer', () => {
  it('writes the bytes JSON.stringify(value, jsonNumbers, 2) writes', () => {
    const value = {
      a: 0.1 + 0.2,
      b: [1, undefined, () => 1, NaN, -0, { c: 'x\n"y"\u2028', d: undefined }],
      e: {},
      f: [],
      g: null,
      h: { nested: { deeper: [[], [{}]] } },
      '"key"': 'v'
    }
    expect(whole(value)).toBe(reference(value))
  })

  it('writes a StreamedArray as the array of its items, made while written', () => {
    const items = Array.from({ length: 5000 }, (_, i) => ({ id: `q${i}`, delta: i / 3, attrs: { s: '<&>' } }))
    let made = 0
    const lazy = (function* () {
      for (const it of items) {
        made++
        yield it
      }
    })()
    const chunks = jsonChunks({ top: 1, regressions: { count: 5000, queries: new StreamedArray(lazy) }, after: [1] })
    const first = chunks.next()
    expect(made).toBeLessThan(5000)
    const text = (first.value as string) + [...chunks].join('')
    expect(text).toBe(reference({ top: 1, regressions: { count: 5000, queries: items }, after: [1] }))
    expect(whole({ empty: new StreamedArray([]) })).toBe(reference({ empty: [] }))
  })

  it('calls a toJSON with the property name (an index in an array), once, as JSON.stringify does', () => {
    let calls = 0
    const keyed = (): { toJSON(key: string): unknown } => ({
      toJSON(key: string) {
        calls++
        return { key, again: { toJSON: (k: string) => `inner ${k}` } }
      }
    })
    const dropped = { toJSON: () => undefined }
    const value = () => ({
      a: keyed(),
      b: [keyed(), dropped, new Date(0)],
      c: dropped,
      when: new Date(0),
      s: new StreamedArray([keyed(), 1, dropped])
    })
    const expected = reference({ ...value(), s: [keyed(), 1, dropped] })
    calls = 0
    expect(whole(value())).toBe(expected)
    expect(calls).toBe(3)
    expect(expected).toContain('"key": "a"')
    expect(expected).toContain('"key": "0"')
  })
})

/**
 * parseJsonWithNonFinite reads Python's bare NaN / Infinity / -Infinity where a JSON value starts, and nothing
 * else: the words inside strings, as parts of longer words, or where a key goes stay what they were (invalid or
 * text), repeated keys are still refused, and a text already holding the internal mark is not rewritten.
 */
import { describe, expect, it } from '@jest/globals'
import { parseJsonWithNonFinite } from '../../src/readers/json/document.js'

describe('parseJsonWithNonFinite', () => {
  it('reads the three words as values, at any depth and in arrays, as json.dumps writes them', () => {
    // /usr/bin/python3 -c 'import json; print(json.dumps({"a": float("nan"), "b": [float("inf"), -float("inf")], "c": {"d": float("nan")}}))'
    const got = parseJsonWithNonFinite('{"a": NaN, "b": [Infinity, -Infinity], "c": {"d": NaN}}')?.value as Record<
      string,
      unknown
    >
    expect(got.a).toBeNaN()
    expect(got.b).toEqual([Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY])
    expect((got.c as { d: number }).d).toBeNaN()
    expect(parseJsonWithNonFinite('[NaN]')?.value).toEqual([Number.NaN])
  })

  it('leaves strings that spell the words as strings, and -1 as a number', () => {
    const got = parseJsonWithNonFinite('{"NaN": "NaN", "x": NaN, "s": "a \\" NaN", "n": -1}')?.value as Record<
      string,
      unknown
    >
    expect(got).toEqual({ NaN: 'NaN', x: Number.NaN, s: 'a " NaN', n: -1 })
  })

  it('is undefined for text that is not JSON even so, or holds none of the words', () => {
    for (const text of [
      '{"a": NaNx}',
      '{"a": nan}',
      '{NaN: 1}',
      '{"a": NaN',
      '{"a": 1}',
      '{"a": Infinity2}',
      '{"a": - Infinity}'
    ]) {
      expect(parseJsonWithNonFinite(text)).toBeUndefined()
    }
  })

  it('refuses (undefined) a repeated key, and a text holding the internal mark', () => {
    expect(parseJsonWithNonFinite('{"a": NaN, "a": 1}')).toBeUndefined()
    expect(parseJsonWithNonFinite('{"a": NaN, "b": "\\u0000rg-non-finite:NaN"}')).toBeUndefined()
  })
})

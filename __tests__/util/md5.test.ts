/** MD5 written out (src/util/md5.ts) gives node:crypto's first 8 bytes for every kind of text. */
import { describe, expect, it } from '@jest/globals'
import { createHash } from 'node:crypto'
import fc from 'fast-check'
import { md5Head } from '../../src/util/md5.js'

const reference = (text: string): [number, number] => {
  const d = createHash('md5').update(text, 'utf8').digest()
  return [d.readInt32BE(0), d.readInt32BE(4)]
}

describe('md5Head', () => {
  it('RFC 1321 test suite: md5("abc") = 900150983cd24fb0...', () => {
    expect(md5Head('abc').map((x) => (x >>> 0).toString(16).padStart(8, '0'))).toEqual(['90015098', '3cd24fb0'])
    expect(md5Head('').map((x) => (x >>> 0).toString(16).padStart(8, '0'))).toEqual(['d41d8cd9', '8f00b204'])
  })
  it('equals node:crypto on lengths around the block boundaries and on any Unicode text', () => {
    for (let n = 0; n < 200; n++) expect(md5Head('q'.repeat(n))).toEqual(reference('q'.repeat(n)))
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 150 }), (text) =>
        expect(md5Head(text)).toEqual(reference(text))
      ),
      { numRuns: 500 }
    )
  })
})

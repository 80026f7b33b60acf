/**
 * Score parsing. Scores decide the ranking, so a score must parse to exactly the double C's strtod gives
 * (trec_eval reads them with atof), and anything that is not a plain finite decimal number is refused
 * rather than guessed at (`0x10`, `inf`, `NaN`, `1e400` all parse in C or JavaScript to something).
 */

import { parseDecimal } from './numbers.js'

/** Exact powers of ten (all exactly representable up to 1e22). */
const POW10 = [
  1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20,
  1e21, 1e22
]

/**
 * Parses bytes[start, end) as a decimal number. Fast path (Clinger): at most 15 significant digits and a
 * decimal exponent within ±22, where mantissa and power of ten are both exact doubles, so one IEEE
 * multiplication or division gives the correctly rounded result — the same double strtod returns. Any other
 * form goes through `otherwise`: by default the text path (src/readers/numbers.ts), NaN for anything that is not
 * a finite plain decimal (JSON's reader, src/readers/json/tokens.ts, passes its own, reading a number as
 * JSON.parse does).
 */
export function parseScoreBytes(
  bytes: Uint8Array,
  start: number,
  end: number,
  otherwise: (bytes: Uint8Array, start: number, end: number) => number = slow
): number {
  let i = start
  let negative = false
  const first = bytes[i]
  if (first === 0x2d || first === 0x2b) {
    negative = first === 0x2d
    i++
  }
  let mantissa = 0
  let digits = 0
  let exponent = 0
  let sawDigit = false
  let c: number
  // integer part
  while (i < end && (c = bytes[i]) >= 0x30 && c <= 0x39) {
    if (digits > 0 || c !== 0x30) {
      mantissa = mantissa * 10 + (c - 0x30)
      digits++
    }
    sawDigit = true
    i++
  }
  if (i < end && bytes[i] === 0x2e) {
    i++
    while (i < end && (c = bytes[i]) >= 0x30 && c <= 0x39) {
      if (digits > 0 || c !== 0x30) {
        mantissa = mantissa * 10 + (c - 0x30)
        digits++
      }
      exponent--
      sawDigit = true
      i++
    }
  }
  if (!sawDigit) return otherwise(bytes, start, end)
  if (i < end) {
    c = bytes[i]
    if (c !== 0x65 && c !== 0x45) return otherwise(bytes, start, end)
    i++
    let expNegative = false
    if (i < end && (bytes[i] === 0x2d || bytes[i] === 0x2b)) {
      expNegative = bytes[i] === 0x2d
      i++
    }
    if (i >= end) return NaN
    let e = 0
    while (i < end && (c = bytes[i]) >= 0x30 && c <= 0x39) {
      if (e < 100000) e = e * 10 + (c - 0x30)
      i++
    }
    if (i < end) return NaN
    exponent += expNegative ? -e : e
  }
  if (digits > 15 || exponent > 22 || exponent < -22) return otherwise(bytes, start, end)
  const value = exponent >= 0 ? mantissa * POW10[exponent] : mantissa / POW10[-exponent]
  return negative ? -value : value
}

function slow(bytes: Uint8Array, start: number, end: number): number {
  return parseDecimal(Buffer.from(bytes.buffer, bytes.byteOffset + start, end - start).toString('latin1')) ?? NaN
}

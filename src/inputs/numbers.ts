/**
 * Strict decimal number syntax for text fields: optional sign, digits with an optional fraction, optional
 * exponent. Hex ("0x10"), "NaN", "Infinity", "1_000", "" and padded text are not numbers here, because
 * JavaScript's Number() would quietly accept some of them (Number("") is 0, Number("0x10") is 16).
 */
const DECIMAL = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/

/** Parses a strict decimal; returns undefined for anything else, and for values that overflow to ±Infinity. */
export function parseDecimal(text: string): number | undefined {
  if (!DECIMAL.test(text)) return undefined
  const value = Number(text)
  return Number.isFinite(value) ? value : undefined
}

/** Why a text is not a usable number, for the error message. */
export function describeBadNumber(text: string): string {
  if (text === '') return 'is empty'
  if (DECIMAL.test(text)) return `${JSON.stringify(text)} overflows to infinity`
  return `${JSON.stringify(text.length > 40 ? text.slice(0, 40) + '…' : text)} is not a decimal number`
}

/**
 * One record of a JSON Lines file: JSON.stringify's text, which escapes every control character (a newline or
 * carriage return in an id cannot split the record), with the three line breaks JSON leaves raw escaped too:
 * NEL (U+0085), LINE SEPARATOR (U+2028) and PARAGRAPH SEPARATOR (U+2029), which Python's `str.splitlines()`,
 * many editors and some JSON Lines readers take as the end of a line. The escapes are JSON's own (`\u2028`), so
 * every reader parses the same value; text without them comes back byte-identical.
 */
const RAW_BREAKS = /[\u0085\u2028\u2029]/g

/** `value` as one JSON Lines record, newline included (`replacer` as JSON.stringify's). */
export function jsonLine(value: unknown, replacer?: (key: string, value: unknown) => unknown): string {
  return (
    JSON.stringify(value, replacer).replace(RAW_BREAKS, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`) +
    '\n'
  )
}

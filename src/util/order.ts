/**
 * Orderings trec_eval uses, reproduced exactly. trec_eval compares C strings with strcmp, i.e. by bytes.
 * Document ids are therefore held internally as "byte strings" (each UTF-8 byte one char, latin1-decoded),
 * where JavaScript's `<` is byte order; query ids stay real strings and are ordered by code point, which is
 * UTF-8 byte order (JavaScript's own `<` compares UTF-16 code units and gets astral characters wrong).
 */

/** Compares two strings in UTF-8 byte order (= code point order). Negative, zero or positive. */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length)
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i)
    let y = b.charCodeAt(i)
    if (x === y) continue
    // Surrogates (astral code points) must sort above U+E000..U+FFFF, as their UTF-8 bytes do.
    if (x >= 0xd800) x = x <= 0xdfff ? x + 0x2000 : x - 0x800
    if (y >= 0xd800) y = y <= 0xdfff ? y + 0x2000 : y - 0x800
    return x - y
  }
  return a.length - b.length
}

/** A real (UTF-16) string as its UTF-8 byte string, the form document ids are compared and looked up in. */
export function toByteString(text: string): string {
  for (let i = 0; i < text.length; i++) {
    if (text.charCodeAt(i) >= 0x80) return Buffer.from(text, 'utf8').toString('latin1')
  }
  return text
}

/** The inverse of {@link toByteString}, for messages. */
export function fromByteString(bytes: string): string {
  for (let i = 0; i < bytes.length; i++) {
    if (bytes.charCodeAt(i) >= 0x80) return Buffer.from(bytes, 'latin1').toString('utf8')
  }
  return bytes
}

/**
 * JSON.parse keeps the last of two equal keys in an object without a word, so `{"m": 0.1, "m": 0.9}` would
 * silently be 0.9. A per-query record with a repeated key is ambiguous input, and the gate refuses it; this
 * scanner finds the first repeated key of the top-level object of a line that JSON.parse already accepted
 * (so the text is known to be valid JSON and the scan can be simple and linear).
 */

/** The first key that appears twice at the top level of a JSON object text, or undefined. */
export function repeatedTopLevelKey(text: string): string | undefined {
  let depth = 0
  let seen: Set<string> | null = null
  let expectKey = false
  let topIsObject = false
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c === 0x22) {
      // a string: find its end (skipping escapes)
      const start = i
      let escaped = false
      i++
      for (; i < text.length; i++) {
        const d = text.charCodeAt(i)
        if (escaped) escaped = false
        else if (d === 0x5c) escaped = true
        else if (d === 0x22) break
      }
      if (depth === 1 && expectKey) {
        const raw = text.slice(start, i + 1)
        const key = raw.includes('\\') ? (JSON.parse(raw) as string) : raw.slice(1, -1)
        if (seen === null) seen = new Set()
        if (seen.has(key)) return key
        seen.add(key)
        expectKey = false
      }
    } else if (c === 0x7b || c === 0x5b) {
      depth++
      if (depth === 1 && c === 0x7b) {
        topIsObject = true
        expectKey = true
      }
    } else if (c === 0x7d || c === 0x5d) {
      depth--
    } else if (c === 0x2c && depth === 1 && topIsObject) {
      expectKey = true
    }
  }
  return undefined
}

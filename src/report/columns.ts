/**
 * Terminal-column arithmetic for the Unicode pictures (forest plot, count bars, terminal histogram): a picture
 * in a fenced block lines up only if every label takes the columns it is counted for. East Asian wide and
 * fullwidth characters and most emoji take two columns in a monospace font, combining marks none; everything
 * else one. The ranges are a deliberately small, fixed subset of Unicode's East_Asian_Width=W/F (no table, no
 * dependency), so the same label is cut and padded the same way on every machine.
 */

const WIDE: ReadonlyArray<readonly [number, number]> = [
  [0x1100, 0x115f],
  [0x2e80, 0x303e],
  [0x3041, 0x33ff],
  [0x3400, 0x4dbf],
  [0x4e00, 0x9fff],
  [0xa000, 0xa4cf],
  [0xac00, 0xd7a3],
  [0xf900, 0xfaff],
  [0xfe30, 0xfe4f],
  [0xff00, 0xff60],
  [0xffe0, 0xffe6],
  [0x1f300, 0x1f64f],
  [0x1f900, 0x1f9ff],
  [0x20000, 0x3fffd]
]

const COMBINING = /^[\p{Mn}\p{Me}\u200b-\u200d\u2060]$/u

/** Columns one code point takes: 0 (combining mark, zero-width), 2 (wide) or 1. */
function charWidth(ch: string): number {
  if (COMBINING.test(ch)) return 0
  const cp = ch.codePointAt(0) as number
  for (const [lo, hi] of WIDE) if (cp >= lo && cp <= hi) return 2
  return 1
}

/** Columns `s` takes in a monospace font. */
export function displayWidth(s: string): number {
  let w = 0
  for (const ch of s) w += charWidth(ch)
  return w
}

/** `s` cut to at most `width` columns, the cut marked with an ellipsis (never splitting a surrogate pair). */
export function cutToWidth(s: string, width: number): string {
  if (displayWidth(s) <= width) return s
  let out = ''
  let w = 0
  for (const ch of s) {
    const cw = charWidth(ch)
    if (w + cw > width - 1) break
    out += ch
    w += cw
  }
  return out + '…'
}

/** `s` padded with spaces on the right to `width` columns (unchanged when already as wide). */
export function padEnd(s: string, width: number): string {
  return s + ' '.repeat(Math.max(0, width - displayWidth(s)))
}

/** `s` padded with spaces on the left to `width` columns: numbers line up on their last digit. */
export function padStart(s: string, width: number): string {
  return ' '.repeat(Math.max(0, width - displayWidth(s))) + s
}

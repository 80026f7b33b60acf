/**
 * Fixed number formatting: toFixed is locale-independent, so the same value prints the same way whatever
 * the machine's locale. -0 prints as 0; a non-finite value prints as "n/a" (and never passes a check).
 */
export function fixed(x: number, digits: number): string {
  if (!Number.isFinite(x)) return 'n/a'
  const s = x.toFixed(digits)
  return /^-0(?:\.0*)?$/.test(s) ? s.slice(1) : s
}

/** Like {@link fixed} with an explicit + for positive values (differences). */
export function signed(x: number, digits: number): string {
  const s = fixed(x, digits)
  return s === 'n/a' || s.startsWith('-') || /^0(?:\.0*)?$/.test(s) ? s : `+${s}`
}

/** Digits for a metric: 4 for values in 0..1, fewer for large units such as milliseconds. */
export function digitsFor(range: [number, number] | undefined, typical: number): number {
  if (range && range[1] - range[0] <= 1) return 4
  const a = Math.abs(typical)
  return a >= 1000 ? 0 : a >= 10 ? 1 : a >= 1 ? 2 : 4
}

/** p-values: 4 significant decimals, or "< 0.0001". */
export function pValue(p: number | null): string {
  if (p === null) return '—'
  if (!Number.isFinite(p)) return 'n/a'
  return p < 0.0001 ? '< 0.0001' : fixed(p, 4)
}

/** 0.123 -> "12.3%". */
export function percent(x: number, digits = 1): string {
  return Number.isFinite(x) ? `${fixed(x * 100, digits)}%` : 'n/a'
}

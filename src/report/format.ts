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

/**
 * A test's level as the rules wrote it: three decimals where they show it exactly (0.05 -> "0.050", as the reports
 * always printed; 1 − 0.95 too), else three significant digits (0.0001 -> "0.0001", never "0.000"; 0.0125 -> "0.0125").
 */
export function alphaText(alpha: number): string {
  const three = fixed(alpha, 3)
  // 1 − 0.95 is 0.050000000000000044: "0.050" shows it, to the precision it was written with.
  return Math.abs(Number(three) - alpha) <= 1e-9 * alpha ? three : String(Number(alpha.toPrecision(3)))
}

/** 0.123 -> "12.3%". */
export function percent(x: number, digits = 1): string {
  return Number.isFinite(x) ? `${fixed(x * 100, digits)}%` : 'n/a'
}

/**
 * The one label of an interval's confidence, used by every report format, chart and sentence, so a label
 * always names the confidence its interval was computed at (under a multiplicity adjustment, the family's:
 * 0.98333… -> "98.33%", not the rules' 95%). Two decimals with trailing zeros dropped: 0.95 -> "95%",
 * 0.975 -> "97.5%", 1 − 0.05/3 -> "98.33%". A confidence below 1 that would round to "100%" keeps up to six
 * decimals (0.99999 -> "99.999%"), so a label never claims certainty.
 */
export function confidenceLabel(confidence: number): string {
  if (!Number.isFinite(confidence)) return 'n/a'
  const pct = confidence * 100
  let digits = 2
  let s = fixed(pct, digits)
  while (confidence < 1 && Number(s) >= 100 && digits < 6) s = fixed(pct, ++digits)
  return `${s.includes('.') ? s.replace(/0+$/, '').replace(/\.$/, '') : s}%`
}

/**
 * The heading of an interval column for rows at the given confidences: "95% CI" when they share one, else
 * "CI" (each cell then names its own, see {@link intervalCell}).
 */
export function intervalHeading(confidences: number[]): string {
  const labels = new Set(confidences.map(confidenceLabel))
  return labels.size === 1 ? `${[...labels][0]} CI` : 'CI'
}

/** An interval cell, "[-0.0100, +0.0200]", with " at 98.33%" when the column mixes confidences. */
export function intervalCell(lo: string, hi: string, confidence: number, mixed: boolean): string {
  return `[${lo}, ${hi}]${mixed ? ` at ${confidenceLabel(confidence)}` : ''}`
}

/** The distinct labels of some confidences, in increasing order: "95%", or "95% or 98.33%". */
export function confidenceLabels(confidences: number[]): string {
  return [...new Set([...confidences].sort((a, b) => a - b).map(confidenceLabel))].join(' or ')
}

/**
 * How the inconclusive checks counted, in words for the counts line: " (inconclusive counts as fail)" when they
 * all counted alike, " (1 inconclusive counts as pass, 2 as fail)" otherwise, "" when there is none. Read from
 * each check's own resolution, because too few queries (`on_too_few`), a `superior` check not shown better
 * (always fail) and an unsettled interval (`on_inconclusive`) can count differently in one report.
 */
export function inconclusiveCounting(checks: ReadonlyArray<{ status: string; counts: 'pass' | 'fail' }>): string {
  let pass = 0
  let fail = 0
  for (const c of checks) {
    if (c.status !== 'inconclusive') continue
    if (c.counts === 'pass') pass++
    else fail++
  }
  if (pass + fail === 0) return ''
  if (pass === 0) return ' (inconclusive counts as fail)'
  if (fail === 0) return ' (inconclusive counts as pass)'
  return ` (${pass} inconclusive ${pass === 1 ? 'counts' : 'count'} as pass, ${fail} as fail)`
}

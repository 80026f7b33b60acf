/**
 * What must agree between the rows path (`gate --baseline --candidate`) and the warehouse path (`sql`, an engine,
 * `gate --aggregates`), read from the JSON reports: the CLI's contract, so these tests hold whatever engine sits
 * underneath. Tolerance: docs/scale.md, "Exact, and within a tolerance" (1e-9 of the magnitude; 1e-12 near 0).
 */
import { readFileSync } from 'node:fs'

/** The decision and comparisons of a JSON report. */
export function decision(file: string): { verdict: unknown; checks: unknown; comparisons: unknown } {
  const r = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>
  return { verdict: r.verdict, checks: r.checks, comparisons: r.comparisons }
}

/** Each check's units as status/reason, exactly. */
export function statuses(file: string): string[][] {
  return (decision(file).checks as Array<{ units: Array<{ status: string; reason: string }> }>).map((c) =>
    c.units.map((u) => `${u.status}/${u.reason}`)
  )
}

/** Every number of a within b's tolerance (relative 1e-9, or 1e-12 absolute near 0); every other value equal. */
export function close(a: unknown, b: unknown, where = ''): string[] {
  if (typeof a === 'number' && typeof b === 'number')
    return Math.abs(a - b) <= 1e-9 * Math.max(Math.abs(a), Math.abs(b)) + 1e-12 ? [] : [`${where}: ${a} vs ${b}`]
  if (Array.isArray(a) && Array.isArray(b))
    return a.length !== b.length
      ? [`${where}: length ${a.length} vs ${b.length}`]
      : a.flatMap((x, i) => close(x, b[i], `${where}[${i}]`))
  if (a !== null && b !== null && typeof a === 'object' && typeof b === 'object') {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)])
    return [...keys].flatMap((k) =>
      close((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], `${where}.${k}`)
    )
  }
  return a === b ? [] : [`${where}: ${JSON.stringify(a)} vs ${JSON.stringify(b)}`]
}

import { underPath, type Manifest } from '../readers/manifest.js'

/** One field that is not the same on every side: its dotted path and each side's value (null = absent). */
export interface FieldDifference {
  path: string
  /** Side name (baseline, candidate, dataset) -> canonical JSON value, or null when the side lacks it. */
  values: Array<[string, string | null]>
}

/** What comparing the manifests found. */
export interface ComparabilityResult {
  /** The sides compared, with their files. */
  sides: Array<[string, string]>
  /** The rule's must_match paths, as written. */
  mustMatch: string[]
  /** must_match fields that differ or are missing: each makes the comparison "not comparable". */
  mismatches: FieldDifference[]
  /** Other fields that differ and are not under may_differ: comparability warnings (not publishable). */
  warnings: FieldDifference[]
  /** Fields under may_differ that differ (expected: usually what the change is about). */
  allowed: FieldDifference[]
  comparable: boolean
}

/**
 * Compares snapshot manifests. `sides` are baseline and candidate (required) and optionally the dataset's
 * manifest, which only speaks for the fields it has. A must_match path fails when baseline or candidate
 * lacks it (it cannot be confirmed: never a silent pass) or when any two sides that have it disagree; a
 * path may name a whole subtree (`chunker` covers `chunker.params.size`). Pure: same manifests, same result.
 */
export function compareManifests(
  sides: Array<[string, Manifest]>,
  mustMatch: readonly string[],
  mayDiffer: readonly string[]
): ComparabilityResult {
  const paths = new Set<string>()
  for (const [, m] of sides) for (const p of m.leaves.keys()) paths.add(p)
  const sorted = [...paths].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
  const mismatches: FieldDifference[] = []
  const warnings: FieldDifference[] = []
  const allowed: FieldDifference[] = []
  const required = (name: string): boolean => name === 'baseline' || name === 'candidate'
  const valuesAt = (path: string): Array<[string, string | null]> =>
    sides.map(([name, m]) => [name, m.leaves.get(path) ?? null])
  for (const rule of mustMatch) {
    const covered = sorted.filter((p) => underPath(p, rule))
    if (covered.length === 0) {
      mismatches.push({ path: rule, values: sides.map(([name]) => [name, null]) })
      continue
    }
    for (const path of covered) {
      const values = valuesAt(path)
      const present = values.filter(([name, v]) => v !== null || required(name))
      const differs = present.some(([, v]) => v === null) || new Set(present.map(([, v]) => v)).size > 1
      if (differs) mismatches.push({ path, values })
    }
  }
  for (const path of sorted) {
    if (mustMatch.some((r) => underPath(path, r))) continue
    const values = valuesAt(path)
    const present = values.filter(([name, v]) => v !== null || required(name))
    if (new Set(present.map(([, v]) => v)).size <= 1) continue
    if (mayDiffer.some((r) => underPath(path, r))) allowed.push({ path, values })
    else warnings.push({ path, values })
  }
  return {
    sides: sides.map(([name, m]) => [name, m.source]),
    mustMatch: [...mustMatch],
    mismatches,
    warnings,
    allowed,
    comparable: mismatches.length === 0
  }
}

/** `corpus.content_hash: baseline "sha256:aa", candidate "sha256:bb"` (absent sides say so). */
export function describeDifference(d: FieldDifference): string {
  return `${d.path}: ${d.values.map(([name, v]) => `${name} ${v === null ? '(absent)' : v}`).join(', ')}`
}

/** How many differences a sentence names: a candidate's manifest may hold any number of fields. */
const NAMED_DIFFERENCES = 5

/** The first differences, `; `-separated, and how many more there are: a sentence whose length the answer cannot grow. */
export function describeDifferences(list: readonly FieldDifference[]): string {
  const named = list.slice(0, NAMED_DIFFERENCES).map(describeDifference).join('; ')
  const left = list.length - NAMED_DIFFERENCES
  return left > 0 ? `${named}; and ${left} more ${left === 1 ? 'field' : 'fields'}` : named
}

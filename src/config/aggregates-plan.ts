import type { Rules } from './types.js'

/**
 * The plan both sides of the warehouse path share, from the rules alone: which subsets the SQL sums
 * (src/stats/warehouse-sql.ts) and which rows the reader expects back (src/readers/aggregates.ts).
 *
 * The sets of queries a gate compares, in families: one fixed filter (a check's `where`, or none) and at most one
 * attribute whose every value is a subset (a `slices` attribute, a check's `per_slice`). The rows path finds
 * them as it goes; a warehouse has to be told in advance which sums to compute (src/stats/warehouse-sql.ts), and
 * the gate reading its aggregates (src/readers/aggregates.ts) checks it got exactly these, so both derive them
 * here, from the rules alone.
 */
export interface SubsetFamily {
  /** Fixed filters, sorted by attribute (the check's `where`). */
  where: Array<[string, string]>
  /** The attribute each of whose values is a subset, or undefined: the family is the one set `where` selects. */
  by: string | undefined
}

/** The families of the rules, in a fixed order: every query; each slice attribute; each check's set(s). */
export function subsetFamilies(rules: Rules): SubsetFamily[] {
  const out: SubsetFamily[] = []
  const seen = new Set<string>()
  const add = (family: SubsetFamily): void => {
    const key = familyKey(family)
    if (seen.has(key)) return
    seen.add(key)
    out.push(family)
  }
  add({ where: [], by: undefined })
  for (const attr of rules.slices) add({ where: [], by: attr })
  for (const check of rules.checks) add({ where: check.where.map(([k, v]) => [k, v]), by: check.perSlice })
  return out
}

/** A family's canonical text (for sets and messages). */
export function familyKey(family: SubsetFamily): string {
  return JSON.stringify([family.where, family.by ?? null])
}

/** The filters of the subset of `family` whose `by` attribute has `value` (as decide and the reports name it). */
export function subsetFilters(family: SubsetFamily, value: string | undefined): Array<[string, string]> {
  const filters = family.where.map(([k, v]): [string, string] => [k, v])
  if (family.by === undefined) return filters
  return [...filters, [family.by, value as string] as [string, string]].sort((a, b) =>
    a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0
  )
}

/** Every attribute the families read (where, slices, per_slice) and the stratum attribute, sorted. */
export function familyAttributes(rules: Rules): string[] {
  const names = new Set<string>()
  for (const f of subsetFamilies(rules)) {
    for (const [k] of f.where) names.add(k)
    if (f.by !== undefined) names.add(f.by)
  }
  if (rules.statistics.weights) names.add(rules.statistics.weights.by)
  return [...names].sort()
}

/** The version of the aggregates format the SQL writes and the reader reads (2: the candidate's centred moments, for levels). */
export const AGGREGATES_VERSION = 2

/** The statistics of a metric's `sums` rows, by name, in the order the SQL writes them. */
export const METRIC_STATS = [
  'sum',
  'sum_abs',
  'sum_baseline',
  'sum_candidate',
  'm2',
  'm3',
  'wins',
  'losses',
  'gained',
  'lost',
  'm2_candidate',
  'm3_candidate'
] as const

/** The `meta` rows the SQL writes for these rules: the reader refuses aggregates computed for anything else. */
export function aggregatesMeta(rules: Rules): Array<[string, string]> {
  return [
    ['version', String(AGGREGATES_VERSION)],
    ['rules_sha256', rules.source.sha256],
    ['seed', rules.statistics.seed],
    ['resamples', String(rules.statistics.resamples)],
    ['permutations', String(rules.statistics.permutations)],
    ['method', rules.statistics.method ?? 'auto'],
    ['families', String(subsetFamilies(rules).length)]
  ]
}

/** The `coverage` counts the SQL writes: what the pairing of rows refuses or counts (src/align/pair.ts). */
export function coverageStats(rules: Rules): string[] {
  const metrics = [...rules.metrics.keys()]
  return [
    'baseline_rows',
    'candidate_rows',
    'baseline_repeated',
    'candidate_repeated',
    'only_in_baseline',
    'only_in_candidate',
    'missing_ids',
    ...familyAttributes(rules).map((a) => `missing_attribute:${a}`),
    ...metrics.flatMap((m) =>
      ['baseline', 'candidate'].flatMap((side) => [
        `missing_value:${side}:${m}`,
        `invalid_value:${side}:${m}`,
        `filled:${side}:${m}`
      ])
    )
  ]
}

import type { CheckRule, Margin, MetricRule, ReferenceRules } from './types.js'

/** The regression-budget keys as written in the rules file (already validated against the schema). */
export interface RawReferenceRules {
  reference?: { name?: string; path?: string; ref?: string; manifest?: string; looks?: number; artifact?: { name: string; workflow?: string; file?: string; ref?: string } }
}

type Fail = (path: Array<string | number>, message: string, hint?: string) => never

/**
 * The typed reference, refusing what the schema cannot express: a reference that names neither a path nor
 * an artifact (or both), `ref` with an artifact, and a reference no check spends a budget against (it would
 * be read and never used: a rule that protects nothing).
 */
export function referenceRules(raw: RawReferenceRules, checks: readonly CheckRule[], fail: Fail): Pick<{ reference?: ReferenceRules }, 'reference'> {
  const r = raw.reference
  if (r === undefined) return {}
  if ((r.path === undefined) === (r.artifact === undefined)) {
    fail(
      ['reference'],
      r.path === undefined ? 'reference names neither a path nor an artifact' : 'reference names both a path and an artifact',
      'give path (with ref: the tag of the last release) or artifact: { name, workflow }, not both'
    )
  }
  if (r.artifact !== undefined && r.ref !== undefined) fail(['reference', 'ref'], 'ref applies to path, not to an artifact', 'drop ref, or name the file with path and ref')
  if (!checks.some((c) => c.budget !== undefined)) {
    fail(['reference'], 'no check has a budget, so the reference would be read and never used', 'add budget: to the checks that must not drift since the reference (e.g. budget: 0.01), or drop reference')
  }
  const label = r.name ?? r.ref ?? r.path ?? (r.artifact as { name: string }).name
  return {
    reference: { label, path: r.path, ref: r.ref, manifest: r.manifest, looks: r.looks, artifact: r.artifact && { name: r.artifact.name, workflow: r.artifact.workflow, file: r.artifact.file, ref: r.artifact.ref } }
  }
}

/**
 * A check's budget: a drop allowed since the reference, refused where it could never be spent (and the
 * budget could never fail): on a check without a reference, on max_regressions (a count of queries, not a
 * drop of the mean), as wide as the metric's range or wider, or 100% or more of the reference mean of a
 * higher-is-better metric that cannot go below 0. `bounds` as for margins.
 */
export function toBudget(
  value: number | string | undefined,
  check: { type: CheckRule['kind']['type'] },
  metric: MetricRule,
  bounds: [number, number] | undefined,
  hasReference: boolean,
  at: Array<string | number>,
  fail: Fail
): Margin | undefined {
  if (value === undefined) return undefined
  const path = [...at, 'budget']
  if (!hasReference)
    fail(path, "a budget is spent against the rules' reference, and the rules name none", "add reference: { name: v1.4, path: eval/release/rows.csv, ref: v1.4 } (the last release's per-query rows), or drop budget")
  if (check.type === 'max_regressions')
    fail(path, 'max_regressions counts regressed queries against the baseline; a budget is a drop of the mean since the reference', 'put the budget on a non_inferior (or superior) check of the same metric')
  if (typeof value === 'string') {
    const pct = Number(value.slice(0, -1))
    if (pct >= 100 && metric.better === 'higher' && (bounds === undefined || bounds[0] >= 0)) {
      fail(
        path,
        `budget ${value} allows ${metric.name} to fall to 0 (or below) since the reference, so it could never be exceeded`,
        'write a relative budget below 100% (e.g. "5%"), or an absolute one in the metric\'s units'
      )
    }
    return { value: pct / 100, relative: true, text: value }
  }
  if (bounds && value >= bounds[1] - bounds[0]) {
    fail(
      path,
      `budget ${value} is larger than the whole range of ${metric.name} [${bounds[0]}, ${bounds[1]}] or equal to it, so it could never be exceeded`,
      "budgets are in the metric's units: 0.01 is one point of a 0..1 metric"
    )
  }
  return { value, relative: false, text: String(value) }
}

import { isWithheld, queryDetails, type GateResult } from '../decide/result.js'
import { jsonNumbers } from '../util/json-number.js'
import { jsonLine } from '../util/json-line.js'

/** One line of `regressions.jsonl`. */
export interface RegressionRecord {
  query_id: string
  /** Gated metrics on which this query got worse (in each metric's direction), in rules order. */
  worse_on: string[]
  /** Every gated metric's values for this query, so a team sees what else moved. */
  metrics: Record<string, { baseline: number; candidate: number; delta: number }>
  /** The query's attributes used by the rules (slices, where, per_slice). */
  attributes: Record<string, string>
  /** The query's text (from the rules' queries file), when known. */
  text?: string
  /** Both runs' top documents (runs mode), best first. */
  top?: { baseline: string[]; candidate: string[] }
}

/** Metrics named by at least one check, in the order the checks first name them. */
export function gatedMetrics(result: GateResult): string[] {
  return [...new Set(result.rules.checks.map((c) => c.metric))]
}

/**
 * The metrics of the regression set, as columns with the sign of "better": every gated metric, whatever its
 * direction. A query that got worse on a gated `better: lower` metric (latency, cost: worse = higher) is a regression
 * too, because a check gates on it; `worse_on` says which metrics a query got worse on, so a team can filter.
 */
function regressionColumns(
  result: GateResult
): Array<{ name: string; sign: number; base: Float64Array; cand: Float64Array }> {
  return gatedMetrics(result).map((name) => {
    const cols = result.table.metrics.get(name) as { base: Float64Array; cand: Float64Array }
    return { name, sign: result.rules.metrics.get(name)?.better === 'lower' ? -1 : 1, ...cols }
  })
}

/**
 * The regression set: every query that got worse on at least one gated metric (strictly, in the metric's
 * direction: lower for `better: higher`, higher for `better: lower`), with both values of every gated metric and its attributes, as JSON Lines, one query per line
 * in the paired table's fixed id order, so a team can keep the file as a regression suite and diff it
 * between runs. Keys are written in a fixed order and user-named keys (even `__proto__`) are plain own
 * properties, so the same inputs give the same bytes; numbers are written by {@link jsonNumbers} (12 significant
 * digits, as in every JSON output). An empty set is an empty file. Queries a capability withholds (the holdout's)
 * are left out.
 */
export function toRegressionsJsonl(result: GateResult): string {
  return regressionRecords(result)
    .map((r) => jsonLine(r, jsonNumbers))
    .join('')
}

/** The records behind {@link toRegressionsJsonl}. */
export function regressionRecords(result: GateResult): RegressionRecord[] {
  const { table } = result
  const metrics = regressionColumns(result)
  const attrNames = [...table.attrs.keys()].sort()
  const out: RegressionRecord[] = []
  for (let i = 0; i < table.ids.length; i++) {
    // Holdout queries are never listed one by one (src/capabilities/holdout/capability.ts): the file is uploaded from PR runs.
    if (isWithheld(result, i)) continue
    const worse = metrics.filter((m) => m.sign * (m.cand[i] - m.base[i]) < 0).map((m) => m.name)
    if (worse.length === 0) continue
    const values: RegressionRecord['metrics'] = {}
    for (const m of metrics)
      defineKey(values, m.name, { baseline: m.base[i], candidate: m.cand[i], delta: m.cand[i] - m.base[i] })
    const attributes: Record<string, string> = {}
    for (const a of attrNames) defineKey(attributes, a, (table.attrs.get(a) as string[])[i])
    const details = queryDetails(result, i)
    out.push({
      query_id: table.ids[i],
      worse_on: worse,
      metrics: values,
      attributes,
      ...(details.text === undefined ? {} : { text: details.text }),
      ...(details.top === undefined ? {} : { top: details.top })
    })
  }
  return out
}

/**
 * How many records {@link regressionRecords} would give, without building them: the Markdown names the count
 * only, and at 10^6 queries building 900,000 records to count them cost seconds and hundreds of MB.
 */
export function regressionCount(result: GateResult): number {
  const { table } = result
  const metrics = regressionColumns(result)
  let count = 0
  for (let i = 0; i < table.ids.length; i++) if (metrics.some((m) => m.sign * (m.cand[i] - m.base[i]) < 0)) count++
  return count
}

/** Sets a user-named key as an own data property (a key named `__proto__` stays plain data). */
function defineKey<T>(obj: Record<string, T>, key: string, value: T): void {
  Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true })
}

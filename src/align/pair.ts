import { neededAttributes } from '../config/attributes.js'
import type { MetricRule, Rules } from '../config/types.js'
import { InputError } from '../errors.js'
import { escapeNonAscii } from '../readers/plain-rows.js'
import { placeOf, type RunQueries, type SideRows } from '../model/rows.js'
import { suggestion } from '../util/did-you-mean.js'
import { attributeRefusal, missingMetricHint } from './attribute-hint.js'
import { quote, quoteList } from '../util/show.js'

/** How many ids an error or a report line lists before "and N more". */
const LIST_LIMIT = 20

/** What happened to every query between reading and comparing: nothing leaves without a count. */
export interface Coverage {
  baselineRows: number
  candidateRows: number
  /** Queries compared (on both sides, or filled). */
  paired: number
  /**
   * Ids on one side only (sorted). The baseline's ids are the exam: a baseline-only query (one the candidate
   * dropped) is filled under `missing: zero`; a candidate-only query is never compared (see
   * `candidateOnlyIgnored`). Under `missing: error` either stops the gate.
   */
  onlyInBaseline: string[]
  onlyInCandidate: string[]
  /**
   * Candidate-only queries left out of every comparison under `missing: zero` (0 under `missing: error`,
   * which refuses them): they are not part of the exam, so the candidate cannot add gains or dilute a share.
   */
  candidateOnlyIgnored: number
  /**
   * Where the slice attributes came from: always the exam (baseline rows, which carry the evaluation set's
   * attributes in runs mode), never the candidate. `candidateValuesCompared` counts candidate values that
   * were checked equal to the exam's (0 when the candidate gives none, then nothing was compared).
   */
  attributes: { names: string[]; candidateValuesCompared: number }
  /** Values filled under `missing: zero`, per metric and side. */
  filled: Array<{ metric: string; baseline: number; candidate: number }>
  missingPolicy: 'error' | 'zero'
  /**
   * Each side's run, when its rows were computed from a run and judgments (null for rows read as they are): the
   * row counts above are the judged queries', these the run's own.
   */
  runs: { baseline: RunQueries | null; candidate: RunQueries | null }
  /** Facts carried from the inputs (e.g. how rows were computed from runs). */
  notes: string[]
}

/**
 * Baseline and candidate joined on query id, in one fixed order (ids sorted by code unit), as columns:
 * every later stage reads typed arrays and never depends on the order of the input files.
 */
export interface PairedTable {
  ids: string[]
  metrics: Map<string, { base: Float64Array; cand: Float64Array }>
  /** Attribute columns used by slices and checks, aligned with `ids`. */
  attrs: Map<string, string[]>
  coverage: Coverage
}

/**
 * Pairs the two sides query by query over the exam: the baseline's queries and the baseline's attributes
 * (the candidate's answers only fill them in). A query on one side only or a missing value stops the gate
 * with the ids and lines; under `missing: zero` a query the candidate dropped (or a missing value) is filled
 * with the metric's fill value and counted, and a candidate-only query is ignored and counted, never
 * compared. A value outside a metric's range, a metric or attribute the rows do not have, an attribute the
 * baseline lacks or the candidate contradicts, and a `where` no query satisfies always stop it.
 */
export function pairRows(rules: Rules, baseline: SideRows, candidate: SideRows): PairedTable {
  const zero = rules.queries.missing === 'zero'
  refuseMissingMetrics(rules, { baseline, candidate })
  const attrNames = neededAttributes(rules)
  // The exam's attributes are the baseline's (the evaluation set's, in runs mode): a candidate's own labels never define a slice.
  for (const [name, key] of attrNames) {
    const refusal = attributeRefusal(name, key, rules, { baseline, candidate })
    if (refusal !== undefined) throw refusal
  }
  const baseById = baseline.index
  const candById = candidate.index
  const onlyInBaseline = baseline.ids.filter((id) => !candById.has(id)).sort(compareIds)
  const onlyInCandidate = candidate.ids.filter((id) => !baseById.has(id)).sort(compareIds)
  if (!zero && (onlyInBaseline.length > 0 || onlyInCandidate.length > 0))
    refuseOtherQueries({ baseline, candidate }, { onlyInBaseline, onlyInCandidate })
  // The exam's queries only: a candidate-only query (allowed under missing: zero) is counted and never compared.
  // Files are often written in id order, and both sides in the same order: then no sort and no look-up is needed.
  const inOrder = isSorted(baseline.ids)
  // The default sort compares UTF-16 code units, the order compareIds defines, without a call per comparison.
  const ids = inOrder ? baseline.ids.slice() : [...baseline.ids].sort()
  const n = ids.length
  // Each paired query's row on each side (-1: the candidate dropped it, allowed under missing: zero).
  const baseRow = new Int32Array(n)
  const candRow = new Int32Array(n)
  for (let i = 0; i < n; i++) {
    const id = ids[i]
    baseRow[i] = inOrder ? i : (baseById.get(id) as number)
    candRow[i] = candidate.ids[i] === id ? i : (candById.get(id) ?? -1)
  }
  const { metrics, filled } = metricColumns(rules, { baseline, candidate, ids, baseRow, candRow })
  const attrs = new Map<string, string[]>()
  const compared = { count: 0 }
  const rowsOf = { base: { side: baseline, rows: baseRow }, cand: { side: candidate, rows: candRow } }
  for (const [name] of attrNames) attrs.set(name, attributeColumn(name, ids, rowsOf, compared))
  for (const check of rules.checks) refuseVacuousWhere(rules, check, attrs, n)
  return {
    ids,
    metrics,
    attrs,
    coverage: {
      baselineRows: baseline.ids.length,
      candidateRows: candidate.ids.length,
      paired: n,
      onlyInBaseline,
      onlyInCandidate,
      candidateOnlyIgnored: zero ? onlyInCandidate.length : 0,
      attributes: { names: [...attrNames.keys()].sort(), candidateValuesCompared: compared.count },
      filled,
      missingPolicy: rules.queries.missing,
      runs: { baseline: baseline.run ?? null, candidate: candidate.run ?? null },
      notes: [...baseline.notes, ...candidate.notes]
    }
  }
}

/** Every metric of the rules is a field of both sides' rows. */
function refuseMissingMetrics(rules: Rules, sides: { baseline: SideRows; candidate: SideRows }): void {
  for (const name of rules.metrics.keys()) {
    for (const side of [sides.baseline, sides.candidate]) {
      if (!side.numericFields.has(name)) {
        throw new InputError(
          { file: side.source, key: `metrics.${name}` },
          `no row has the metric "${name}" named in the rules${suggestion(name, side.numericFields)}`,
          missingMetricHint(name, side, rules)
        )
      }
    }
  }
}

/** Stops on queries on one side only (under missing: error), listing them and ids that differ only in normalisation. */
function refuseOtherQueries(
  sides: { baseline: SideRows; candidate: SideRows },
  only: { onlyInBaseline: string[]; onlyInCandidate: string[] }
): never {
  const { baseline, candidate } = sides
  const { onlyInBaseline, onlyInCandidate } = only
  const hints: string[] = []
  if (onlyInCandidate.length > 0)
    hints.push(
      "evaluate the candidate on the exam's queries (the baseline's): a query the baseline does not have is not part of the exam and is never compared, under any queries.missing"
    )
  if (onlyInBaseline.length > 0)
    hints.push(
      'evaluate the candidate on every query of the baseline, or set queries.missing: zero in the rules to score the queries the candidate dropped with the fill value (counted in the report)'
    )
  const parts: string[] = []
  if (onlyInBaseline.length > 0)
    parts.push(`${onlyInBaseline.length} in the baseline only: ${listIds(onlyInBaseline, baseline)}`)
  if (onlyInCandidate.length > 0)
    parts.push(`${onlyInCandidate.length} in the candidate only: ${listIds(onlyInCandidate, candidate)}`)
  const spelled = normalisationTwins(onlyInBaseline, onlyInCandidate)
  const twins =
    spelled.length > 0
      ? `; ${spelled.length} of them differ only in Unicode normalisation (e.g. ${spelled[0]}): ids are compared exactly, so write each id the same way on both sides`
      : ''
  throw new InputError(
    {},
    `${baseline.source} and ${candidate.source} do not have the same queries: ${parts.join('; ')}${twins}`,
    hints.join('; ')
  )
}

/** Where the paired queries' values are: their ids and each side's row of each (-1: the candidate dropped it). */
interface PairedRows {
  baseline: SideRows
  candidate: SideRows
  ids: string[]
  baseRow: Int32Array
  candRow: Int32Array
}

/**
 * Each metric's two columns over the paired queries, each present value checked against the rules; a missing one
 * filled (missing: zero, counted) or listed in the refusal.
 */
function metricColumns(rules: Rules, at: PairedRows): { metrics: PairedTable['metrics']; filled: Coverage['filled'] } {
  const { baseline, candidate, ids, baseRow, candRow } = at
  const zero = rules.queries.missing === 'zero'
  const n = ids.length
  const metrics: PairedTable['metrics'] = new Map()
  const filled: Coverage['filled'] = []
  const missingValues: Array<{ file: string; text: string }> = []
  for (const metric of rules.metrics.values()) {
    const fill = metric.fill ?? 0
    const count = { baseline: 0, candidate: 0 }
    const column = (side: SideRows, rows: Int32Array, which: 'baseline' | 'candidate'): Float64Array => {
      const out = new Float64Array(n)
      // No column: the field is named but no row holds it (every value is missing).
      const values = side.values.get(metric.name)
      for (let i = 0; i < n; i++) {
        const row = rows[i]
        const v = row < 0 || values === undefined ? Number.NaN : values[row]
        if (v === v) {
          checkValue(v, side, row, metric)
          out[i] = v
        } else {
          count[which]++
          if (!zero)
            missingValues.push({
              file: side.source,
              text: `${quote(ids[i])} (${placeOf(side, row)}, ${metric.name})`
            })
          out[i] = fill
        }
      }
      return out
    }
    const base = column(baseline, baseRow, 'baseline')
    const cand = column(candidate, candRow, 'candidate')
    metrics.set(metric.name, { base, cand })
    filled.push({ metric: metric.name, ...count })
  }
  if (missingValues.length > 0) {
    // The file blamed is the one holding the first missing value listed (baseline values are listed first).
    missingValues.sort((a, b) => (a.file === b.file ? 0 : a.file === baseline.source ? -1 : 1))
    const more = missingValues.length - LIST_LIMIT
    throw new InputError(
      { file: missingValues[0].file },
      `missing metric values: ${missingValues
        .slice(0, LIST_LIMIT)
        .map((m) => m.text)
        .join(', ')}${more > 0 ? ` and ${more} more` : ''}`,
      'every paired query needs every metric of the rules as a number, or set queries.missing: zero to fill them (counted in the report)'
    )
  }
  return { metrics, filled }
}

/** A present value of `metric` checked against the rules: 0 or 1 when binary, inside the declared range. */
function checkValue(v: number, side: SideRows, row: number, rule: Pick<MetricRule, 'name' | 'range' | 'binary'>): void {
  const { name: metric, range, binary } = rule
  if (binary && v !== 0 && v !== 1) {
    throw new InputError(
      { file: side.source, line: side.lines[row], queryId: side.ids[row] },
      `${metric} = ${v}, but the rules declare it binary (0 or 1)`,
      'write 0 or 1, or drop "binary: true" from the metric'
    )
  }
  if (range && (v < range[0] || v > range[1])) {
    throw new InputError(
      { file: side.source, line: side.lines[row], queryId: side.ids[row] },
      `${metric} = ${v} is outside its range [${range[0]}, ${range[1]}]`,
      'fix the value, or the range declared under metrics in the rules'
    )
  }
}

/** One side's rows of the paired queries (-1 where the side has none). */
interface SideRowsOf {
  side: SideRows
  rows: Int32Array
}

/** Both sides' rows of the paired queries. */
interface PairedRowsOf {
  base: SideRowsOf
  cand: SideRowsOf
}

/**
 * An attribute column over the paired queries, from the exam (the baseline rows) only. The candidate may
 * repeat a value (then it must be equal, and the comparison is counted) but never supply or change it: a
 * candidate that relabels a regressed query would otherwise move it out of the slice a rule protects.
 */
function attributeColumn(
  name: string,
  ids: readonly string[],
  sides: PairedRowsOf,
  compared: { count: number }
): string[] {
  const { base, cand } = sides
  const baseColumn = base.side.attrs.get(name)
  const candColumn = cand.side.attrs.get(name)
  const out = new Array<string>(ids.length)
  for (let i = 0; i < ids.length; i++) {
    const b = baseColumn?.[base.rows[i]]
    const c = cand.rows[i] < 0 ? undefined : candColumn?.[cand.rows[i]]
    if (b !== undefined && c !== undefined) {
      if (b !== c) {
        throw new InputError(
          { file: cand.side.source, line: cand.side.lines[cand.rows[i]], queryId: ids[i] },
          `attribute "${name}" differs between the sides (baseline ${placeOf(base.side, base.rows[i])} says ${quote(b)}, candidate says ${quote(c)})`,
          base.side.numericFields.has(name)
            ? `"${name}" holds numbers: if it is a measurement (a score, a latency), declare it under metrics and group queries by a label field instead; if it is a label, correct the candidate's value (the baseline's is the exam's)`
            : "both sides must describe the same query the same way: the baseline's value is the exam's, so correct the candidate's (or leave the field out of it)"
        )
      }
      compared.count++
    }
    if (b === undefined || b === '') throw noAttribute(name, { side: base.side, row: base.rows[i], id: ids[i] }, c)
    out[i] = b
  }
  return out
}

/** A paired query's row on the exam's side (the baseline); row 0 is no line: the query is absent from the run. */
interface ExamRow {
  side: SideRows
  row: number
  id: string
}

/** The refusal of a paired query whose exam row has no value for an attribute the rules use. */
function noAttribute(name: string, exam: ExamRow, candidateValue: string | undefined): InputError {
  const { side: baseline, row, id } = exam
  const line = baseline.lines[row]
  const hint =
    candidateValue !== undefined && candidateValue !== ''
      ? `the candidate gives ${quote(candidateValue)}, but slice attributes come from the baseline (the exam) only: give the value in the baseline row${line === 0 ? ' (this query is absent from the baseline run: give attributes in the evaluation set named by dataset:)' : ''}`
      : 'give every baseline row a value for each slice / where / per_slice attribute'
  // Line 0: a judged query absent from the baseline run (no line to point at; the query id says which).
  return new InputError(
    { file: baseline.source, line: line || undefined, queryId: id },
    `query has no value for the attribute "${name}" used by the rules`,
    hint
  )
}

/**
 * Refuses a `where` that no query satisfies (each value alone, then the values together) and a
 * max_regressions count that every query of the check could regress under: a check over zero queries, or
 * one that can never fail, is a rule that protects nothing.
 */
function refuseVacuousWhere(
  rules: Rules,
  check: Rules['checks'][number],
  attrs: Map<string, string[]>,
  n: number
): void {
  const at = (key: string) => ({ file: rules.source.file, line: check.line, key: `checks[${check.index}].${key}` })
  for (const [name, value] of check.where) {
    const column = attrs.get(name) as string[]
    if (!column.includes(value)) {
      const values = [...new Set(column)].sort()
      throw new InputError(
        at(`where.${name}`),
        `no query has ${name} = ${quote(value)}${suggestion(value, values)}`,
        `values present: ${quoteList(values, 20)}`
      )
    }
  }
  let members = 0
  // Queries per value of per_slice within the where set: the largest slice bounds what a count can catch.
  const perSlice = check.perSlice === undefined ? undefined : (attrs.get(check.perSlice) as string[])
  const sliceSizes = new Map<string, number>()
  for (let i = 0; i < n; i++) {
    if (!check.where.every(([name, value]) => (attrs.get(name) as string[])[i] === value)) continue
    members++
    if (perSlice !== undefined) sliceSizes.set(perSlice[i], (sliceSizes.get(perSlice[i]) ?? 0) + 1)
  }
  if (check.where.length > 1 && members === 0) {
    const together = check.where.map(([k, v]) => `${k} = ${quote(v)}`).join(' and ')
    throw new InputError(
      at('where'),
      `no query has ${together} together (each value exists alone), so the check would be evaluated over zero queries`,
      'fix the combination, or split the check into one check per attribute'
    )
  }
  const kind = check.kind
  if (kind.type === 'max_regressions' && kind.count !== undefined && members > 0) {
    if (check.perSlice === undefined && kind.count >= members) {
      throw new InputError(
        at('max_regressions.count'),
        `count ${kind.count} allows every one of the ${members} queries of the check to regress, so it can never fail`,
        `choose a count below ${members}, or a share`
      )
    }
    let largest = 0
    for (const size of sliceSizes.values()) largest = Math.max(largest, size)
    if (check.perSlice !== undefined && kind.count >= largest) {
      throw new InputError(
        at('max_regressions.count'),
        `count ${kind.count} allows every query of every ${check.perSlice} to regress (the largest has ${largest} queries), so it can never fail`,
        `choose a count below ${largest}, or a share`
      )
    }
  }
}

function listIds(ids: string[], side: SideRows): string {
  const shown = ids.slice(0, LIST_LIMIT).map((id) => `${quote(id)} (${placeOf(side, side.index.get(id) as number)})`)
  return shown.join(', ') + (ids.length > LIST_LIMIT ? ` and ${ids.length - LIST_LIMIT} more` : '')
}

/**
 * Baseline-only ids whose NFC form equals a candidate-only id's: the same text in two Unicode spellings
 * (NFC "café" vs NFD "cafe\u0301"). They stay two ids (normalising could merge queries a system tells
 * apart), but the refusal says why they did not pair. Returned as escaped examples.
 */
function normalisationTwins(onlyInBaseline: string[], onlyInCandidate: string[]): string[] {
  const byForm = new Map<string, string>()
  for (const id of onlyInCandidate) byForm.set(id.normalize('NFC'), id)
  const out: string[] = []
  for (const id of onlyInBaseline) {
    const twin = byForm.get(id.normalize('NFC'))
    if (twin !== undefined) out.push(`baseline ${escapeNonAscii(id)} vs candidate ${escapeNonAscii(twin)}`)
  }
  return out
}

/** Whether ids are in {@link compareIds} order already (one linear pass; ids are unique, so strictly ascending). */
function isSorted(ids: readonly string[]): boolean {
  for (let i = 1; i < ids.length; i++) if (!(ids[i - 1] < ids[i])) return false
  return true
}

/** Fixed id order: by UTF-16 code units, independent of locale. */
function compareIds(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}

import { neededAttributes } from '../config/attributes.js'
import type { Rules } from '../config/types.js'
import { InputError } from '../errors.js'
import { escapeNonAscii } from '../inputs/rows.js'
import type { QueryRow, SideRows } from '../model.js'
import { suggestion } from '../util/did-you-mean.js'

/** How many ids an error or a report line lists before "and N more". */
const LIST_LIMIT = 20

/** What happened to every query between reading and comparing: nothing leaves without a count. */
export interface Coverage {
  baselineRows: number
  candidateRows: number
  /** Queries compared (on both sides, or filled). */
  paired: number
  /** Ids on one side only (sorted); with `missing: zero` the other side was filled, otherwise the gate stopped. */
  onlyInBaseline: string[]
  onlyInCandidate: string[]
  /** Values filled under `missing: zero`, per metric and side. */
  filled: Array<{ metric: string; baseline: number; candidate: number }>
  missingPolicy: 'error' | 'zero'
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
 * Pairs the two sides query by query. A query on one side only or a missing value stops the gate with
 * the ids and lines (or, under `missing: zero`, is filled with the metric's fill value and counted); a value
 * outside a metric's range, a metric or attribute the rows do not have, and an attribute that differs
 * between the sides always stop it.
 */
export function pairRows(rules: Rules, baseline: SideRows, candidate: SideRows): PairedTable {
  const zero = rules.queries.missing === 'zero'
  for (const name of rules.metrics.keys()) {
    for (const side of [baseline, candidate]) {
      if (!side.numericFields.has(name)) {
        throw new InputError(
          { file: side.source, key: `metrics.${name}` },
          `no row has the metric "${name}" named in the rules${suggestion(name, side.numericFields)}`,
          `fields with numbers in this file: ${[...side.numericFields].sort().join(', ') || 'none'}`
        )
      }
    }
  }
  const attrNames = neededAttributes(rules)
  for (const [name, key] of attrNames) {
    const known = new Set([...baseline.attributeFields, ...candidate.attributeFields, ...baseline.numericFields, ...candidate.numericFields])
    if (!known.has(name)) {
      throw new InputError({ file: baseline.source, key }, `no row has the attribute "${name}"${suggestion(name, known)}`, 'slices, where and per_slice name string fields of the rows')
    }
  }
  const baseById = indexRows(baseline)
  const candById = indexRows(candidate)
  const onlyInBaseline = [...baseById.keys()].filter((id) => !candById.has(id)).sort(compareIds)
  const onlyInCandidate = [...candById.keys()].filter((id) => !baseById.has(id)).sort(compareIds)
  if (!zero && (onlyInBaseline.length > 0 || onlyInCandidate.length > 0)) {
    const parts: string[] = []
    if (onlyInBaseline.length > 0) parts.push(`${onlyInBaseline.length} in the baseline only: ${listIds(onlyInBaseline, baseById, baseline.source)}`)
    if (onlyInCandidate.length > 0) parts.push(`${onlyInCandidate.length} in the candidate only: ${listIds(onlyInCandidate, candById, candidate.source)}`)
    const spelled = normalisationTwins(onlyInBaseline, onlyInCandidate)
    const twins =
      spelled.length > 0
        ? `; ${spelled.length} of them differ only in Unicode normalisation (e.g. ${spelled[0]}): ids are compared exactly, so write each id the same way on both sides`
        : ''
    throw new InputError(
      {},
      `${baseline.source} and ${candidate.source} do not have the same queries: ${parts.join('; ')}${twins}`,
      'evaluate both systems on the same query set, or set queries.missing: zero in the rules to score absent queries as 0 (counted in the report)'
    )
  }
  const ids = [...new Set([...baseById.keys(), ...candById.keys()])].sort(compareIds)
  const n = ids.length
  const metrics = new Map<string, { base: Float64Array; cand: Float64Array }>()
  const filled: Coverage['filled'] = []
  const missingValues: string[] = []
  for (const metric of rules.metrics.values()) {
    const base = new Float64Array(n)
    const cand = new Float64Array(n)
    const count = { baseline: 0, candidate: 0 }
    for (let i = 0; i < n; i++) {
      const id = ids[i]
      base[i] = valueOf(baseById.get(id), baseline.source, metric.name, metric.range, metric.binary, () => {
        count.baseline++
        if (!zero) missingValues.push(`${JSON.stringify(id)} (${baseline.source}:${baseById.get(id)?.line}, ${metric.name})`)
        return metric.fill ?? 0
      })
      cand[i] = valueOf(candById.get(id), candidate.source, metric.name, metric.range, metric.binary, () => {
        count.candidate++
        if (!zero) missingValues.push(`${JSON.stringify(id)} (${candidate.source}:${candById.get(id)?.line}, ${metric.name})`)
        return metric.fill ?? 0
      })
    }
    metrics.set(metric.name, { base, cand })
    filled.push({ metric: metric.name, ...count })
  }
  if (missingValues.length > 0) {
    const more = missingValues.length - LIST_LIMIT
    throw new InputError(
      { file: baseline.source },
      `missing metric values: ${missingValues.slice(0, LIST_LIMIT).join(', ')}${more > 0 ? ` and ${more} more` : ''}`,
      'every paired query needs every metric of the rules as a number, or set queries.missing: zero to fill them (counted in the report)'
    )
  }
  const attrs = new Map<string, string[]>()
  for (const [name] of attrNames) attrs.set(name, ids.map((id) => attributeOf(id, name, baseById.get(id), candById.get(id), baseline, candidate)))
  for (const check of rules.checks) {
    for (const [name, value] of check.where) {
      const column = attrs.get(name) as string[]
      if (!column.includes(value)) {
        const values = [...new Set(column)].sort()
        throw new InputError(
          { file: rules.source.file, line: check.line, key: `checks[${check.index}].where.${name}` },
          `no query has ${name} = ${JSON.stringify(value)}${suggestion(value, values)}`,
          `values present: ${values.slice(0, 20).map((v) => JSON.stringify(v)).join(', ')}`
        )
      }
    }
  }
  return {
    ids,
    metrics,
    attrs,
    coverage: {
      baselineRows: baseline.rows.length,
      candidateRows: candidate.rows.length,
      paired: n,
      onlyInBaseline,
      onlyInCandidate,
      filled,
      missingPolicy: rules.queries.missing,
      notes: [...baseline.notes, ...candidate.notes]
    }
  }
}

function indexRows(side: SideRows): Map<string, QueryRow> {
  const map = new Map<string, QueryRow>()
  for (const row of side.rows) map.set(row.id, row)
  return map
}

function valueOf(row: QueryRow | undefined, file: string, metric: string, range: [number, number] | undefined, binary: boolean, onMissing: () => number): number {
  const v = row?.values.get(metric)
  if (v === undefined || v === null) return onMissing()
  if (binary && v !== 0 && v !== 1) {
    throw new InputError({ file, line: row?.line, queryId: row?.id }, `${metric} = ${v}, but the rules declare it binary (0 or 1)`, 'write 0 or 1, or drop "binary: true" from the metric')
  }
  if (range && (v < range[0] || v > range[1])) {
    throw new InputError(
      { file, line: row?.line, queryId: row?.id },
      `${metric} = ${v} is outside its range [${range[0]}, ${range[1]}]`,
      'fix the value, or the range declared under metrics in the rules'
    )
  }
  return v
}

function attributeOf(id: string, name: string, base: QueryRow | undefined, cand: QueryRow | undefined, baseline: SideRows, candidate: SideRows): string {
  const b = base?.attrs.get(name)
  const c = cand?.attrs.get(name)
  if (b !== undefined && c !== undefined && b !== c) {
    throw new InputError(
      { file: candidate.source, line: cand?.line, queryId: id },
      `attribute "${name}" differs between the sides (baseline ${baseline.source}:${base?.line} says ${JSON.stringify(b)}, candidate says ${JSON.stringify(c)})`,
      'both sides must describe the same query the same way'
    )
  }
  const value = b ?? c
  if (value === undefined || value === '') {
    const row = base ?? cand
    throw new InputError(
      { file: base ? baseline.source : candidate.source, line: row?.line, queryId: id },
      `query has no value for the attribute "${name}" used by the rules`,
      'give every row a value for each slice / where / per_slice attribute'
    )
  }
  return value
}

function listIds(ids: string[], rows: Map<string, QueryRow>, file: string): string {
  const shown = ids.slice(0, LIST_LIMIT).map((id) => `${JSON.stringify(id)} (${file}:${rows.get(id)?.line})`)
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

/** Fixed id order: by UTF-16 code units, independent of locale. */
export function compareIds(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}

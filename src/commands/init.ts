import { writeFile } from 'node:fs/promises'
import { existsSync } from 'node:fs'
import { DEFAULTS } from '../config/rules.js'
import { rulesFromText } from '../load.js'
import { InputError } from '../errors.js'
import type { RowsFormat } from '../readers/rows-input.js'
import { recogniseShape } from '../readers/shapes.js'
import { INSTALLED_COMMAND } from './invocation.js'
import { parseDecimal } from '../readers/numbers.js'
import { readRows } from '../readers/read.js'
import { computeRunRows, readQrels } from '../metrics/index.js'
import { attrAt, rowCount, setAttrAt, type SideRows } from '../model/rows.js'
import { EVERY_ATTRIBUTE, readQueriesFile } from '../capabilities/queries/file.js'
import { smallestMargin, unitsForMargin } from '../stats/reliability.js'
import { maxOf, minOf } from '../util/extent.js'
import { bare } from '../util/show.js'
import { confidenceLabel } from '../report/format.js'

/**
 * `init`: from zero to a first rules file. Reads the baseline and candidate once, lists the metric and
 * attribute fields it finds, and writes a commented starter rules file that a person edits before the first
 * PR. It guesses only what the field names and value ranges say (direction from the name, binary from 0/1
 * values, a share from values in 0..1) and never looks at which side is better, so the starter rules are
 * still written "before the results were seen" in the sense that matters: no margin is tuned to the data.
 */

/** Where editors fetch the published schema (the `v1` tag moves with every 1.x release; docs/releasing.md). */
export const SCHEMA_URL = 'https://raw.githubusercontent.com/retrieval-gate/retrieval-gate/v1/rules/schema.json'

/** Default output file of `init`. */
export const DEFAULT_RULES_FILE = 'retrieval-gate.yml'

/** Ranking measures proposed when the inputs are runs (computed from the judgments, as trec_eval does). */
const RUN_MEASURES = ['nDCG@10', 'R@100', 'RR'] as const

/** Fewer numeric fields than this per file, or the "rows" are probably a run read as measures. */
const MAX_METRICS = 50
/** An attribute with more distinct values than this is free text or an id, not a slice. */
const MAX_SLICE_VALUES = 20

/** Arguments of `init`, as the CLI parsed them. */
export interface InitArgs {
  baseline: string
  candidate: string
  out: string
  force: boolean
  /** Judgments: the inputs are runs and the rules compute ranking measures. */
  qrels?: string
  /** The queries file (query_id, text, attributes): its attributes become the exam's slices (runs carry none). */
  queries?: string
  format?: RowsFormat
  idField?: string
  /** How the user runs the CLI (invocation.ts), for the next command init prints; `retrieval-gate` when absent. */
  command?: string
}

/** What init found about one numeric field. */
export interface MetricGuess {
  name: string
  better: 'higher' | 'lower'
  /** Why the direction was chosen, in words. */
  why: string
  binary: boolean
  /** [0, 1] when every value is a share and higher is better. */
  range: [number, number] | undefined
  unit: string
  min: number
  max: number
  /** Values seen (both files). */
  count: number
  /** Rows of each side without a value (absent, empty or null): the gate stops on them under missing: error. */
  missing: [number, number]
}

/** What init found about one string field. */
export interface AttributeGuess {
  name: string
  values: string[]
  /** True when it has few enough distinct values to be a slice. */
  slice: boolean
  /** Distinct values over both files. */
  distinct: number
  /** True when too many values for a slice but shared by two or more queries each on average (user, session): a cluster candidate. */
  cluster: boolean
}

/** Everything init found, and what it will write. */
export interface Inspection {
  baseline: { file: string; rows: number }
  candidate: { file: string; rows: number }
  /** Query ids on both sides. */
  paired: number
  onlyInBaseline: number
  onlyInCandidate: number
  metrics: MetricGuess[]
  attributes: AttributeGuess[]
  /** Numeric fields left out (ids), with the reason. */
  ignored: Array<{ name: string; why: string }>
  qrels: string | undefined
  /** The queries file the rules will name (queries.file), or undefined. */
  queries?: string
  notes: string[]
}

const LOWER_WORDS = new Set([
  'latency',
  'cost',
  'time',
  'duration',
  'ms',
  'sec',
  'secs',
  'seconds',
  'price',
  'error',
  'errors',
  'loss',
  // RAG and speech metrics whose every name says "less is better"
  'hallucination',
  'hallucinations',
  'toxicity',
  'perplexity',
  'wer',
  'cer',
  'ttft',
  'p50',
  'p90',
  'p95',
  'p99'
])

/** The words of a field name ("runDuration" -> run, duration; "latency_ms" -> latency, ms). */
function words(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w !== '')
}

/** Direction and unit from the name alone: latency, cost, time, duration, ms... are better lower. */
function guessDirection(name: string): { better: 'higher' | 'lower'; why: string; unit: string } {
  const w = words(name)
  const hit = w.find((x) => LOWER_WORDS.has(x))
  const unit = w.includes('ms') ? 'ms' : w.includes('seconds') || w.includes('sec') || w.includes('secs') ? 's' : ''
  if (hit !== undefined) return { better: 'lower', why: `the name says "${hit}"`, unit }
  return { better: 'higher', why: 'no cost, time or error word in the name: check it', unit }
}

function numericValue(side: SideRows, row: number, name: string): number | undefined {
  const column = side.values.get(name)
  if (column !== undefined) return Number.isNaN(column[row]) ? undefined : column[row]
  const text = attrAt(side, name, row)
  return text === undefined ? undefined : parseDecimal(text.trim())
}

/**
 * Names of fields that hold a position or an id, never a measurement: pandas' and deepeval's row positions
 * (`index`, `order`, `Unnamed: 0`, `level_0`), and ids (`id`, `*_id`, `*Id`, `*_idx`). A check on them would
 * gate on the order the rows were written in.
 */
const POSITION_NAMES = new Set([
  'id',
  'index',
  'idx',
  'order',
  'position',
  'pos',
  'row',
  'rownum',
  'row_number',
  'level_0',
  'unnamed: 0',
  '#'
])

/** Fewest values before "0, 1, 2, ... in some order" is taken as a position rather than a coincidence. */
const MIN_POSITION_ROWS = 8

/** Why a numeric field is a position or an id (by its name, or by values 0..n-1 / 1..n on each side), or undefined. */
function positionOrId(name: string, sides: readonly SideRows[]): string | undefined {
  const lower = name.trim().toLowerCase()
  if (/_id$/i.test(name) || /Id$/.test(name) || /_idx$/i.test(name) || lower === 'id')
    return 'a numeric id, not a metric'
  if (POSITION_NAMES.has(lower)) return 'a row position, not a metric'
  const consecutive = sides.every((side) => {
    const seen = new Set<number>()
    for (let row = 0; row < rowCount(side); row++) {
      const v = numericValue(side, row, name)
      if (v === undefined) continue
      if (!Number.isInteger(v) || seen.has(v)) return false
      seen.add(v)
    }
    if (seen.size < MIN_POSITION_ROWS) return false
    const min = minOf(seen)
    return (min === 0 || min === 1) && maxOf(seen) - min + 1 === seen.size
  })
  return consecutive
    ? 'values 0, 1, 2, ... (or 1, 2, 3, ...) once each on each side: a row position, not a metric'
    : undefined
}

/**
 * Text fields whose every value is a plain decimal: the metric columns of a CSV, which the rows reader keeps
 * as text until the rules name them (a CSV has no number type). Only for CSV input (`textNumbers`): in JSON a
 * quoted "0.5" is text, and the gate refuses it as a metric.
 */
function numericTextFields(sides: readonly SideRows[], textNumbers: boolean): Set<string> {
  const out = new Set<string>()
  if (!textNumbers) return out
  for (const name of new Set(sides.flatMap((s) => [...s.attributeFields]))) {
    let count = 0
    let all = true
    for (const side of sides) {
      for (let row = 0; row < rowCount(side); row++) {
        const text = attrAt(side, name, row)
        if (text === undefined || text.trim() === '') continue
        if (parseDecimal(text.trim()) === undefined) {
          all = false
          break
        }
        count++
      }
      if (!all) break
    }
    if (all && count > 0) out.add(name)
  }
  return out
}

/**
 * Looks at both sides' fields and values (never at which side is better). Pure. `textNumbers`: the sides
 * were read from CSV, so a text column whose every cell is a decimal is a numeric field.
 */
function inspectSides(baseline: SideRows, candidate: SideRows, qrels?: string, textNumbers = false): Inspection {
  const sides = [baseline, candidate]
  const numericText = numericTextFields(sides, textNumbers)
  const textFields = new Set(
    [...baseline.attributeFields, ...candidate.attributeFields].filter((f) => !numericText.has(f))
  )
  const numeric = [...new Set([...baseline.numericFields, ...candidate.numericFields, ...numericText])]
    .filter((f) => !textFields.has(f))
    .sort()
  const metrics: MetricGuess[] = []
  const ignored: Inspection['ignored'] = []
  for (const name of numeric) {
    const position = positionOrId(name, sides)
    if (position !== undefined) {
      ignored.push({ name, why: position })
      continue
    }
    let min = Infinity
    let max = -Infinity
    let count = 0
    let binary = true
    const missing: [number, number] = [0, 0]
    for (const [s, side] of sides.entries()) {
      for (let row = 0; row < rowCount(side); row++) {
        const v = numericValue(side, row, name)
        if (v === undefined) {
          missing[s]++
          continue
        }
        count++
        if (v < min) min = v
        if (v > max) max = v
        if (v !== 0 && v !== 1) binary = false
      }
    }
    if (count === 0) {
      ignored.push({ name, why: 'no values' })
      continue
    }
    const dir = guessDirection(name)
    const share = min >= 0 && max <= 1 && dir.better === 'higher'
    metrics.push({
      name,
      better: dir.better,
      why: dir.why,
      binary,
      range: share && !binary ? [0, 1] : undefined,
      unit: dir.unit,
      min,
      max,
      count,
      missing
    })
  }
  const attributes: AttributeGuess[] = []
  for (const name of [...textFields].sort()) {
    const values = new Set<string>()
    const all = new Set<string>()
    for (const side of sides) {
      for (let row = 0; row < rowCount(side); row++) {
        const v = attrAt(side, name, row)
        if (v === undefined) continue
        all.add(v)
        if (values.size <= MAX_SLICE_VALUES) values.add(v)
      }
    }
    const rows = Math.max(rowCount(baseline), rowCount(candidate))
    const slice =
      values.size >= 2 && values.size <= MAX_SLICE_VALUES && values.size <= Math.max(2, Math.floor(rows / 2))
    const cluster = !slice && all.size >= 2 && all.size <= Math.floor(rows / 2)
    attributes.push({ name, values: [...values].sort(), slice, distinct: all.size, cluster })
  }
  let paired = 0
  for (const id of baseline.ids) if (candidate.index.has(id)) paired++
  return {
    baseline: { file: baseline.source, rows: rowCount(baseline) },
    candidate: { file: candidate.source, rows: rowCount(candidate) },
    paired,
    onlyInBaseline: rowCount(baseline) - paired,
    onlyInCandidate: rowCount(candidate) - paired,
    metrics,
    attributes,
    ignored,
    qrels,
    notes: [...sideNotes(baseline, 'baseline'), ...sideNotes(candidate, 'candidate')]
  }
}

/** A side's notes, each saying whose it is (a note that names its file already does). */
function sideNotes(side: SideRows, which: 'baseline' | 'candidate'): string[] {
  return side.notes.map((n) => (n.startsWith(side.source) ? n : `${which} ${side.source}: ${n}`))
}

const PLAIN_KEY = /^[A-Za-z_][A-Za-z0-9_@.-]*$/
const YAML_WORDS = /^(?:true|false|yes|no|on|off|null|y|n)$/i

// What JSON leaves raw but a YAML double-quoted scalar may not hold, or a YAML 1.1 reader takes as a line break:
// DEL and the C1 controls (NEL, U+0085, among them), the line and paragraph separators, and (so that a reviewer
// reads what the parser reads) the bidi marks and BOM. All are written as \uXXXX, which YAML decodes back.
const YAML_ESCAPED = /[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff\ufffe\uffff]/g

/**
 * Any text as a YAML double-quoted scalar that parses back to exactly that text: JSON's escapes (control
 * characters, line breaks, quotes, backslashes, lone surrogates) plus {@link YAML_ESCAPED}. No raw line break of
 * any kind survives, so no value from the rows can end the line it is written on and start a rules key.
 */
function yamlString(text: string): string {
  return JSON.stringify(text).replace(YAML_ESCAPED, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
}

/** A YAML key or flow value: plain when safe, else {@link yamlString}. */
function yamlName(name: string): string {
  return PLAIN_KEY.test(name) && !YAML_WORDS.test(name) ? name : yamlString(name)
}

// Input text (a field name, a value, a file name) inside a YAML comment is `bare`: as it is when clean, else
// quoted with every line break and control character escaped (a raw newline would turn the rest into live rules).

/** A slice's first values, as a comment and the summary show them (each {@link bare}, so safe in a comment). */
const firstValues = (values: readonly string[]): string =>
  `${values
    .slice(0, 8)
    .map((v) => bare(v))
    .join(', ')}${values.length > 8 ? ', ...' : ''}`

function num(x: number): string {
  if (Number.isInteger(x)) return String(x)
  return String(Number(x.toPrecision(4)))
}

/**
 * The margin of a metric's starter check, with words for the comment (`value`: absolute, or null when relative): the
 * usual default, widened on a bounded metric to the smallest margin the evaluation's queries can support at all (the
 * reliability rule: fewer queries cannot rule out that unseen ones lose more), so the starter check is one that can
 * pass. It reads how many queries there are, never which side is better.
 */
function starterMargin(m: MetricGuess, paired: number): { yaml: string; words: string; value: number | null } {
  if (m.better === 'lower') return { yaml: '10%', words: 'may grow by at most 10% of the baseline mean', value: null }
  if (!m.binary && m.range === undefined)
    return { yaml: '5%', words: 'may drop by at most 5% of the baseline mean', value: null }
  const usual = m.binary ? 0.02 : 0.01
  const supported = Math.ceil(smallestMargin(Math.max(1, paired), 1, DEFAULTS.confidence) * 100) / 100
  const value = Math.max(usual, supported)
  const points = Math.round(value * 100)
  return {
    yaml: String(value),
    words: `may drop by at most ${points} ${points === 1 ? 'point' : 'points'} (${value})${m.binary ? ' of its rate' : ''}`,
    value
  }
}

/**
 * What actually decides whether a bounded metric's check can pass (the reliability rule, docs/statistics.md): the
 * fewest queries on which even an unchanged candidate clears the margin, and, when the evaluation has fewer, the
 * smallest margin its queries support. So a check that can never pass on these queries says so where it is written.
 */
function supportComment(m: MetricGuess, margin: number | null, paired: number): string[] {
  const bounds = m.binary ? [0, 1] : m.range
  if (margin === null || bounds === undefined) return []
  const width = bounds[1] - bounds[0]
  const own = unitsForMargin(margin, width, DEFAULTS.confidence)
  if (own === null) return []
  // min_per_slice is a floor too: below it every check is inconclusive, whatever the margin
  if (own <= DEFAULTS.minPerSlice)
    return [
      `  # It can pass from ${DEFAULTS.minPerSlice} queries on (queries.min_per_slice; you have ${paired}): below that every statistical`,
      '  # check is inconclusive, whatever the margin (docs/statistics.md, "The reliability rule").'
    ]
  const needed = own
  const narrower = Math.round((margin - 0.01) * 100) / 100
  const more = narrower > 0 ? unitsForMargin(narrower, width, DEFAULTS.confidence) : null
  return [
    `  # Unchanged, it can pass from ${needed} queries on (you have ${paired}; better, on fewer): on fewer, the queries`,
    `  # not seen could lose more, anywhere in the range${more === null ? '' : `; a margin of ${narrower} would need ${more}`} (docs/statistics.md, "The reliability rule").`
  ]
}

/** The commented starter rules file. Deterministic: same inspection, same bytes. */
function starterRules(ins: Inspection): string {
  const L: string[] = []
  headerLines(ins, L)
  metricLines(ins, L)
  const slices = sliceLines(ins, L)
  statisticsLines(ins, L)
  const ordered = checkLines(ins, L)
  commentedChecks({ ordered, slice: slices[0] }, L)
  return L.join('\n') + '\n'
}

/** Why the file exists and what to do before the first PR; the judgments when the inputs are runs. */
function headerLines(ins: Inspection, L: string[]): void {
  L.push(`# yaml-language-server: $schema=${SCHEMA_URL}`)
  L.push(
    `# Starter rules written by \`retrieval-gate init\` from ${bare(ins.baseline.file)} and ${bare(ins.candidate.file)}.`
  )
  L.push('# Edit them BEFORE your first PR, and commit them: the gate is only as honest as rules written before')
  L.push('# anyone saw the results. init guessed directions from the field names and ranges from the values; it')
  L.push('# did not look at which side is better. Check every guess marked "guessed", set the margins you can')
  L.push('# live with, and delete the checks you do not want. `retrieval-gate explain --rules <this file>` says in')
  L.push('# plain words what each check will demand. Reference: docs/rules.md, rules/schema.json.')
  L.push('version: 1')
  if (ins.qrels !== undefined) {
    L.push(
      '# The inputs are runs: the gate computes the ranking measures below from these judgments, as trec_eval does.'
    )
    L.push(`judgments: { qrels: ${yamlString(ins.qrels)}, no_relevant: exclude }`)
  }
}

/** Each metric with its guessed direction, kind and range, and why. */
function metricLines(ins: Inspection, L: string[]): void {
  L.push('metrics:')
  const width = maxOf(ins.metrics.map((m) => yamlName(m.name).length)) + 1
  for (const m of ins.metrics) {
    const parts = [`better: ${m.better}`]
    if (m.binary) parts.push('binary: true')
    if (m.range) parts.push(`range: [${m.range[0]}, ${m.range[1]}]`)
    if (m.unit) parts.push(`unit: ${m.unit}`)
    const seen = m.binary ? 'values 0/1' : `values ${num(m.min)} to ${num(m.max)}`
    L.push(
      `  ${(yamlName(m.name) + ':').padEnd(width)} { ${parts.join(', ')} }  # guessed: ${m.better} is better (${m.why}); ${seen}`
    )
  }
}

/** The slices proposed (attributes with few values) and a cluster attribute if one looks like one; the slices. */
function sliceLines(ins: Inspection, L: string[]): Inspection['attributes'] {
  const slices = ins.attributes.filter((a) => a.slice)
  if (slices.length > 0) {
    L.push('# Attributes with few distinct values: every metric is also shown per value of these (exploratory).')
    L.push(`slices: [${slices.map((a) => yamlName(a.name)).join(', ')}]`)
  } else if (ins.qrels !== undefined && ins.queries === undefined) {
    L.push('# Runs carry no query attributes: to see metrics per group, keep them in a queries file (query_id, text,')
    L.push('# segment, ...: JSON Lines or CSV) and run init again with --queries FILE; it proposes them as slices.')
  } else {
    L.push(
      '# No attribute with a few distinct values was found; add one to the rows (e.g. segment) and `slices: [segment]`.'
    )
  }
  const clusterCandidate = ins.attributes.find((a) => a.cluster)
  if (clusterCandidate !== undefined) {
    const name = bare(clusterCandidate.name)
    L.push(
      `# ${Math.max(ins.baseline.rows, ins.candidate.rows)} queries share ${clusterCandidate.distinct} values of ${name}: if the queries of one ${name} are alike`
    )
    L.push(`# (one user, one conversation), they are not independent evidence. Resample whole ${name} values instead:`)
    L.push(`# statistics: { ${STATISTICS}, cluster: ${yamlName(clusterCandidate.name)} }`)
  }
  return slices
}

/** The statistics the starter rules write out: the loader's defaults (src/config/rules.ts). */
const STATISTICS = `confidence: ${DEFAULTS.confidence}, resamples: ${DEFAULTS.resamples}, seed: ${DEFAULTS.seed}`

/** Statistics, queries and on_inconclusive (the loader's defaults), with a warning below min_per_slice paired queries. */
function statisticsLines(ins: Inspection, L: string[]): void {
  L.push(`statistics: { ${STATISTICS} }`)
  if (ins.paired < DEFAULTS.minPerSlice) {
    L.push(
      `# Only ${ins.paired} paired queries: with min_per_slice ${DEFAULTS.minPerSlice} every statistical check is inconclusive`
    )
    L.push('# (and counts as a fail). Evaluate on more queries rather than lowering min_per_slice.')
  }
  L.push(
    `queries: { ${ins.queries === undefined ? '' : `file: ${yamlString(ins.queries)}, `}missing: ${DEFAULTS.missing}, min_per_slice: ${DEFAULTS.minPerSlice} }`
  )
  L.push(`on_inconclusive: ${DEFAULTS.onInconclusive}`)
}

/** One non_inferior check per metric, the primary metric first; the metrics in that order. */
function checkLines(ins: Inspection, L: string[]): MetricGuess[] {
  L.push('checks:')
  // the first check's metric is the report's primary metric: a graded score before a 0/1 rate, costs last
  const rank = (m: MetricGuess): number => (m.better === 'lower' ? 3 : m.binary ? 1 : m.range ? 0 : 2)
  const ordered = [...ins.metrics].sort((a, b) => rank(a) - rank(b) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
  // below min_per_slice nothing can pass: size the margin for the smallest evaluation that can
  const counted = Math.max(ins.paired, DEFAULTS.minPerSlice)
  for (const m of ordered) {
    const margin = starterMargin(m, counted)
    L.push(
      `  # ${bare(m.name)} ${margin.words} (the worse end of the ${confidenceLabel(DEFAULTS.confidence)} interval of the change decides).`
    )
    L.push(...supportComment(m, margin.value, ins.paired))
    L.push(`  - name: ${yamlString(m.better === 'higher' ? `${m.name} does not drop` : `${m.name} does not grow`)}`)
    L.push(`    metric: ${yamlName(m.name)}`)
    L.push(`    non_inferior: { margin: ${margin.yaml} }`)
  }
  return ordered
}

/** Commented-out checks to start from: every slice protected, a proven gain, a cap on regressions. */
function commentedChecks(
  at: { ordered: MetricGuess[]; slice: Inspection['attributes'][number] | undefined },
  L: string[]
): void {
  const { ordered, slice } = at
  const primary = ordered[0]
  if (slice !== undefined) {
    L.push(`  # Protect every ${bare(slice.name)} (values: ${firstValues(slice.values)}):`)
    L.push(`  # - name: ${yamlString(`${primary.name} holds for every ${slice.name}`)}`)
    L.push(`  #   metric: ${yamlName(primary.name)}`)
    L.push(`  #   per_slice: ${yamlName(slice.name)}`)
    L.push(
      `  #   non_inferior: { margin: ${primary.range || primary.binary ? '0.02' : primary.better === 'lower' ? '15%' : '10%'} }`
    )
  }
  const binary = ordered.find((m) => m.binary && m.better === 'higher')
  if (binary !== undefined) {
    L.push(`  # Demand a proven gain on a 0/1 metric (exact McNemar test):`)
    L.push(`  # - name: ${yamlString(`${binary.name} improves`)}`)
    L.push(`  #   metric: ${yamlName(binary.name)}`)
    L.push('  #   superior: { test: mcnemar, alpha: 0.05 }')
  }
  if (primary !== undefined) {
    L.push('  # Cap how many queries may get worse:')
    L.push(`  # - name: ${yamlString(`few ${primary.name} regressions`)}`)
    L.push(`  #   metric: ${yamlName(primary.name)}`)
    L.push(`  #   max_regressions: { share: 0.2 }`)
  }
}

/** A plain-text summary of what init found, for the terminal. */
function describeInspection(ins: Inspection, out: string, command = INSTALLED_COMMAND): string {
  const L: string[] = []
  L.push(
    `Read ${bare(ins.baseline.file)} (${ins.baseline.rows} queries) and ${bare(ins.candidate.file)} (${ins.candidate.rows} queries): ${ins.paired} on both sides.`
  )
  if (ins.onlyInBaseline + ins.onlyInCandidate > 0) {
    L.push(
      `  Warning: ${ins.onlyInBaseline} queries are in the baseline only and ${ins.onlyInCandidate} in the candidate only; the gate stops on this (queries.missing: "zero" fills the queries the candidate dropped; candidate-only queries are never part of the exam, so evaluate the candidate on the baseline's queries).`
    )
  }
  L.push('Metrics (numeric fields):')
  const w = maxOf(ins.metrics.map((m) => bare(m.name).length))
  for (const m of ins.metrics) {
    const values = m.binary ? 'values 0/1 (binary)' : `values ${num(m.min)} to ${num(m.max)}`
    L.push(`  ${bare(m.name).padEnd(w)}  ${m.better} is better (${m.why}); ${values}`)
  }
  for (const m of ins.metrics) {
    const [b, c] = m.missing
    if (b + c === 0) continue
    const where = [b > 0 ? `${b} baseline` : '', c > 0 ? `${c} candidate` : ''].filter((x) => x).join(' and ')
    L.push(
      `  Warning: ${bare(m.name)} has no value in ${where} ${b + c === 1 ? 'row' : 'rows'}; the gate stops on a missing value (queries.missing: error): give every row its value, or set queries.missing: zero to score it as the metric's worst (its fill).`
    )
  }
  L.push('Attributes (text fields):')
  if (ins.attributes.length === 0) L.push('  none')
  for (const a of ins.attributes) {
    if (a.slice) L.push(`  ${bare(a.name)}: ${a.values.length} values (${firstValues(a.values)}): proposed as a slice`)
    else if (a.cluster)
      L.push(
        `  ${bare(a.name)}: ${a.distinct} distinct values shared by several queries each: not a slice; a cluster candidate (commented in the file)`
      )
    else
      L.push(
        `  ${bare(a.name)}: ${a.values.length > MAX_SLICE_VALUES ? `more than ${MAX_SLICE_VALUES}` : a.values.length} distinct values: free text or ids, not a slice`
      )
  }
  for (const i of ins.ignored) L.push(`Ignored: ${bare(i.name)} (${i.why})`)
  for (const n of ins.notes) L.push(`Note: ${n}`)
  L.push('')
  L.push(
    `Wrote ${bare(out)}. Before your first PR: check each guessed direction, set the margins, delete what you do not need.`
  )
  // The next command as the user runs this one (retrieval-gate, or node dist/cli.js from a clone): it works as typed.
  L.push(`Then: ${command} explain --rules ${bare(out)}`)
  return L.join('\n') + '\n'
}

/** Reads one side as per-query rows, with a pointed refusal when the file is a run given without --qrels. */
async function readSideForInit(file: string, args: InitArgs): Promise<SideRows> {
  let side: SideRows
  try {
    side = await readRows(file, { metricFields: new Set(), format: args.format, idField: args.idField })
  } catch (error) {
    if (error instanceof InputError && looksLikeRun(file)) throw runWithoutQrels(file)
    throw error
  }
  if (side.numericFields.size > MAX_METRICS) throw runWithoutQrels(file, side.numericFields.size)
  return side
}

/** The file has a run's shape (the format registry's: readers/shapes.ts), so init's own words apply. */
function looksLikeRun(file: string): boolean {
  try {
    return recogniseShape({ file }, 'rows')?.kind === 'run'
  } catch {
    return false
  }
}

function runWithoutQrels(file: string, fields?: number): InputError {
  return new InputError(
    { file },
    fields === undefined
      ? 'looks like a run (query_id Q0 doc_id rank score tag), not per-query metric rows'
      : `has ${fields} numeric fields: it looks like a run (document scores), not per-query metric rows`,
    'pass --qrels with the judgments, and init proposes ranking measures computed from the runs'
  )
}

/** The queries file's attributes on each side's rows (the exam's, as the gate attaches them): init then sees them as slices. */
function attachQueries(file: Awaited<ReturnType<typeof readQueriesFile>>, sides: SideRows[]): void {
  for (const side of sides) {
    side.ids.forEach((id, row) => {
      const entry = file.byId.get(id)
      if (entry === undefined) return
      for (const [name, value] of entry.attrs) setAttrAt(side, name, row, value)
      for (const name of entry.attrs.keys()) side.attributeFields.add(name)
    })
  }
}

/** `init`: inspects the inputs, writes the starter rules (refusing to overwrite without --force), prints a summary. */
export async function initCommand(args: InitArgs, write: (text: string) => void): Promise<void> {
  if (!args.force && existsSync(args.out)) {
    throw new InputError(
      { file: args.out },
      'already exists',
      'pass --force to overwrite it, or --out to write the starter rules elsewhere'
    )
  }
  let baseline: SideRows
  let candidate: SideRows
  if (args.qrels !== undefined) {
    const qrels = await readQrels(args.qrels)
    baseline = (await computeRunRows({ runFile: args.baseline, qrels, measures: [...RUN_MEASURES] })).side
    candidate = (await computeRunRows({ runFile: args.candidate, qrels, measures: [...RUN_MEASURES] })).side
  } else {
    baseline = await readSideForInit(args.baseline, args)
    candidate = await readSideForInit(args.candidate, args)
  }
  if (args.queries !== undefined)
    attachQueries(await readQueriesFile(args.queries, args.queries, EVERY_ATTRIBUTE), [baseline, candidate])
  const csv = (file: string): boolean => args.format === 'csv' || (args.format === undefined && /\.csv$/i.test(file))
  const ins = inspectSides(
    baseline,
    candidate,
    args.qrels,
    args.qrels === undefined && (csv(args.baseline) || csv(args.candidate))
  )
  if (args.queries !== undefined) ins.queries = args.queries
  if (ins.metrics.length === 0) {
    const ignored =
      ins.ignored.length > 0 ? ` (ignored: ${ins.ignored.map((i) => `${i.name}, ${i.why}`).join('; ')})` : ''
    throw new InputError(
      { file: args.baseline },
      `has no numeric field to gate on${ignored}`,
      'per-query rows need metric fields with numbers (e.g. "recall@10": 0.5); a CSV whose name does not end in .csv needs --input-format csv'
    )
  }
  const text = starterRules(ins)
  // the starter file must load as it is, with every capability's keys (the registry's schema): a file init writes
  // and the gate refuses would be a bug
  rulesFromText(text, args.out)
  try {
    await writeFile(args.out, text, { flag: args.force ? 'w' : 'wx' })
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'EEXIST') throw new InputError({ file: args.out }, 'already exists', 'pass --force to overwrite it')
    throw new InputError(
      { file: args.out },
      `cannot be written: ${(error as Error).message}`,
      'check the folder exists and is writable'
    )
  }
  write(describeInspection(ins, args.out, args.command))
}

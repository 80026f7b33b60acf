import type { MetricRule } from '../config/types.js'
import type { CheckResult, UnitResult } from '../decide/evaluate.js'
import { describePolicies } from '../decide/describe.js'
import type { GateResult } from '../decide/result.js'
import type { RunQueries } from '../model/rows.js'
import type { Comparison } from '../stats/compare.js'
import { TOOL_NAME, VERSION } from '../version.js'
import {
  cells,
  code,
  commas,
  em,
  list,
  paragraph,
  row,
  table as tableBlock,
  strong,
  text,
  toned,
  words,
  type Block,
  type Inline,
  type Span
} from '../model/document.js'
import { alphaText, confidenceLabel, fixed, intervalCell, intervalHeading, pValue, signed } from './format.js'
import { cellUnit, changeCell, levelDigits, metricOf, sliceLabel, STATUS } from './words.js'
import { foldedCount, foldedNeeds, foldedSlices, foldedSummary, isFolded } from './folded-checks.js'
import { methodName, methodRows, slicesList } from './interval-words.js'
import { comparabilityEntries, methodRowsOf } from './slots.js'
import { resamplingWords } from './resampling.js'
import type { ReportHead } from './head.js'
import { shownSliceRows } from './slice-rows.js'

/**
 * The report's tables and the bodies of its collapsible sections, as blocks (doc/blocks.ts): every string from
 * the inputs is a `text` span, escaped by each renderer; numbers through format.ts.
 */

/** The titles of the report's collapsed sections, the same in the Markdown and on the HTML page. */
export const SECTION_TITLES = {
  checkDetails: 'Check details: baseline, candidate, relative change, wins / losses / ties',
  breakdown: 'Per-slice breakdown (exploratory: shown, never gating unless a check names the slice)',
  coverage: 'Coverage: what happened to every query',
  comparability: 'Comparability',
  trust: 'Trust: evaluation set, pooling bias, whole-class failures',
  seeds: 'Seeds: the spread between independently trained seeds',
  method: 'Method',
  next: 'What to look at next'
} as const

/** How many ids a coverage line lists before "and N more". */
const LIST_IDS = 10

function digits(metric: MetricRule, c: Comparison): number {
  return levelDigits(metric, Math.abs(c.baseline))
}

/** A level of `metric` in a cell (a mean, an at_least value): as the files hold it, with the comparison's digits. */
const levelCell = (x: number, metric: MetricRule, c: Comparison): string => fixed(x, digits(metric, c))

/**
 * The Δ and interval cells of a unit: its change and interval (in the metric's one unit), or for an at_least /
 * at_most unit the candidate's mean and its interval (levels), which is what the check judged.
 */
function changeCells(unit: UnitResult, metric: MetricRule, mixed: boolean, together = false): [Inline, Inline] {
  const c = unit.comparison
  const own = (x: string): Inline => [words(together ? keepTogether(x) : x)]
  if (unit.level !== undefined) {
    const l = unit.level
    const ci = intervalCell(levelCell(l.ci[0], metric, c), levelCell(l.ci[1], metric, c), l.confidence, mixed)
    return [own(`mean ${levelCell(l.mean, metric, c)}`), own(ci)]
  }
  return [[...own(change(c.delta, metric, c)), ...changeUnit(metric, together)], own(changeInterval(c, metric, mixed))]
}

/** A change of `metric` in a cell, in the report's one unit for it (words.ts inPoints), sized like the comparison's levels. */
const change = (x: number, metric: MetricRule, c: Comparison): string => changeCell(x, metric, Math.abs(c.baseline))

/** The interval cell of a comparison's change (`mixed`: it names its confidence). */
const changeInterval = (c: Comparison, metric: MetricRule, mixed: boolean): string =>
  intervalCell(change(c.ci[0], metric, c), change(c.ci[1], metric, c), c.confidence, mixed)

/** An interval column's heading ("95% CI", or "CI" when the confidences differ and each cell names its own). */
function intervalColumn(confidences: number[]): { conf: string; mixed: boolean } {
  const conf = intervalHeading(confidences)
  return { conf, mixed: conf === 'CI' }
}

/** " pts", " ms" or nothing: the unit after a change cell's number (`together`: no-break spaces). */
export function changeUnit(metric: MetricRule, together = false): Inline {
  const u = cellUnit(metric)
  if (!u) return []
  return together ? [words('\u00a0'), text(keepTogether(u), 16)] : [words(' '), text(u, 16)]
}

/** The headings of the {@link values} columns. */
const valueHeads = (conf: string): string[] => ['Baseline', 'Candidate', 'Δ', conf]

/**
 * Baseline, candidate (levels, as the files hold them, with the metric's unit), delta (relative) and interval
 * (changes: in points for shares, see words.ts inPoints). `mixed`: the column holds intervals at more than one
 * confidence, so the cell names its own.
 */
function values(c: Comparison, metric: MetricRule, mixed: boolean): Inline[] {
  const d = digits(metric, c)
  const rel = c.relativeDelta === null ? '' : ` (${signed(c.relativeDelta * 100, 1)}%)`
  const unit: Inline = metric.unit ? [words(' '), text(metric.unit, 16)] : []
  return [
    [words(fixed(c.baseline, d)), ...unit],
    [words(fixed(c.candidate, d)), ...unit],
    [words(change(c.delta, metric, c)), ...changeUnit(metric), words(rel)],
    [words(changeInterval(c, metric, mixed))]
  ]
}

/** What the rule asks of a unit, in the table's units: "≥ -0.0050", "p < 0.05 (p = 0.0008)", "≤ 40 worse (19)". */
export function needs(
  result: Pick<GateResult, 'capabilities'>,
  check: CheckResult,
  unit: UnitResult,
  metric: MetricRule
): Inline {
  const kind = check.rule.kind
  // A relative margin is named beside the bound it became: "low end ≥ -1.50 pts (3%)".
  const margin = kind.type === 'non_inferior' || (kind.type === 'superior' && kind.test === 'bootstrap')
  const rel: Inline = margin && kind.margin.relative ? [words(' ('), text(kind.margin.text, 12), words(')')] : []
  // and what capabilities add: a budgeted unit also needs its drop since the reference within the budget
  const added = result.capabilities.flatMap((c) => c.parts.unitNeeds?.(unit, metric) ?? [])
  return [words(needsWords(check, unit, metric, false)), ...rel, ...added]
}

/**
 * What the rule asks, in the table's units: "low end ≥ -0.50 pts", "p < 0.050, gain (p = 0.0008)", "≤ 40 worse
 * (19)"; `short`, for the head's narrow table: "low ≥ -0.50 pts", "p < 0.050 (0.0008)".
 */
function needsWords(check: CheckResult, unit: UnitResult, metric: MetricRule, short: boolean): string {
  const c = unit.comparison
  const higher = metric.better === 'higher'
  const kind = check.rule.kind
  const [low, high] = short ? ['low', 'high'] : ['low end', 'high end']
  if (kind.type === 'max_regressions') return `≤ ${unit.regressionLimit} worse (${unit.regressions})`
  if (kind.type === 'level')
    return `${higher ? low : high}${short ? '' : ' of the mean'} ${higher ? '≥' : '≤'} ${levelCell(kind.value, metric, c)}`
  if (kind.type === 'superior' && kind.test !== 'bootstrap') {
    // McNemar's p is the comparison's own; another test's is the unit's.
    const p = pValue(kind.test === 'mcnemar' ? c.pValue : unit.pValue)
    const test = kind.test === 'mcnemar' ? '' : `${kind.test} `
    return `${test}p < ${alphaText(kind.alpha)}${short ? ` (${p})` : `, gain (p = ${p})`}`
  }
  if (kind.type === 'non_inferior')
    return higher ? `${low} ≥ ${change(-unit.margin, metric, c)}` : `${high} ≤ ${change(unit.margin, metric, c)}`
  return higher ? `${low} > ${change(unit.margin, metric, c)}` : `${high} < ${change(-unit.margin, metric, c)}`
}

/** Every gated unit's interval confidence: the checks tables' interval column and the pictures' lead-in name them. */
export function gatedConfidences(result: GateResult): number[] {
  return result.decision.checks.flatMap((check) => check.units.map((u) => u.comparison.confidence))
}

/**
 * The head's checks table, narrow enough for a PR comment (880 px): status, check, metric, queries, n, Δ, the
 * interval and what the rule needs, numbers right-aligned so their digits line up. Baseline, candidate,
 * relative Δ and wins/losses/ties are in {@link checkDetailsTable} (collapsed) and in the JSON report. A
 * `max_regressions` check over slices is one row here (folded-checks.ts; its slices: {@link foldedUnitsTable}).
 * `terminal`: the terminal report's columns instead (the same rows, every unit listed, the status as a coloured
 * word, the number apart from the name, what the rule needs in full words, no cell kept together).
 */
export function checksTable(result: GateResult, terminal = false): Block {
  const { conf, mixed } = intervalColumn(gatedConfidences(result))
  const rows: Inline[][] = []
  for (const check of result.decision.checks) {
    const metric = metricOf(result, check.rule.metric)
    const i = check.rule.index + 1
    const name: Inline[] = terminal
      ? [[words(String(i))], [text(check.rule.name, 40)]]
      : [[words(`${i}. `), text(check.rule.name, 48)]]
    const status = (s: UnitResult['status']): Inline => (terminal ? [toned(s.toUpperCase(), s)] : [words(STATUS[s])])
    // status, check, metric, queries, n: then the unit's cells
    const lead = (s: UnitResult['status'], slices: string, n: number): Inline[] => [
      status(s),
      ...name,
      [text(metric.name, 24)],
      [text(slices, 32)],
      [words(String(n))]
    ]
    if (isFolded(check) && !terminal) {
      rows.push([
        ...lead(check.status, foldedSlices(check), foldedCount(check)),
        [words('—')],
        [words('—')],
        [words(foldedNeeds(check).replace(/([<>≤≥]) /g, '$1\u00a0'))]
      ])
      continue
    }
    for (const unit of check.units) {
      const c = unit.comparison
      rows.push([
        ...lead(unit.status, sliceLabel(c.slice), c.n),
        ...changeCells(unit, metric, mixed, !terminal),
        terminal
          ? needs(result, check, unit, metric)
          : [
              words(
                needsWords(check, unit, metric, true)
                  .replace(/([<>≤≥]) /g, '$1\u00a0')
                  .replace(/^p /, 'p\u00a0')
              )
            ]
      ])
    }
  }
  if (terminal)
    return { kind: 'table', head: cells('', '#', 'Check', 'Metric', 'Queries', 'n', 'Δ', conf, 'Needs'), rows }
  const head = cells('Status', 'Check', 'Metric', 'Queries', 'n', 'Δ', conf, 'Needs')
  return tableBlock(head, rows, ['l', 'l', 'l', 'l', 'r', 'r', 'r', 'l'])
}

/**
 * The head's lines for what did not pass, each its status, its name and its sentence: the other trust rules (under
 * the verdict) and the other units (under the checks). `terminal`: the status a coloured word and the name plain
 * (lines of a paragraph); else the status mark and the name strong (items of a list).
 */
export function notPassedLines(head: ReportHead, terminal: boolean): { trust: Inline[]; findings: Inline[] } {
  const line = (status: UnitResult['status'], name: Inline, sentence: Span): Inline =>
    terminal
      ? [toned(status.toUpperCase(), status), words(' '), ...name, words(': '), sentence]
      : [words(`${STATUS[status]} `), strong(...name), words(': '), sentence]
  return {
    trust: head.trust.map((g) => line(g.status, [words('trust rule '), text(g.rule)], text(g.reason, 800))),
    findings: head.findings.map((f) => line(f.unit.status, [text(f.check.rule.name)], text(f.sentence, 600)))
  }
}

/**
 * A number cell that must not wrap in a narrow comment ("[+0.0278,\n+0.0396]" reads as two values): its spaces
 * become no-break spaces, so a narrow table wraps the text columns (check names) instead. (The Needs cell keeps
 * only each comparison sign with its number, "≥ -0.0050", so it may still wrap between words.)
 */
function keepTogether(cell: string): string {
  return cell.replace(/ /g, '\u00a0')
}

/** A folded check's slices (the collapsed list under the checks table): status, slice, n, worse, limit, Δ, interval. */
export function foldedUnitsTable(result: GateResult, check: CheckResult): Block {
  const metric = metricOf(result, check.rule.metric)
  const { conf, mixed } = intervalColumn(check.units.map((u) => u.comparison.confidence))
  const rows = check.units.map((unit): Inline[] => {
    const c = unit.comparison
    return [
      [words(STATUS[unit.status])],
      [text(sliceLabel(c.slice), 32)],
      [words(String(c.n))],
      [words(String(unit.regressions))],
      [words(String(unit.regressionLimit))],
      [words(keepTogether(change(c.delta, metric, c))), ...changeUnit(metric, true)],
      [words(keepTogether(changeInterval(c, metric, mixed)))]
    ]
  })
  const head = cells('Status', 'Queries', 'n', 'Worse', 'Limit', 'Δ', conf)
  return tableBlock(head, rows, ['l', 'l', 'r', 'r', 'r', 'r', 'r'])
}

/** Each folded check's slices, collapsed under the checks table: its summary (untrusted: names) and its table. */
export function foldedBlocks(result: GateResult): Block[] {
  return result.decision.checks.filter(isFolded).map((check) => ({
    kind: 'details',
    summary: [text(foldedSummary(check), 300)],
    body: [foldedUnitsTable(result, check)]
  }))
}

/** Every column of the gated checks: one row per unit (a check, or one slice of a per_slice check). */
export function checkDetailsTable(result: GateResult): Block {
  const { conf, mixed } = intervalColumn(gatedConfidences(result))
  const rows: Inline[][] = []
  for (const check of result.decision.checks) {
    const metric = metricOf(result, check.rule.metric)
    for (const unit of check.units) {
      const c = unit.comparison
      rows.push([
        [words(STATUS[unit.status])],
        [words(String(check.rule.index + 1))],
        [text(check.rule.name)],
        [text(metric.name)],
        [text(sliceLabel(c.slice))],
        [words(String(c.n))],
        ...values(c, metric, mixed),
        needs(result, check, unit, metric),
        [words(`${c.wins}/${c.losses}/${c.ties}`)]
      ])
    }
  }
  return tableBlock(
    cells('Status', '#', 'Check', 'Metric', 'Queries', 'n', ...valueHeads(conf), 'Needs', 'W/L/T'),
    rows
  )
}

/** Every metric over a set of comparisons (all queries, or the exploratory slices). */
export function comparisonsTable(result: GateResult, comparisons: Comparison[]): Block {
  const { conf, mixed } = intervalColumn(comparisons.map((c) => c.confidence))
  const rows = comparisons.map((c): Inline[] => {
    const metric = metricOf(result, c.metric)
    return [
      [text(metric.name)],
      [text(sliceLabel(c.slice))],
      [words(String(c.n))],
      ...values(c, metric, mixed),
      [words(pValue(c.pValue))],
      [words(`${c.wins}/${c.losses}/${c.ties}`)]
    ]
  })
  return tableBlock(cells('Metric', 'Queries', 'n', ...valueHeads(conf), 'p', 'W/L/T'), rows)
}

/**
 * The per-slice breakdown's tables (the Markdown's and the page's): every metric over all queries, and over the
 * declared slices (capped as slice-rows.ts says, with its note; empty when the rules declare no slice).
 */
export function breakdownTables(result: GateResult): { overall: Block; slices: Block[] } {
  const whole = result.comparisons.filter((c) => c.slice.length === 0)
  const sliced = result.comparisons.filter((c) => c.slice.length > 0)
  const rows = shownSliceRows(sliced, 'comparisons')
  const overall = comparisonsTable(result, whole)
  if (rows.shown.length === 0) return { overall, slices: [] }
  return { overall, slices: [comparisonsTable(result, rows.shown), ...(rows.note ? [rows.note] : [])] }
}

function ids(list: string[]): Inline {
  const more = list.length > LIST_IDS ? [words(` and ${list.length - LIST_IDS} more`)] : []
  return [...commas(list.slice(0, LIST_IDS).map((id) => [text(id, 40)])), ...more]
}

/**
 * What happened to every query between reading and comparing, as counts (nothing leaves without one),
 * then every line of `coverage.notes`: the place where readers of runs and judgments (queries without
 * relevant documents, excluded, disputed, the unjudged share) report what the report must show.
 */
export function coverageBody(result: GateResult): Block[] {
  const { coverage } = result
  const { runs } = coverage
  // Rows computed from a run are the judged queries': say so, and give the run's own queries beside them.
  const scored = runs.baseline !== null || runs.candidate !== null
  const rowsOf = scored ? 'Rows scored for the' : 'Rows in the'
  // a side's rows (its file), then its run's counts
  const side = (name: 'baseline' | 'candidate', count: number): Inline[][] => [
    [[words(`${rowsOf} ${name} (`), text(result.inputs[name], 120), words(')')], [words(String(count))]],
    ...runRows(name, runs[name])
  ]
  const rows = [
    ...side('baseline', coverage.baselineRows),
    ...side('candidate', coverage.candidateRows),
    row('Paired and compared', String(coverage.paired)),
    row(scored ? 'Rows only in the baseline' : 'Only in the baseline', String(coverage.onlyInBaseline.length)),
    row(scored ? 'Rows only in the candidate' : 'Only in the candidate', String(coverage.onlyInCandidate.length))
  ]
  for (const f of coverage.filled) {
    if (f.baseline + f.candidate > 0)
      rows.push([
        [text(f.metric), words(': values filled (missing: zero)')],
        [words(`${f.baseline} baseline, ${f.candidate} candidate`)]
      ])
  }
  const items: Inline[] = []
  if (coverage.onlyInBaseline.length > 0) {
    items.push([words('Only in the baseline: '), ...ids(coverage.onlyInBaseline), words('.')])
    items.push([
      words('Under '),
      code(`missing: ${coverage.missingPolicy}`),
      words(" the candidate's side of these queries was filled with each metric's fill value.")
    ])
  }
  if (coverage.onlyInCandidate.length > 0)
    items.push([words('Only in the candidate: '), ...ids(coverage.onlyInCandidate), words('.')])
  const ignored = candidateOnlyLine(coverage)
  if (ignored !== null) items.push([words(`${ignored}.`)])
  for (const note of coverage.notes) items.push([text(note, 400)])
  return [tableBlock(cells('Queries', 'Count'), rows), ...(items.length > 0 ? [list(...items)] : [])]
}

/**
 * The coverage table's rows for a side whose rows were computed from a run and judgments (none otherwise): the
 * run's queries, the judged queries it lacks (in the rows, scored 0) and its queries without judgments (in no
 * row), the same counts as the side's notes.
 */
function runRows(side: 'baseline' | 'candidate', run: RunQueries | null): Inline[][] {
  if (run === null) return []
  const Side = side === 'baseline' ? 'Baseline' : 'Candidate'
  return [
    row(`Queries in the ${side}'s run`, String(run.queries)),
    row(`${Side}: judged queries absent from the run (scored 0)`, String(run.absentScoredZero)),
    row(`${Side}: run queries without judgments (ignored)`, String(run.withoutJudgmentsIgnored))
  ]
}

/**
 * The sentence every report format gives when candidate-only queries were left out (null when none were):
 * the exam is the baseline's query set, so the candidate cannot add queries to a comparison.
 */
export function candidateOnlyLine(coverage: GateResult['coverage']): string | null {
  const n = coverage.candidateOnlyIgnored
  return n > 0 ? `${n} candidate-only quer${n === 1 ? 'y' : 'ies'} ignored: not part of the exam` : null
}

/**
 * What the report may say about slice attributes: they come from the exam (the baseline rows), and it claims
 * a check of the candidate's only when candidate values were compared.
 */
function attributesRow(coverage: GateResult['coverage']): Inline[] {
  const a = coverage.attributes
  if (a.names.length === 0) return row('Query attributes', '— not used', 'the rules use no slice attributes')
  const total = a.names.length * coverage.paired
  if (a.candidateValuesCompared === total)
    return row(
      'Query attributes',
      '✅ same',
      'every paired query has the same slice attributes on both sides (checked)'
    )
  const gives =
    a.candidateValuesCompared > 0
      ? `; the candidate gives ${a.candidateValuesCompared} of the ${total} values, all equal (checked)`
      : '; the candidate gives none, so nothing was compared'
  return [
    [words('Query attributes')],
    [words('✅ from the exam')],
    [...commas(a.names.map((n) => [text(n, 40)])), words(` taken from the baseline${gives}`)]
  ]
}

/**
 * Whether the sides can be compared: the query sets, then every entry of `result.comparability` (corpus
 * snapshot, judge, unjudged share... filled by comparability checks when they run).
 */
export function comparabilityBody(result: GateResult): Block[] {
  const { coverage } = result
  const one = coverage.onlyInBaseline.length + coverage.onlyInCandidate.length
  const rows: Inline[][] = []
  rows.push(
    one === 0
      ? row('Query set', '✅ same', `both sides have the same ${coverage.paired} queries`)
      : row(
          'Query set',
          '⚠️ differs',
          `${coverage.onlyInBaseline.length} only in the baseline (filled: missing ${coverage.missingPolicy}), ${coverage.onlyInCandidate.length} only in the candidate (ignored: not part of the exam)`
        )
  )
  rows.push(attributesRow(coverage))
  const entries = comparabilityEntries(result)
  // A closed list of statuses, so every entry has its mark (no lookup a status like 'toString' could answer).
  const mark: Record<(typeof entries)[number]['status'], string> = {
    same: '✅ same',
    differs: '⚠️ differs',
    unknown: '❔ unknown'
  }
  for (const c of entries) rows.push(row(text(c.aspect, 60), mark[c.status], text(c.detail, 300)))
  const out = [tableBlock(cells('Aspect', 'Status', 'Detail'), rows)]
  if (entries.length === 0)
    out.push(
      paragraph(
        em(words('Corpus snapshot, judge and index versions were not given to the gate, so they were not compared.'))
      )
    )
  return out
}

/** ", gated statistical checks at 98.33% (bonferroni over 3)" when a multiplicity adjustment changes the confidence. */
export function familyWords(result: GateResult): string {
  const f = result.decision.family
  return f.confidence === result.rules.statistics.confidence
    ? ''
    : `; gated statistical checks at ${confidenceLabel(f.confidence)} (${f.method} over ${f.size})`
}

/** How the numbers were made: everything needed to reproduce them. */
export function methodBody(result: GateResult): Block[] {
  const { rules } = result
  const s = rules.statistics
  const policies = describePolicies(rules)
  const interval =
    s.interval === 'auto'
      ? `${confidenceLabel(s.confidence)} intervals of the mean difference, chosen per check by metric type and design (statistics.interval: auto; the table below)`
      : `${confidenceLabel(s.confidence)} ${s.interval === 'bca' ? 'bias-corrected and accelerated (BCa) paired bootstrap' : 'percentile paired bootstrap'} of the mean difference`
  const stated = methodRowsOf(result)
  const cell = (x: string | Inline): Inline => (typeof x === 'string' ? [words(x)] : x)
  const rows: Array<[string, string | Inline]> = [
    ['Differences', 'paired, candidate − baseline, per query'],
    ['Intervals', `${interval}${familyWords(result)}`],
    [s.interval === 'auto' ? 'Resamples (bootstrap, when asked for)' : 'Resamples', String(s.resamples)],
    // it names the metrics (the rows' names): text, escaped by each renderer, not our own words
    ['Resampling', [text(resamplingWords(result), 600)]],
    ['Randomization test', `${s.permutations} sign flips`],
    ['Seed', [text(s.seed, 40)]],
    [
      'Training runs',
      stated.get('Training runs') ??
        `one file per side: training variance (another training run) was not measured${s.minSeeds === undefined ? '; statistics.min_seeds can require seeds' : ''}`
    ],
    ['Binary metrics', 'exact two-sided McNemar test'],
    [
      'Multiplicity',
      s.multiplicity === 'none' ? 'none (each check at its own confidence)' : `${s.multiplicity} over the gated checks`
    ],
    [
      'Clusters',
      s.cluster === undefined
        ? 'none (queries resampled one by one)'
        : [text(s.cluster, 40), words(` (resampled whole, ${s.clusterWeighting} weighting)`)]
    ],
    [
      'Target weights',
      s.weights === undefined
        ? 'none (the observed mix of queries)'
        : [
            ...commas(s.weights.target.map(([k, w]) => [text(k, 40), words(` ${fixed(w, 3)}`)])),
            words(' by '),
            text(s.weights.by, 40)
          ]
    ],
    ['Fewest queries per check', `${rules.queries.minPerSlice} (fewer is inconclusive)`],
    [
      'Inconclusive counts as',
      `${policies.on_inconclusive} (on_inconclusive); with too few queries ${policies.on_too_few} (on_too_few); a superior check not shown better: ${policies.superior_must_be_shown}`
    ],
    ['Missing queries', rules.queries.missing],
    ['Rules file', [text(rules.source.file, 200)]],
    ['Rules sha256', [code(rules.source.sha256.replace(/[^0-9a-f]/g, ''))]],
    ['Tool', `${TOOL_NAME} ${VERSION}`]
  ]
  const perCheck = methodRows(result).map((r): Inline[] => [
    [words(`${r.check.rule.index + 1}. `), text(r.check.rule.name, 100)],
    ...row(r.all && r.slices.length > 1 ? 'every slice' : text(slicesList(r.slices), 300), methodName(r.method)),
    [text(r.reason, 300)]
  ])
  const settings = tableBlock(
    cells('Setting', 'Value'),
    rows.map(([k, v]) => [[words(k)], cell(v)])
  )
  if (perCheck.length === 0) return [settings]
  return [
    settings,
    paragraph(words('Interval per check:')),
    tableBlock(cells('Check', 'Queries', 'Interval', 'Why'), perCheck)
  ]
}

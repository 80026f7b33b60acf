import { InputError } from '../../errors.js'
import { forEachLine } from '../lines.js'
import { nonFiniteRefusal, parseDecimal } from '../numbers.js'
import type { SideRows } from '../../model/rows.js'
import { Pivot } from './long-form.js'
import { quote } from '../../util/show.js'

/**
 * Per-query measure listings, pivoted into one row per query:
 * - ir_measures (`ir_measures QRELS RUN 'nDCG@10 P@5' -q`, which prints `f'{query_id}\t{measure}\t{value:.4f}'`
 *   per query, then `all\t{measure}\t{value}` summary lines unless `-n`);
 * - trec_eval -q (`measure<padding>\tquery_id\tvalue`, then `measure\tall\tvalue` lines, including
 *   `runid all NAME` and `num_q all N`).
 * The columns are split on whitespace. Which column holds the query id is named by the format, or detected:
 * the column where `all` appears is the query column; without `all` lines, the column whose every value
 * looks like a measure name is the measure column; when neither settles it the file is refused and the
 * user names the format. `all` lines are summaries: ignored and counted in a note. Metric names are the
 * measure names exactly as the tool printed them (`nDCG@10`, `P_10`, `ndcg_cut_10`).
 */

/** Which column is the query id. */
export type MeasureLayout = 'ir_measures' | 'trec_eval'

/** trec_eval's measure names (trec_eval 10.0 `-m all_trec`, with their cutoff suffixes). */
const TREC_EVAL_MEASURE =
  /^(?:runid|num_q|num_ret|num_rel|num_rel_ret|map|gm_map|Rprec|bpref|recip_rank|iprec_at_recall_[0-9.]+|P_\d+|relative_P_\d+|recall_\d+|infAP|gm_bpref|Rprec_mult_[0-9.]+|utility|11pt_avg|binG|G|ndcg|ndcg_rel|Rndcg|ndcg_cut_\d+|map_cut_\d+|success_\d+|set_P|set_recall|set_relative_P|set_map|set_F|num_nonrel_judged_ret|P_avgjg|Rprec_avgjg|relstring|[A-Za-z_]+_cut_\d+)$/

/** ir_measures' measure names: a name, optional parameters in parentheses, optional @cutoff. */
const IR_MEASURES_MEASURE =
  /^(?:AP|RR|nDCG|P|R|Rprec|Bpref|Judged|NumRet|NumRel|NumRelRet|NumQ|ERR|SetP|SetR|SetF|SetAP|Success|infAP|INSQ|INST|RBP|SDCG|IPrec|Compat|alpha_nDCG|NERR\d*|StRecall|AP_IA|nDCG_IA|P_IA|ERR_IA|alpha_DCG|Accuracy)(?:\([^)]*\))?(?:@\d+)?$/

function looksLikeMeasure(name: string): boolean {
  return TREC_EVAL_MEASURE.test(name) || IR_MEASURES_MEASURE.test(name)
}

/**
 * True when `line` looks like a per-query measure line: exactly three whitespace-separated fields, the
 * third a decimal number (or the `runid all NAME` line of trec_eval).
 */
export function isMeasureLine(line: string): boolean {
  const f = line.trim().split(/\s+/)
  return (
    f.length === 3 &&
    (parseDecimal(f[2]) !== undefined || NOT_A_NUMBER.test(f[2]) || (f[0] === 'runid' && f[1] === 'all'))
  )
}

/** What C's printf and Python's format print for NaN and the infinities (`f'{float("nan"):.4f}'` is `nan`). */
const NOT_A_NUMBER = /^[-+]?(?:nan|inf|infinity)$/i

/** One line of a measure listing, split into its three fields. */
export interface MeasureTriple {
  a: string
  b: string
  value: string
  line: number
}

/** Every non-blank line of a measure listing, split on white space; a line without exactly three fields is refused. */
export async function readMeasureLines(file: string): Promise<MeasureTriple[]> {
  const triples: MeasureTriple[] = []
  await forEachLine(file, (text, line) => {
    const trimmed = text.trim()
    if (trimmed === '') return
    const f = trimmed.split(/\s+/)
    if (f.length !== 3) {
      throw new InputError(
        { file, line },
        `a per-query measure line needs 3 fields ("query_id measure value" for ir_measures, "measure query_id value" for trec_eval -q), found ${f.length}`,
        'fix or remove the line'
      )
    }
    triples.push({ a: f[0], b: f[1], value: f[2], line })
  })
  if (triples.length === 0)
    throw new InputError({ file }, 'is empty', 'write the per-query output of ir_measures -q or trec_eval -q')
  return triples
}

/**
 * Reads a per-query measure listing into rows (one per query), in the layout named (or detected from all its
 * lines: {@link measureLayout}); `triples` are its lines when detection read them already.
 */
export async function readMeasureRows(
  file: string,
  metricFields: ReadonlySet<string>,
  layout?: MeasureLayout,
  triples?: MeasureTriple[]
): Promise<SideRows> {
  triples ??= await readMeasureLines(file)
  const chosen = layout ?? measureLayout(triples, file)
  const pivot = new Pivot(file, metricFields, undefined)
  let summaries = 0
  for (const t of triples) {
    const [queryId, measure] = chosen === 'ir_measures' ? [t.a, t.b] : [t.b, t.a]
    if (queryId === 'all') {
      summaries++
      continue
    }
    const value = parseDecimal(t.value)
    // A measure the rules do not read is not read (ir_measures prints nan for one it could not compute).
    if (value === undefined && !metricFields.has(measure) && NOT_A_NUMBER.test(t.value)) continue
    if (value === undefined) {
      if (NOT_A_NUMBER.test(t.value)) throw nonFiniteRefusal({ file, line: t.line, queryId }, measure, t.value)
      throw new InputError(
        { file, line: t.line, queryId },
        `the value of ${measure} for query ${quote(queryId)} is ${quote(t.value)}, not a number`,
        'per-query lines carry numbers; drop measures that print text'
      )
    }
    const e = pivot.entry(queryId, t.line)
    pivot.measure(e, measure, t.line, () => pivot.sink.value(e.row, measure, value))
  }
  if (summaries > 0) {
    pivot.sink.notes.push(
      `${file}: ${summaries} summary ${summaries === 1 ? 'line' : 'lines'} ("all") ignored; the gate recomputes every aggregate from the per-query values`
    )
  }
  return pivot.finish(
    `the file has only "all" summary lines: run ${chosen === 'ir_measures' ? 'ir_measures with -q' : 'trec_eval with -q'} to print per-query values`
  )
}

/**
 * Which column of a listing holds the query ids: the one where `all` appears; without `all` lines, the other one
 * than the column whose every value looks like a measure name. Refused when neither settles it (the user names the
 * format).
 */
export function measureLayout(triples: readonly MeasureTriple[], file: string): MeasureLayout {
  let allFirst = 0
  let allSecond = 0
  const first = new Set<string>()
  const second = new Set<string>()
  for (const t of triples) {
    if (t.a === 'all') allFirst++
    else first.add(t.a)
    if (t.b === 'all') allSecond++
    else second.add(t.b)
  }
  if (allSecond > 0 && allFirst === 0) return 'trec_eval'
  if (allFirst > 0 && allSecond === 0) return 'ir_measures'
  const firstMeasures = [...first].every(looksLikeMeasure)
  const secondMeasures = [...second].every(looksLikeMeasure)
  if (firstMeasures && !secondMeasures) return 'trec_eval'
  if (secondMeasures && !firstMeasures) return 'ir_measures'
  throw new InputError(
    { file },
    'cannot tell which column holds the query ids and which the measure names',
    'name the format: --format ir_measures (query_id measure value) or --format trec_eval (measure query_id value, as trec_eval -q prints)'
  )
}

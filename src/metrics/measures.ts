import { InputError } from '../errors.js'
import { quote } from '../util/show.js'

/**
 * Measure names, ir_measures style (`P@10`, `nDCG(gain=exp)@10`, `AP`), parsed once into a typed record so
 * the per-query computation never looks at a string. Names are case-insensitive and a few common aliases
 * (`map`, `mrr@10`, `recall@100`, `hit@5`, `ndcg@10`) are accepted, but the row key is always the name
 * exactly as the user spelled it, so the rules file and the report use the user's own words.
 */

/** The measure families this module computes, each as trec_eval 10.0 computes its counterpart. */
export type MeasureKind =
  | 'P'
  | 'R'
  | 'R_cap'
  | 'Success'
  | 'RR'
  | 'AP'
  | 'nDCG'
  | 'Rprec'
  | 'Bpref'
  | 'Judged'
  | 'NumRet'
  | 'NumRel'
  | 'FactRecall'

/** A validated measure. */
export interface ParsedMeasure {
  /** The name exactly as given (the key of the per-query values). */
  name: string
  kind: MeasureKind
  /** Rank cutoff k, or null for the whole ranking. */
  cutoff: number | null
  /** Relevance threshold: a grade >= rel is relevant (trec_eval `-l`, default 1). Binary measures only. */
  rel: number
  /** nDCG gain: `linear` = the grade (trec_eval), `exp` = 2^grade - 1. */
  gain: 'linear' | 'exp'
  /** Canonical spelling, e.g. `P(rel=2)@10`, `nDCG(gain=exp)@10`. */
  canonical: string
  /** How the "all" line aggregates it: mean over queries, or sum (NumRet, NumRel, as trec_eval does). */
  aggregate: 'mean' | 'sum'
}

interface KindInfo {
  kind: MeasureKind
  /** 'required' | 'optional' | 'none' */
  cutoff: 'required' | 'optional' | 'none'
  params: ReadonlyArray<'rel' | 'gain'>
}

const KINDS: Record<MeasureKind, KindInfo> = {
  P: { kind: 'P', cutoff: 'required', params: ['rel'] },
  R: { kind: 'R', cutoff: 'required', params: ['rel'] },
  R_cap: { kind: 'R_cap', cutoff: 'required', params: ['rel'] },
  Success: { kind: 'Success', cutoff: 'required', params: ['rel'] },
  RR: { kind: 'RR', cutoff: 'optional', params: ['rel'] },
  AP: { kind: 'AP', cutoff: 'optional', params: ['rel'] },
  nDCG: { kind: 'nDCG', cutoff: 'optional', params: ['gain'] },
  Rprec: { kind: 'Rprec', cutoff: 'none', params: ['rel'] },
  Bpref: { kind: 'Bpref', cutoff: 'none', params: ['rel'] },
  Judged: { kind: 'Judged', cutoff: 'required', params: [] },
  NumRet: { kind: 'NumRet', cutoff: 'none', params: [] },
  NumRel: { kind: 'NumRel', cutoff: 'none', params: ['rel'] },
  FactRecall: { kind: 'FactRecall', cutoff: 'required', params: ['rel'] }
}

/** Lower-cased base name → kind. Aliases included. */
const BASES: ReadonlyMap<string, MeasureKind> = new Map<string, MeasureKind>([
  ['p', 'P'],
  ['precision', 'P'],
  ['r', 'R'],
  ['recall', 'R'],
  ['r_cap', 'R_cap'],
  ['success', 'Success'],
  ['hit', 'Success'],
  ['rr', 'RR'],
  ['mrr', 'RR'],
  ['ap', 'AP'],
  ['map', 'AP'],
  ['ndcg', 'nDCG'],
  ['rprec', 'Rprec'],
  ['bpref', 'Bpref'],
  ['judged', 'Judged'],
  ['numret', 'NumRet'],
  ['num_ret', 'NumRet'],
  ['numrel', 'NumRel'],
  ['num_rel', 'NumRel'],
  ['factrecall', 'FactRecall'],
  ['fact_recall', 'FactRecall']
])

/** Names offered in "did you mean" suggestions and in the hint. */
export const MEASURE_EXAMPLES: readonly string[] = [
  'P@10',
  'R@100',
  'R_cap@10',
  'Success@1',
  'RR',
  'RR@10',
  'AP',
  'AP@100',
  'nDCG',
  'nDCG@10',
  'nDCG(gain=exp)@10',
  'P(rel=2)@10',
  'Rprec',
  'Bpref',
  'Judged@10',
  'FactRecall@10',
  'NumRet',
  'NumRel',
  'map',
  'mrr@10',
  'recall@100',
  'hit@10',
  'ndcg@10'
]

const SHAPE = /^([A-Za-z_]+)(?:\(([^()]*)\))?(?:@([0-9]+))?$/

/**
 * Validates a measure name and returns its typed form. Throws InputError (with a "did you mean") for an
 * unknown name, a missing or forbidden cutoff, an unknown parameter or an out-of-range value, so a typo in
 * a rules file is refused before any file is read rather than silently producing a column of zeros.
 */
export function parseMeasure(name: string): ParsedMeasure {
  const where = { key: name }
  const m = SHAPE.exec(name.trim())
  if (m === null) throw unknown(name)
  const kind = BASES.get(m[1].toLowerCase())
  if (kind === undefined) throw unknown(name)
  const info = KINDS[kind]
  let cutoff: number | null = null
  if (m[3] !== undefined) {
    if (info.cutoff === 'none') {
      throw new InputError(where, `measure ${quote(name)} takes no @k cutoff`, `write it as ${kind}`)
    }
    cutoff = Number(m[3])
    if (!Number.isSafeInteger(cutoff) || cutoff < 1) {
      throw new InputError(where, `cutoff in ${quote(name)} must be a whole number >= 1`, `e.g. ${kind}@10`)
    }
  } else if (info.cutoff === 'required') {
    throw new InputError(where, `measure ${quote(name)} needs a cutoff`, `write it as ${kind}@k, e.g. ${kind}@10`)
  }
  let rel = 1
  let gain: 'linear' | 'exp' = 'linear'
  if (m[2] !== undefined && m[2].trim() !== '') {
    const seen = new Set<string>()
    for (const part of m[2].split(',')) {
      const eq = part.indexOf('=')
      const key = (eq < 0 ? part : part.slice(0, eq)).trim().toLowerCase()
      const value = eq < 0 ? '' : part.slice(eq + 1).trim()
      if (seen.has(key)) throw new InputError(where, `parameter ${key} is given twice in ${quote(name)}`)
      seen.add(key)
      if (key === 'rel' && info.params.includes('rel')) {
        if (!/^[0-9]+$/.test(value) || !Number.isSafeInteger(Number(value))) {
          throw new InputError(where, `rel in ${quote(name)} must be a whole number >= 0`, 'e.g. P(rel=2)@10')
        }
        rel = Number(value)
      } else if (key === 'gain' && info.params.includes('gain')) {
        const g = value.toLowerCase()
        if (g !== 'linear' && g !== 'exp') {
          throw new InputError(where, `gain in ${quote(name)} must be linear or exp`, 'e.g. nDCG(gain=exp)@10')
        }
        gain = g
      } else if (key === 'rel' && kind === 'nDCG') {
        throw new InputError(
          where,
          `nDCG uses the graded judgments, so rel= has no effect on it (${quote(name)})`,
          'remove rel=; use gain=linear (trec_eval) or gain=exp (2^grade - 1)'
        )
      } else {
        const allowed = info.params.length ? info.params.join(', ') : 'none'
        throw new InputError(where, `unknown parameter ${quote(key)} in ${quote(name)}`, `parameters of ${kind}: ${allowed}`)
      }
    }
  }
  const params: string[] = []
  if (info.params.includes('gain') && gain !== 'linear') params.push(`gain=${gain}`)
  if (info.params.includes('rel') && rel !== 1) params.push(`rel=${rel}`)
  const canonical = `${kind}${params.length ? `(${params.join(',')})` : ''}${cutoff !== null ? `@${cutoff}` : ''}`
  return { name, kind, cutoff, rel, gain, canonical, aggregate: kind === 'NumRet' || kind === 'NumRel' ? 'sum' : 'mean' }
}

/**
 * Parses a list of names, keeping the first of exact repeats (asking twice for `P@10` yields one column).
 * Different spellings of one measure (`map` and `AP`) stay separate columns, keyed as spelled.
 */
export function parseMeasures(names: readonly string[]): ParsedMeasure[] {
  if (names.length === 0) throw new InputError({}, 'no measure given', `name at least one, e.g. -m AP -m nDCG@10`)
  const out: ParsedMeasure[] = []
  const seen = new Set<string>()
  for (const name of names) {
    if (seen.has(name)) continue
    seen.add(name)
    out.push(parseMeasure(name))
  }
  return out
}

function unknown(name: string): InputError {
  const suggestion = closest(name)
  return new InputError(
    { key: name },
    `unknown measure ${quote(name)}${suggestion ? ` (did you mean ${quote(suggestion)}?)` : ''}`,
    `known measures: ${MEASURE_EXAMPLES.slice(0, 18).join(', ')} (names are case-insensitive; parameters in brackets, cutoff after @)`
  )
}

/** The example closest to `name` by edit distance (case-insensitive), if reasonably close. */
function closest(name: string): string | undefined {
  const target = name.toLowerCase()
  let best: string | undefined
  let bestDistance = Infinity
  for (const candidate of MEASURE_EXAMPLES) {
    const d = editDistance(target, candidate.toLowerCase())
    if (d < bestDistance) {
      bestDistance = d
      best = candidate
    }
  }
  return bestDistance <= Math.max(2, Math.floor(target.length / 2)) ? best : undefined
}

function editDistance(a: string, b: string): number {
  let prev = new Array<number>(b.length + 1)
  let cur = new Array<number>(b.length + 1)
  for (let j = 0; j <= b.length; j++) prev[j] = j
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1))
    }
    ;[prev, cur] = [cur, prev]
  }
  return prev[b.length]
}

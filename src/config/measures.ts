import { InputError } from '../errors.js'
import { didYouMean, splitCutoff } from '../util/did-you-mean.js'
import { quote } from '../util/show.js'

/**
 * Measure names, ir_measures style (`P@10`, `nDCG(gain=exp)@10`, `AP`), parsed once into a typed record so
 * the per-query computation never looks at a string. Names are case-insensitive and a few common aliases
 * (`map`, `mrr@10`, `recall@100`, `hit@5`, `ndcg@10`) are accepted, as are trec_eval's names (`ndcg_cut_10`,
 * `P_5`, `recip_rank`, `recall_100`, `success_10`, `map_cut_100`: what pytrec_eval writes), but the row key is
 * always the name exactly as the user spelled it, so the rules file and the report use the user's own words.
 */

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
  /** 'required' | 'optional' | 'none' */
  cutoff: 'required' | 'optional' | 'none'
  params: ReadonlyArray<'rel' | 'gain'>
}

/** The measure families this module computes, each as trec_eval 10.0 computes its counterpart. */
const KINDS = {
  P: { cutoff: 'required', params: ['rel'] },
  R: { cutoff: 'required', params: ['rel'] },
  R_cap: { cutoff: 'required', params: ['rel'] },
  Success: { cutoff: 'required', params: ['rel'] },
  RR: { cutoff: 'optional', params: ['rel'] },
  AP: { cutoff: 'optional', params: ['rel'] },
  nDCG: { cutoff: 'optional', params: ['gain'] },
  Rprec: { cutoff: 'none', params: ['rel'] },
  Bpref: { cutoff: 'none', params: ['rel'] },
  Judged: { cutoff: 'required', params: [] },
  NumRet: { cutoff: 'none', params: [] },
  NumRel: { cutoff: 'none', params: ['rel'] },
  FactRecall: { cutoff: 'required', params: ['rel'] }
} as const satisfies Record<string, KindInfo>

/** A measure family, as the computation switches on it. */
export type MeasureKind = keyof typeof KINDS

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
  ['recip_rank', 'RR'],
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

/**
 * trec_eval's cutoff measures, written `<name>_<k>` (`P_5`, `ndcg_cut_10`), lower-cased → kind. trec_eval's
 * `recall_k` divides by all relevant documents, so it is `R@k`, never `R_cap@k`; `map_cut_k` is `AP@k`.
 */
const TREC_CUTOFF_NAMES: ReadonlyMap<string, MeasureKind> = new Map<string, MeasureKind>([
  ['p', 'P'],
  ['recall', 'R'],
  ['success', 'Success'],
  ['ndcg_cut', 'nDCG'],
  ['map_cut', 'AP']
])

/** Names offered in "did you mean" suggestions and in the hint. */
const MEASURE_EXAMPLES: readonly string[] = [
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
  'ndcg@10',
  'ndcg_cut_10',
  'P_5',
  'recall_100',
  'success_10',
  'recip_rank'
]

/** A name split into stem and cutoff, once per name ({@link splitCutoff}). */
type Split = ReturnType<typeof splitCutoff>

const SHAPE = /^([A-Za-z_]+)(?:\(([^()]*)\))?(?:@([0-9]+))?$/

/**
 * Validates a measure name and returns its typed form. Throws InputError (with a "did you mean") for an
 * unknown name, a missing or forbidden cutoff, an unknown parameter or an out-of-range value, so a typo in
 * a rules file is refused before any file is read rather than silently producing a column of zeros.
 */
export function parseMeasure(name: string): ParsedMeasure {
  const trimmed = name.trim()
  const split = splitCutoff(trimmed)
  const trec = trecEvalSpelling(trimmed, split)
  if (trec !== undefined) return { ...parseMeasure(trec), name }
  const where = { key: name }
  const m = SHAPE.exec(trimmed)
  if (m === null) throw unknown(name, split)
  const kind = BASES.get(m[1].toLowerCase())
  if (kind === undefined) throw unknown(name, split)
  const info: KindInfo = KINDS[kind]
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
        throw new InputError(
          where,
          `unknown parameter ${quote(key)} in ${quote(name)}`,
          `parameters of ${kind}: ${allowed}`
        )
      }
    }
  }
  const params: string[] = []
  if (info.params.includes('gain') && gain !== 'linear') params.push(`gain=${gain}`)
  if (info.params.includes('rel') && rel !== 1) params.push(`rel=${rel}`)
  const canonical = `${kind}${params.length ? `(${params.join(',')})` : ''}${cutoff !== null ? `@${cutoff}` : ''}`
  return {
    name,
    kind,
    cutoff,
    rel,
    gain,
    canonical,
    aggregate: kind === 'NumRet' || kind === 'NumRel' ? 'sum' : 'mean'
  }
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

/**
 * The ir_measures spelling of a trec_eval cutoff name (`ndcg_cut_10` → `nDCG@10`, `P_5` → `P@5`), or
 * undefined when `name` is not one. The other trec_eval names (`map`, `recip_rank`, `ndcg`, `Rprec`, `bpref`,
 * `num_ret`, `num_rel`) are plain aliases in BASES.
 */
function trecEvalSpelling(name: string, { stem, cutoff }: Split): string | undefined {
  if (cutoff === null || name[stem.length] !== '_') return undefined
  const kind = TREC_CUTOFF_NAMES.get(stem.toLowerCase())
  return kind === undefined ? undefined : `${kind}@${cutoff}`
}

/**
 * Measures other tools compute that retrieval-gate does not, spelt close to one it does: refused with what
 * to write instead rather than with a near miss that measures something else.
 */
const FOREIGN_MEASURES: ReadonlyMap<string, string> = new Map([
  [
    'hits',
    'ranx hits@k counts the relevant documents in the top k and is not computed here: P@k is hits@k / k, Success@k (hit@k) is 1 when hits@k > 0'
  ],
  ['dcg', 'unnormalised DCG is not computed here: nDCG@k divides it by the ideal DCG'],
  [
    'err',
    'expected reciprocal rank (ERR) is not computed here: RR@k is the reciprocal rank of the first relevant document'
  ]
])

/** The refusal of an unknown measure name; `split`: the trimmed name's {@link splitCutoff}. */
function unknown(name: string, split: Split): InputError {
  const foreign = FOREIGN_MEASURES.get(split.stem.toLowerCase())
  if (foreign !== undefined) return new InputError({ key: name }, `unknown measure ${JSON.stringify(name)}`, foreign)
  const suggestion = closest(name.trim(), split)
  return new InputError(
    { key: name },
    `unknown measure ${quote(name)}${suggestion ? ` (did you mean ${quote(suggestion)}?)` : ''}`,
    `known measures: ${MEASURE_EXAMPLES.slice(0, 18).join(', ')}; trec_eval names such as ndcg_cut_10, P_5, recip_rank, map (names are case-insensitive; parameters in brackets, cutoff after @)`
  )
}

/**
 * The known spelling closest to `name`, with the user's own cutoff: `sucess@10` → `Success@10`, never
 * `Success@1` (see didYouMean). Candidates are every base and alias written with that cutoff the way the
 * user wrote it (`@k` or trec_eval's `_k`), or the names without a cutoff.
 */
function closest(name: string, { stem, cutoff }: Split): string | undefined {
  const candidates: string[] = []
  if (cutoff === null) {
    for (const [base, kind] of BASES) if (KINDS[kind].cutoff !== 'required') candidates.push(base, kind)
  } else if (name[stem.length] === '_') {
    for (const base of TREC_CUTOFF_NAMES.keys()) candidates.push(`${base === 'p' ? 'P' : base}_${cutoff}`)
  } else {
    for (const [base, kind] of BASES)
      if (KINDS[kind].cutoff !== 'none') candidates.push(`${base}@${cutoff}`, `${kind}@${cutoff}`)
  }
  return didYouMean(name, candidates)
}

/**
 * The values a ranking measure can take, when the name is one: every mean-aggregated measure lies in [0, 1]
 * (a share, a reciprocal rank, a normalised gain); the counts NumRet and NumRel have no upper bound. The
 * rules use it to refuse margins and thresholds that could never fail on a measure computed from runs.
 */
export function measureRange(name: string): [number, number] | undefined {
  try {
    return parseMeasure(name).aggregate === 'mean' ? [0, 1] : undefined
  } catch (error) {
    if (error instanceof InputError) return undefined
    throw error
  }
}

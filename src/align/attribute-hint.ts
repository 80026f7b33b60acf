import type { Rules } from '../config/types.js'
import { InputError } from '../errors.js'
import { parseMeasure } from '../config/measures.js'
import type { SideRows } from '../model/rows.js'
import { didYouMean } from '../util/did-you-mean.js'

/** The two sides' rows: the baseline's are the exam, the candidate's only its answers. */
export interface Sides {
  baseline: SideRows
  candidate: SideRows
}

/**
 * The refusal for an attribute the rules name (slices, where, per_slice, cluster, weights.by) that the rows
 * cannot group by, or undefined when they can. Two mistakes get their own words: a name the rows spell
 * differently (`language` for `lang`: a prefix or a containment, which an edit distance misses, or a typo),
 * and a metric used as a group (a number per query: every query would be its own group).
 */
export function attributeRefusal(name: string, key: string, rules: Rules, sides: Sides): InputError | undefined {
  const { baseline, candidate } = sides
  // Only the exam's (the baseline's) fields define groups: the candidate's own labels never decide a slice.
  const labels = new Set(baseline.attributeFields)
  const numbers = new Set(baseline.numericFields)
  const groupWords =
    'slices, where, per_slice, statistics.cluster and statistics.weights.by group queries by a label field of the rows'
  const present = `label fields in the rows: ${[...labels].sort().join(', ') || 'none'}`
  if (rules.metrics.has(name)) {
    return new InputError(
      { file: rules.source.file, key },
      `"${name}" is a metric (a number per query), not a label to group queries by`,
      `${groupWords} (${present}); to compare by ranges of a number, add a label field to the rows (e.g. "latency_band": "fast")`
    )
  }
  if (labels.has(name) || numbers.has(name)) return undefined
  if (candidate.attributeFields.has(name) || candidate.numericFields.has(name)) {
    return new InputError(
      { file: baseline.source, key },
      `the baseline has no attribute "${name}" (only the candidate names it, and the candidate's labels never decide which queries a slice holds)`,
      `give "${name}" in the baseline rows (or, for runs, in the evaluation set named by dataset:): slice attributes are part of the exam`
    )
  }
  const near = nearName(name, [...labels, ...numbers])
  return new InputError(
    { file: baseline.source, key },
    `no row has the attribute "${name}"${near === undefined ? '' : ` (did you mean "${near}"?)`}`,
    `${groupWords}; ${present}. ${whereAttributesCome(rules)}`
  )
}

/** What to do about an attribute the rows lack: where a query's attributes can come from, for rows and for runs. */
function whereAttributesCome(rules: Rules): string {
  const queriesFile = 'name a queries file (rules key queries.file) that gives each query its attributes'
  if (rules.dataset !== undefined) return `give it in the evaluation set named by dataset:, or ${queriesFile}`
  if (rules.judgments !== undefined)
    return `a TREC, ranx or Parquet run carries no query attributes (a JSON Lines run only the fields of its per-query records): ${queriesFile}`
  return `add the field to the rows, or ${queriesFile}`
}

/**
 * The field the user probably meant: a typo (didYouMean), else the same name in another case, else one name
 * inside the other (`lang` / `language`, `segment` / `user_segment`, at least 3 characters), the closest in
 * length first and then alphabetically, so the answer does not depend on field order.
 */
export function nearName(name: string, fields: readonly string[]): string | undefined {
  const typo = didYouMean(name, fields)
  if (typo !== undefined) return typo
  const lower = name.toLowerCase()
  let best: string | undefined
  let bestGap = Infinity
  for (const field of [...fields].sort()) {
    const f = field.toLowerCase()
    const shorter = Math.min(f.length, lower.length)
    const related = f === lower || (shorter >= 3 && (f.includes(lower) || lower.includes(f)))
    const gap = Math.abs(f.length - lower.length)
    if (related && gap < bestGap) {
      best = field
      bestGap = gap
    }
  }
  return best
}

/**
 * The hint for a metric the rows of `side` do not have. A ranking measure name (nDCG@10, recall_100) in
 * rules without judgments usually means the files are runs: say so and name `judgments:` / `--qrels`;
 * otherwise list the numeric fields the file does have.
 */
export function missingMetricHint(name: string, side: SideRows, rules: Rules): string {
  const fields = `fields with numbers in this file${listFields([...side.numericFields].sort())}`
  const measure = canonical(name)
  if (measure === undefined) return fields
  const twin = [...side.numericFields].sort().find((f) => canonical(f) === measure)
  if (twin !== undefined)
    return `${fields}. The rows have "${twin}", the same measure (${measure}) under another name: name the metric "${twin}" in the rules`
  if (rules.judgments !== undefined) return fields
  return `${fields}. "${name}" is a ranking measure: if these files are runs (what the retriever returned), name the judgments (rules key judgments.qrels, e.g. judgments: { qrels: qrels.txt }) or pass --qrels, and the gate computes it`
}

/** Most field names a hint lists: the rest are counted (a file of 5,000 numeric columns is not a hint). */
const LISTED_FIELDS = 20

/** `: a, b, c` or ` (200): a, ..., t and 180 more`, or `: none`. */
function listFields(names: readonly string[]): string {
  if (names.length === 0) return ': none'
  if (names.length <= LISTED_FIELDS) return `: ${names.join(', ')}`
  return ` (${names.length}): ${names.slice(0, LISTED_FIELDS).join(', ')} and ${names.length - LISTED_FIELDS} more`
}

/** The canonical spelling of a measure name (`ndcg_cut_10` and `nDCG@10` → `nDCG@10`), or undefined. */
function canonical(name: string): string | undefined {
  try {
    return parseMeasure(name).canonical
  } catch {
    return undefined
  }
}
